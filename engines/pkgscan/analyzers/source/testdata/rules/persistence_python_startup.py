# sitecustomize.py / usercustomize.py written into the user's or the interpreter's site folder.
import os, site, sysconfig
HOOK = "import os\n"
for d in (site.getusersitepackages(), sysconfig.get_paths()["purelib"]):
    # ruleid: persistence_python_startup medium
    fp = os.path.join(d, "usercustomize.py")
    with open(fp, "a" if os.path.exists(fp) else "w") as f:
        f.write(HOOK)
# ok: persistence_python_startup
print("see sitecustomize docs")
