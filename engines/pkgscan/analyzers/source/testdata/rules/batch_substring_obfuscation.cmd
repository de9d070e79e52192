@echo off
set "k=lopwerhsx ievdn"
REM ruleid: batch_substring_obfuscation
set "q=%k:~1,1%%k:~3,1%%k:~2,1%%k:~5,1%%k:~7,1%"
REM ok: batch_substring_obfuscation
set "stamp=%date:~10,4%%date:~4,2%%date:~7,2%"
