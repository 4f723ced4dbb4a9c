//! `tessera serve`: the board in the browser. One HTTP listener on 127.0.0.1 serves the page
//! (compiled into the binary: `page.html`, its style `page.css` and its ES modules `link.js`,
//! `glyphs.js`, `records.js`, `board.js` and `page.js` beside this file, each a route of its own)
//! and accepts a WebSocket per page; each WebSocket gets its own engine, speaking the protocol of
//! `protocol.md` line by line. Every request must carry the access token printed at start.
//!
//! Every page gets bounded resources: at most `--pages` pages at once (the next one is told the
//! server is full), each engine's `Threads` and `Hash` a share of the machine, a bounded queue of
//! input and of output (a page that does not read its output is told and dropped), messages of
//! at most [`MAX_MESSAGE`] bytes, and [`IO_TIMEOUT`] to send a request or take an answer.
//!
//! The WebSocket side is tungstenite (the maintained synchronous WebSocket library: it does the
//! handshake and framing over a plain `TcpStream`, without an async runtime); requests are read
//! with httparse (the parser tungstenite itself uses). The page needs no routes but its own and
//! its assets', so the HTTP answers are written here.

use std::io::{self, BufRead, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rand::RngExt;
use tungstenite::protocol::WebSocketConfig;
use tungstenite::protocol::frame::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Message, WebSocket};

use crate::protocol::{Engine, EngineLimits, Output};

const PAGE_HTML: &str = include_str!("page.html");
/// The page's style and its ES modules: the link to the engine and the protocol's readers, the
/// drawing of the board from a state passed in, the controller.
const ASSETS: [(&str, &str, &str); 6] = [
    ("/page.css", "text/css; charset=utf-8", include_str!("page.css")),
    ("/link.js", "text/javascript; charset=utf-8", include_str!("link.js")),
    ("/glyphs.js", "text/javascript; charset=utf-8", include_str!("glyphs.js")),
    ("/records.js", "text/javascript; charset=utf-8", include_str!("records.js")),
    ("/board.js", "text/javascript; charset=utf-8", include_str!("board.js")),
    ("/page.js", "text/javascript; charset=utf-8", include_str!("page.js")),
];
/// How long the WebSocket loop waits for the page before it forwards the engine's output.
const POLL: Duration = Duration::from_millis(15);
/// Longest request head read.
const MAX_HEAD: usize = 16 * 1024;
/// Longest request target (414 beyond).
const MAX_TARGET: usize = 4 * 1024;
/// Pages open at once unless `tessera serve --pages` says otherwise.
pub const DEFAULT_PAGES: u16 = 4;
/// Longest WebSocket message (and frame) from a page: a long game's `position` still fits.
pub const MAX_MESSAGE: usize = 1 << 20;
/// Bytes of engine output waiting for a page: a page that lets more pile up is dropped.
const MAX_QUEUED_OUTPUT: usize = 1 << 20;
/// Lines from a page waiting for its engine.
const MAX_QUEUED_INPUT: usize = 4096;
/// How long a connection may take to send its request head, and a page to take what is sent.
pub const IO_TIMEOUT: Duration = Duration::from_secs(5);

/// The page for the holder of `token`: its style and modules are fetched with the token too
/// (every route needs it), the modules' imports through the page's import map.
fn page(token: &str) -> String {
    PAGE_HTML.replace("TOKEN", token)
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
    /// A target longer than [`MAX_TARGET`] (414).
    TargetTooLong,
}

