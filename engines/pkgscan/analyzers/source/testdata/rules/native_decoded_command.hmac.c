// HMAC's inner and outer pads: a key XORed with constants, and nothing started.
#include <stddef.h>

void hmac_pads(const unsigned char *key, size_t n, unsigned char *ipad, unsigned char *opad) {
    for (size_t i = 0; i < n; i++) {
        // ok: native_decoded_command
        ipad[i] = key[i] ^ 0x36;
        opad[i] = key[i] ^ 0x5c;
    }
}
