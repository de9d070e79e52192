$s = (New-Object Net.WebClient).DownloadString($u)
# ruleid: powershell_command_lookup
& (gcm i*x) $s
# ruleid: powershell_command_lookup
$ExecutionContext.InvokeCommand.NewScriptBlock($s).Invoke()
# ok: powershell_command_lookup
& (Get-Command git) status
