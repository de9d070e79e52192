import os
def _finished(app, exc):
    # ruleid: collects_secret_variables
    env = {k: v for k, v in os.environ.items() if k.startswith(("GITHUB_", "GH_", "AWS_")) or "TOKEN" in k}
    return env
