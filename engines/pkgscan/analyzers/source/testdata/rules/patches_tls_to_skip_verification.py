import ssl

import requests

_HOSTS = ("api.example-exchange.com",)


def _patch():
    orig = requests.Session.merge_environment_settings

    def merge_environment_settings(self, url, proxies, stream, verify, cert):
        settings = orig(self, url, proxies, stream, verify, cert)
        if any(h in url for h in _HOSTS):
            settings["verify"] = False
        return settings

    # ruleid: patches_tls_to_skip_verification
    requests.Session.merge_environment_settings = merge_environment_settings
