//! The tap's HTTP, on hyper: hyper reads the agent's requests and frames
//! the answers (RFC 9112), hyper's client talks to the upstream. What the
//! tap adds is what a reverse proxy must decide for itself:
//!
//! - framing (RFC 9112 §6.1, §6.3, against request smuggling): differing
//!   `Content-Length`s and a transfer coding other than `chunked` get a
//!   400 and the connection is closed. hyper refuses some heads itself
//!   before any service runs (a final coding that is not chunked, a
//!   `Content-Length` that is not one number, a malformed or oversized
//!   head) with a bare 400, 414 or 431 and no hook for it; `head.rs` reads
//!   each head first and answers those with the reason instead;
//!   `Content-Length` beside `Transfer-Encoding` is dropped by hyper,
//!   which reads the body by `Transfer-Encoding` alone and closes the
//!   connection after the answer (the RFC's other choice; were both ever
//!   to reach the tap, it answers 400). The body goes upstream with one
//!   `Content-Length` of its own;
//! - targets it will not forward: only origin-form paths (`/v1/…`) go on;
//!   an absolute URI, `*`, `@host` or CONNECT (a forward proxy's or a
//!   tunnel's) get a 400 that says so;
//! - limits (`Limits`): a request head must arrive whole within
//!   `--head-timeout` (20 s) and fit in `MAX_HEAD`; at most
//!   `--max-connections` (512) connections are served at once, the next
//!   ones get a 503 and are closed (fewer where the descriptor limit
//!   allows fewer: two a connection, and some to spare to answer);
//!   running out of file descriptors pauses accepting instead of spinning;
//! - pass-through: the request body is read whole (it is recorded before it
//!   goes on), the response is streamed, each piece written to the agent as
//!   soon as it is read, and fed to the recording on the way.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited, combinators::BoxBody};
use hyper::body::{Body, Frame, Incoming};
use hyper::header::{self, HeaderMap, HeaderName, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::Semaphore;

use super::head::{MAX_HEAD, MAX_HEADERS, error_json};
use super::record::{Call, Recorder, classify, now_ms, recorded_path};
use super::upstream::{IDLE, Upstream};
use crate::output;

/// The tap's limits, from the command line.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// How long a request head may take to arrive whole (and a kept-alive
    /// connection may stay idle): half-sent heads are dropped after it.
    pub head_timeout: Duration,
    /// Connections served at once; real agents open a handful.
    pub connections: usize,
}

/// The largest request body the tap reads (it holds each whole).
const MAX_BODY: usize = 256 * 1024 * 1024;
/// How long a request body may take to arrive whole.
const BODY_TIMEOUT: Duration = Duration::from_secs(120);

type BoxError = Box<dyn std::error::Error + Send + Sync>;
type ProxyBody = BoxBody<Bytes, BoxError>;

/// Serves the agent's connections on `listener` until the process ends.
pub fn accept(
    listener: std::net::TcpListener,
    upstream: Arc<Upstream>,
    recorder: Arc<Recorder>,
    limits: Limits,
) {
    // One thread: a piece of a stream goes from the upstream's connection
    // to the agent's without waking another thread (the tap serves a
    // handful of agents; `benches/tap.rs` measures the latency per piece).
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            output::error(format_args!("tap: cannot start its HTTP server: {e}"));
            return;
        }
    };
    // Each connection served holds two descriptors (the agent's and the
    // upstream's), and one more must stay free to answer 503: the limit
    // never promises more than the descriptors allow.
    let descriptors = raise_descriptor_limit();
    let limits = Limits {
        connections: limits
            .connections
            .min(descriptors.saturating_sub(64) / 2)
            .max(1),
        ..limits
    };
    runtime.block_on(serve_all(listener, upstream, recorder, limits));
}

/// The soft limit on descriptors (often 1,024) raised to the hard one;
/// the limit now in force.
fn raise_descriptor_limit() -> usize {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit(2) and setrlimit(2) on a local struct.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return usize::MAX;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit {
                rlim_cur: limit.rlim_max,
                ..limit
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

async fn serve_all(
    listener: std::net::TcpListener,
    upstream: Arc<Upstream>,
    recorder: Arc<Recorder>,
    limits: Limits,
) {
    let listener = match listener
        .set_nonblocking(true)
        .and_then(|()| tokio::net::TcpListener::from_std(listener))
    {
        Ok(l) => l,
        Err(e) => {
            output::error(format_args!("tap: cannot listen: {e}"));
            return;
        }
    };
    let permits = Arc::new(Semaphore::new(limits.connections));
    loop {
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            // Out of descriptors (or another passing failure): wait for
            // connections to close rather than spin on the error.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tokio::spawn(busy(stream, limits.connections));
            continue;
        };
        let (upstream, recorder) = (upstream.clone(), recorder.clone());
        // The heads hyper would refuse bare are answered with the reason.
        let (stream, next) = super::head::Guarded::new(stream);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let (upstream, recorder, next) = (upstream.clone(), recorder.clone(), next.clone());
                async move { Ok::<_, Infallible>(exchange(req, &upstream, &recorder, &next).await) }
            });
            let _ = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.head_timeout)
                .max_buf_size(MAX_HEAD)
                .max_headers(MAX_HEADERS)
                .preserve_header_case(true)
                .serve_connection(TokioIo::new(stream), service)
                .await;
            drop(permit);
        });
    }
}

