//! Raw-socket helpers for tests that speak the wire protocol byte by byte, the way a hostile
//! or broken client would: preambles, Connects and any request as a frame, and the server's
//! resident memory.

use std::net::{SocketAddr, TcpStream};

/// One request as a frame on conversation `conv`.
pub fn frame(req: &ferry_proto::Request, conv: u16, request_id: u64) -> Vec<u8> {
    let mut payload = bytes::BytesMut::new();
    req.encode(&mut payload);
    let mut b = bytes::BytesMut::new();
    let h = ferry_proto::FrameHeader {
        opcode: req.opcode() as u8,
        flags: 0,
        conv,
        request_id,
    };
    ferry_proto::encode_frame(&mut b, h, &payload);
    b.to_vec()
}

/// The preamble a client sends first.
pub fn preamble() -> Vec<u8> {
    ferry_proto::Preamble::ours(ferry_proto::DEFAULT_MAX_FRAME as u32)
        .encode()
        .to_vec()
}

/// What a client sends first: the preamble, then a Connect for conversation 1.
pub fn hello(app: &str, user: &str, password: &str) -> Vec<u8> {
    let connect = ferry_proto::Request::Connect {
        app_name: app.into(),
        user: user.into(),
        password: password.into(),
        flags: 0,
        compression: vec![],
        channel: String::new(),
    };
    [preamble(), frame(&connect, 1, 1)].concat()
}

/// A TCP connection to `server` from the local address `from` (another loopback address is
/// another origin to the server).
pub fn connect_from(server: SocketAddr, from: &str) -> TcpStream {
    let sock = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(async {
            let s = tokio::net::TcpSocket::new_v4().unwrap();
            s.bind(format!("{from}:0").parse().unwrap()).unwrap();
            s.connect(server).await.unwrap().into_std().unwrap()
        });
    sock.set_nonblocking(false).unwrap();
    sock
}

/// A process's resident memory, KiB.
pub fn rss_kib(pid: u32) -> u64 {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    s.lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}
