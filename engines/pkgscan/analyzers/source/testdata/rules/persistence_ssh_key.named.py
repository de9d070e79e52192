import os
def _plant(home, key):
    d = os.path.join(home, ".ssh")
    # ruleid: persistence_ssh_key
    ak = os.path.join(d, "authorized_keys")
    os.makedirs(d, mode=0o700, exist_ok=True)
    with open(ak, "a") as fh:
        fh.write(key + "\n")

def _count(home):
    # ok: persistence_ssh_key
    keys = os.path.join(home, ".ssh", "authorized_keys")
    with open(keys) as fh:
        return len(fh.readlines())
