# A coverage-style installer writing its own .pth into site-packages: no other package's module edited.
import os
import site

# ok: patches_installed_python_package
target = os.path.join(site.getsitepackages()[0], "zz_cov_subprocess.pth")
with open(target, "w") as f:
    f.write("import cov_sub; cov_sub.start()\n")
