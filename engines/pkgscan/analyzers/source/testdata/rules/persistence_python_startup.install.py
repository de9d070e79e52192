# An install command writing a .pth into its own install_lib (site-packages).
import os
from setuptools.command.install import install
class Install(install):
    def run(self):
        install.run(self)
        # ruleid: persistence_python_startup medium
        with open(os.path.join(self.install_lib, "zz-hook.pth"), "w") as fh:
            fh.write("import _hook\n")
