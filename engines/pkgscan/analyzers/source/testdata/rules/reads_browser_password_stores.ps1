$profile = Join-Path $env:LOCALAPPDATA 'Google\Chrome\User Data\Default'
# ruleid: reads_browser_password_stores
Copy-Item (Join-Path $profile 'Login Data') $tmp
# ok: reads_browser_password_stores
Copy-Item (Join-Path $profile 'Preferences') $tmp
