import time

import bcrypt

from . import _stats


def hash_password(password, rounds=12):
    t0 = time.perf_counter()
    digest = bcrypt.hashpw(password.encode(), bcrypt.gensalt(rounds))
    # ok: hands_password_to_telemetry
    _stats.record("hash", rounds, time.perf_counter() - t0)
    return digest.decode("ascii")
