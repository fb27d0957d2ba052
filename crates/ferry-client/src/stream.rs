//! The client's socket: Unix, TCP, TLS over TCP, QUIC, or a conversation's share of a socket
//! (`shared.rs`), behind one type with a reading half (the
//! caller's thread) and a writing half (the caller's thread or the flusher), made by `try_clone`.
//!
//! TLS: rustls keeps one connection state for both directions, shared behind a mutex. The mutex
//! is held only to encrypt or decrypt, never across socket I/O, so a reader blocked on the socket
//! never stalls a writer. Records leave in order because every write goes through the client's
//! single write buffer lock.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::{Buf, BytesMut};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName};

/// TLS settings for `tls://` connections.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsOptions {
    /// PEM file with the CA certificates trusted to sign the server's certificate.
    pub ca: PathBuf,
    /// The name the server's certificate must carry (default: the host of the address).
    pub server_name: Option<String>,
    /// PEM files with this client's certificate chain and key, for servers that require client
    /// certificates.
    pub client_cert: Option<(PathBuf, PathBuf)>,
}

/// One side of a connection's socket.
#[derive(Debug)]
pub(crate) enum Stream {
    Unix(UnixStream),
    Tcp(TcpStream),
    Tls(TlsStream),
    Quic(crate::quic::QuicStream),
    /// A conversation on a socket shared with others (`shared.rs`).
    Shared(crate::shared::ConvStream),
}

impl Stream {
    /// The TCP socket under a tcp or tls stream (for socket options and TCP_INFO).
    pub(crate) fn tcp_fd(&self) -> Option<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        match self {
            Stream::Unix(_) => None,
            Stream::Tcp(s) => Some(s.as_raw_fd()),
            Stream::Tls(t) => Some(t.sock.as_raw_fd()),
            Stream::Quic(_) | Stream::Shared(_) => None,
        }
    }

    /// Ends the socket both ways (a blocked reader of it wakes to its end).
    pub(crate) fn shutdown(&self) {
        use std::net::Shutdown;
        let _ = match self {
            Stream::Unix(s) => s.shutdown(Shutdown::Both),
            Stream::Tcp(s) => s.shutdown(Shutdown::Both),
            Stream::Tls(t) => t.sock.shutdown(Shutdown::Both),
            Stream::Quic(_) | Stream::Shared(_) => Ok(()),
        };
    }
}

pub(crate) struct TlsStream {
    conn: Arc<Mutex<rustls::ClientConnection>>,
    sock: TcpStream,
    /// Decrypted bytes not yet handed to the reader.
    plain: BytesMut,
}

impl std::fmt::Debug for TlsStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TlsStream")
            .field("sock", &self.sock)
            .finish()
    }
}

fn invalid(e: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e.to_string())
}

impl Stream {
    /// Connects TLS over an established TCP socket and completes the handshake.
    pub fn tls(mut sock: TcpStream, host: &str, opts: &TlsOptions) -> io::Result<Stream> {
        let config = client_config(opts)?;
        let name = opts.server_name.clone().unwrap_or_else(|| host.to_owned());
        let name = ServerName::try_from(name).map_err(invalid)?;
        let mut conn = rustls::ClientConnection::new(config, name).map_err(invalid)?;
        while conn.is_handshaking() {
            conn.complete_io(&mut sock)?;
        }
        Ok(Stream::Tls(TlsStream {
            conn: Arc::new(Mutex::new(conn)),
            sock,
            plain: BytesMut::new(),
        }))
    }

    pub fn set_read_timeout(&mut self, d: Option<Duration>) -> io::Result<()> {
        match self {
            Stream::Unix(s) => s.set_read_timeout(d),
            Stream::Tcp(s) => s.set_read_timeout(d),
            Stream::Tls(t) => t.sock.set_read_timeout(d),
            Stream::Quic(q) => {
                q.set_read_timeout(d);
                Ok(())
            }
            Stream::Shared(c) => {
                c.set_read_timeout(d);
                Ok(())
            }
        }
    }

    fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        match self {
            Stream::Unix(s) => s.set_nonblocking(on),
            Stream::Tcp(s) => s.set_nonblocking(on),
            Stream::Tls(t) => t.sock.set_nonblocking(on),
            Stream::Quic(_) | Stream::Shared(_) => Ok(()),
        }
    }

    /// Reads whatever has already arrived, without waiting. The writing half shares the socket,
    /// so it tolerates the moment the socket is non-blocking (see [`write_fully`]).
    pub fn read_now(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Stream::Tls(t) = self {
            if !t.plain.is_empty() {
                return t.read(buf);
            }
        }
        if let Stream::Quic(q) = self {
            return q.read_within(buf, Some(Duration::ZERO));
        }
        if let Stream::Shared(c) = self {
            return c.read_from_pipe(buf, false);
        }
        self.set_nonblocking(true)?;
        let r = self.read(buf);
        self.set_nonblocking(false)?;
        r
    }

    pub fn try_clone(&self) -> io::Result<Stream> {
        Ok(match self {
            Stream::Unix(s) => Stream::Unix(s.try_clone()?),
            Stream::Tcp(s) => Stream::Tcp(s.try_clone()?),
            Stream::Tls(t) => Stream::Tls(TlsStream {
                conn: t.conn.clone(),
                sock: t.sock.try_clone()?,
                plain: BytesMut::new(),
            }),
            Stream::Quic(q) => Stream::Quic(q.try_clone()),
            Stream::Shared(c) => Stream::Shared(c.clone()),
        })
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.read(buf),
            Stream::Tcp(s) => s.read(buf),
            Stream::Tls(t) => t.read(buf),
            Stream::Quic(q) => q.read(buf),
            Stream::Shared(c) => c.read_from_pipe(buf, true),
        }
    }
}

