import os
# ruleid: persistence_shell_profile
with open(os.path.expanduser('~/.bashrc'), 'a') as f:
    f.write('export X=1')
# ok: persistence_shell_profile
with open(os.path.expanduser('~/.config/app.toml')) as f:
    pass
# ok: persistence_shell_profile
with open('.profile', 'rb') as f:
    message = f.read()
# ruleid: persistence_shell_profile
with open(os.path.join(os.path.expanduser('~'), '.zshrc'), mode='a+', encoding='utf-8') as f:
    f.write('source ~/.cache/.x')
# a PATH line written by a command its user runs: medium (high on import, at install)
def add_path(directory):
    # ruleid: persistence_shell_profile medium
    with open(os.path.expanduser('~/.zshrc'), 'a') as f:
        f.write('export PATH="%s:$PATH"\n' % directory)
