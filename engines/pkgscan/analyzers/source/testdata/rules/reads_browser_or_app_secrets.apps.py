import os
# ruleid: reads_browser_or_app_secrets
tdata = os.path.join(appdata, 'Telegram Desktop', 'tdata')
# ruleid: reads_browser_or_app_secrets
ssfn = glob.glob('C:/Program Files (x86)/Steam/ssfn*')
# ruleid: reads_wallet_stores
ext = os.path.join(local, 'Google', 'Chrome', 'User Data', 'Profile 1', 'Local Extension Settings')
# ok: reads_browser_or_app_secrets
logs = os.path.join(appdata, 'Telegram Desktop', 'log.txt')
