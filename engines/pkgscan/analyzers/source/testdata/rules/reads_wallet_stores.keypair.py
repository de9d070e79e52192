# the Solana CLI's keypair and a wallet extension's storage folder
import os
home = os.path.expanduser("~")
# ruleid: reads_wallet_stores
keypair = os.path.join(home, ".config/solana/id.json")
# ruleid: reads_wallet_stores
ext = os.path.join(home, "AppData/Local/Google/Chrome/User Data/Default", "Local Extension Settings")
# ok: reads_wallet_stores
cfg = os.path.join(home, ".config", "solana-toolkit.toml")
