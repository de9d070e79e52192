import os
# ruleid: persistence_scheduled
p = os.path.expanduser('~/.config/autostart/update.desktop')
# ok: persistence_scheduled
q = os.path.expanduser('~/.config/probe/settings.ini')
