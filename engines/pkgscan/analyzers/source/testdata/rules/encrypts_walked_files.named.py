# A vault encrypts the files its user names and keeps the originals.
import sys
from cryptography.fernet import Fernet
f = Fernet(open(".vault.key", "rb").read())
for name in sys.argv[1:]:
    with open(name, "rb") as fh:
        data = fh.read()
    # ok: encrypts_walked_files
    with open(name + ".enc", "wb") as fh:
        fh.write(f.encrypt(data))
