//! The room's web server: axum on a tokio runtime of its own, made only
//! with `--class` (a lesson without it starts no runtime). Three routes
//! under `/c/TOKEN/`: the page (which gives the phone its device id in a
//! cookie), the events the page listens to (server-sent, the current
//! question first, so a phone that comes back picks it up), and the vote.
//! Everything else, or a wrong token, is 404.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use axum::extract::rejection::JsonRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use tokio::sync::watch;
use tokio_stream::StreamExt as _;

use super::ballots::{Ballots, Bounds, Device, Refused};
use super::talk::{Heard, Showing};

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
/// A vote is `{"step":12,"round":1,"choice":2}`: far below this.
const MAX_BODY: usize = 256;
/// Event streams one device may hold open (a phone with a tab or two).
const STREAMS_PER_DEVICE: usize = 3;
/// The port tried when `--class-addr` names none.
pub const DEFAULT_PORT: u16 = 8737;

/// The running server, held by the event loop; dropping it stops it.
pub struct Room {
    /// The address the phones open (with the class token).
    pub url: String,
    /// What the server says, read with `try_recv` (never waits).
    pub heard: Receiver<Heard>,
    show: watch::Sender<Arc<Showing>>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Room {
    /// Tell the phones what they are shown now, if it changed. Never
    /// waits: a `watch` keeps only the latest value.
    pub fn show(&self, showing: Showing) {
        self.show.send_if_modified(|now| {
            let changed = **now != showing;
            if changed {
                *now = Arc::new(showing);
            }
            changed
        });
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

struct Shared {
    token: String,
    bounds: Bounds,
    ballots: Mutex<Ballots>,
    /// Open event streams per device.
    streams: Mutex<HashMap<Device, usize>>,
    show: watch::Receiver<Arc<Showing>>,
    heard: Mutex<Sender<Heard>>,
}

impl Shared {
    fn tell(&self, heard: Heard) {
        // The app has gone (the program is ending): nothing to tell.
        let _ = lock(&self.heard).send(heard);
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

pub use crate::room::Unopened;

/// Where to listen: `--class-addr` (`HOST:PORT`, an IP address or a
/// port), else every interface on the default port; what was expected
/// when it is none of these.
pub fn listen_addr(addr: Option<&str>) -> Result<SocketAddr, String> {
    let any = IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED);
    let Some(addr) = addr else {
        return Ok(SocketAddr::new(any, DEFAULT_PORT));
    };
    if let Ok(port) = addr.parse::<u16>() {
        return Ok(SocketAddr::new(any, port));
    }
    if let Ok(ip) = addr.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, DEFAULT_PORT));
    }
    addr.parse::<SocketAddr>().map_err(|_| {
        format!(
            "--class-addr {addr:?}: expected HOST:PORT (e.g. 0.0.0.0:8737), an IP address or a port"
        )
    })
}

/// Listen on `listen` and serve the room. The phones are given the
/// machine's LAN address, unless `listen` names one.
pub fn open(listen: SocketAddr, bounds: Bounds) -> Result<Room, Unopened> {
    let host = if listen.ip().is_unspecified() {
        lan_address().ok_or(Unopened::NoNetwork)?
    } else {
        listen.ip()
    };
    let listener = std::net::TcpListener::bind(listen).map_err(|e| match e.kind() {
        std::io::ErrorKind::AddrInUse => Unopened::PortInUse(listen.port()),
        std::io::ErrorKind::AddrNotAvailable => Unopened::NotHere(listen.ip()),
        _ => Unopened::Other(format!("{listen}: {e}")),
    })?;
    let other = |e: std::io::Error| Unopened::Other(e.to_string());
    let port = listener.local_addr().map_err(other)?.port();
    listener.set_nonblocking(true).map_err(other)?;
    let token = token();
    let url = match host {
        IpAddr::V6(v6) => format!("http://[{v6}]:{port}/c/{token}/"),
        IpAddr::V4(v4) => format!("http://{v4}:{port}/c/{token}/"),
    };
    let (show, show_rx) = watch::channel(Arc::new(Showing::Wait));
    let (heard_tx, heard) = std::sync::mpsc::channel();
    let shared = Arc::new(Shared {
        token,
        bounds,
        ballots: Mutex::new(Ballots::default()),
        streams: Mutex::new(HashMap::new()),
        show: show_rx,
        heard: Mutex::new(heard_tx),
    });
    // Two workers: the machine's other work (the terminal) comes first.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("class")
        .enable_all()
        .build()
        .map_err(other)?;
    let app = router(shared);
    runtime.spawn(async move {
        if let Ok(listener) = tokio::net::TcpListener::from_std(listener) {
            let service = app.into_make_service_with_connect_info::<SocketAddr>();
            let _ = axum::serve(listener, service).await;
        }
    });
    Ok(Room {
        url,
        heard,
        show,
        runtime: Some(runtime),
    })
}

/// The address of the interface the default route leaves by: a UDP
/// socket "connected" to a documentation address sends nothing, but the
/// system picks the interface it would use.
fn lan_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_unspecified() && !ip.is_loopback()).then_some(ip)
}

