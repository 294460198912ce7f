//! Just enough HTTP/1.1 for a transparent proxy: read a message head, know
//! where its body ends (Content-Length, chunked, or the connection's end),
//! and decode a chunked body for the recording while the raw bytes go on
//! unchanged.

use std::io::{self, BufRead, Read};

/// The most a message head may take; real agents send a few KiB.
const MAX_HEAD: usize = 256 * 1024;

/// A request or response head: its first line, its headers in order, and
/// the raw bytes as received.
#[derive(Debug, Clone)]
pub struct Head {
    /// Request: method; response: empty.
    pub method: String,
    /// Request: target path; response: empty.
    pub path: String,
    /// Response: status code; request: 0.
    pub status: u16,
    /// Response: the reason phrase.
    pub reason: String,
    pub headers: Vec<(String, Vec<u8>)>,
}

impl Head {
    /// The first value of a header, as text (names compare without case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .and_then(|(_, v)| std::str::from_utf8(v).ok())
            .map(str::trim)
    }

    fn has_token(&self, name: &str, token: &str) -> bool {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .filter_map(|(_, v)| std::str::from_utf8(v).ok())
            .flat_map(|v| v.split(','))
            .any(|t| t.trim().eq_ignore_ascii_case(token))
    }

    pub fn is_chunked(&self) -> bool {
        self.has_token("transfer-encoding", "chunked")
    }

    pub fn wants_close(&self) -> bool {
        self.has_token("connection", "close")
    }

    /// Where a request's body ends.
    pub fn request_framing(&self) -> Result<Framing, String> {
        if self.is_chunked() {
            return Ok(Framing::chunked());
        }
        match self.header("content-length") {
            Some(v) => v
                .parse()
                .map(Framing::Length)
                .map_err(|_| format!("Content-Length {v:?} is not a number")),
            None => Ok(Framing::Length(0)),
        }
    }

    /// Where a response's body ends, for a request of `method`.
    pub fn response_framing(&self, method: &str) -> Framing {
        if method.eq_ignore_ascii_case("HEAD")
            || (100..200).contains(&self.status)
            || self.status == 204
            || self.status == 304
        {
            return Framing::Length(0);
        }
        if self.is_chunked() {
            return Framing::chunked();
        }
        match self.header("content-length").and_then(|v| v.parse().ok()) {
            Some(n) => Framing::Length(n),
            None => Framing::Close,
        }
    }
}

/// Reads one head from `r`. `Ok(None)` when the connection ended cleanly
/// before any byte of a new message.
pub fn read_head<R: BufRead>(r: &mut R, request: bool) -> io::Result<Option<Head>> {
    let mut raw = Vec::new();
    loop {
        let before = raw.len();
        let n = r
            .by_ref()
            .take((MAX_HEAD + 1 - raw.len()) as u64)
            .read_until(b'\n', &mut raw)?;
        if n == 0 {
            if raw.is_empty() {
                return Ok(None);
            }
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the connection ended inside a message head",
            ));
        }
        if raw.len() > MAX_HEAD {
            return Err(bad("a message head longer than 256 KiB"));
        }
        // Blank lines before a request line are allowed (RFC 9112 §2.2).
        if request && before == 0 && (raw == b"\r\n" || raw == b"\n") {
            raw.clear();
            continue;
        }
        if raw.ends_with(b"\n\r\n") || raw.ends_with(b"\n\n") {
            break;
        }
    }
    let mut headers = [httparse::EMPTY_HEADER; 128];
    if request {
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&raw) {
            Ok(httparse::Status::Complete(_)) => Ok(Some(Head {
                method: req.method.unwrap_or_default().to_string(),
                path: req.path.unwrap_or_default().to_string(),
                status: 0,
                reason: String::new(),
                headers: owned(req.headers),
            })),
            Ok(httparse::Status::Partial) => Err(bad("an unfinished request head")),
            Err(e) => Err(bad(&format!("a request head that is not HTTP/1.1 ({e})"))),
        }
    } else {
        let mut resp = httparse::Response::new(&mut headers);
        match resp.parse(&raw) {
            Ok(httparse::Status::Complete(_)) => Ok(Some(Head {
                method: String::new(),
                path: String::new(),
                status: resp.code.unwrap_or_default(),
                reason: resp.reason.unwrap_or_default().to_string(),
                headers: owned(resp.headers),
            })),
            Ok(httparse::Status::Partial) => Err(bad("an unfinished response head")),
            Err(e) => Err(bad(&format!("a response head that is not HTTP/1.1 ({e})"))),
        }
    }
}

