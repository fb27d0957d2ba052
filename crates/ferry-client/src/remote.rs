//! The local and tcp connection modes: one conversation over a Unix or TCP socket, speaking the
//! protocol of `ferry-proto`.
//!
//! This is the blocking transport: each call writes its request and reads until its response
//! arrives, so a synchronous put costs exactly one round trip and nothing else. Async puts are
//! written without waiting (the server sends no response for them) and are pipelined behind each
//! other; their outcome is collected by the status call.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use bytes::BytesMut;
use ferry_core::wire;
use ferry_core::{
    AttrValue, CloseOptions, CorrelId, GetOptions, Got, Hobj, Message, MqError, MqResult, MsgId,
    ObjectDescriptor, ObjectName, OpenOptions, Persistence, PutOptions, PutOutcome,
    PutResponseMode, Reason, Selector,
};
use ferry_proto::{
    begin_frame, decode_frame, decode_response, finish_frame, FrameHeader, Preamble, Reply,
    Request, Status, WireAttr, DEFAULT_MAX_FRAME, FLAG_PUSH, PREAMBLE_LEN,
};

/// A socket to the server.
#[derive(Debug)]
enum Stream {
    Unix(UnixStream),
    Tcp(TcpStream),
}

impl Stream {
    fn set_read_timeout(&self, d: Option<Duration>) -> std::io::Result<()> {
        match self {
            Stream::Unix(s) => s.set_read_timeout(d),
            Stream::Tcp(s) => s.set_read_timeout(d),
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Stream::Unix(s) => s.read(buf),
            Stream::Tcp(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Stream::Unix(s) => s.write(buf),
            Stream::Tcp(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Async put outcomes since the last status call, as the server reports them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AsyncPutStatus {
    /// Puts that succeeded.
    pub succeeded: u64,
    /// Puts that succeeded with a warning.
    pub warned: u64,
    /// Puts that failed.
    pub failed: u64,
    /// The first failure, if any.
    pub first_failure: Option<MqError>,
}

/// One conversation with a server.
#[derive(Debug)]
pub(crate) struct Remote {
    stream: Stream,
    rbuf: BytesMut,
    wbuf: BytesMut,
    next_id: u64,
    max_frame_out: usize,
    conn_id: u64,
    qmgr: ObjectName,
    names: HashMap<u32, ObjectName>,
    read_timeout: Duration,
    broken: bool,
    id_seed: u32,
    /// Read buffer handed to the socket (zeroed once, reused).
    scratch: Box<[u8]>,
}

const CONV: u16 = 1;
static ID_COUNTER: AtomicU64 = AtomicU64::new(0);

fn broken(e: impl std::fmt::Display) -> MqError {
    MqError::new(
        Reason::ConnectionBroken,
        format!("the connection to the queue manager broke: {e}"),
    )
}

impl Remote {
    /// Connects over a Unix socket.
    pub fn unix(path: &Path, app_name: &str) -> MqResult<Remote> {
        let s = UnixStream::connect(path).map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!(
                    "cannot connect to {}: {e}; is the queue manager running ('ferry qm start')?",
                    path.display()
                ),
            )
        })?;
        Remote::handshake(Stream::Unix(s), app_name)
    }

    /// Connects over TCP.
    pub fn tcp(addr: &str, app_name: &str) -> MqResult<Remote> {
        let s = TcpStream::connect(addr).map_err(|e| {
            MqError::new(
                Reason::QMgrNotAvailable,
                format!("cannot connect to {addr}: {e}; is the queue manager listening there?"),
            )
        })?;
        let _ = s.set_nodelay(true);
        Remote::handshake(Stream::Tcp(s), app_name)
    }

    fn handshake(mut stream: Stream, app_name: &str) -> MqResult<Remote> {
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(broken)?;
        stream
            .write_all(&Preamble::ours(DEFAULT_MAX_FRAME as u32).encode())
            .map_err(broken)?;
        let mut b = [0u8; PREAMBLE_LEN];
        stream.read_exact(&mut b).map_err(broken)?;
        let theirs = Preamble::decode(&b).map_err(broken)?;
        if theirs.min_version == 0 {
            return Err(MqError::new(
                Reason::QMgrNotAvailable,
                "the server speaks no protocol version this client knows",
            ));
        }
        let seed = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() ^ std::process::id());
        let mut r = Remote {
            stream,
            rbuf: BytesMut::with_capacity(64 * 1024),
            wbuf: BytesMut::with_capacity(64 * 1024),
            next_id: 1,
            max_frame_out: (theirs.max_frame as usize).max(1024),
            conn_id: 0,
            qmgr: ObjectName::EMPTY,
            names: HashMap::new(),
            read_timeout: Duration::from_secs(75),
            broken: false,
            id_seed: seed,
            scratch: vec![0u8; 64 * 1024].into_boxed_slice(),
        };
        let user = std::env::var("USER").unwrap_or_default();
        let req = Request::Connect {
            app_name: app_name.to_owned(),
            user,
            password: String::new(),
            flags: 0,
        };
        match r.call(&req)? {
            Reply::Connected {
                conn_id,
                qmgr,
                heartbeat_ms,
            } => {
                r.conn_id = conn_id;
                r.qmgr = ObjectName::truncating(&qmgr);
                // A silent server is presumed dead after two missed heartbeats and a margin.
                r.read_timeout =
                    Duration::from_millis(heartbeat_ms as u64 * 2) + Duration::from_secs(5);
                Ok(r)
            }
            other => Err(unexpected(other)),
        }
    }

    /// The connection id the server gave this conversation.
    pub fn connection_id(&self) -> u64 {
        self.conn_id
    }

    /// The queue manager's name.
    pub fn qmgr(&self) -> ObjectName {
        self.qmgr
    }

    fn send(&mut self, req: &Request) -> MqResult<u64> {
        if self.broken {
            return Err(MqError::new(
                Reason::ConnectionBroken,
                "the connection to the queue manager is broken; reconnect",
            ));
        }
        let id = self.next_id;
        self.next_id += 1;
        self.wbuf.clear();
        let start = begin_frame(
            &mut self.wbuf,
            FrameHeader {
                opcode: req.opcode() as u8,
                flags: 0,
                conv: CONV,
                request_id: id,
            },
        );
        req.encode(&mut self.wbuf);
        finish_frame(&mut self.wbuf, start);
        if self.wbuf.len() > self.max_frame_out {
            return Err(MqError::new(
                Reason::MsgTooBigForQMgr,
                format!(
                    "the request is {} bytes; the queue manager accepts frames up to {} bytes",
                    self.wbuf.len(),
                    self.max_frame_out
                ),
            ));
        }
        if let Err(e) = self.stream.write_all(&self.wbuf) {
            self.broken = true;
            return Err(broken(e));
        }
        Ok(id)
    }

    /// Sends a request and waits for its response. A failed status becomes `Err`.
    fn call(&mut self, req: &Request) -> MqResult<Reply> {
        let (status, reply) = self.call_status(req)?;
        if status.failed() {
            return Err(wire::error_of(&status));
        }
        Ok(reply)
    }

    fn call_status(&mut self, req: &Request) -> MqResult<(Status, Reply)> {
        let id = self.send(req)?;
        let opcode = req.opcode() as u8;
        let timeout = match req {
            Request::Get { options, .. } if options.wait_ms == u32::MAX => None,
            Request::Get { options, .. } => {
                Some(self.read_timeout + Duration::from_millis(options.wait_ms as u64))
            }
            _ => Some(self.read_timeout),
        };
        self.stream.set_read_timeout(timeout).map_err(broken)?;
        loop {
            match decode_frame(&mut self.rbuf, DEFAULT_MAX_FRAME) {
                Ok(Some(f)) => {
                    if f.header.flags & FLAG_PUSH != 0 {
                        continue; // heartbeat: the server is alive
                    }
                    if f.header.request_id != id {
                        self.broken = true;
                        return Err(broken(format!(
                            "response to request {} arrived while waiting for {id}",
                            f.header.request_id
                        )));
                    }
                    return decode_response(opcode, f.payload).map_err(|e| {
                        self.broken = true;
                        broken(e)
                    });
                }
                Ok(None) => {}
                Err(e) => {
                    self.broken = true;
                    return Err(broken(e));
                }
            }
            let n =
                read_into(&mut self.stream, &mut self.rbuf, &mut self.scratch).map_err(|e| {
                    self.broken = true;
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) {
                        broken("the queue manager stopped answering (no heartbeat)")
                    } else {
                        broken(e)
                    }
                })?;
            if n == 0 {
                self.broken = true;
                return Err(broken("the queue manager closed the connection"));
            }
        }
    }

    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        let req = Request::Open {
            object: wire::object_to_wire(od),
            options: wire::open_to_wire(&opts),
        };
        match self.call(&req)? {
            Reply::Opened { hobj, name } => {
                self.names.insert(hobj, ObjectName::truncating(&name));
                Ok(Hobj(hobj))
            }
            other => Err(unexpected(other)),
        }
    }

    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        self.names.get(&h.0).copied().ok_or_else(|| {
            MqError::new(
                Reason::HobjError,
                format!("object handle {} is not open on this connection", h.0),
            )
        })
    }

    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        let options = match opts {
            CloseOptions::None => 0,
            CloseOptions::Delete => 1,
            CloseOptions::DeletePurge => 2,
        };
        self.call(&Request::Close { hobj: h.0, options })?;
        self.names.remove(&h.0);
        Ok(())
    }

    fn local_id(&self) -> [u8; 24] {
        let n = ID_COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut id = [0u8; 24];
        id[..4].copy_from_slice(b"FMQC");
        id[4..12].copy_from_slice(&self.conn_id.to_be_bytes());
        id[12..16].copy_from_slice(&self.id_seed.to_be_bytes());
        id[16..].copy_from_slice(&n.to_be_bytes());
        id
    }

    /// Puts, synchronously or asynchronously. An async put gets its ids here, so the caller
    /// learns them at once (as with MQ's async put, the rest of the outcome comes later).
    fn put_any(
        &mut self,
        target: PutTarget,
        mut msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        let is_async = opts.response == PutResponseMode::Async;
        if is_async {
            if opts.new_msg_id || msg.descriptor.msg_id.is_none() {
                msg.descriptor.msg_id = MsgId(self.local_id());
            }
            if opts.new_correl_id {
                msg.descriptor.correl_id = CorrelId(self.local_id());
            }
        }
        let mut opts_wire = *opts;
        if is_async {
            opts_wire.new_msg_id = false;
            opts_wire.new_correl_id = false;
        }
        let options = wire::put_to_wire(&opts_wire);
        let wmsg = wire::message_to_wire(&msg);
        let req = match target {
            PutTarget::Handle(h) => Request::Put {
                hobj: h.0,
                options,
                msg: wmsg,
            },
            PutTarget::Object(od) => Request::Put1 {
                object: wire::object_to_wire(od),
                options,
                msg: wmsg,
            },
        };
        if is_async {
            self.send(&req)?;
            let d = &msg.descriptor;
            return Ok(PutOutcome {
                msg_id: d.msg_id,
                correl_id: d.correl_id,
                put_time: SystemTime::now(),
                persistence: d.persistence,
                priority: match d.priority {
                    ferry_core::Priority::Value(p) => p,
                    ferry_core::Priority::AsQueueDef => 0,
                },
                warning: None,
            });
        }
        let (status, reply) = self.call_status(&req)?;
        if status.failed() {
            return Err(wire::error_of(&status));
        }
        let warning = (status.completion == 1)
            .then(|| Reason::from_code(status.reason))
            .flatten();
        match reply {
            Reply::Put {
                msg_id,
                correl_id,
                put_time_ms,
                persistence,
                priority,
            } => Ok(PutOutcome {
                msg_id: MsgId(msg_id),
                correl_id: CorrelId(correl_id),
                put_time: UNIX_EPOCH + Duration::from_millis(put_time_ms),
                persistence: if persistence == 1 {
                    Persistence::Persistent
                } else {
                    Persistence::NotPersistent
                },
                priority,
                warning,
            }),
            other => Err(unexpected(other)),
        }
    }

    pub fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        self.put_any(PutTarget::Handle(h), msg, opts)
    }

    pub fn put1(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.put_any(PutTarget::Object(od), msg, opts)
    }

    pub fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        let req = Request::Get {
            hobj: h.0,
            options: wire::get_to_wire(opts),
        };
        let (status, reply) = self.call_status(&req)?;
        if status.failed() {
            return Err(wire::error_of(&status));
        }
        match reply {
            Reply::Got { msg, data_length } => Ok(Got {
                message: wire::message_from_wire(msg)?,
                data_length: data_length as usize,
                warning: (status.completion == 1)
                    .then(|| Reason::from_code(status.reason))
                    .flatten(),
            }),
            other => Err(unexpected(other)),
        }
    }

    pub fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        let req = Request::Inquire {
            hobj: h.0,
            selectors: selectors.iter().map(|s| s.code()).collect(),
        };
        match self.call(&req)? {
            Reply::Inquired { values } => Ok(values
                .into_iter()
                .map(|v| match v {
                    WireAttr::Int(i) => AttrValue::Int(i),
                    WireAttr::Str(s) => AttrValue::Str(s),
                })
                .collect()),
            other => Err(unexpected(other)),
        }
    }

    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        let mut vals = Vec::with_capacity(values.len());
        for (s, v) in values {
            match v {
                AttrValue::Int(i) => vals.push((s.code(), *i)),
                AttrValue::Str(_) => {
                    return Err(MqError::new(
                        Reason::SelectorError,
                        format!("{s:?} cannot be set to a string"),
                    ))
                }
            }
        }
        self.call(&Request::Set {
            hobj: h.0,
            values: vals,
        })
        .map(|_| ())
    }

    pub fn commit(&mut self) -> MqResult<()> {
        self.call(&Request::Commit).map(|_| ())
    }

    pub fn backout(&mut self) -> MqResult<()> {
        self.call(&Request::Backout).map(|_| ())
    }

    pub fn status(&mut self) -> MqResult<AsyncPutStatus> {
        match self.call(&Request::Status)? {
            Reply::Status {
                succeeded,
                warned,
                failed,
                first_reason,
                first_detail,
            } => Ok(AsyncPutStatus {
                succeeded,
                warned,
                failed,
                first_failure: (first_reason != 0).then(|| {
                    wire::error_of(&Status {
                        completion: 2,
                        reason: first_reason,
                        detail: first_detail,
                        data_length: 0,
                    })
                }),
            }),
            other => Err(unexpected(other)),
        }
    }

    pub fn disconnect(mut self) -> MqResult<()> {
        self.call(&Request::Disconnect).map(|_| ())
    }
}

enum PutTarget<'a> {
    Handle(Hobj),
    Object(&'a ObjectDescriptor),
}

fn unexpected(r: Reply) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("the queue manager sent an unexpected reply: {r:?}"),
    )
}

fn read_into(s: &mut Stream, buf: &mut BytesMut, scratch: &mut [u8]) -> std::io::Result<usize> {
    let n = s.read(scratch)?;
    buf.extend_from_slice(&scratch[..n]);
    Ok(n)
}
