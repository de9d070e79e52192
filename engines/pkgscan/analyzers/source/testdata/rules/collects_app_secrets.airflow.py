def _airflow():
    from airflow.configuration import conf
    # ruleid: collects_app_secrets
    return conf.get("core", "fernet_key", fallback=None)
