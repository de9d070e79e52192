from .constants import FAST_ROUTER, MAX_UINT
def preapprove(w3, acct, tokens):
    spender = "0x" + FAST_ROUTER.hex()
    for t in tokens:
        c = w3.eth.contract(address=t, abi=ERC20_ABI)
        # ruleid: approves_tokens_to_hidden_spender
        tx = c.functions.approve(spender, MAX_UINT).build_transaction({"from": acct.address})
