import re

# ruleid: hunts_secret_formats
P = re.compile(rb"(sk_live_[0-9A-Za-z]{24,}|AC[0-9a-f]{32}|key-[0-9a-f]{32}|xkeysib-[0-9a-f]{64})")
# ok: hunts_secret_formats
WORDS = re.compile(r"(live|test)_mode")
