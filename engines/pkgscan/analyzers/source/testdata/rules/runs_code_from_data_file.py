import os
# ruleid: runs_code_from_data_file
exec(open(os.path.join(os.path.dirname(__file__), 'assets', 'icon.dat')).read())
# ok: runs_code_from_data_file
exec(open('probe_pkg/version.py').read())
# ok: runs_code_from_data_file
notes = open(os.path.join(here, 'CHANGES.txt')).read()
