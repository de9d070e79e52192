# a downloaded runtime saved under a system process's name with a suffix; a process list naming the system's own does not count
import os
from pathlib import Path

# ruleid: masquerading_executable_name
name = "svchost-accel.exe" if os.name == "nt" else ".accel-runtime"
# ruleid: masquerading_executable_name
DROP = Path(os.environ.get("APPDATA", "")) / "scvhost.exe"
# ok: masquerading_executable_name
SYSTEM = {"svchost.exe", "lsass.exe", "csrss.exe", "winlogon.exe"}
# ok: masquerading_executable_name
TOOL = "accel-runtime-windows-amd64.exe"
