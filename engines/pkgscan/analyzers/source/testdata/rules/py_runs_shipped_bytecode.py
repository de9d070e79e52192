import glob
import marshal
import sys
import types


def load_compiled(name, pattern="_accel.cpython-*.pyc"):
    for path in sorted(glob.glob(pattern)):
        with open(path, "rb") as fh:
            data = fh.read()
        # ruleid: py_runs_shipped_bytecode
        code = marshal.loads(data[16:])
        mod = types.ModuleType(name)
        sys.modules[name] = mod
        exec(code, mod.__dict__)
        return mod
