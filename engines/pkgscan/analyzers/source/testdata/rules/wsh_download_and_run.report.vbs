REM A report script writes its own text output with a stream; nothing is downloaded.
REM ok: wsh_download_and_run
Set s = CreateObject("ADODB.Stream")
s.Open
s.WriteText "report"
s.SaveToFile "report.txt", 2
