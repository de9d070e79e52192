import os
# ruleid: downloads_executable
os.system("powershell (New-Object Net.WebClient).DownloadFile($u, $env:TEMP + '\\tool.exe')")
# ok: downloads_executable
os.system("powershell (New-Object Net.WebClient).DownloadFile($u, 'report.csv')")
