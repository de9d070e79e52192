import subprocess, winreg
# ruleid: disables_security_tools
subprocess.call('powershell -Command Set-MpPreference -DisableRealtimeMonitoring $true', shell=True)
# ruleid: disables_security_tools
subprocess.call('powershell -Command Add-MpPreference -ExclusionPath $env:APPDATA', shell=True)
# ruleid: disables_security_tools
winreg.SetValueEx(key, 'DisableTaskMgr', 0, winreg.REG_DWORD, 1)
# ok: disables_security_tools
status = subprocess.check_output('powershell -Command Get-MpPreference', shell=True)
# ok: disables_security_tools
subprocess.call('powershell -Command Set-MpPreference -SignatureUpdateInterval 4', shell=True)
