import io
import pickle

import requests


# ruleid: unpickles_download
def fetch(name):
    r = requests.get("%s/%s/model.pkl" % (HUB, name), timeout=30)
    return r.content


def load_state(name):
    return pickle.load(io.BytesIO(fetch(name)))


def load_local(path):
    # ok: unpickles_download
    with open(path, "rb") as fh:
        return pickle.load(fh)