fn owned(headers: &[httparse::Header<'_>]) -> Vec<(String, Vec<u8>)> {
    headers
        .iter()
        .map(|h| (h.name.to_string(), h.value.to_vec()))
        .collect()
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

/// Writes a head: the first line, then the headers (with `replace` values
/// instead of those named, `None` dropping one), then the blank line.
pub fn write_head(first_line: &str, head: &Head, replace: &[(&str, Option<&str>)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024);
    out.extend_from_slice(first_line.as_bytes());
    out.extend_from_slice(b"\r\n");
    for (name, value) in &head.headers {
        if replace.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
            continue;
        }
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value);
        out.extend_from_slice(b"\r\n");
    }
    for (name, value) in replace {
        if let Some(value) = value {
            out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
        }
    }
    out.extend_from_slice(b"\r\n");
    out
}

/// Where a body ends.
#[derive(Debug, Clone)]
pub enum Framing {
    /// This many bytes are left.
    Length(u64),
    /// Chunked transfer coding, being decoded.
    Chunked(Chunked),
    /// Until the connection ends.
    Close,
}

impl Framing {
    fn chunked() -> Framing {
        Framing::Chunked(Chunked::default())
    }

    /// Has the body ended?
    pub fn done(&self) -> bool {
        match self {
            Framing::Length(n) => *n == 0,
            Framing::Chunked(c) => c.state == ChunkState::Done,
            Framing::Close => false,
        }
    }

