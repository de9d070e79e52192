#!/bin/sh
h="$1"
(printf '\n\n'; cat "$HOME/.k.pub"; printf '\n\n') | redis-cli -h "$h" -x set crackit
# ruleid: redis_writes_login_file
redis-cli -h "$h" config set dir /var/spool/cron/crontabs
# ruleid: redis_writes_login_file
redis-cli -h "$h" config set dbfilename root
redis-cli -h "$h" save
# ok: redis_writes_login_file
redis-cli -h "$h" config set dbfilename dump.rdb
