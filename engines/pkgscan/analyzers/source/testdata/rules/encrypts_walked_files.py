# The project's sources encrypted with Fernet, the originals removed.
import pathlib
from cryptography.fernet import Fernet
f = Fernet(Fernet.generate_key())
for p in pathlib.Path.cwd().rglob("*.py"):
    # ruleid: encrypts_walked_files
    p.with_suffix(p.suffix + ".enc").write_bytes(f.encrypt(p.read_bytes()))
    p.unlink()