    /// Takes bytes of the body as received; appends the body's content
    /// (without chunk framing) to `content`. Returns how many of the bytes
    /// belong to this body (the rest would be the next message).
    pub fn feed(&mut self, bytes: &[u8], content: &mut Vec<u8>) -> Result<usize, String> {
        match self {
            Framing::Length(left) => {
                let used = (*left).min(bytes.len() as u64) as usize;
                content.extend_from_slice(&bytes[..used]);
                *left -= used as u64;
                Ok(used)
            }
            Framing::Close => {
                content.extend_from_slice(bytes);
                Ok(bytes.len())
            }
            Framing::Chunked(c) => c.feed(bytes, content),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
enum ChunkState {
    /// Reading a chunk-size line.
    #[default]
    Size,
    /// Inside a chunk's data.
    Data,
    /// The CRLF after a chunk's data.
    DataEnd,
    /// The trailer section after the last chunk.
    Trailer,
    Done,
}

/// A chunked-body decoder that is fed any slices of the raw bytes.
#[derive(Debug, Clone, Default)]
pub struct Chunked {
    state: ChunkState,
    line: Vec<u8>,
    left: u64,
}

impl Chunked {
    fn feed(&mut self, bytes: &[u8], content: &mut Vec<u8>) -> Result<usize, String> {
        let mut i = 0;
        while i < bytes.len() && self.state != ChunkState::Done {
            match self.state {
                ChunkState::Size | ChunkState::Trailer | ChunkState::DataEnd => {
                    let b = bytes[i];
                    i += 1;
                    if b != b'\n' {
                        if self.line.len() > 4096 {
                            return Err("a chunk line longer than 4 KiB".into());
                        }
                        self.line.push(b);
                        continue;
                    }
                    let line = std::mem::take(&mut self.line);
                    let line = line.strip_suffix(b"\r").unwrap_or(&line);
                    match self.state {
                        ChunkState::Size => {
                            let size = line.split(|&c| c == b';').next().unwrap_or_default();
                            let size = std::str::from_utf8(size)
                                .ok()
                                .and_then(|s| u64::from_str_radix(s.trim(), 16).ok())
                                .ok_or_else(|| {
                                    format!(
                                        "a chunk size {:?} that is not hexadecimal",
                                        String::from_utf8_lossy(line)
                                    )
                                })?;
                            self.left = size;
                            self.state = if size == 0 {
                                ChunkState::Trailer
                            } else {
                                ChunkState::Data
                            };
                        }
                        ChunkState::DataEnd => {
                            if !line.is_empty() {
                                return Err("chunk data longer than its size".into());
                            }
                            self.state = ChunkState::Size;
                        }
                        _ => {
                            if line.is_empty() {
                                self.state = ChunkState::Done;
                            }
                        }
                    }
                }
                ChunkState::Data => {
                    let take = self.left.min((bytes.len() - i) as u64) as usize;
                    content.extend_from_slice(&bytes[i..i + take]);
                    i += take;
                    self.left -= take as u64;
                    if self.left == 0 {
                        self.state = ChunkState::DataEnd;
                    }
                }
                ChunkState::Done => {}
            }
        }
        Ok(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode_in_pieces(raw: &[u8], piece: usize) -> (Vec<u8>, usize, bool) {
        let mut f = Framing::chunked();
        let mut content = Vec::new();
        let mut used = 0;
        for part in raw.chunks(piece) {
            if f.done() {
                break;
            }
            used += f.feed(part, &mut content).unwrap();
        }
        (content, used, f.done())
    }

    #[test]
    fn a_chunked_body_decodes_the_same_in_any_pieces_and_stops_at_its_end() {
        let raw = b"5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\nGET / HTTP/1.1";
        let body_len = raw.len() - b"GET / HTTP/1.1".len();
        for piece in [1, 2, 3, 7, 64] {
            let (content, used, done) = decode_in_pieces(raw, piece);
            assert_eq!(content, b"hello, world", "pieces of {piece}");
            assert!(done);
            assert_eq!(used, body_len, "pieces of {piece}");
        }
    }

    #[test]
    fn a_cut_chunked_body_is_not_done_and_a_bad_size_is_an_error() {
        let (content, _, done) = decode_in_pieces(b"5\r\nhel", 2);
        assert_eq!(content, b"hel");
        assert!(!done);
        let mut f = Framing::chunked();
        assert!(f.feed(b"zz\r\n", &mut Vec::new()).is_err());
    }

    #[test]
    fn heads_parse_and_framing_follows_them() {
        let mut r: &[u8] =
            b"\r\nPOST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\nrest";
        let head = read_head(&mut r, true).unwrap().unwrap();
        assert_eq!(
            (head.method.as_str(), head.path.as_str()),
            ("POST", "/v1/messages")
        );
        assert!(matches!(head.request_framing(), Ok(Framing::Length(12))));
        assert_eq!(r, b"rest");
        let mut r: &[u8] = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n";
        let head = read_head(&mut r, false).unwrap().unwrap();
        assert_eq!(head.status, 200);
        assert!(matches!(head.response_framing("POST"), Framing::Chunked(_)));
        let mut r: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n";
        let head = read_head(&mut r, false).unwrap().unwrap();
        assert!(matches!(head.response_framing("POST"), Framing::Close));
        let mut r: &[u8] = b"";
        assert!(read_head(&mut r, true).unwrap().is_none());
        let mut r: &[u8] = b"POST / HTTP/1.1\r\nHost";
        assert!(read_head(&mut r, true).is_err());
    }

    #[test]
    fn written_heads_replace_and_drop_the_named_headers_only() {
        let mut r: &[u8] = b"POST /v1/x HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer k\r\nConnection: keep-alive\r\n\r\n";
        let head = read_head(&mut r, true).unwrap().unwrap();
        let out = write_head(
            "POST /v1/x HTTP/1.1",
            &head,
            &[("host", Some("b:1")), ("connection", None)],
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "POST /v1/x HTTP/1.1\r\nAuthorization: Bearer k\r\nhost: b:1\r\n\r\n"
        );
    }
}
