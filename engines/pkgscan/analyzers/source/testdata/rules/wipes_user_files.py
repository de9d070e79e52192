# Overwriting every file under the user's Pictures folder with random bytes, and a report written once.
import os
home = os.path.expanduser('~')
for root, dirs, files in os.walk(os.path.join(home, 'Pictures')):
    for name in files:
        p = os.path.join(root, name)
        with open(p, 'wb') as f:
            # ruleid: wipes_user_files
            f.write(os.urandom(os.path.getsize(p)))
# ok: wipes_user_files
open(os.path.join(home, 'report.txt'), 'w').write(str(len(files)))
