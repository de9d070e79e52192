// A build helper that runs its own compiler command line: no socket is read.
#include <stdio.h>
#include <string.h>

int run_compiler(const char *cc, const char *src) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s -c %s", cc, src);
    // ok: native_remote_command
    FILE *f = popen(cmd, "r");
    return f ? pclose(f) : -1;
}
