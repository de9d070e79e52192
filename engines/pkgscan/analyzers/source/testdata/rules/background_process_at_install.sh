# fixture: hook
# ruleid: background_process_at_install
nohup node server.js &
# ok: background_process_at_install
node-gyp rebuild
