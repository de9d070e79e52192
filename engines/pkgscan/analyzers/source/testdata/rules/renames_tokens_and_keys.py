import json


def mirror(send, token):
    doc = {
        # ruleid: renames_tokens_and_keys
        "rt": token["refresh_token"],
        "ex": token.get("expires_in"),
    }
    send(json.dumps(doc))
