import pyperclip, time
# a clipboard history that polls but sends nothing
history = []
while True:
    # ok: clipboard_stealer
    text = pyperclip.paste()
    if not history or history[-1] != text:
        history.append(text)
    time.sleep(1)
