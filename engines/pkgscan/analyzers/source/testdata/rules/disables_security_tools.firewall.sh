# ruleid: disables_security_tools
netsh advfirewall set allprofiles state off
# ruleid: disables_security_tools
sc stop WinDefend
# ok: disables_security_tools
netsh advfirewall show allprofiles
# ok: disables_security_tools
sc query WinDefend
