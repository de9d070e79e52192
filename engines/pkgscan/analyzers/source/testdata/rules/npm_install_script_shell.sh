# fixture: hook
# ruleid: npm_install_script_shell medium
echo start && rm -rf /tmp/cache
# ok: npm_install_script_shell
node install.js
# ok: npm_install_script_shell
husky install
