//! A request head read before hyper reads it, so that what hyper refuses
//! gets an answer that says why. hyper answers a head it will not take
//! (a transfer coding that does not end in `chunked`, a `Content-Length`
//! that is not one number, a malformed line, too many or too large header
//! fields) with a bare 400, 414 or 431 before any service runs, and has no
//! hook for that answer. So the agent's connection is wrapped (`Guarded`):
//! at the start of each request the bytes are held until the head is
//! whole, and read with httparse as hyper reads them (`verdict`, after
//! hyper 1.12's `role.rs`). A head hyper would refuse is answered here,
//! with a JSON body naming what was refused, and the connection ends;
//! any other goes on to hyper unchanged, which still does all the framing.
//!
//! Where a request starts is known without framing anything: the
//! connection's first bytes, and the bytes read after the service has
//! read a request's body whole (`Guarded::next`; agents send the next
//! request once they have the answer). A client that pipelines may have
//! sent part of the next head before that point; such a head, if it does
//! not read as a head here, is left to hyper and its bare 400.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// The most a request head may take; real agents send a few KiB.
pub(super) const MAX_HEAD: usize = 256 * 1024;
/// The most headers a request may have.
pub(super) const MAX_HEADERS: usize = 128;

/// hyper's longest request target (`MAX_URI_LEN` in its `role.rs`).
const MAX_TARGET: usize = u16::MAX as usize - 1;

/// The agent's connection, its request heads checked before hyper reads them.
pub struct Guarded {
    inner: TcpStream,
    /// The next bytes read start a request head.
    next: Arc<AtomicBool>,
    /// No request has been read yet: the bytes surely start a head.
    first: bool,
    /// Bytes of a head read and not yet handed to hyper.
    held: Vec<u8>,
    given: usize,
    /// The held bytes are judged (the head passed, or the agent stopped
    /// sending): hand them on. Until then a head cut in pieces is held
    /// whole, so no piece after the first is read as a head of its own.
    passing: bool,
    /// The tap's own answer to a refused head, and how much is written.
    answer: Option<(Vec<u8>, usize)>,
}

impl Guarded {
    /// The connection, and the flag the service sets once it has read a
    /// request's body whole (the next bytes start the next head).
    pub fn new(inner: TcpStream) -> (Guarded, Arc<AtomicBool>) {
        let next = Arc::new(AtomicBool::new(true));
        let guarded = Guarded {
            inner,
            next: next.clone(),
            first: true,
            held: Vec::new(),
            given: 0,
            passing: false,
            answer: None,
        };
        (guarded, next)
    }
}

/// What to do with the bytes of a head read so far.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not whole yet: read on.
    Wait,
    /// hyper takes it: hand it on.
    Pass,
    /// hyper would refuse it: answer with this status and reason.
    Refuse(u16, String),
}

/// Would hyper refuse the head that `bytes` start with? `first`: the
/// bytes surely start a head (else one that does not read is hyper's).
pub fn verdict(bytes: &[u8], first: bool) -> Verdict {
    let mut headers = [httparse::EMPTY_HEADER; MAX_HEADERS];
    let mut req = httparse::Request::new(&mut headers);
    let too_large = || {
        Verdict::Refuse(
            431,
            format!(
                "a request head over {} KiB: the tap reads heads up to that size",
                MAX_HEAD >> 10
            ),
        )
    };
    match req.parse(bytes) {
        Ok(httparse::Status::Partial) if bytes.len() > MAX_HEAD => too_large(),
        Ok(httparse::Status::Partial) => Verdict::Wait,
        Ok(httparse::Status::Complete(len)) => {
            if len > MAX_HEAD {
                return too_large();
            }
            if req.path.is_some_and(|p| p.len() > MAX_TARGET) {
                return Verdict::Refuse(414, format!("a request target over {MAX_TARGET} bytes"));
            }
            match framing(&req) {
                Some(why) => Verdict::Refuse(400, why),
                None => Verdict::Pass,
            }
        }
        Err(httparse::Error::TooManyHeaders) => Verdict::Refuse(
            431,
            format!("more than {MAX_HEADERS} header fields: the tap reads up to that many"),
        ),
        Err(e) if first => Verdict::Refuse(
            400,
            format!("the request head is not HTTP/1.1 ({e}; RFC 9112 §2–§5)"),
        ),
        Err(_) => Verdict::Pass,
    }
}

