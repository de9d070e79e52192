# an identity SDK: it asks the function's identity endpoint for a token for its caller; the only address besides is a
# troubleshooting link in an error message
import os


class ManagedIdentityCredential:
    def __init__(self):
        # ok: sends_cloud_credentials
        if os.environ.get("IDENTITY_ENDPOINT") and os.environ.get("IDENTITY_HEADER"):
            self._endpoint = os.environ["IDENTITY_ENDPOINT"]
        else:
            raise RuntimeError("managed identity is not available; see https://aka.ms/azsdk/python/identity/troubleshoot")
