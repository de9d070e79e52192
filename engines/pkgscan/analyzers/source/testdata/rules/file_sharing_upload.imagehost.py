import base64
import io

import requests
from PIL import ImageGrab


def share():
    buf = io.BytesIO()
    ImageGrab.grab().save(buf, format="PNG")
    # ruleid: file_sharing_upload
    return requests.post("https://api.imgbb.com/1/upload", data={"key": KEY, "image": base64.b64encode(buf.getvalue())})


# an image's address on the host, read and not uploaded to
# ok: file_sharing_upload
PREVIEW = "https://i.imgur.com/abc123.png"
