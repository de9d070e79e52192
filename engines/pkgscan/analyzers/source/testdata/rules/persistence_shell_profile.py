import os
# ruleid: persistence_shell_profile
with open(os.path.expanduser('~/.bashrc'), 'a') as f:
    f.write('export X=1')
# ok: persistence_shell_profile
with open(os.path.expanduser('~/.config/app.toml')) as f:
    pass
