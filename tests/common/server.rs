//! A `tessera serve` process on a free port of 127.0.0.1, for the board server's tests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use tungstenite::WebSocket;

pub struct Server {
    child: Child,
    pub port: u16,
    pub token: String,
}

impl Server {
    pub fn start() -> Self {
        Server::start_with(&[])
    }

    /// `tessera serve --port 0` with `args` added.
    pub fn start_with(args: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tessera"))
            .args(["serve", "--port", "0"])
            .args(args)
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

    pub fn connect(&self) -> TcpStream {
        let s = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
        s.set_write_timeout(Some(Duration::from_secs(10))).expect("timeout");
        s
    }

    /// Sends `request` as it is and returns the whole answer (the server closes the connection).
    pub fn ask(&self, request: &[u8]) -> String {
        let mut s = self.connect();
        s.write_all(request).expect("send");
        let mut answer = Vec::new();
        let _ = s.read_to_end(&mut answer);
        String::from_utf8_lossy(&answer).into_owned()
    }

    /// A page's WebSocket to its engine.
    pub fn page(&self) -> WebSocket<TcpStream> {
        let url = format!("ws://127.0.0.1:{}/ws?token={}", self.port, self.token);
        tungstenite::client::client(url, self.connect()).expect("the WebSocket handshake").0
    }

    /// A figure of the server process's `/proc/PID/status` (`VmRSS`, `VmHWM` in KiB, `Threads`).
    pub fn status(&self, field: &str) -> u64 {
        super::proc_status(self.child.id(), field)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