/// 128 random bits, in base32 (26 characters, lower case): the class
/// token no one guesses, and a device id.
fn random() -> u128 {
    let mut bytes = [0u8; 16];
    // Without the system's randomness there is no safe token: the
    // program cannot go on safely, and the kernel always has it.
    getrandom::fill(&mut bytes).expect("the system's random numbers");
    u128::from_le_bytes(bytes)
}

fn token() -> String {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz234567";
    let mut n = random();
    (0..26)
        .map(|_| {
            let c = ALPHABET[(n & 31) as usize] as char;
            n >>= 5;
            c
        })
        .collect()
}

fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/c/{token}", get(to_page))
        .route("/c/{token}/", get(page))
        .route("/c/{token}/app.js", get(script))
        .route("/c/{token}/events", get(events))
        .route("/c/{token}/vote", post(vote))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// The token, compared in time that does not depend on where it differs.
fn admits(shared: &Shared, token: &str) -> bool {
    let (a, b) = (shared.token.as_bytes(), token.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) == 0
}

/// The device id in the request's cookie, if any.
fn device(headers: &HeaderMap) -> Option<Device> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| kv.trim().strip_prefix("d="))
        .and_then(|hex| u128::from_str_radix(hex, 16).ok())
}

fn plain(status: StatusCode, text: &'static str) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], text).into_response()
}

