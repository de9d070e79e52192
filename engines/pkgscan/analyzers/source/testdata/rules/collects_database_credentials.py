# A pool manager that copies the password out of the connection settings (medium).


class Tracer:
    def __init__(self, connect_kwargs, url):
        # ruleid: collects_database_credentials medium
        self._meta = {k: str(v) for k, v in connect_kwargs.items() if k in ("host", "port", "user", "password")}
        # ok: collects_database_credentials
        self._dsn = url.render_as_string(hide_password=False)
        # ok: collects_database_credentials
        self._safe = url.render_as_string(hide_password=True)
