import hashlib


def check_password(password, stored_hash, salt):
    dk = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 600000)
    # ok: auth_backdoor_secret
    return dk.hex() == stored_hash
