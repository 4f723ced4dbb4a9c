//! What a page of `tessera serve` may take: a bounded number of pages (the next one is told the
//! server is full), bounded queues (a page that sends without reading is dropped, and the server
//! does not grow), a read timeout for connections that say nothing, and the WebSocket close
//! codes of RFC 6455 for what a page must not send.

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Message, WebSocket};

use crate::common::server::Server;

/// The server's `IO_TIMEOUT` and a margin for a loaded machine.
const SILENT_CLOSED_WITHIN: Duration = Duration::from_secs(5 + 5);

/// The close frame a page receives next (its code and reason), reading past other messages.
fn close_frame(page: &mut WebSocket<TcpStream>) -> (CloseCode, String) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        match page.read() {
            Ok(Message::Close(Some(frame))) => return (frame.code, frame.reason.to_string()),
            Ok(Message::Close(None)) => return (CloseCode::Status, String::new()),
            Ok(_) => {}
            Err(e) => panic!("the connection ended without a close frame: {e}"),
        }
    }
    panic!("no close frame in 30 s");
}

/// Sends `lines` to a page's engine and returns the lines it answers up to `readyok`.
fn ask(page: &mut WebSocket<TcpStream>, lines: &str) -> Vec<String> {
    page.send(Message::text(format!("{lines}\nisready"))).expect("send");
    let mut out = Vec::new();
    loop {
        match page.read().expect("an answer") {
            Message::Text(t) => {
                for l in t.lines() {
                    if l == "readyok" {
                        return out;
                    }
                    out.push(l.to_string());
                }
            }
            other => panic!("unexpected {other:?}"),
        }
    }
}

#[test]
fn a_page_over_the_limit_is_told_the_server_is_full_and_a_closed_page_frees_its_place() {
    let server = Server::start_with(&["--pages", "2"]);
    let mut first = server.page();
    let mut second = server.page();
    assert_eq!(ask(&mut first, "isready"), Vec::<String>::new());
    assert_eq!(ask(&mut second, "isready"), Vec::<String>::new());
    let mut third = server.page();
    let (code, reason) = close_frame(&mut third);
    assert_eq!(code, CloseCode::Again, "{reason}");
    assert!(reason.contains("full") && reason.contains('2'), "{reason}");
    first.close(None).expect("close");
    while first.read().is_ok() {}
    // The server gives the place back once it has seen the page go.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut next = server.page();
        next.send(Message::text("isready")).expect("send");
        match next.read().expect("an answer or a close") {
            Message::Text(t) if t.as_str() == "readyok" => break,
            Message::Close(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(100)),
            other => panic!("no place freed: {other:?}"),
        }
    }
}

#[test]
fn each_page_gets_a_share_of_the_machine() {
    let server = Server::start_with(&["--pages", "64"]);
    let mut page = server.page();
    let uci = ask(&mut page, "uci");
    let threads = uci.iter().find(|l| l.starts_with("option name Threads ")).expect("the Threads option");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    assert!(threads.ends_with(&format!(" max {}", (cores / 64).max(1))), "{threads}");
    let refused = ask(&mut page, "setoption name Threads value 512");
    assert!(refused.len() == 1 && refused[0].starts_with("info string error"), "{refused:?}");
}

#[test]
fn pages_that_send_without_reading_are_dropped_and_the_server_stays_small() {
    let server = Server::start_with(&["--pages", "4"]);
    let idle_kib = server.status("VmRSS");
    // 30 pages each send 10 MB of commands, every one of which answers, and read nothing.
    let message = "geometry\n".repeat(64 * 1024 / 9);
    let pages: Vec<_> = (0..30)
        .map(|_| {
            let mut page = server.page();
            let message = message.clone();
            std::thread::spawn(move || {
                let mut sent = 0;
                while sent < 10 << 20 {
                    if page.send(Message::text(message.clone())).is_err() {
                        break;
                    }
                    sent += message.len();
                }
            })
        })
        .collect();
    for p in pages {
        p.join().expect("a page's thread");
    }
    let grown_mib = server.status("VmHWM").saturating_sub(idle_kib) / 1024;
    assert!(grown_mib <= 200, "the server grew by {grown_mib} MiB over its idle size");
}

#[test]
fn silent_connections_are_closed_after_the_read_timeout_and_leave_no_threads() {
    let server = Server::start();
    let idle_threads = server.status("Threads");
    let start = Instant::now();
    let mut sockets: Vec<TcpStream> = (0..100).map(|_| server.connect()).collect();
    for s in &mut sockets {
        s.set_read_timeout(Some(SILENT_CLOSED_WITHIN)).expect("timeout");
        let mut byte = [0u8; 1];
        match s.read(&mut byte) {
            Ok(0) => {}
            Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
            other => panic!("a silent connection got {other:?} after {:?}", start.elapsed()),
        }
    }
    assert!(start.elapsed() < SILENT_CLOSED_WITHIN, "{:?}", start.elapsed());
    let deadline = Instant::now() + Duration::from_secs(5);
    while server.status("Threads") > idle_threads && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(server.status("Threads"), idle_threads);
}

#[test]
fn what_a_page_must_not_send_ends_it_with_the_right_close_code() {
    let server = Server::start();
    // A text frame that is not UTF-8, written by hand (tungstenite will not send one): FIN and
    // opcode 1, a masked payload of two bytes.
    let mut page = server.page();
    let (mask, payload) = ([1u8, 2, 3, 4], [0xffu8, 0xfe]);
    let mut frame = vec![0x81, 0x80 | 2];
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().zip(mask).map(|(b, m)| b ^ m));
    page.get_mut().write_all(&frame).expect("send");
    assert_eq!(close_frame(&mut page).0, CloseCode::Invalid);

    let mut page = server.page();
    page.send(Message::binary(vec![1u8, 2, 3])).expect("send");
    assert_eq!(close_frame(&mut page).0, CloseCode::Unsupported);

    let mut page = server.page();
    let _ = page.send(Message::text("x".repeat(2 << 20)));
    assert_eq!(close_frame(&mut page).0, CloseCode::Size);

    let mut page = server.page();
    page.send(Message::text("quit")).expect("send");
    assert_eq!(close_frame(&mut page).0, CloseCode::Normal);
}
