import os


def register(serverapp):
    # ruleid: collects_app_secrets
    token = getattr(serverapp, "token", None)
    return {"token": token, "hub": os.environ.get("JUPYTERHUB_API_TOKEN")}
