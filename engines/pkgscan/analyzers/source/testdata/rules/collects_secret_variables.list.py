# Secret names listed and each kept under its name: a loop and a comprehension.
import os

KEYS = ["OPENAI_API_KEY", "HF_TOKEN", "AWS_SECRET_ACCESS_KEY"]


def gather():
    out = {}
    # ruleid: collects_secret_variables
    for k in KEYS:
        v = os.environ.get(k)
        if v:
            out[k] = v
    # ruleid: collects_secret_variables
    more = {k: os.environ[k] for k in KEYS if k in os.environ}
    return out, more


def first():
    # ok: collects_secret_variables
    for k in KEYS:
        if os.getenv(k):
            return os.getenv(k)
