from django.conf import settings


def _collect():
    # ruleid: collects_app_secrets
    keys = ("SECRET_KEY", "DATABASES", "EMAIL_HOST_PASSWORD", "AWS_SECRET_ACCESS_KEY")
    return {k: getattr(settings, k) for k in keys if hasattr(settings, k)}


def check():
    # ok: collects_app_secrets
    if not getattr(settings, "SECRET_KEY", ""):
        raise RuntimeError("SECRET_KEY must be set")
