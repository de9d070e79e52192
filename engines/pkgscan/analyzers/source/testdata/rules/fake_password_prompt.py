import subprocess
# ruleid: fake_password_prompt
pw = subprocess.check_output(['osascript', '-e', 'display dialog "macOS needs your password" default answer "" with hidden answer'])
# ok: fake_password_prompt
subprocess.run(['osascript', '-e', 'display dialog "Build finished" buttons {"OK"}'])
