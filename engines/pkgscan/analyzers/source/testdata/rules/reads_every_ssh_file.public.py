# a key manager listing the SSH folder and reading the public keys only
import os

d = os.path.join(os.path.expanduser("~"), ".ssh")
# ok: reads_every_ssh_file
keys = [open(os.path.join(d, n)).read() for n in os.listdir(d) if n.endswith(".pub")]
