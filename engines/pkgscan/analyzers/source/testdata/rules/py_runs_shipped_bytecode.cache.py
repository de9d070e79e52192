import importlib.util
import marshal


def load_cached(source_path, namespace):
    cached = importlib.util.cache_from_source(source_path)
    if not cached.endswith(".pyc"):
        return False
    with open(cached, "rb") as fh:
        data = fh.read()
    # ok: py_runs_shipped_bytecode
    exec(marshal.loads(data[16:]), namespace)
    return True
