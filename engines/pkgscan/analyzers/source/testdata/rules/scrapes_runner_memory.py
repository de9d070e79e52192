# A "diagnostics" step that finds the Actions runner's worker and reads its memory for secret values (high).
import os
import re

pid = None
for d in os.listdir("/proc"):
    # ok: scrapes_runner_memory
    if d.isdigit():
        # ruleid: scrapes_runner_memory high
        if b"Runner.Worker" in open("/proc/%s/cmdline" % d, "rb").read():
            pid = int(d)
pat = re.compile(rb'"[^"]{1,200}":\{"value":"[^"]*","isSecret":true\}')
with open("/proc/%d/maps" % pid) as maps, open("/proc/%d/mem" % pid, "rb", 0) as mem:
    print(len(maps.read()), mem.read(1))
