# ruleid: lists_maintainer_packages
projects = xmlrpc.client.ServerProxy("https://pypi.org/pypi").user_packages(owner)
# ok: lists_maintainer_packages
info = json.load(urllib.request.urlopen(f"https://pypi.org/pypi/{project}/json"))
