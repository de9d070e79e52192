import subprocess
# a script shipped with the package and run, none written: not this rule
# ok: runs_windows_script_host
subprocess.run(['cscript', '//nologo', SHORTCUT_VBS])