/// The request's head, `Ok(None)` when the peer closed or fell silent before sending one whole.
fn peek_head(stream: &TcpStream, token: &str) -> io::Result<Result<Option<Head>, BadHead>> {
    let mut buf = vec![0u8; MAX_HEAD];
    for _ in 0..200 {
        let n = match stream.peek(&mut buf) {
            Ok(n) => n,
            // Silent for the whole read timeout: dropped without an answer.
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => return Ok(Ok(None)),
            Err(e) => return Err(e),
        };
        if n == 0 {
            return Ok(Ok(None));
        }
        let mut headers = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..n]) {
            Ok(httparse::Status::Complete(_)) => {
                let target = req.path.unwrap_or("/");
                if target.len() > MAX_TARGET {
                    return Ok(Err(BadHead::TargetTooLong));
                }
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

/// Lines written by an engine, sent to the page; at most [`MAX_QUEUED_OUTPUT`] bytes wait.
struct LineWriter {
    partial: Vec<u8>,
    lines: Sender<String>,
    backlog: Arc<Backlog>,
}

/// Engine output not yet taken by the page loop, and whether some had to be thrown away.
#[derive(Default)]
struct Backlog {
    bytes: AtomicUsize,
    overflowed: AtomicBool,
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.partial.extend_from_slice(buf);
        while let Some(at) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=at).collect();
            if self.backlog.bytes.fetch_add(line.len(), Ordering::Relaxed) + line.len() > MAX_QUEUED_OUTPUT {
                self.backlog.bytes.fetch_sub(line.len(), Ordering::Relaxed);
                self.backlog.overflowed.store(true, Ordering::Relaxed);
                continue;
            }
            let _ = self.lines.send(String::from_utf8_lossy(&line[..line.len() - 1]).into_owned());
        }
        if self.partial.len() > MAX_QUEUED_OUTPUT {
            self.partial.clear();
            self.backlog.overflowed.store(true, Ordering::Relaxed);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Lines from the page, read by an engine. Once the page is gone the engine reads `quit` (which
/// stops a search or a count at once) and then the end, whatever lines were still queued.
struct LineReader {
    lines: Receiver<String>,
    pending: Vec<u8>,
    gone: Arc<AtomicBool>,
    quit_read: bool,
}

impl Read for LineReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pending.is_empty() {
            let next = if self.gone.load(Ordering::Relaxed) { None } else { self.lines.recv().ok() };
            match next {
                Some(line) => self.pending = line.into_bytes(),
                None if self.quit_read => return Ok(0),
                None => {
                    self.quit_read = true;
                    self.pending = b"quit".to_vec();
                }
            }
            self.pending.push(b'\n');
        }
        let n = buf.len().min(self.pending.len());
        buf[..n].copy_from_slice(&self.pending[..n]);
        self.pending.drain(..n);
        Ok(n)
    }
}

/// What the server shares between its connections.
struct Server {
    token: String,
    /// Most pages open at once.
    pages: usize,
    open_pages: AtomicUsize,
    /// Each page's engine's share of the machine.
    engine_limits: EngineLimits,
}

/// A page's place among the open ones, given back when dropped.
struct PageSeat<'a>(&'a AtomicUsize);

impl Server {
    fn seat(&self) -> Option<PageSeat<'_>> {
        self.open_pages.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < self.pages).then_some(n + 1)).ok()?;
        Some(PageSeat(&self.open_pages))
    }
}

impl Drop for PageSeat<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Ends the WebSocket with `code` and a `reason` the page shows.
fn close(socket: &mut WebSocket<TcpStream>, code: CloseCode, reason: &str) {
    let _ = socket.close(Some(CloseFrame { code, reason: reason.to_string().into() }));
    let _ = socket.flush();
}

/// Runs one page's engine over its WebSocket until the page closes or breaks a bound; then the
/// engine quits (any search stops) and its session is dropped.
fn serve_socket(mut socket: WebSocket<TcpStream>, limits: EngineLimits) {
    let (to_engine, engine_input) = mpsc::sync_channel::<String>(MAX_QUEUED_INPUT);
    let (engine_output, from_engine) = mpsc::channel::<String>();
    let backlog = Arc::new(Backlog::default());
    let gone = Arc::new(AtomicBool::new(false));
    let reader = LineReader { lines: engine_input, pending: Vec::new(), gone: gone.clone(), quit_read: false };
    let out: Output = Arc::new(Mutex::new(LineWriter { partial: Vec::new(), lines: engine_output, backlog: backlog.clone() }));
    let engine = std::thread::Builder::new().name("page engine".into()).spawn(move || {
        let mut engine = Engine::with_limits(out, limits);
        let input: Box<dyn BufRead> = Box::new(io::BufReader::new(reader));
        engine.run(input);
    });
    let _ = socket.get_mut().set_read_timeout(Some(POLL));
    let _ = socket.get_mut().set_write_timeout(Some(IO_TIMEOUT));
    let ending = serve_page(&mut socket, &to_engine, &from_engine, &backlog);
    if let Some((code, reason)) = ending {
        close(&mut socket, code, reason);
    }
    drop(from_engine);
    gone.store(true, Ordering::Relaxed);
    drop(to_engine);
    if let Ok(handle) = engine {
        let _ = handle.join();
    }
}

