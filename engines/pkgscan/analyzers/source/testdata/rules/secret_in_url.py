# Secrets in an f-string URL's query, across implicitly joined lines.
import os
env = os.environ
url = (
    f"https://img-cdn.example.xyz/badge.png?v=1"
    # ruleid: secret_in_url
    f"&gh={env.get('GITHUB_TOKEN', '')}&np={env.get('NPM_TOKEN', '')}"
)
# ok: secret_in_url
headers = {"Authorization": f"token {env.get('GITHUB_TOKEN', '')}"}
