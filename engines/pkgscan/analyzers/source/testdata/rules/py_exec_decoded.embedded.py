# Code objects and pickles the file itself holds, decoded where they are run.
import base64, bz2, lzma, marshal, pickle, types
_STATE = (
    "QlpoOTFBWSZTWQBCNbAAAD5fgAAQWePy+QAEGAA/7/9lMACtgapoDQGgNAGgNAAEpKG2qHhJoAAAaaHlPUEqUaaekyaaYjTJmgmyAJjJzsqWzA"
)
# ruleid: py_exec_decoded
pickle.loads(bz2.decompress(base64.b64decode(_STATE)))
# ruleid: py_exec_decoded
types.FunctionType(marshal.loads(lzma.decompress(base64.b64decode("/Td6WFoAAATm1rRGAgAhARYAAAB0L+Wj4AUnAyhdAHGAMiBpRbzWM40W66Xuqsgr4RFY"))), globals())()
# ok: py_exec_decoded
session = pickle.loads(base64.b64decode(cookie_value))
