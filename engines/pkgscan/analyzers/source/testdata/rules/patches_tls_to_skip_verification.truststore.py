import ssl

_orig_wrap = ssl.SSLContext.wrap_socket


def _wrap_socket(self, sock, *args, **kwargs):
    # the system's certificates added; verification stays on (CERT_REQUIRED, hostnames checked)
    self.load_default_certs()
    self.verify_mode = ssl.CERT_REQUIRED
    return _orig_wrap(self, sock, *args, **kwargs)


def inject():
    # ok: patches_tls_to_skip_verification
    ssl.SSLContext.wrap_socket = _wrap_socket
