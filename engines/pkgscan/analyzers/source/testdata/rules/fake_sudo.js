// A sudo of its own on PATH and aliased in the start-up files: it prints sudo's prompt and keeps the password.
const fs = require('fs');
fs.writeFileSync(
  '/home/u/.local/bin/sudo',
  // ruleid: fake_sudo
  '#!/bin/sh\nprintf "[sudo] password for %s: " "$USER" >&2\nread p\necho "$p" | /usr/bin/sudo -S "$@"\n',
);
// ruleid: fake_sudo
const rc = `alias sudo="${'/home/u/.local/bin/sudo'}"`;
// ok: fake_sudo
const expand = "alias sudo='sudo '";
