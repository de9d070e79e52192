#!/bin/sh
cd "$HOME" || exit 0
# ruleid: archives_credential_folder
tar czf "$_d/c.tgz" .ssh/id_* .ssh/config .aws/credentials .npmrc 2>/dev/null
# ok: archives_credential_folder
tar czf dist/release.tgz lib bin README.md
