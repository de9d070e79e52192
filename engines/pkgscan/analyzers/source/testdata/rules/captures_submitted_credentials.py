from flask import request
# ruleid: captures_submitted_credentials
_FIELDS = ("user", "username", "email", "login", "password", "passwd", "pass", "otp", "token")
def record(form):
    return {k: v for k, v in request.form.items() if k.lower() in _FIELDS}
# ok: captures_submitted_credentials
LABELS = ("password",)
