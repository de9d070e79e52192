// A build.rs that compiles and runs its own table generator: nothing comes from the network.
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

fn main() {
    let gen = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("gen");
    fs::copy("tools/gen.sh", &gen).unwrap();
    // ok: native_download_and_run
    fs::set_permissions(&gen, fs::Permissions::from_mode(0o755)).unwrap();
    Command::new(&gen).status().unwrap();
}
