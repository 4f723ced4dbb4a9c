//! `tessera serve`'s HTTP answers on 127.0.0.1: the page for GET, its head alone for HEAD, and a
//! status line for everything else (403 without the token, 404, 405, 400 for what is not HTTP,
//! 414 for an overlong target, 431 for an oversized head) rather than a dropped connection.

use crate::common::server::Server;

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
        (format!("GET /{}?token={t} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(5000)), "414 URI Too Long"),
    ] {
        let answer = server.ask(request.as_bytes());
        assert!(answer.starts_with(&format!("HTTP/1.1 {status}\r\n")), "{}: {answer}", &request[..request.len().min(60)]);
        if status.starts_with("405") {
            assert!(answer.contains("Allow: GET, HEAD\r\n"), "{answer}");
        }
    }
}
