# Test oracle: dumps the first N records of each EVTX file with python-evtx (Debian python3-evtx), one JSON line per file.
import json
import sys

import Evtx.Evtx as E

limit = int(sys.argv[1])
for path in sys.argv[2:]:
    out = {"file": path, "records": [], "error": None}
    try:
        with E.Evtx(path) as f:
            n = 0
            for chunk in f.chunks():
                for r in chunk.records():
                    if n >= limit:
                        break
                    n += 1
                    try:
                        out["records"].append({"num": r.record_num(), "ts": str(r.timestamp()), "xml": r.xml()})
                    except Exception as e:  # a record python-evtx cannot render is reported, not fatal
                        out["records"].append({"num": r.record_num(), "error": type(e).__name__})
                if n >= limit:
                    break
    except Exception as e:
        out["error"] = type(e).__name__
    print(json.dumps(out))
