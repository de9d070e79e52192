import os
# PowerShell reads any unambiguous prefix of -WindowStyle
# ruleid: hidden_window_process
os.system("powershell -window hidden -File job.ps1")
# ruleid: hidden_window_process
os.system("powershell.exe -win h -File job.ps1")
# ok: hidden_window_process
os.system("powershell -NoProfile -File job.ps1")
# ok: hidden_window_process
print("a pop-window hidden behind the main one")
