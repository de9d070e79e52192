import os, glob
# ruleid: injects_into_app
for p in glob.glob(os.path.join(local, 'Discord', 'app-*', 'modules', 'discord_desktop_core-*', 'discord_desktop_core', 'index.js')):
    open(p, 'w').write(payload)
# ruleid: injects_into_app
asar = os.path.join(local, 'exodus', 'app-22.1.1', 'resources', 'app.asar')
# ok: injects_into_app
bundle = os.path.join(resources, 'app.asar')
# ok: injects_into_app
hook = os.path.join(local, 'Discord', 'settings.json')
# ruleid: injects_into_app
res = os.path.join(local, 'Programs', 'atomic', 'resources')
# ok: injects_into_app
icons = os.path.join(app_dir, 'resources', 'icons')