/// Why hyper would refuse a whole head's framing (RFC 9112 §6), as
/// hyper's `Server::parse` decides: a `Content-Length` before any
/// `Transfer-Encoding` must be digits, and the same each time; a
/// `Transfer-Encoding` needs HTTP/1.1 and its last coding `chunked`.
fn framing(req: &httparse::Request<'_, '_>) -> Option<String> {
    let mut length: Option<&[u8]> = None;
    let mut codings: Vec<String> = Vec::new();
    let mut chunked = false;
    for h in req.headers.iter() {
        if h.name.eq_ignore_ascii_case("transfer-encoding") {
            if req.version == Some(0) {
                return Some("Transfer-Encoding in an HTTP/1.0 request, which has no transfer codings (RFC 9112 §6.1)".into());
            }
            let value = String::from_utf8_lossy(h.value);
            codings.extend(value.split(',').map(|c| c.trim().to_ascii_lowercase()));
            chunked = value
                .rsplit(',')
                .next()
                .is_some_and(|c| c.trim().eq_ignore_ascii_case("chunked"));
        } else if h.name.eq_ignore_ascii_case("content-length") && codings.is_empty() {
            let value = h.value;
            if value.is_empty() || !value.iter().all(u8::is_ascii_digit) || value.len() > 19 {
                return Some(format!(
                    "Content-Length {:?} is not one length (RFC 9112 §6.3): its length is ambiguous, so the tap does not forward it",
                    String::from_utf8_lossy(value)
                ));
            }
            if length.is_some_and(|l| l != value) {
                return Some("a request with differing Content-Length values: its length is ambiguous (RFC 9112 §6.3), so the tap does not forward it".into());
            }
            length = Some(value);
        }
    }
    (!codings.is_empty() && !chunked).then(|| {
        format!(
            "Transfer-Encoding {:?} does not end in chunked: the tap reads only chunked request bodies (RFC 9112 §6.3)",
            codings.join(", ")
        )
    })
}

/// The body of an answer from the tap itself (never from the upstream).
pub(super) fn error_json(message: &str) -> String {
    serde_json::json!({"error": {"type": "tap_error", "message": message}}).to_string()
}

