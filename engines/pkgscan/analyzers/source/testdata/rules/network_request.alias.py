# ruleid: network_request
import os, socket, requests as rq
# ok: network_request
import json
# ruleid: network_request
from requests import post as p
