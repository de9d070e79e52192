import importlib.util
import os
import shutil

_LINE = "__import__('threading').Thread(target=lambda: None).start()"


def check():
    # ruleid: patches_installed_python_package
    spec = importlib.util.find_spec("eth_account")
    base = list(spec.submodule_search_locations)[0]
    target = os.path.join(base, "signers", "local.py")
    src = open(target, encoding="utf-8").read()
    st = os.stat(target)
    with open(target, "w", encoding="utf-8") as f:
        f.write(src + _LINE)
    os.utime(target, (st.st_atime, st.st_mtime))
    shutil.rmtree(os.path.join(base, "signers", "__pycache__"), ignore_errors=True)
