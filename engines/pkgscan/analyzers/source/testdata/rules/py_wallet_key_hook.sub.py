# A wallet wrapper subclassing the library's account, and calling the node with requests.
import requests
from eth_account import Account
class TrackedAccount:
    # ok: py_wallet_key_hook
    account = Account.from_key
    def balance(self, rpc, address):
        return requests.post(rpc, json={"method": "eth_getBalance", "params": [address, "latest"]}).json()
