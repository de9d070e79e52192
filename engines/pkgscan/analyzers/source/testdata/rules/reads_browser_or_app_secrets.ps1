$profile = Join-Path $env:LOCALAPPDATA 'Google\Chrome\User Data\Default'
# ruleid: reads_browser_or_app_secrets
Copy-Item (Join-Path $profile 'Network\Cookies') $tmp
# ok: reads_browser_or_app_secrets
Copy-Item (Join-Path $env:TEMP 'build.log') $tmp
