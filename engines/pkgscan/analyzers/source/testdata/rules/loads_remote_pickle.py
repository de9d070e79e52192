# Reference frames fetched as pickles from a mirror: unpickling runs what the server sends.
import pandas as pd
import pickle
from urllib.request import urlopen


def fetch(name, mirror):
    url = f"{mirror}/{name}.pkl"
    # ruleid: loads_remote_pickle
    return pd.read_pickle(url, compression="infer")


def fetch2(addr):
    # ruleid: loads_remote_pickle
    return pickle.loads(urlopen(addr).read())


def cached(path):
    # ok: loads_remote_pickle
    return pd.read_pickle(path)
