# A file posted in a multipart form.
import requests
with open(archive, "rb") as fh:
    # ruleid: uploads_file
    requests.post(UPLOAD_URL, files={"file": fh}, timeout=30)
# ok: uploads_file
requests.post(API_URL, json={"name": name}, timeout=30)
