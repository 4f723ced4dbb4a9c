//! `tessera serve`'s HTTP answers on 127.0.0.1: the page for GET, its head alone for HEAD, and a
//! status line for everything else (403 without the token, 404, 405, 400 for what is not HTTP,
//! 431 for an oversized head) rather than a dropped connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

struct Server {
    child: Child,
    port: u16,
    token: String,
}

impl Server {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start tessera serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the address line");
        let rest = line.trim().strip_prefix("http://127.0.0.1:").expect("an address on 127.0.0.1");
        let (port, token) = rest.split_once("/?token=").expect("port and token");
        Server { port: port.parse().expect("a port"), token: token.to_string(), child }
    }

    /// Sends `request` as it is and returns the whole answer (the server closes the connection).
    fn ask(&self, request: &[u8]) -> String {
        let mut s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
        s.write_all(request).expect("send");
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, b)| b)
}

#[test]
fn http_answers() {
    let server = Server::start();
    let t = &server.token;
    let get = server.ask(format!("GET /?token={t} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
    assert!(get.starts_with("HTTP/1.1 200 OK\r\n") && body(&get).contains("<html"), "{}", &get[..get.len().min(200)]);
    let head = server.ask(format!("HEAD /?token={t} HTTP/1.1\r\nHost: x\r\n\r\n").as_bytes());
    let length = format!("Content-Length: {}\r\n", body(&get).len());
    assert!(head.starts_with("HTTP/1.1 200 OK\r\n") && head.contains(&length) && body(&head).is_empty(), "{head}");
    for (request, status) in [
        ("GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_string(), "403 Forbidden"),
        (format!("GET /nothing?token={t} HTTP/1.1\r\nHost: x\r\n\r\n"), "404 Not Found"),
        (format!("POST /?token={t} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"), "405 Method Not Allowed"),
        (format!("DELETE /?token={t} HTTP/1.1\r\nHost: x\r\n\r\n"), "405 Method Not Allowed"),
        ("\u{1}\u{2}garbage\r\n\r\n".to_string(), "400 Bad Request"),
        (format!("GET /?token={t} HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(20_000)), "431 Request Header Fields Too Large"),
        (format!("GET /?token={t} HTTP/1.1\r\n{}\r\n", "X: y\r\n".repeat(100)), "431 Request Header Fields Too Large"),
    ] {
        let answer = server.ask(request.as_bytes());
        assert!(answer.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{}: {answer}", &request[..request.len().min(60)]);
        if status.starts_with("405") {
            assert!(answer.contains("Allow: GET, HEAD\r\n"), "{answer}");
        }
    }
}
