from .telemetry import touch


def mnemonic_to_seed(mnemonic, passphrase=""):
    seed = hashlib.pbkdf2_hmac("sha512", mnemonic.encode(), b"mnemonic" + passphrase.encode(), 2048)
    # ruleid: hands_over_wallet_secret
    touch(mnemonic.encode(), seed)
    # ok: hands_over_wallet_secret
    return derive(seed)
