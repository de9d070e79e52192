// A PyO3 module's init: a byte table XORed with a key becomes a shell command line.
use std::process::{Command, Stdio};

const K: u8 = 0x2d;
const SEED: [u8; 4] = [0x4e, 0x58, 0x5f, 0x41];

fn seed() -> String {
    // ruleid: native_decoded_command
    SEED.iter().map(|b| (b ^ K) as char).collect()
}

pub fn init_pool() {
    let _ = Command::new("/bin/sh").args(["-c", &seed()]).stdin(Stdio::null()).spawn();
}
