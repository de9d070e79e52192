import os, shutil, sys
# ruleid: persistence_scheduled
shutil.copy(sys.argv[0], os.path.join(os.getenv('APPDATA'), 'Microsoft', 'Windows', 'Start Menu', 'Programs', 'Startup', 'svc.exe'))
# ok: persistence_scheduled
shutil.copy(sys.argv[0], os.path.join(os.getenv('APPDATA'), 'Microsoft', 'Windows', 'Themes'))
