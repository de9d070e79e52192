import base64
from urllib.request import urlopen
# ruleid: hidden_network_destination
urlopen(base64.b64decode(u))
# ok: hidden_network_destination
urlopen(url)
