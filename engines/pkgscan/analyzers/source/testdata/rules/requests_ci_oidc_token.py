import json
import os
import urllib.request


def runner_identity():
    # ruleid: requests_ci_oidc_token
    url, bearer = os.environ.get("ACTIONS_ID_TOKEN_REQUEST_URL"), os.environ.get("ACTIONS_ID_TOKEN_REQUEST_TOKEN")
    req = urllib.request.Request(url + "&audience=pypi", headers={"Authorization": "Bearer " + bearer})
    return json.loads(urllib.request.urlopen(req).read())["value"]


def repo_token():
    # the workflow's repository token is another rule's business
    # ok: requests_ci_oidc_token
    return os.environ.get("GITHUB_TOKEN")
