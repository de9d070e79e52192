# fixture: path=setup.py
import configparser
import os

from setuptools import setup


def index_url():
    cfg = configparser.ConfigParser()
    # ok: pip_config_write
    cfg.read(os.path.expanduser(os.path.join("~", ".config", "pip", "pip.conf")))
    return cfg.get("global", "index-url", fallback="https://pypi.org/simple")


setup(name="x", version="1.0")
