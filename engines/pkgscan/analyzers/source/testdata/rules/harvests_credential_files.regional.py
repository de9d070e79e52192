# a list of regional clouds' credential files read in turn
import os
HOME = os.path.expanduser("~")
def grab():
    out = {}
    # ruleid: harvests_credential_files
    for rel in (".aliyun/config.json", ".alibabacloud/credentials", ".tccli/default.credential", ".ossutilconfig"):
        with open(os.path.join(HOME, rel)) as f:
            out[rel] = f.read()
    return out
