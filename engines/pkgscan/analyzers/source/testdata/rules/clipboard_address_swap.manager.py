import pyperclip
history = []
def remember():
    history.append(pyperclip.paste())
def restore(i):
    # ok: clipboard_address_swap
    pyperclip.copy(history[i])
ADDRESS = r'^(bc1|[13])[a-zA-HJ-NP-Z0-9]{25,39}$'
def paste_address():
    # ok: clipboard_address_swap
    pyperclip.copy(own_address)
