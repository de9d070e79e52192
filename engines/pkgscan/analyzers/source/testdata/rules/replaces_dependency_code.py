# Other packages' module files found through importlib and overwritten with a stub.
import importlib.util
STUB = "raise SystemExit(1)\n"
for mod in ("requests", "numpy"):
    spec = importlib.util.find_spec(mod)
    # ruleid: replaces_dependency_code
    with open(spec.origin, "w") as fh:
        fh.write(STUB)
# ok: replaces_dependency_code
with open(spec.origin) as fh:
    source = fh.read()
# ok: replaces_dependency_code
with open(__file__, "w") as fh:
    fh.write(source)
