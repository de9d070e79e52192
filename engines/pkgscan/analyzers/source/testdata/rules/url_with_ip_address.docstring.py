import requests


class ServerUrl:
    """
    A WebSocket server URL:

    * ``ws://localhost``
    # ok: url_with_ip_address
    * ``ws://62.146.25.34:80/ws``
    """

    def __init__(self, url):
        self.url = url


def fetch(query):
    r"""
    Raises when the server answers with an error, for example:

    # ok: url_with_ip_address
      DownloadFailed: Failed to download from http://154.35.175.225:80/tor/status-vote (HTTPError)
    """
    # ruleid: url_with_ip_address
    return requests.get('http://45.9.148.10/gate.php', params={'q': query})


PAYLOAD = """
# ruleid: url_with_ip_address
http://45.9.148.11/a
"""
