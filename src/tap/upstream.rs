//! The upstream: the provider's API (or a local server) that the tap
//! forwards to, over plain TCP or TLS. TLS is rustls with the system's
//! root certificates (rustls-native-certs; `SSL_CERT_FILE` names another
//! bundle, as with OpenSSL).

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

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

    /// A new connection.
    pub fn connect(&self) -> io::Result<Conn> {
        let addr = (self.host.as_str(), self.port)
            .to_socket_addrs()?
            .next()
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no address for the host"))?;
        let tcp = TcpStream::connect_timeout(&addr, Duration::from_secs(30))?;
        tcp.set_nodelay(true)?;
        tcp.set_read_timeout(Some(IDLE))?;
        tcp.set_write_timeout(Some(IDLE))?;
        let Some(config) = &self.tls_config else {
            return Ok(Conn::Plain(tcp));
        };
        let name = ServerName::try_from(self.host.clone())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let conn = rustls::ClientConnection::new(config.clone(), name)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let mut stream = rustls::StreamOwned::new(conn, tcp);
        // The handshake now, so a certificate error is the connect's error.
        while stream.conn.is_handshaking() {
            stream.conn.complete_io(&mut stream.sock)?;
        }
        Ok(Conn::Tls(Box::new(stream)))
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
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(s) => s.read(buf),
            // A peer that closes without close_notify ends a close-delimited
            // body all the same (servers commonly do); the framing decides
            // whether that cut a message short.
            Conn::Tls(s) => match s.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(0),
                other => other,
            },
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Conn::Plain(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Conn::Plain(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
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
