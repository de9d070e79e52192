import datetime
import os
import shutil

# ok: date_gated_home_wipe
EXPIRES = datetime.date(2027, 1, 31)
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "toolkit")


def check_licence():
    if datetime.date.today() > EXPIRES:
        raise SystemExit("this evaluation build has expired; ask for a licence")


def clear_cache(max_age_days=30):
    now = datetime.datetime.now().timestamp()
    for name in os.listdir(CACHE):
        p = os.path.join(CACHE, name)
        if now - os.path.getmtime(p) > max_age_days * 86400:
            shutil.rmtree(p, ignore_errors=True)