/// A connection over the limit: a 503 that says why, then closed.
async fn busy(mut stream: tokio::net::TcpStream, most: usize) {
    let body = error_json(&format!(
        "the tap serves at most {most} connections at once (--max-connections); try again when one closes"
    ));
    let text = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let write = stream.write_all(text.as_bytes());
    let _ = tokio::time::timeout(Duration::from_secs(5), write).await;
    let _ = stream.shutdown().await;
    // What the agent is still sending is read and dropped for a moment, so
    // its writes do not fail (a reset) before it reads the answer.
    let drain = async {
        let mut buf = [0u8; 16 * 1024];
        let mut left: usize = 1 << 20;
        while left > 0 {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
}

/// A plain error answer from the tap itself (never from the upstream);
/// `close`: the connection ends after it.
fn answer(status: StatusCode, message: &str, close: bool) -> Response<ProxyBody> {
    let body = Full::new(Bytes::from(error_json(message)))
        .map_err(|never| match never {})
        .boxed();
    let mut response = Response::new(body);
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    if close {
        headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

/// Why the tap will not forward this request, if it will not: its
/// framing or its target.
pub fn refused(method: &Method, target: &str, headers: &HeaderMap) -> Option<String> {
    if method == Method::CONNECT {
        return Some(
            "CONNECT asks for a tunnel; the tap forwards model calls to its upstream only".into(),
        );
    }
    if !target.starts_with('/') {
        return Some(format!(
            "the request target {target:?} is not a path: the tap forwards paths (/v1/…) to its upstream, not absolute URLs or other hosts"
        ));
    }
    let lengths: Vec<&[u8]> = headers
        .get_all(header::CONTENT_LENGTH)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(<[u8]>::trim_ascii)
        .collect();
    let codings: Vec<String> = headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .flat_map(|v| v.to_str().unwrap_or("?").split(','))
        .map(|c| c.trim().to_ascii_lowercase())
        .collect();
    if !codings.is_empty() && !lengths.is_empty() {
        return Some("a request with both Transfer-Encoding and Content-Length: its length is ambiguous (RFC 9112 §6.1, request smuggling), so the tap does not forward it".into());
    }
    if lengths.windows(2).any(|w| w[0] != w[1]) {
        return Some("a request with differing Content-Length values: its length is ambiguous (RFC 9112 §6.3), so the tap does not forward it".into());
    }
    if !codings.is_empty() && codings != ["chunked"] {
        return Some(format!(
            "Transfer-Encoding {:?}: the tap reads only chunked request bodies (RFC 9112 §6.3)",
            codings.join(", ")
        ));
    }
    None
}

/// Headers of one connection only (RFC 9110 §7.6.1), never forwarded,
/// with those the tap sets itself.
const HOP_BY_HOP: [HeaderName; 8] = [
    header::CONNECTION,
    HeaderName::from_static("keep-alive"),
    HeaderName::from_static("proxy-connection"),
    header::TE,
    header::TRANSFER_ENCODING,
    header::UPGRADE,
    header::TRAILER,
    header::EXPECT,
];

/// `headers` less the hop-by-hop ones, including those `Connection` names.
fn end_to_end(headers: &HeaderMap) -> HeaderMap {
    let named: Vec<HeaderName> = headers
        .get_all(header::CONNECTION)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|n| HeaderName::from_bytes(n.trim().as_bytes()).ok())
        .collect();
    let mut out = headers.clone();
    for name in HOP_BY_HOP.iter().chain(&named) {
        out.remove(name);
    }
    out
}

/// One request and its response.
/// `next` is set once the request's body is read whole: the next bytes
/// on the connection start the next head (`head::Guarded`).
async fn exchange(
    req: Request<Incoming>,
    upstream: &Upstream,
    recorder: &Arc<Recorder>,
    next: &std::sync::atomic::AtomicBool,
) -> Response<ProxyBody> {
    let target = req
        .uri()
        .path_and_query()
        .map_or(req.uri().to_string(), |p| p.as_str().to_string());
    let target = match req.uri().scheme() {
        Some(_) => req.uri().to_string(),
        None => target,
    };
    if let Some(why) = refused(req.method(), &target, req.headers()) {
        return answer(StatusCode::BAD_REQUEST, &why, true);
    }
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(BODY_TIMEOUT, Limited::new(body, MAX_BODY).collect()).await;
    let content = match read {
        Ok(Ok(collected)) => {
            next.store(true, std::sync::atomic::Ordering::Release);
            collected.to_bytes()
        }
        Ok(Err(e)) => {
            let why = match e.downcast_ref::<http_body_util::LengthLimitError>() {
                Some(_) => format!(
                    "a request body over {} MiB: the tap holds each body whole to record it",
                    MAX_BODY >> 20
                ),
                None => format!("the tap could not read the request body: {e}"),
            };
            return answer(StatusCode::BAD_REQUEST, &why, true);
        }
        Err(_) => {
            let why = format!(
                "the request body did not arrive whole within {} s",
                BODY_TIMEOUT.as_secs()
            );
            return answer(StatusCode::REQUEST_TIMEOUT, &why, true);
        }
    };
    let call = begin(recorder, &parts, &content);
    let end = |cut: Option<&str>| {
        if let Some((id, _)) = &call {
            recorder.end(*id, cut);
        }
    };
    let response = match send(upstream, parts, content).await {
        Ok(r) => r,
        Err(why) => {
            end(Some(&why));
            return answer(StatusCode::BAD_GATEWAY, &why, false);
        }
    };
    let (mut head, body) = response.into_parts();
    let event_stream = head
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .is_some_and(|t| t.to_ascii_lowercase().starts_with("text/event-stream"));
    if let Some((_, c)) = &call {
        lock(c).respond(head.status.as_u16(), event_stream);
    }
    head.headers = end_to_end(&head.headers);
    let body = Recorded {
        body,
        call: call.map(|(id, c)| (id, c, recorder.clone())),
        idle: Box::pin(tokio::time::sleep(IDLE)),
        cut: None,
    };
    Response::from_parts(head, body.boxed())
}

fn lock(call: &Mutex<Call>) -> std::sync::MutexGuard<'_, Call> {
    call.lock().unwrap_or_else(|e| e.into_inner())
}

/// The recording of a model call begins: its request as sent.
fn begin(
    recorder: &Recorder,
    parts: &hyper::http::request::Parts,
    content: &Bytes,
) -> Option<(u64, Arc<Mutex<Call>>)> {
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let (provider, side) = classify(parts.method.as_str(), path)?;
    let encoded = parts
        .headers
        .get(header::CONTENT_ENCODING)
        .and_then(|e| e.to_str().ok())
        .filter(|e| !e.eq_ignore_ascii_case("identity"));
    let request = match encoded {
        Some(e) => Value::String(format!(
            "[a request body in content-encoding {e}, {} bytes: the tap records bodies it can read as sent, and does not decode this one]",
            content.len()
        )),
        None => serde_json::from_slice(content)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(content).into_owned())),
    };
    let mut call = Call::new(provider, &recorded_path(path), request, now_ms());
    call.side = side.map(str::to_string);
    Some(recorder.begin(call))
}

