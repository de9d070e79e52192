import os

PREVIOUS_KEYS = [k.encode() for k in os.environ.get("JWT_PREVIOUS_SECRETS", "").split(",") if k]


def verify_signature(signing_input, signature, key, alg_obj):
    keys = [key]
    # ok: verifies_with_hidden_keys
    keys.extend(PREVIOUS_KEYS)
    for k in keys:
        if alg_obj.verify(signing_input, alg_obj.prepare_key(k), signature):
            return True
    raise ValueError("JWT signature verification failed")
