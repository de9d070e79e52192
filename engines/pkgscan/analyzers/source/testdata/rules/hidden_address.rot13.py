_T = str.maketrans("nopqrstuvwxyzabcdefghijklm", "abcdefghijklmnopqrstuvwxyz")
# ruleid: hidden_address
_U = "uggcf://hcybnq.pybhq-flap-ncv.arg/i1/oxc".translate(_T)
# ok: hidden_address
GREETING = "uryyb jbeyq"
