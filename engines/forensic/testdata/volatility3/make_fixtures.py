#!/usr/bin/env python3
# Writes the Volatility 3 renderer fixtures (JSON, JSONL, CSV, text) the memory loader tests read.
# The corpus has no JSON/CSV renderer output and no netscan/cmdline/malfind/dlllist output, so these rows are
# hand-made; the framing follows volatility3/cli/text_renderer.py (JsonRenderer: json.dumps(indent=2, sort_keys=True)
# of nested rows with "__children"; JsonLinesRenderer: one sorted-key object per top-level row; CSVRenderer:
# TreeDepth column, csv.DictWriter with lineterminator "\n" and escapechar "\\"; QuickTextRenderer: banner, blank
# line, tab-separated header, "*" depth markers, "N/A" for not-applicable values and "-" for absent ones).
# Process rows follow the pstree tutorial output in ../../../../../shared/corpora/logs/volatility3/.
import csv, io, json, os

HERE = os.path.dirname(os.path.abspath(__file__))

PSTREE = [  # (depth, PID, PPID, ImageFileName, Offset, Threads, Handles, SessionId, Wow64, CreateTime, ExitTime)
    (0, 4, 0, "System", 0xfa8000cbc040, 85, 492, None, False, "2022-02-07T16:30:12+00:00", None),
    (1, 276, 4, "smss.exe", 0xfa8001e04040, 2, 29, None, False, "2022-02-07T16:30:12+00:00", None),
    (0, 404, 336, "wininit.exe", 0xfa800219f060, 3, 74, 0, False, "2022-02-07T16:30:13+00:00", None),
    (1, 504, 404, "services.exe", 0xfa80022ccb30, 7, 190, 0, False, "2022-02-07T16:30:14+00:00", None),
    (2, 804, 504, "svchost.exe", 0xfa80024ca5f0, 20, 450, 0, False, "2022-02-07T16:30:14+00:00", None),
    (3, 100, 804, "audiodg.exe", 0xfa80025b4b30, 6, 131, 0, False, "2022-02-07T16:30:14+00:00", None),
    (0, 1820, 1788, "explorer.exe", 0xfa8002f0a060, 30, 900, 1, False, "2022-02-07T16:31:02+00:00", None),
    (1, 2604, 1820, "cmd.exe", 0xfa8003101b30, 1, 21, 1, False, "2022-02-07T16:40:11.250000+00:00", "2022-02-07T16:41:30+00:00"),
    (1, 2688, 1820, "rundll32.exe", 0xfa8003125060, 4, 80, 1, True, "2022-02-07T16:40:15+00:00", None),
]
COLS = ["PID", "PPID", "ImageFileName", "Offset(V)", "Threads", "Handles", "SessionId", "Wow64", "CreateTime", "ExitTime"]

NETSCAN = [  # Offset, Proto, LocalAddr, LocalPort, ForeignAddr, ForeignPort, State, PID, Owner, Created
    (0x3dc2e010, "TCPv4", "0.0.0.0", 135, "0.0.0.0", 0, "LISTENING", 804, "svchost.exe", "2022-02-07T16:30:14+00:00"),
    (0x3dd0a3a0, "TCPv4", "10.0.2.15", 49213, "203.0.113.7", 443, "ESTABLISHED", 2688, "rundll32.exe", "2022-02-07T16:40:16+00:00"),
    (0x3dd0b010, "UDPv4", "0.0.0.0", 5355, "*", 0, "", 1312, "svchost.exe", None),
]
NETCOLS = ["Offset", "Proto", "LocalAddr", "LocalPort", "ForeignAddr", "ForeignPort", "State", "PID", "Owner", "Created"]

CMDLINE = [(2604, "cmd.exe", "C:\\Windows\\system32\\cmd.exe /c whoami > C:\\Users\\Public\\o.txt"), (2688, "rundll32.exe", "rundll32.exe C:\\Users\\Public\\payload.dll,Start"), (4, "System", None)]
CMDCOLS = ["PID", "Process", "Args"]

