import os
# ruleid: persistence_preload
os.system('echo /usr/lib/libsys.so >> /etc/ld.so.preload')
# ruleid: persistence_preload
open('/etc/ld.so.preload', 'a').write('/usr/lib/libsys.so\n')
# ok: persistence_preload
preloaded = open('/etc/ld.so.preload').read().split()
