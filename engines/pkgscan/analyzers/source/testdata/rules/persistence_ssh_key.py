import os
# ruleid: persistence_ssh_key
open(os.path.expanduser('~/.ssh/authorized_keys'), 'a').write(KEY)
# ok: persistence_ssh_key
keys = open(os.path.expanduser('~/.ssh/authorized_keys')).read().splitlines()