MALFIND = [(2688, "rundll32.exe", 0x2a0000, 0x2affff, "VadS", "PAGE_EXECUTE_READWRITE", 16, 1, "Disabled", "4d 5a 90 00 03 00 00 00", "0x2a0000:\tdec\tebp")]
MALCOLS = ["PID", "Process", "Start VPN", "End VPN", "Tag", "Protection", "CommitCharge", "PrivateMemory", "File output", "Hexdump", "Disasm"]

DLLLIST = [
    (2688, "rundll32.exe", 0xff1e0000, 0x11000, "rundll32.exe", "C:\\Windows\\SysWOW64\\rundll32.exe", "2022-02-07T16:40:15+00:00", "Disabled"),
    (2688, "rundll32.exe", 0x10000000, 0x2c000, "payload.dll", "C:\\Users\\Public\\payload.dll", "2022-02-07T16:40:15.500000+00:00", "Disabled"),
]
DLLCOLS = ["PID", "Process", "Base", "Size", "Name", "Path", "LoadTime", "File output"]


def text_value(v, col):
    if v is None:
        return "N/A" if col in ("SessionId", "ExitTime") else "-"
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int) and col in ("Offset(V)", "Offset", "Start VPN", "End VPN", "Base", "Size"):
        return hex(v)
    if col in ("CreateTime", "ExitTime", "Created", "LoadTime"):
        # strftime("%Y-%m-%d %H:%M:%S.%f %Z") of an aware UTC datetime
        date, t = v.split("T")
        t = t.replace("+00:00", "")
        if "." not in t:
            t += ".000000"
        return f"{date} {t} UTC"
    return str(v)


def tree(rows):
    roots, stack = [], []
    for depth, node in rows:
        node["__children"] = []
        while len(stack) > depth:
            stack.pop()
        (stack[-1]["__children"] if stack else roots).append(node)
        stack.append(node)
    return roots


def write(name, cols, rows, depths=None):
    depths = depths or [0] * len(rows)
    dicts = [dict(zip(cols, r)) for r in rows]
    with open(os.path.join(HERE, "json", name + ".json"), "w") as f:
        f.write("\n" + json.dumps(tree(list(zip(depths, [dict(d) for d in dicts]))), indent=2, sort_keys=True) + "\n")
    with open(os.path.join(HERE, "jsonl", name + ".jsonl"), "w") as f:
        f.write("\n")
        for root in tree(list(zip(depths, [dict(d) for d in dicts]))):
            f.write(json.dumps(root, sort_keys=True) + "\n")
    buf = io.StringIO()
    w = csv.DictWriter(buf, ["TreeDepth"] + cols, lineterminator="\n", escapechar="\\")
    w.writeheader()
    for depth, d in zip(depths, dicts):
        w.writerow({"TreeDepth": str(depth), **{c: text_value(d[c], c).replace("N/A", "N/A") for c in cols}})
    with open(os.path.join(HERE, "csv", name + ".csv"), "w") as f:
        f.write(buf.getvalue() + "\n")
    with open(os.path.join(HERE, "text", name + ".txt"), "w") as f:
        f.write("Volatility 3 Framework 2.7.0\n\n" + "\t".join(cols) + "\n")
        for depth, d in zip(depths, dicts):
            f.write("\n" + "*" * depth + (" " if depth else "") + "\t".join(text_value(d[c], c) for c in cols))
        f.write("\n")


for sub in ("json", "jsonl", "csv", "text"):
    os.makedirs(os.path.join(HERE, sub), exist_ok=True)
write("windows.pstree", COLS, [r[1:] for r in PSTREE], [r[0] for r in PSTREE])
write("windows.netscan", NETCOLS, NETSCAN)
write("windows.cmdline", CMDCOLS, CMDLINE)
write("windows.malfind", MALCOLS, MALFIND)
write("windows.dlllist", DLLCOLS, DLLLIST)