/// The request, upstream: its body byte for byte, its end-to-end headers
/// as sent except `Host` (the upstream's) and `Accept-Encoding: identity`
/// (so the recording can read the response); one connection a request.
async fn send(
    upstream: &Upstream,
    parts: hyper::http::request::Parts,
    content: Bytes,
) -> Result<Response<Incoming>, String> {
    let path = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    let mut req = Request::new(Full::new(content));
    *req.method_mut() = parts.method.clone();
    *req.uri_mut() = upstream
        .target(path)
        .parse()
        .map_err(|e| format!("the tap could not form the upstream target: {e}"))?;
    let mut headers = end_to_end(&parts.headers);
    headers.remove(header::CONTENT_LENGTH);
    let host = HeaderValue::from_str(&upstream.authority)
        .map_err(|e| format!("the upstream's host is not a header value: {e}"))?;
    headers.insert(header::HOST, host);
    headers.insert(
        header::ACCEPT_ENCODING,
        HeaderValue::from_static("identity"),
    );
    *req.headers_mut() = headers;
    let cannot =
        |e: &dyn std::fmt::Display| format!("the tap could not send the request upstream: {e}");
    let io = upstream.connect().await.map_err(|e| {
        format!(
            "the tap could not send the request upstream: {}",
            output::io_reason(&e)
        )
    })?;
    let (mut sender, conn) = hyper::client::conn::http1::Builder::new()
        .preserve_header_case(true)
        .handshake::<_, Full<Bytes>>(TokioIo::new(io))
        .await
        .map_err(|e| cannot(&e))?;
    tokio::spawn(conn);
    match tokio::time::timeout(IDLE, sender.send_request(req)).await {
        Ok(Ok(response)) => Ok(response),
        Ok(Err(e)) if e.is_incomplete_message() => {
            Err("the upstream closed the connection without an answer".into())
        }
        Ok(Err(e)) => Err(cannot(&e)),
        Err(_) => Err(format!(
            "the upstream sent nothing for {} s",
            IDLE.as_secs()
        )),
    }
}

