import pycurl
# ruleid: network_request
c = pycurl.Curl()
# ok: network_request
c.setopt(pycurl.URL, url)
