# The working folder removed.
import os, shutil
# ruleid: deletes_home_folder
shutil.rmtree(os.getcwd(), ignore_errors=True)
