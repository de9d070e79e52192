// A terminal helper (node-pty style): the pseudo-terminal's slave side becomes the child's stdio; no socket is connected.
#include <unistd.h>
#include <stdlib.h>

int spawn_in_pty(int slave, const char *file, char *const argv[]) {
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        // ok: native_reverse_shell
        dup2(slave, 0); dup2(slave, 1); dup2(slave, 2);
        execvp(file, argv);
        _exit(127);
    }
    return pid;
}
