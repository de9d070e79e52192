#!/bin/sh
# ruleid: shell_picks_secret_variables
env | grep -Ei 'token|secret|key|pass|aws_' > "$_d/e.txt" 2>/dev/null
# ok: shell_picks_secret_variables
env | grep -E '^(PATH|HOME|LANG)=' > "$_d/locale.txt"
