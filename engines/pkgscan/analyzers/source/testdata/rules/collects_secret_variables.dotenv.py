from eth_dotenv import load
_v = load()
# ruleid: collects_secret_variables
_keys = {k: v for k, v in _v.items() if any(t in k.upper() for t in ("KEY", "MNEMONIC", "SEED", "SECRET"))}
