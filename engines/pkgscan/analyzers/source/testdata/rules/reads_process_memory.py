# A memory editor that reads a game's memory for its user (medium).
import re


def scan(pid, value):
    hits = []
    with open("/proc/%d/maps" % pid) as maps:
        # ruleid: reads_process_memory medium
        with open("/proc/%d/mem" % pid, "rb", 0) as mem:
            for line in maps:
                m = re.match(r"([0-9a-f]+)-([0-9a-f]+) rw", line)
                if m:
                    mem.seek(int(m.group(1), 16))
                    chunk = mem.read(int(m.group(2), 16) - int(m.group(1), 16))
                    hits.extend(i for i in range(len(chunk)) if chunk.startswith(value, i))
    # ok: reads_process_memory
    with open("/proc/%d/status" % pid) as fh:
        return hits, fh.read()