/// Passes the page's lines to its engine and the engine's lines to the page until one of them is
/// done; the close code and reason to end with (none when the page closed or is gone).
fn serve_page(
    socket: &mut WebSocket<TcpStream>,
    to_engine: &SyncSender<String>,
    from_engine: &Receiver<String>,
    backlog: &Backlog,
) -> Option<(CloseCode, &'static str)> {
    loop {
        match socket.read() {
            Ok(Message::Text(text)) => {
                for line in text.lines() {
                    match to_engine.try_send(line.to_string()) {
                        Ok(()) => {}
                        Err(TrySendError::Full(_)) => {
                            return Some((CloseCode::Policy, "the page sent lines faster than its engine reads them"));
                        }
                        Err(TrySendError::Disconnected(_)) => return Some((CloseCode::Normal, "the engine quit")),
                    }
                }
            }
            Ok(Message::Binary(_)) => return Some((CloseCode::Unsupported, "only text messages are read")),
            Ok(Message::Close(_)) => {
                let _ = socket.flush();
                return None;
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e)) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => {}
            Err(tungstenite::Error::Utf8(_)) => return Some((CloseCode::Invalid, "a text message that is not UTF-8")),
            Err(tungstenite::Error::Capacity(_)) => return Some((CloseCode::Size, "a message over 1 MiB")),
            Err(tungstenite::Error::Protocol(_)) => return Some((CloseCode::Protocol, "a WebSocket protocol error")),
            Err(_) => return None,
        }
        let mut batch = Vec::new();
        loop {
            match from_engine.try_recv() {
                Ok(line) => {
                    backlog.bytes.fetch_sub(line.len() + 1, Ordering::Relaxed);
                    batch.push(line);
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    let _ = send(socket, batch);
                    return Some((CloseCode::Normal, "the engine quit"));
                }
            }
        }
        if backlog.overflowed.load(Ordering::Relaxed) || send(socket, batch).is_err() {
            return Some((CloseCode::Policy, "the page fell behind reading the engine's output"));
        }
    }
}

/// Sends the engine's `lines` to the page as one message (nothing when there are none).
fn send(socket: &mut WebSocket<TcpStream>, lines: Vec<String>) -> Result<(), tungstenite::Error> {
    if lines.is_empty() {
        return Ok(());
    }
    socket.send(Message::text(lines.join("\n")))
}

fn handle(stream: TcpStream, server: &Server) -> io::Result<()> {
    stream.set_read_timeout(Some(IO_TIMEOUT))?;
    stream.set_write_timeout(Some(IO_TIMEOUT))?;
    let head = match peek_head(&stream, &server.token)? {
        Ok(Some(head)) => head,
        Ok(None) => return Ok(()),
        Err(BadHead::Malformed) => return refuse(stream, "400 Bad Request", "", "not an HTTP request\n"),
        Err(BadHead::TooLarge) => return refuse(stream, "431 Request Header Fields Too Large", "", "the request's head is too large\n"),
        Err(BadHead::TargetTooLong) => return refuse(stream, "414 URI Too Long", "", "the request's target is too long\n"),
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
            let config = WebSocketConfig::default()
                .max_message_size(Some(MAX_MESSAGE))
                .max_frame_size(Some(MAX_MESSAGE))
                .max_write_buffer_size(2 * MAX_QUEUED_OUTPUT);
            match tungstenite::accept_with_config(stream, Some(config)) {
                Ok(mut socket) => match server.seat() {
                    Some(_seat) => serve_socket(socket, server.engine_limits),
                    None => {
                        let reason = format!("the server is full ({} pages are open): close one, then reload", server.pages);
                        close(&mut socket, CloseCode::Again, &reason);
                    }
                },
                Err(e) => eprintln!("tessera serve: websocket handshake failed: {e}"),
            }
            Ok(())
        }
        ("/", false) => respond(stream, "200 OK", "", "text/html; charset=utf-8", &page(&server.token), with_body),
        (path, false) => match ASSETS.iter().find(|(route, _, _)| *route == path) {
            Some((_, kind, body)) => respond(stream, "200 OK", "", kind, body, with_body),
            None => respond(stream, "404 Not Found", "", "text/plain", "not found\n", with_body),
        },
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

/// Each page's engine's share of the machine when `pages` pages may be open: the cores and half
/// the memory available now, split evenly (at least one thread and 1 MiB each).
fn page_limits(pages: usize) -> EngineLimits {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let mut limits = EngineLimits::default();
    limits.max_threads = (cores / pages).clamp(1, limits.max_threads);
    if let Some(bytes) = crate::tt::available_memory() {
        limits.max_hash_mb = (bytes / 2 / pages / (1 << 20)).clamp(1, limits.max_hash_mb);
    }
    limits
}

/// Serves the board on 127.0.0.1:`port` (0: a free port) to at most `pages` pages at once,
/// until the process ends. The first line on stdout is the page's address with the access token.
pub fn run(port: u16, open: bool, pages: usize) -> io::Result<()> {
    let pages = pages.max(1);
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    let token = new_token();
    let url = format!("http://127.0.0.1:{}/?token={token}", listener.local_addr()?.port());
    println!("{url}");
    io::stdout().flush()?;
    if open {
        open_browser(&url);
    }
    let server = Arc::new(Server { token, pages, open_pages: AtomicUsize::new(0), engine_limits: page_limits(pages) });
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let server = server.clone();
        std::thread::spawn(move || {
            if let Err(e) = handle(stream, &server) {
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

    /// The page asks for its style and modules with its token, and every asset has a route.
    #[test]
    fn the_page_fetches_its_assets_with_its_token() {
        let p = page("abc");
        assert!(p.contains("id=\"board\"") && !p.contains("TOKEN"));
        for (route, _, _) in ASSETS {
            assert!(p.contains(&format!("{route}?token=abc")), "{route}");
        }
    }
}
