# Reading the site folder's .pth files to list them writes nothing.
import site, os
d = site.getsitepackages()[0]
# ok: persistence_python_startup
names = [n for n in os.listdir(d) if n.endswith(".pth") or n == "easy-install.pth"]
