# Every process's environment read and searched for secret names.
import glob, os, re
_PAT = re.compile(r"(TOKEN|SECRET|KEY|PASSWORD|NPM_|GITHUB_)", re.I)
# ruleid: reads_process_environments
for path in glob.glob("/proc/[0-9]*/environ"):
    pass
for pid in os.listdir("/proc"):
    # ruleid: reads_process_environments
    p = os.path.join("/proc", pid, "environ")
# ok: reads_process_environments
own = open("/proc/self/environ", "rb").read()
