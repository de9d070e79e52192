import subprocess
# ruleid: reads_keychain_browser_key
key = subprocess.check_output(['security', 'find-generic-password', '-wa', 'Chrome'])
# ruleid: reads_keychain_browser_key
key = subprocess.check_output('security find-generic-password -w -s "Brave Safe Storage"', shell=True)
# ruleid: reads_keychain_browser_key
dump = subprocess.check_output(['security', 'dump-keychain', '-d'])
# ok: reads_keychain_browser_key
token = subprocess.check_output(['security', 'find-generic-password', '-s', 'probe-cli', '-w'])