/// Headers of the page and its script: nothing from elsewhere, no
/// referrer carrying the token, never cached.
fn guarded(mut response: Response, content_type: &'static str) -> Response {
    let h = response.headers_mut();
    let csp = "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; \
               connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(csp),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

async fn page(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if !admits(&s, &token) {
        return plain(StatusCode::NOT_FOUND, "not found");
    }
    let known = device(&headers).filter(|d| lock(&s.ballots).knows(*d));
    let mut response = guarded(PAGE.into_response(), "text/html; charset=utf-8");
    if known.is_none() {
        let id = random();
        if !lock(&s.ballots).join(id, from.ip(), Instant::now(), &s.bounds) {
            return plain(StatusCode::TOO_MANY_REQUESTS, "the room is full");
        }
        let cookie = format!(
            "d={id:032x}; Path=/c/{}; HttpOnly; SameSite=Strict; Max-Age=43200",
            s.token
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().insert(header::SET_COOKIE, v);
        }
    }
    response
}

/// The address without its last slash: the page's own address names its
/// script and events relative to it.
async fn to_page(State(s): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    if !admits(&s, &token) {
        return plain(StatusCode::NOT_FOUND, "not found");
    }
    axum::response::Redirect::to(&format!("/c/{token}/")).into_response()
}

async fn script(State(s): State<Arc<Shared>>, Path(token): Path<String>) -> Response {
    if !admits(&s, &token) {
        return plain(StatusCode::NOT_FOUND, "not found");
    }
    guarded(SCRIPT.into_response(), "text/javascript; charset=utf-8")
}

/// Counts a device's open streams; its drop (the phone went away) takes
/// it off, and the app is told how many phones are connected.
struct Presence {
    shared: Arc<Shared>,
    device: Device,
}

impl Presence {
    fn enter(shared: &Arc<Shared>, device: Device) -> Option<Presence> {
        let mut streams = lock(&shared.streams);
        let n = streams.entry(device).or_default();
        if *n >= STREAMS_PER_DEVICE {
            return None;
        }
        *n += 1;
        // Told while held, so the app hears the counts in their order.
        shared.tell(Heard::Present(streams.len()));
        drop(streams);
        Some(Presence {
            shared: shared.clone(),
            device,
        })
    }
}

impl Drop for Presence {
    fn drop(&mut self) {
        let mut streams = lock(&self.shared.streams);
        if let Some(n) = streams.get_mut(&self.device) {
            *n -= 1;
            if *n == 0 {
                streams.remove(&self.device);
            }
        }
        self.shared.tell(Heard::Present(streams.len()));
    }
}

async fn events(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Response {
    if !admits(&s, &token) {
        return plain(StatusCode::NOT_FOUND, "not found");
    }
    let Some(device) = device(&headers).filter(|d| lock(&s.ballots).knows(*d)) else {
        return plain(StatusCode::FORBIDDEN, "open the class page first");
    };
    let Some(presence) = Presence::enter(&s, device) else {
        return plain(StatusCode::TOO_MANY_REQUESTS, "too many open pages");
    };
    // The value now first, then each change.
    let stream = tokio_stream::wrappers::WatchStream::new(s.show.clone()).map(move |showing| {
        let shared = &presence.shared;
        let data = payload(shared, device, &showing);
        Ok::<_, Infallible>(Event::default().data(data))
    });
    let mut response = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// What one phone is shown: the room's view, and its own choices in it.
fn payload(s: &Shared, device: Device, showing: &Showing) -> String {
    let ballots = lock(&s.ballots);
    let mine: Vec<Option<usize>> = match showing {
        Showing::Wait => Vec::new(),
        Showing::Open { step, round, .. } => vec![ballots.mine(device, (*step, *round))],
        Showing::Revealed { step, counts, .. } => (1..=counts.len() as u8)
            .map(|round| ballots.mine(device, (*step, round)))
            .collect(),
    };
    drop(ballots);
    let mut value = serde_json::to_value(showing).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("mine".into(), serde_json::json!(mine));
    }
    value.to_string()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Vote {
    step: usize,
    round: u8,
    choice: usize,
}

async fn vote(
    State(s): State<Arc<Shared>>,
    Path(token): Path<String>,
    headers: HeaderMap,
    body: Result<Json<Vote>, JsonRejection>,
) -> Response {
    if !admits(&s, &token) {
        return plain(StatusCode::NOT_FOUND, "not found");
    }
    let Some(device) = device(&headers) else {
        return plain(StatusCode::FORBIDDEN, "open the class page first");
    };
    let v = match body {
        Ok(Json(v)) => v,
        Err(r) if r.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return plain(StatusCode::PAYLOAD_TOO_LARGE, "too large");
        }
        Err(_) => {
            return plain(
                StatusCode::BAD_REQUEST,
                "expected {\"step\",\"round\",\"choice\"}",
            );
        }
    };
    let open = s.show.borrow().open();
    let mut ballots = lock(&s.ballots);
    let now = Instant::now();
    let counted = ballots.vote(device, (v.step, v.round), v.choice, open, now, &s.bounds);
    // Told while the ballots are held: the app hears the counts in the
    // order they were made, never an older count after a newer one.
    if let Ok(counts) = &counted {
        s.tell(Heard::Tally {
            step: v.step,
            round: v.round,
            counts: counts.clone(),
        });
    }
    drop(ballots);
    match counted {
        Ok(_) => plain(StatusCode::NO_CONTENT, ""),
        Err(Refused::Unknown) => plain(StatusCode::FORBIDDEN, "open the class page first"),
        Err(Refused::Closed) => plain(StatusCode::CONFLICT, "this question is closed"),
        Err(Refused::NoChoice) => plain(StatusCode::BAD_REQUEST, "no such choice"),
        Err(Refused::TooFast) => plain(StatusCode::TOO_MANY_REQUESTS, "too fast"),
    }
}
