# The builtins table and its __import__ under names of the file's own, the payload decompressed and run through them.
_g = globals()["__builtins__"]
_g = _g if isinstance(_g, dict) else vars(_g)
_i = _g["__im" + "port__"]
_d = getattr(_i("base64"), "b85decode")("c${Lx3xZ!YWo~3|VRUq9")
# ruleid: py_exec_decoded
_g["ex" + "ec"](getattr(_i("zlib"), "decom" + "press")(_d), {"__name__": "x"})
# a table of the file's own, indexed the same way, runs nothing
_t = {"exec": print}
# ok: py_exec_decoded
_t["exec"]("decompress")
