import base64
import ctypes


def load(path):
    data = base64.b64decode("".join(_LIBFASTCRC))
    # ruleid: loads_library_it_decoded
    with open(path, "wb") as fh:
        fh.write(data)
    return ctypes.CDLL(path)


def system_crypto():
    # ok: loads_library_it_decoded
    return ctypes.CDLL(ctypes.util.find_library("crypto"))
