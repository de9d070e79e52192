# fixture: path=setup.py
import os
from setuptools import setup
from setuptools.command.install import install
# ruleid: setup_cmdclass_override
class PostInstall(install):
    def run(self):
        install.run(self)
        os.system('echo hi')
# ok: setup_cmdclass_override
class PlainInstall(install):
    def run(self):
        install.run(self)
setup(name='x', cmdclass={'install': PostInstall})
