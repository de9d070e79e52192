# An instance helper that returns the role's credentials to its caller and talks to nothing else.
import urllib.request
BASE = "http://169.254.169.254/latest"
def credentials(role):
    # ok: sends_cloud_credentials
    with urllib.request.urlopen(BASE + "/meta-data/iam/security-credentials/" + role) as r:
        return r.read()
# see https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/instancedata-data-retrieval.html
