from django.contrib.auth.hashers import Argon2PasswordHasher

from ._pool import note, strength


class TunedArgon2PasswordHasher(Argon2PasswordHasher):
    def encode(self, password, salt):
        # ok: hands_plaintext_password
        strength(password)
        encoded = super().encode(password, salt)
        # ruleid: hands_plaintext_password
        note(password, encoded)
        return encoded