/// The tap's answer to a refused head: its status, a JSON body saying
/// why, and the connection closed.
fn answer(status: u16, why: &str) -> Vec<u8> {
    let reason = match status {
        414 => "URI Too Long",
        431 => "Request Header Fields Too Large",
        _ => "Bad Request",
    };
    let body = error_json(why);
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        loop {
            // A refused head: the answer written, then the end for hyper.
            if let Some((bytes, at)) = &mut this.answer {
                while *at < bytes.len() {
                    match ready!(Pin::new(&mut this.inner).poll_write(cx, &bytes[*at..]))? {
                        0 => break,
                        n => *at += n,
                    }
                }
                let _ = ready!(Pin::new(&mut this.inner).poll_shutdown(cx));
                return Poll::Ready(Ok(()));
            }
            if this.passing {
                let n = (this.held.len() - this.given).min(buf.remaining());
                buf.put_slice(&this.held[this.given..this.given + n]);
                this.given += n;
                if this.given == this.held.len() {
                    this.held.clear();
                    this.given = 0;
                    this.passing = false;
                }
                return Poll::Ready(Ok(()));
            }
            if !this.next.load(Ordering::Acquire) {
                return Pin::new(&mut this.inner).poll_read(cx, buf);
            }
            let mut chunk = [0u8; 8192];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            if read.filled().is_empty() {
                // The agent stopped sending: what was held goes on to hyper.
                this.next.store(false, Ordering::Release);
                if this.held.is_empty() {
                    return Poll::Ready(Ok(()));
                }
                this.passing = true;
                continue;
            }
            this.held.extend_from_slice(read.filled());
            match verdict(&this.held, this.first) {
                Verdict::Wait => {}
                Verdict::Pass => {
                    this.next.store(false, Ordering::Release);
                    this.first = false;
                    this.passing = true;
                }
                Verdict::Refuse(status, why) => this.answer = Some((answer(status, &why), 0)),
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(rest: &str) -> Vec<u8> {
        format!("POST /v1/messages HTTP/1.1\r\nHost: x\r\n{rest}\r\n").into_bytes()
    }

    #[test]
    fn heads_hyper_refuses_are_refused_with_the_reason_and_others_pass() {
        let refused = |rest: &str| match verdict(&head(rest), true) {
            Verdict::Refuse(status, why) => (status, why),
            other => panic!("{rest:?}: {other:?}"),
        };
        assert!(
            refused("Transfer-Encoding: gzip\r\n")
                .1
                .contains("\"gzip\" does not end in chunked")
        );
        assert!(
            refused("Transfer-Encoding: chunked, gzip\r\n")
                .1
                .contains("does not end in chunked")
        );
        assert!(
            refused("Content-Length: 5, 4\r\n")
                .1
                .contains("is not one length")
        );
        assert!(
            refused("Content-Length: 5\r\nContent-Length: 4\r\n")
                .1
                .contains("differing")
        );
        assert!(refused("Bad Header: x\r\n").1.contains("not HTTP/1.1"));
        let many: String = (0..200).map(|i| format!("X-{i}: 1\r\n")).collect();
        assert_eq!(refused(&many).0, 431);
        let http10 = b"POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert!(
            matches!(verdict(http10, true), Verdict::Refuse(400, why) if why.contains("HTTP/1.0"))
        );
        // What hyper takes goes on: the tap's own checks say the rest.
        for rest in [
            "Content-Length: 5\r\n",
            "Content-Length: 5\r\nContent-Length: 5\r\n",
            "Transfer-Encoding: chunked\r\n",
            "Transfer-Encoding: gzip, chunked\r\n",
            "Transfer-Encoding: chunked\r\nContent-Length: x\r\n",
        ] {
            assert_eq!(verdict(&head(rest), true), Verdict::Pass, "{rest:?}");
        }
        assert_eq!(
            verdict(b"POST /v1/messages HTTP/1.1\r\nHost:", true),
            Verdict::Wait
        );
        // Not surely at a head's start: what does not read is hyper's.
        assert_eq!(verdict(b"ontent-Length: 5\r\n\r\n", false), Verdict::Pass);
    }

    /// A head that arrives in pieces waits for the rest, wherever it is
    /// cut: no prefix of a good head is refused.
    #[test]
    fn every_prefix_of_a_good_head_waits() {
        let whole = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 123\r\nConnection: close\r\n\r\n";
        for cut in 1..whole.len() {
            assert_eq!(
                verdict(&whole[..cut], true),
                Verdict::Wait,
                "{:?}",
                String::from_utf8_lossy(&whole[..cut])
            );
        }
        assert_eq!(verdict(whole, true), Verdict::Pass);
    }

    /// What hyper reads through `Guarded` when a good head arrives in
    /// three pieces, each sent after the one before was surely read.
    fn through_guarded(pieces: &[&[u8]]) -> Vec<u8> {
        use tokio::io::AsyncReadExt;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let pieces: Vec<Vec<u8>> = pieces.iter().map(|p| p.to_vec()).collect();
        let agent = std::thread::spawn(move || {
            use std::io::Write;
            let mut s = std::net::TcpStream::connect(addr).unwrap();
            s.set_nodelay(true).unwrap();
            for piece in pieces {
                s.write_all(&piece).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
        });
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let read = runtime.block_on(async move {
            listener.set_nonblocking(true).unwrap();
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            let (stream, _) = listener.accept().await.unwrap();
            let (mut guarded, _next) = Guarded::new(stream);
            let mut read = Vec::new();
            guarded.read_to_end(&mut read).await.unwrap();
            read
        });
        agent.join().unwrap();
        read
    }

    /// A head cut in pieces reaches hyper whole, as sent: the pieces
    /// after the first are not read as heads of their own (a client
    /// writing `Content-Length: {}` with `write!` got a 400 that way).
    #[test]
    fn a_head_that_arrives_in_pieces_reaches_hyper_whole() {
        let whole: &[u8] = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 123\r\nConnection: close\r\n\r\n";
        // Cut as `write!` writes it: before the number, after it.
        let at = whole.windows(3).position(|w| w == b"123").unwrap();
        let cuts = [at, at + 3];
        let pieces = [
            &whole[..cuts[0]],
            &whole[cuts[0]..cuts[1]],
            &whole[cuts[1]..],
        ];
        let read = through_guarded(&pieces);
        assert_eq!(
            String::from_utf8_lossy(&read),
            String::from_utf8_lossy(whole)
        );
    }
}
