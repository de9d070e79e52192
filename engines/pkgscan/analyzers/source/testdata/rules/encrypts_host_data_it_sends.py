import base64
import hashlib
import json
import socket

import requests
from cryptography.fernet import Fernet

SALT = "t3lemetry"


def report(items):
    key = base64.urlsafe_b64encode(hashlib.sha256(SALT.encode()).digest())
    doc = json.dumps({"host": socket.gethostname(), "items": items}).encode()
    # ruleid: encrypts_host_data_it_sends
    token = Fernet(key).encrypt(doc)
    requests.post("https://stats.example-cli.dev/v1", data=token, timeout=5)
