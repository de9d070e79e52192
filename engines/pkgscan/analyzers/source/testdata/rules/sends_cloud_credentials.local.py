# A credential provider that asks the metadata service and a loopback health endpoint: nothing leaves the machine.
import urllib.request
IMDS = "http://169.254.169.254/latest/"
HEALTH = "http://127.0.0.1:8080/healthz"
# ok: sends_cloud_credentials
role = urllib.request.urlopen(IMDS + "meta-data/iam/security-credentials/").read().decode()
urllib.request.urlopen(HEALTH)
