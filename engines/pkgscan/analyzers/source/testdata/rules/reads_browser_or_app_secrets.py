import os
# ruleid: reads_browser_or_app_secrets
path = os.path.join(appdata, 'Google', 'Chrome', 'User Data', 'Default', 'Login Data')
# ok: reads_browser_or_app_secrets
path = os.path.join(appdata, 'MyApp', 'settings.json')
