use std::net::TcpStream;

fn upload(sock: &str, body: &str) {
    // ruleid: network_request
    if let Ok(mut s) = TcpStream::connect_timeout(&sock.parse().unwrap(), Duration::from_secs(3)) {
        let _ = s.write_all(body.as_bytes());
    }
    // ok: network_request
    let listener = std::net::TcpListener::bind("127.0.0.1:0");
}
