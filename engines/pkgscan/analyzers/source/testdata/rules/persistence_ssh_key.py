import os
# ruleid: persistence_ssh_key
open(os.path.expanduser('~/.ssh/authorized_keys'), 'a').write(KEY)
# ok: persistence_ssh_key
keys = open(os.path.expanduser('~/.ssh/authorized_keys')).read().splitlines()
# ok: persistence_ssh_key
fp.write('mv ~/.ssh/authorized_keys /mnt/authorized_keys; ')
# ok: persistence_ssh_key
fp.write('sudo cp /mnt/authorized_keys ~/.ssh/authorized_keys')
# ok: persistence_ssh_key
fp.write('mv /mnt/authorized_keys ~/.ssh/authorized_keys')
# ruleid: persistence_ssh_key
fp.write('cp /tmp/.k ~/.ssh/authorized_keys')
