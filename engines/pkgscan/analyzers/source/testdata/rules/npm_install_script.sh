# fixture: hook
# ruleid: npm_install_script low
node install.js
# ok: npm_install_script
node-gyp rebuild
# ok: npm_install_script
rm -rf /tmp/cache