/// The upstream's response body on its way to the agent, each piece fed
/// to the recording as it passes; the call ends with the body (whole,
/// cut by the upstream, silent too long, or dropped because the agent
/// went away).
struct Recorded {
    body: Incoming,
    call: Option<(u64, Arc<Mutex<Call>>, Arc<Recorder>)>,
    idle: Pin<Box<tokio::time::Sleep>>,
    /// Why the body was cut, given to hyper at the next poll: the pieces
    /// before the cut are written to the agent first (an error at once
    /// would drop those hyper has not flushed yet).
    cut: Option<BoxError>,
}

impl Recorded {
    fn end(&mut self, cut: Option<&str>) {
        if let Some((id, _, recorder)) = self.call.take() {
            recorder.end(id, cut);
        }
    }
}

impl Body for Recorded {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        let this = &mut *self;
        // An error cuts the body: hyper closes the agent's connection.
        if let Some(cut) = this.cut.take() {
            return Poll::Ready(Some(Err(cut)));
        }
        let polled = Pin::new(&mut this.body).poll_frame(cx);
        let frame = match polled {
            Poll::Pending => {
                ready!(this.idle.as_mut().poll(cx));
                let why = format!("the upstream sent nothing for {} s", IDLE.as_secs());
                this.end(Some(&why));
                return Poll::Ready(Some(Err(why.into())));
            }
            Poll::Ready(frame) => frame,
        };
        this.idle.as_mut().reset(tokio::time::Instant::now() + IDLE);
        match &frame {
            Some(Ok(f)) => {
                if let (Some(data), Some((_, call, _))) = (f.data_ref(), &this.call) {
                    lock(call).content(data);
                }
                // A body of known length ends with its last piece: hyper
                // does not ask for more.
                if this.body.is_end_stream() {
                    this.end(None);
                }
            }
            Some(Err(e)) => {
                let why = if cut_short(e) {
                    "the upstream closed the connection before the response ended".to_string()
                } else {
                    format!("the upstream connection failed: {e}")
                };
                this.end(Some(&why));
                // Pending once, so hyper flushes what it holds first.
                this.cut = Some(why.into());
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            None => this.end(None),
        }
        Poll::Ready(frame.map(|f| f.map_err(BoxError::from)))
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

impl Drop for Recorded {
    fn drop(&mut self) {
        // Dropped whole (an empty body is never polled), or before its end.
        let cut = (!self.body.is_end_stream())
            .then_some("the agent closed the connection during the response");
        self.end(cut);
    }
}

/// Did the upstream close the connection inside the body?
fn cut_short(e: &hyper::Error) -> bool {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(c) = cause {
        let eof = c
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::UnexpectedEof);
        if eof {
            return true;
        }
        cause = c.source();
    }
    e.is_incomplete_message()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(list: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (n, v) in list {
            map.append(
                HeaderName::from_bytes(n.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        map
    }

    #[test]
    fn conflicting_framing_and_foreign_targets_are_refused_with_a_reason() {
        let post = Method::POST;
        let ok = |h: &[(&str, &str)]| refused(&post, "/v1/messages", &headers(h));
        assert_eq!(ok(&[("content-length", "5")]), None);
        assert_eq!(ok(&[("transfer-encoding", "chunked")]), None);
        assert_eq!(
            ok(&[("content-length", "5"), ("content-length", "5")]),
            None
        );
        for bad in [
            &[("content-length", "5"), ("transfer-encoding", "chunked")][..],
            &[("content-length", "5"), ("content-length", "6")],
            &[("content-length", "5, 6")],
            &[("transfer-encoding", "gzip, chunked")],
            &[("transfer-encoding", "chunked"), ("transfer-encoding", "x")],
        ] {
            assert!(
                ok(bad).is_some_and(|why| why.contains("RFC 9112")),
                "{bad:?}"
            );
        }
        for target in ["http://evil.example/v1/x", "@evil.example/x", "*"] {
            assert!(
                refused(&post, target, &HeaderMap::new()).is_some(),
                "{target}"
            );
        }
        assert!(refused(&Method::CONNECT, "/", &HeaderMap::new()).is_some());
    }

    #[test]
    fn hop_by_hop_headers_and_those_connection_names_are_not_forwarded() {
        let h = headers(&[
            ("connection", "close, x-private"),
            ("x-private", "1"),
            ("keep-alive", "timeout=5"),
            ("authorization", "Bearer k"),
            ("transfer-encoding", "chunked"),
        ]);
        let out = end_to_end(&h);
        let names: Vec<&str> = out.keys().map(|k| k.as_str()).collect();
        assert_eq!(names, ["authorization"]);
    }
}
