# Each entry of the home folder removed.
import os, shutil
home = os.path.expanduser("~")
# ruleid: deletes_home_folder
for entry in os.listdir(home):
    target = os.path.join(home, entry)
    if os.path.isdir(target):
        shutil.rmtree(target, ignore_errors=True)
# ok: deletes_home_folder
shutil.rmtree(os.path.join(home, ".cache", "mytool"), ignore_errors=True)
