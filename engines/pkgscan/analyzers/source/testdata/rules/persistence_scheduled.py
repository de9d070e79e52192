import os, subprocess
d = os.path.expanduser('~/.config/systemd/user')
# ruleid: persistence_scheduled
unit = os.path.join(os.path.expanduser('~/.config/systemd/user'), 'dbus-helper.service')
# ruleid: persistence_scheduled
subprocess.call(['systemctl', '--user', 'enable', '--now', 'dbus-helper'])
# ok: persistence_scheduled
subprocess.call(['systemctl', '--user', 'status', 'dbus-helper'])
