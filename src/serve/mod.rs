//! `tessera serve`: the board in the browser. One HTTP listener on 127.0.0.1 serves the page
//! (compiled into the binary: `page.html`, `page.css`, `board.js` and `page.js` beside this file)
//! and accepts a WebSocket per page; each WebSocket gets its own engine, speaking the protocol of
//! `protocol.md` line by line. Every request must carry the access token printed at start.
//!
//! The WebSocket side is tungstenite (the maintained synchronous WebSocket library: it does the
//! handshake and framing over a plain `TcpStream`, without an async runtime); requests are read
//! with httparse (the parser tungstenite itself uses). The page needs no other route, so the HTTP
//! answers are written here.

use std::io::{self, BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::RngExt;
use tungstenite::{Message, WebSocket};

use crate::protocol::{Engine, Output};

const PAGE_HTML: &str = include_str!("page.html");
const PAGE_CSS: &str = include_str!("page.css");
const BOARD_JS: &str = include_str!("board.js");
const PAGE_JS: &str = include_str!("page.js");
/// How long the WebSocket loop waits for the page before it forwards the engine's output.
const POLL: Duration = Duration::from_millis(15);
/// Longest request head read.
const MAX_HEAD: usize = 16 * 1024;

/// The page: the HTML with its style and script inlined (so that it is one request).
fn page() -> String {
    PAGE_HTML.replace("/*STYLE*/", PAGE_CSS).replace("/*SCRIPT*/", &format!("{BOARD_JS}\n{PAGE_JS}"))
}

/// A random access token (128 bits, hex).
fn new_token() -> String {
    let mut rng = rand::rng();
    (0..16).map(|_| format!("{:02x}", rng.random::<u8>())).collect()
}

/// The token of a request target (`/path?token=...`), if any.
fn token_of(target: &str) -> Option<&str> {
    let query = target.split_once('?')?.1;
    query.split('&').find_map(|kv| kv.strip_prefix("token="))
}

/// What a request asks for, read from its head without consuming it.
struct Head {
    method: String,
    path: String,
    token_ok: bool,
    websocket: bool,
}

/// Why a request head could not be read.
enum BadHead {
    /// Not HTTP (400).
    Malformed,
    /// Longer than [`MAX_HEAD`] (431).
    TooLarge,
}

/// The request's head, `Ok(None)` when the peer closed or fell silent before sending one whole.
fn peek_head(stream: &TcpStream, token: &str) -> io::Result<Result<Option<Head>, BadHead>> {
    let mut buf = vec![0u8; MAX_HEAD];
    for _ in 0..200 {
        let n = stream.peek(&mut buf)?;
        if n == 0 {
            return Ok(Ok(None));
        }
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..n]) {
            Ok(httparse::Status::Complete(_)) => {
                let target = req.path.unwrap_or("/");
                let websocket =
                    req.headers.iter().any(|h| h.name.eq_ignore_ascii_case("upgrade") && h.value.eq_ignore_ascii_case(b"websocket"));
                return Ok(Ok(Some(Head {
                    method: req.method.unwrap_or("GET").to_string(),
                    path: target.split('?').next().unwrap_or("/").to_string(),
                    token_ok: token_of(target) == Some(token),
                    websocket,
                })));
            }
            Ok(httparse::Status::Partial) if n < MAX_HEAD => std::thread::sleep(Duration::from_millis(5)),
            Ok(httparse::Status::Partial) | Err(httparse::Error::TooManyHeaders) => return Ok(Err(BadHead::TooLarge)),
            Err(_) => return Ok(Err(BadHead::Malformed)),
        }
    }
    Ok(Ok(None))
}

/// Answers a request and closes the connection; `with_body` false for HEAD, which gets the same
/// status and headers without the body.
fn respond(mut stream: TcpStream, status: &str, extra_headers: &str, content_type: &str, body: &str, with_body: bool) -> io::Result<()> {
    // Read the request's head (an oversized one too, up to a bound) so that the peer does not see
    // a reset before the answer.
    stream.set_read_timeout(Some(Duration::from_millis(50)))?;
    let mut scratch = [0u8; MAX_HEAD];
    let (mut drained, mut tail) = (0, Vec::new());
    while drained < 4 * MAX_HEAD {
        match stream.read(&mut scratch) {
            Ok(n) if n > 0 => {
                drained += n;
                tail.extend_from_slice(&scratch[..n]);
                if tail.windows(4).any(|w| w == b"\r\n\r\n") {
                    break;
                }
                tail.drain(..tail.len().saturating_sub(3));
            }
            _ => break,
        }
    }
    let answer = format!(
        "HTTP/1.1 {status}\r\n{extra_headers}Content-Type: {content_type}\r\nContent-Length: {}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n{}",
        body.len(),
        if with_body { body } else { "" }
    );
    stream.write_all(answer.as_bytes())?;
    stream.flush()
}

/// A plain-text error answer.
fn refuse(stream: TcpStream, status: &str, extra_headers: &str, body: &str) -> io::Result<()> {
    respond(stream, status, extra_headers, "text/plain", body, true)
}

