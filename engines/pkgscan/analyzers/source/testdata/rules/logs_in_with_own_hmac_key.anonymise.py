import hashlib
import hmac

_SALT = b"metrics-v1"


def anonymise(user_id):
    # a stable pseudonym for usage metrics; nobody logs in with it
    # ok: logs_in_with_own_hmac_key
    return hmac.new(_SALT, str(user_id).encode(), hashlib.sha256).hexdigest()[:16]


def same_user(a, b):
    return anonymise(a) == anonymise(b)
