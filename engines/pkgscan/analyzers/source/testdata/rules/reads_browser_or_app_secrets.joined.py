import os
# ruleid: reads_wallet_stores
wallet = os.path.join(appdata, 'Exodus', 'exodus.wallet')
# ruleid: reads_browser_or_app_secrets
store = os.path.join(appdata, 'discord', 'Local Storage', 'leveldb')
# ruleid: reads_wallet_stores
wallets = os.path.join(appdata, 'Electrum', 'wallets')
# ok: reads_wallet_stores
docs = os.path.join(appdata, 'Electrum', 'docs')
