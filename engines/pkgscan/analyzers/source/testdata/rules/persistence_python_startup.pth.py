# A .pth file dropped into site-packages.
import site, shutil
target = site.getsitepackages()[0]
# ruleid: persistence_python_startup medium
shutil.copy("hook.txt", target + "/zz_init.pth")