/// Lines written by an engine, sent to the page.
struct LineWriter {
    partial: Vec<u8>,
    lines: Sender<String>,
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            let _ = self.lines.send(String::from_utf8_lossy(&line[..line.len() - 1]).into_owned());
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Lines from the page, read by an engine.
struct LineReader {
    lines: Receiver<String>,
    pending: Vec<u8>,
}

impl Read for LineReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            match self.lines.recv() {
                Ok(line) => {
                    self.pending = line.into_bytes();
                    self.pending.push(b'\n');
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// Runs one page's engine over its WebSocket until the page closes; then the engine quits (any
/// search stops) and its session is dropped.
fn serve_socket(mut socket: WebSocket<TcpStream>) {
    let (to_engine, engine_input) = mpsc::channel::<String>();
    let (engine_output, from_engine) = mpsc::channel::<String>();
    let out: Output = Arc::new(Mutex::new(LineWriter { partial: Vec::new(), lines: engine_output }));
    let engine = std::thread::Builder::new().name("page engine".into()).spawn(move || {
        let mut engine = Engine::new(out);
        let input: Box<dyn BufRead> = Box::new(io::BufReader::new(LineReader { lines: engine_input, pending: Vec::new() }));
        engine.run(input);
    });
    let _ = socket.get_mut().set_read_timeout(Some(POLL));
    'page: loop {
        match socket.read() {
            Ok(Message::Text(text)) => {
                for line in text.lines() {
                    if to_engine.send(line.to_string()).is_err() {
                        break 'page;
                    }
                }
            }
            Ok(Message::Close(_)) => break,
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {}
            Err(_) => break,
        }
        let mut batch = Vec::new();
        loop {
            match from_engine.try_recv() {
                Ok(line) => batch.push(line),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => break 'page,
            }
        }
        if !batch.is_empty() && socket.send(Message::text(batch.join("\n"))).is_err() {
            break;
        }
    }
    let _ = to_engine.send("quit".to_string());
    drop(to_engine);
    if let Ok(handle) = engine {
        let _ = handle.join();
    }
}

fn handle(stream: TcpStream, token: &str) -> io::Result<()> {
    let head = match peek_head(&stream, token)? {
        Ok(Some(head)) => head,
        Ok(None) => return Ok(()),
        Err(BadHead::Malformed) => return refuse(stream, "400 Bad Request", "", "not an HTTP request\n"),
        Err(BadHead::TooLarge) => return refuse(stream, "431 Request Header Fields Too Large", "", "the request's head is too large\n"),
    };
    let with_body = match head.method.as_str() {
        "GET" => true,
        "HEAD" => false,
        _ => return refuse(stream, "405 Method Not Allowed", "Allow: GET, HEAD\r\n", "only GET and HEAD\n"),
    };
    if !head.token_ok {
        let body = "a valid token is needed: use the address tessera serve printed\n";
        return respond(stream, "403 Forbidden", "", "text/plain", body, with_body);
    }
    match (head.path.as_str(), head.websocket && with_body) {
        // The token was checked on the request head above; the handshake reads the same request.
        ("/ws", true) => {
            match tungstenite::accept(stream) {
                Ok(socket) => serve_socket(socket),
                Err(e) => eprintln!("tessera serve: websocket handshake failed: {e}"),
            }
            Ok(())
        }
        ("/", false) => respond(stream, "200 OK", "", "text/html; charset=utf-8", &page(), with_body),
        _ => respond(stream, "404 Not Found", "", "text/plain", "not found\n", with_body),
    }
}

/// Opens `url` in the default browser (best effort).
fn open_browser(url: &str) {
    let command = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(command).arg(url).spawn() {
        eprintln!("tessera serve: cannot open a browser ({e}); open {url} yourself");
    }
}

/// Serves the board on 127.0.0.1:`port` (0: a free port) until the process ends. The first line
/// on stdout is the page's address with the access token.
pub fn run(port: u16, open: bool) -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let token = new_token();
    let url = format!("http://127.0.0.1:{}/?token={token}", listener.local_addr()?.port());
    println!("{url}");
    io::stdout().flush()?;
    if open {
        open_browser(&url);
    }
    let token: Arc<str> = token.into();
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let token = token.clone();
        std::thread::spawn(move || {
            if let Err(e) = handle(stream, &token) {
                eprintln!("tessera serve: {e}");
            }
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_read_from_the_query() {
        assert_eq!(token_of("/?token=abc"), Some("abc"));
        assert_eq!(token_of("/ws?x=1&token=abc"), Some("abc"));
        assert_eq!(token_of("/ws"), None);
        assert_eq!(new_token().len(), 32);
        assert_ne!(new_token(), new_token());
    }

    #[test]
    fn the_page_is_one_document() {
        let p = page();
        assert!(p.contains("<svg") || p.contains("id=\"board\""));
        assert!(!p.contains("/*SCRIPT*/") && !p.contains("/*STYLE*/"));
    }
}
