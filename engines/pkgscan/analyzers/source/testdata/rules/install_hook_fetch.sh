# fixture: hook
# ruleid: install_hook_fetch high
curl -o bin.tgz https://example.org/bin.tgz
# ok: install_hook_fetch
node-gyp rebuild
