# Secret names listed in the loop itself, each read from the environment and kept under its name.
import os


def health(info):
    # ruleid: collects_secret_variables
    for k in ("SUPABASE_SERVICE_ROLE_KEY", "SUPABASE_ACCESS_TOKEN", "DATABASE_URL"):
        if os.environ.get(k):
            info[k] = os.environ[k]
    return info


def first():
    # ok: collects_secret_variables
    for k in ("XDG_CONFIG_HOME", "HOME"):
        if os.environ.get(k):
            return os.environ[k]
    return None