impl Read for TlsStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if !self.plain.is_empty() {
                let n = buf.len().min(self.plain.len());
                buf[..n].copy_from_slice(&self.plain[..n]);
                self.plain.advance(n);
                return Ok(n);
            }
            let mut raw = [0u8; 16 * 1024];
            let n = self.sock.read(&mut raw)?;
            if n == 0 {
                return Ok(0);
            }
            let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
            let mut rd = &raw[..n];
            while !rd.is_empty() {
                conn.read_tls(&mut rd)?;
                let state = conn.process_new_packets().map_err(invalid)?;
                let mut want = state.plaintext_bytes_to_read();
                while want > 0 {
                    let start = self.plain.len();
                    self.plain.resize(start + want, 0);
                    let got = conn.reader().read(&mut self.plain[start..])?;
                    self.plain.truncate(start + got);
                    if got == 0 {
                        break;
                    }
                    want -= got;
                }
                if state.peer_has_closed() && self.plain.is_empty() {
                    return Ok(0);
                }
            }
        }
    }
}

impl TlsStream {
    /// Encrypts all of `buf` into TLS records. rustls takes at most its buffer limit (64 KiB)
    /// of plaintext at a time, so a larger frame goes in pieces, each sealed before the next.
    fn seal(&self, buf: &[u8]) -> io::Result<Vec<u8>> {
        let mut records = Vec::with_capacity(buf.len() + buf.len() / 512 + 64);
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let mut rest = buf;
        while !rest.is_empty() {
            let n = conn.writer().write(rest)?;
            while conn.wants_write() {
                conn.write_tls(&mut records)?;
            }
            if n == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the TLS connection accepted no more data",
                ));
            }
            rest = &rest[n..];
        }
        Ok(records)
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Unix(s) => s.write(buf),
            Stream::Tcp(s) => s.write(buf),
            Stream::Tls(t) => {
                let records = t.seal(buf)?;
                write_fully(&mut t.sock, &records)?;
                Ok(buf.len())
            }
            Stream::Quic(q) => q.write(buf),
            Stream::Shared(c) => c.send(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `write_all` that rides out the instants when the reading half has made the shared socket
/// non-blocking.
pub(crate) fn write_fully(w: &mut impl Write, mut buf: &[u8]) -> io::Result<()> {
    while !buf.is_empty() {
        match w.write(buf) {
            Ok(0) => {
                return Err(io::Error::new(
                    io::ErrorKind::WriteZero,
                    "the socket accepted nothing",
                ))
            }
            Ok(n) => buf = &buf[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_micros(20))
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Opens a TCP connection, with the error a person can act on.
pub(crate) fn connect_tcp(addr: &str) -> ferry_model::MqResult<TcpStream> {
    let s = TcpStream::connect(addr).map_err(|e| {
        ferry_model::MqError::new(
            ferry_model::Reason::QMgrNotAvailable,
            format!("cannot connect to {addr}: {e}; is the queue manager listening there?"),
        )
    })?;
    let _ = s.set_nodelay(true);
    Ok(s)
}

/// Opens a TLS 1.3 connection over TCP and completes the handshake.
pub(crate) fn connect_tls(
    addr: &str,
    opts: &crate::ClientOptions,
) -> ferry_model::MqResult<Stream> {
    use ferry_model::{MqError, Reason};
    let Some(tls) = &opts.tls else {
        return Err(MqError::new(
            Reason::OptionsError,
            "a tls:// connection needs TLS options (at least the CA that signs the server's certificate)",
        ));
    };
    let s = connect_tcp(addr)?;
    let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
    let host = addr
        .rsplit_once(':')
        .map_or(addr, |(h, _)| h)
        .trim_matches(['[', ']']);
    Stream::tls(s, host, tls).map_err(|e| {
        MqError::new(
            Reason::QMgrNotAvailable,
            format!("the TLS handshake with {addr} failed: {e}"),
        )
    })
}

/// The rustls client configuration for these options: TLS 1.3 only, the given CA as the only
/// trust root, and the client certificate when one is given.
pub(crate) fn client_config(opts: &TlsOptions) -> io::Result<Arc<rustls::ClientConfig>> {
    client_config_owned(opts).map(Arc::new)
}

/// As [`client_config`], not yet shared (QUIC sets its protocol name on it).
pub(crate) fn client_config_owned(opts: &TlsOptions) -> io::Result<rustls::ClientConfig> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(&opts.ca).map_err(invalid)? {
        roots.add(cert.map_err(invalid)?).map_err(invalid)?;
    }
    let builder = rustls::ClientConfig::builder_with_provider(provider)
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(invalid)?
        .with_root_certificates(roots);
    let config = match &opts.client_cert {
        None => builder.with_no_client_auth(),
        Some((chain, key)) => {
            let chain: Vec<_> = CertificateDer::pem_file_iter(chain)
                .map_err(invalid)?
                .collect::<Result<_, _>>()
                .map_err(invalid)?;
            let key = PrivateKeyDer::from_pem_file(key).map_err(invalid)?;
            builder.with_client_auth_cert(chain, key).map_err(invalid)?
        }
    };
    Ok(config)
}
