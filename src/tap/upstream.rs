//! The upstream: the provider's API (or a local server) that the tap
//! forwards to, over plain TCP or TLS. TLS is rustls (tokio-rustls) with the system's
//! root certificates (rustls-native-certs; `SSL_CERT_FILE` names another
//! bundle, as with OpenSSL).

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use rustls::pki_types::ServerName;

/// How long the upstream may stay silent (connecting, or between two
/// pieces of a stream) before the tap gives up on the call: longer than
/// the agents' own stream timeouts, so theirs decide first.
pub const IDLE: Duration = Duration::from_secs(600);

/// `--upstream URL`, parsed.
#[derive(Debug, Clone)]
pub struct Upstream {
    pub tls: bool,
    pub host: String,
    pub port: u16,
    /// The URL's path without a trailing slash ("" or e.g. "/api").
    pub base: String,
    /// The Host header to send.
    pub authority: String,
    tls_config: Option<Arc<rustls::ClientConfig>>,
}

impl Upstream {
    pub fn parse(url: &str) -> Result<Upstream, String> {
        let err = |why: &str| {
            format!(
                "--upstream {url:?}: {why}; expected a URL such as https://api.openai.com or http://127.0.0.1:8080"
            )
        };
        let (tls, rest) = if let Some(rest) = url.strip_prefix("https://") {
            (true, rest)
        } else if let Some(rest) = url.strip_prefix("http://") {
            (false, rest)
        } else {
            return Err(err("it does not start with http:// or https://"));
        };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if authority.is_empty() || authority.contains('@') {
            return Err(err("it names no host (or has user info)"));
        }
        if path.contains(['?', '#']) {
            return Err(err("it has a query or fragment"));
        }
        let default_port = if tls { 443 } else { 80 };
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            let (h, after) = v6
                .split_once(']')
                .ok_or_else(|| err("an unclosed [IPv6]"))?;
            let port = match after.strip_prefix(':') {
                Some(p) => p.parse().map_err(|_| err("its port is not a number"))?,
                None if after.is_empty() => default_port,
                None => return Err(err("text after the [IPv6] address")),
            };
            (h.to_string(), port)
        } else {
            match authority.rsplit_once(':') {
                Some((h, p)) => (
                    h.to_string(),
                    p.parse().map_err(|_| err("its port is not a number"))?,
                ),
                None => (authority.to_string(), default_port),
            }
        };
        let tls_config = if tls { Some(tls_config()?) } else { None };
        Ok(Upstream {
            tls,
            host,
            port,
            base: path.trim_end_matches('/').to_string(),
            authority: authority.to_string(),
            tls_config,
        })
    }

    /// The request target upstream: the URL's path, then the agent's
    /// (unless the agent's already starts with it).
    pub fn target(&self, path: &str) -> String {
        if self.base.is_empty()
            || path == self.base
            || path
                .strip_prefix(&self.base)
                .is_some_and(|rest| rest.starts_with(['/', '?']))
        {
            path.to_string()
        } else {
            format!("{}{path}", self.base)
        }
    }

    /// A new connection (the TLS handshake done, so a certificate error
    /// is the connect's error).
    pub async fn connect(&self) -> io::Result<Conn> {
        let connect = tokio::net::TcpStream::connect((self.host.as_str(), self.port));
        let tcp = tokio::time::timeout(Duration::from_secs(30), connect)
            .await
            .map_err(|_| io::Error::new(io::ErrorKind::TimedOut, "connecting took over 30 s"))??;
        tcp.set_nodelay(true)?;
        let Some(config) = &self.tls_config else {
            return Ok(Conn::Plain(tcp));
        };
        let name = ServerName::try_from(self.host.clone())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let tls = tokio_rustls::TlsConnector::from(config.clone())
            .connect(name, tcp)
            .await?;
        Ok(Conn::Tls(Box::new(tls)))
    }
}

fn tls_config() -> Result<Arc<rustls::ClientConfig>, String> {
    let found = rustls_native_certs::load_native_certs();
    let mut roots = rustls::RootCertStore::empty();
    let (added, _) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        let why = found
            .errors
            .first()
            .map(|e| format!(" ({e})"))
            .unwrap_or_default();
        return Err(format!(
            "no root certificates found on this system{why}; install ca-certificates or name a PEM bundle with SSL_CERT_FILE"
        ));
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A connection to the upstream.
pub enum Conn {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

impl AsyncRead for Conn {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_read(cx, buf),
            // A peer that closes without close_notify ends a close-delimited
            // body all the same (servers commonly do); the framing decides
            // whether that cut a message short.
            Conn::Tls(s) => match Pin::new(s).poll_read(cx, buf) {
                Poll::Ready(Err(e)) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    Poll::Ready(Ok(()))
                }
                other => other,
            },
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Conn::Tls(s) => Pin::new(s).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_flush(cx),
            Conn::Tls(s) => Pin::new(s).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Conn::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Conn::Tls(s) => Pin::new(s).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upstream_urls_parse_into_host_port_and_base_path() {
        let u = Upstream::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.base.as_str()),
            ("127.0.0.1", 8080, "")
        );
        assert_eq!(u.target("/v1/responses"), "/v1/responses");
        let u = Upstream::parse("http://[::1]/api/").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.base.as_str()),
            ("::1", 80, "/api")
        );
        assert_eq!(u.target("/v1/messages"), "/api/v1/messages");
        assert_eq!(u.target("/api/v1/messages"), "/api/v1/messages");
        for bad in [
            "api.openai.com",
            "ftp://x",
            "http://",
            "http://h:port",
            "http://u@h",
        ] {
            assert!(Upstream::parse(bad).is_err(), "{bad}");
        }
    }
}
