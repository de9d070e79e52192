# ruleid: lists_windows_credentials
$v = vaultcmd /listcreds:"Windows Credentials" /all
# ok: lists_windows_credentials
$c = Get-Credential -Message "Sign in to the build server"
