//! The FerryMQ application API: one [`Connection`] type over every connection mode.
//!
//! Modes are chosen by connection string, exactly as with an MQ client's binding:
//!
//! | string | mode | where the queue manager runs |
//! |---|---|---|
//! | `embedded:PATH` | embedded (MQ's fastpath binding, without its risks) | in this process, from the queue manager directory `PATH` |
//! | `unix:PATH`, `tcp://HOST:PORT`, `tls://HOST:PORT` | local and client modes | in a `ferry` server process |
//!
//! A `tcp://` or `tls://` string may carry credentials as `tcp://USER:PASSWORD@HOST:PORT`
//! (used when the options name none).
//!
//! The verbs, options, messages and reason codes are those of `ferry-model`, re-exported here,
//! so code written against one mode runs unchanged against another. By default the client is
//! the wire protocol and sockets only; the embedded mode needs the `embedded` feature, which
//! brings in the engine.
//!
//! ```
//! # #[cfg(feature = "embedded")] {
//! use ferry_client::{Connection, Message, OpenOptions, PutOptions, GetOptions, QueueManager};
//!
//! let qm = QueueManager::with_name("QM1").unwrap();
//! let mut conn = Connection::embedded(&qm, "example").unwrap();
//! let q = conn.open_queue("DEV.QUEUE.1", OpenOptions::output().with_input()).unwrap();
//! conn.put(q, Message::text("hello"), &PutOptions::default()).unwrap();
//! let got = conn.get(q, &GetOptions::new()).unwrap();
//! assert_eq!(&got.message.body[..], b"hello");
//! conn.disconnect().unwrap();
//! # }
//! ```

mod asynch;
mod conv;
#[cfg(feature = "embedded")]
mod embedded;
pub mod quic;
mod reconnect;
mod remote;
mod shared;
mod stream;

#[cfg(feature = "embedded")]
use std::sync::Arc;

pub use ferry_model::admin::Reply;
pub use ferry_model::channel::{SenderOffer, SyncRecord};
/// Report options (MQRO_*) and feedback codes (MQFB_*) for [`MessageDescriptor::report`].
pub use ferry_model::report;
pub use ferry_model::{
    object_name, AttrValue, BrowseMode, CloseOptions, ConnMode, ConnectOptions, CorrelId,
    GetOptions, Got, Hobj, InputMode, Message, MessageDescriptor, MessageType, MqError, MqResult,
    Mqi, MsgId, ObjectDescriptor, ObjectName, OpenOptions, Persistence, Priority, PropertyValue,
    PutOptions, PutOutcome, Reason, Selector, SubAction, SubDescriptor, Wait,
};

#[cfg(feature = "embedded")]
pub use ferry_core::QueueManager;

pub use asynch::AsyncConnection;
#[cfg(feature = "embedded")]
pub use embedded::{open_embedded, EmbeddedQm};
pub use ferry_proto::compress::Compression;
pub use stream::TlsOptions;

/// Options for local and tcp connections (embedded connections use only the application name).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientOptions {
    /// Compression algorithms acceptable for this connection's payloads, most preferred first;
    /// empty for none. The server picks the first it also accepts.
    pub compression: Vec<Compression>,
    /// User to connect as (default: `$USER`); checked when the server requires authentication.
    pub user: Option<String>,
    /// Password, when the server requires one.
    pub password: Option<String>,
    /// TLS settings, needed for `tls://` endpoints.
    pub tls: Option<TlsOptions>,
    /// Reconnect automatically when the connection breaks (see [`ReconnectOptions`]); `None`
    /// leaves a broken connection broken.
    pub reconnect: Option<ReconnectOptions>,
    /// This connection carries a queue manager's message channel (a sender channel's end),
    /// not an application: the receiver checks who it is when the channel starts.
    pub channel: bool,
    /// The server-connection channel the application comes over (MQSERVER's or an MQCD's
    /// channel name): the queue manager's CHLAUTH records are matched against it. `None`:
    /// DEV.APP.SVRCONN.
    pub svrconn: Option<String>,
    /// QUIC settings for `quic://` endpoints (congestion control, window).
    pub quic: quic::QuicOptions,
    /// Conversations this blocking connection may share its socket with (MQ's SHARECNV): 0 or
    /// 1 opens a socket of its own; N (at most 10) starts the conversation on a unix, tcp or
    /// tls socket of this process to the same endpoint (and TLS identity and channel) that
    /// carries fewer than N, or opens one. Shared, the conversations' requests leave together
    /// and their answers come back together; each keeps its own handles and unit of work.
    /// Message channels never share.
    pub share_conversations: u32,
}
pub use reconnect::ReconnectOptions;
use reconnect::Reconnecting;
pub use remote::AsyncPutStatus;

#[cfg(feature = "embedded")]
use ferry_core::Session;

/// A connection string, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// `embedded:PATH`: host the queue manager in `PATH` in this process.
    Embedded(std::path::PathBuf),
    /// `unix:PATH`: the local socket of a running server.
    Unix(std::path::PathBuf),
    /// `tcp://HOST:PORT`.
    Tcp(String),
    /// `tls://HOST:PORT`.
    Tls(String),
    /// `quic://HOST:PORT`: QUIC over UDP (see [`quic`]).
    Quic(String),
}

impl Endpoint {
    /// Parses a connection string; the error names the accepted forms.
    pub fn parse(s: &str) -> MqResult<Endpoint> {
        let bad = || {
            MqError::new(
                Reason::QMgrNameError,
                format!("'{s}' is not a connection string; use embedded:PATH, unix:PATH, tcp://HOST:PORT, tls://HOST:PORT or quic://HOST:PORT"),
            )
        };
        if let Some(p) = s.strip_prefix("embedded:") {
            return if p.is_empty() {
                Err(bad())
            } else {
                Ok(Endpoint::Embedded(p.into()))
            };
        }
        if let Some(p) = s.strip_prefix("unix:") {
            return if p.is_empty() {
                Err(bad())
            } else {
                Ok(Endpoint::Unix(p.into()))
            };
        }
        if let Some(a) = s.strip_prefix("tcp://") {
            return if a.is_empty() {
                Err(bad())
            } else {
                Ok(Endpoint::Tcp(a.into()))
            };
        }
        if let Some(a) = s.strip_prefix("tls://") {
            return if a.is_empty() {
                Err(bad())
            } else {
                Ok(Endpoint::Tls(a.into()))
            };
        }
        if let Some(a) = s.strip_prefix("quic://") {
            return if a.is_empty() {
                Err(bad())
            } else {
                Ok(Endpoint::Quic(a.into()))
            };
        }
        Err(bad())
    }
}

/// Splits the credentials out of `tcp://USER:PASSWORD@HOST:PORT` (or `tls://`): the
/// connection string without them, and the user and password if it had them. Options given
/// explicitly win over these.
pub fn split_credentials(s: &str) -> (String, Option<(String, String)>) {
    for scheme in ["tcp://", "tls://", "quic://"] {
        if let Some(rest) = s.strip_prefix(scheme) {
            if let Some((userinfo, addr)) = rest.rsplit_once('@') {
                let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
                return (
                    format!("{scheme}{addr}"),
                    Some((user.to_owned(), password.to_owned())),
                );
            }
        }
    }
    (s.to_owned(), None)
}

impl ClientOptions {
    /// These options with the credentials of a connection string (see [`split_credentials`])
    /// where they name none; and the string without them.
    pub fn with_endpoint_credentials(&self, endpoint: &str) -> (String, ClientOptions) {
        let (endpoint, creds) = split_credentials(endpoint);
        let mut opts = self.clone();
        if let Some((user, password)) = creds {
            opts.user.get_or_insert(user);
            opts.password.get_or_insert(password);
        }
        (endpoint, opts)
    }
}

/// How the connection reaches its queue manager.
#[derive(Debug)]
enum Transport {
    #[cfg(feature = "embedded")]
    Embedded {
        session: Session,
        /// Keeps a queue manager hosted from a directory alive (and its directory locked) for as
        /// long as any embedded connection to it exists.
        _host: Option<Arc<EmbeddedQm>>,
    },
    Remote {
        remote: Reconnecting,
        mode: ConnMode,
    },
}

/// Most messages one [`Connection::get_many`] takes.
pub const MAX_GET_MANY: usize = 1024;

/// [`Connection::get_many`] as a sequence of gets (a session in this process).
#[cfg(feature = "embedded")]
fn get_many_in_turn(s: &mut Session, h: Hobj, opts: &GetOptions, max: usize) -> MqResult<Vec<Got>> {
    let mut got = vec![s.get(h, opts)?];
    let mut next = *opts;
    next.wait = Wait::No;
    next.browse = match opts.browse {
        BrowseMode::First => BrowseMode::Next,
        BrowseMode::UnderCursor | BrowseMode::GetUnderCursor => return Ok(got),
        b => b,
    };
    while got.len() < max.min(MAX_GET_MANY) {
        match s.get(h, &next) {
            Ok(g) => got.push(g),
            Err(_) => break,
        }
    }
    Ok(got)
}

/// A connection to a queue manager (MQ's connection handle).
///
/// Dropping a connection without [`Connection::disconnect`] is treated as the application
/// ending abnormally: its open unit of work is backed out. `disconnect` commits it, as MQ does.
#[derive(Debug)]
pub struct Connection {
    transport: Transport,
}

impl Connection {
    /// Connects by connection string, as application `app_name`.
    pub fn connect(endpoint: &str, app_name: &str) -> MqResult<Connection> {
        Connection::connect_with(endpoint, app_name, &ClientOptions::default())
    }

    /// Connects by connection string with options for remote modes (compression, credentials).
    pub fn connect_with(
        endpoint: &str,
        app_name: &str,
        opts: &ClientOptions,
    ) -> MqResult<Connection> {
        let remote = |remote, mode| {
            Ok(Connection {
                transport: Transport::Remote { remote, mode },
            })
        };
        let (endpoint, opts) = opts.with_endpoint_credentials(endpoint);
        let opts = &opts;
        match Endpoint::parse(&endpoint)? {
            #[cfg(not(feature = "embedded"))]
            Endpoint::Embedded(_) => Err(no_embedded()),
            #[cfg(feature = "embedded")]
            Endpoint::Embedded(dir) => {
                let host = open_embedded(&dir)?;
                let session = host
                    .queue_manager()
                    .connect(&ConnectOptions::app(app_name))?;
                Ok(Connection {
                    transport: Transport::Embedded {
                        session,
                        _host: Some(host),
                    },
                })
            }
            e @ Endpoint::Unix(_) => {
                remote(Reconnecting::connect(e, app_name, opts)?, ConnMode::Local)
            }
            e @ Endpoint::Tcp(_) => {
                remote(Reconnecting::connect(e, app_name, opts)?, ConnMode::Tcp)
            }
            e @ Endpoint::Tls(_) => {
                remote(Reconnecting::connect(e, app_name, opts)?, ConnMode::Tls)
            }
            e @ Endpoint::Quic(_) => {
                remote(Reconnecting::connect(e, app_name, opts)?, ConnMode::Quic)
            }
        }
    }

    /// The compression negotiated for a remote connection, and the fraction of payload bytes it
    /// has saved so far (embedded connections have none).
    pub fn compression(&self) -> (Option<Compression>, Option<f64>) {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => (None, None),
            Transport::Remote { remote, .. } => remote.remote().compression(),
        }
    }

    /// Time this connection has spent compressing and decompressing payloads.
    pub fn compression_time(&self) -> std::time::Duration {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => std::time::Duration::ZERO,
            Transport::Remote { remote, .. } => remote.remote().compression_time(),
        }
    }

    /// Connects in-process to a queue manager this program already holds.
    #[cfg(feature = "embedded")]
    pub fn embedded(qm: &QueueManager, app_name: &str) -> MqResult<Connection> {
        let session = qm.connect(&ConnectOptions::app(app_name))?;
        Ok(Connection {
            transport: Transport::Embedded {
                session,
                _host: None,
            },
        })
    }

    /// The connection's MQI, whichever mode it is in.
    fn mqi(&mut self) -> &mut dyn Mqi {
        match &mut self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => session,
            Transport::Remote { remote, .. } => remote,
        }
    }

    fn mqi_ref(&self) -> &dyn Mqi {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => session,
            Transport::Remote { remote, .. } => remote,
        }
    }

    /// The connection mode.
    pub fn mode(&self) -> ConnMode {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => ConnMode::Embedded,
            Transport::Remote { mode, .. } => *mode,
        }
    }

    /// The connection id the queue manager assigned (as in connection status).
    pub fn connection_id(&self) -> u64 {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => session.connection_id(),
            Transport::Remote { remote, .. } => remote.remote().connection_id(),
        }
    }

    /// How many times automatic reconnection has re-established this connection.
    pub fn reconnections(&self) -> u64 {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => 0,
            Transport::Remote { remote, .. } => remote.reconnections(),
        }
    }

    /// The TCP socket under a tcp or tls connection (for socket options and TCP_INFO); it
    /// stays the connection's: do not close it.
    pub fn tcp_fd(&self) -> Option<std::os::fd::RawFd> {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => None,
            Transport::Remote { remote, .. } => remote.remote().tcp_fd(),
        }
    }

    /// What QUIC knows of the connection's path (round trip, losses, congestion window); `None`
    /// unless the connection runs over QUIC.
    pub fn quic_figures(&self) -> Option<quic::QuicFigures> {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => None,
            Transport::Remote { remote, .. } => remote.remote().quic_figures(),
        }
    }

    /// The streams a sender channel over this connection offers to spread its fast batches
    /// over (QUIC's lanes; 1 over any other transport).
    fn lanes_offered(&self) -> u32 {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => 1,
            Transport::Remote { remote, .. } => remote.remote().lanes_offered(),
        }
    }

    /// The name of the queue manager connected to.
    pub fn queue_manager_name(&self) -> ObjectName {
        match &self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => session.queue_manager().name(),
            Transport::Remote { remote, .. } => remote.remote().qmgr(),
        }
    }

    /// Opens an object (MQOPEN).
    pub fn open(&mut self, od: &ObjectDescriptor, opts: OpenOptions) -> MqResult<Hobj> {
        self.mqi().open(od, opts)
    }

    /// Subscribes (MQSUB): returns the handle of the queue publications arrive on (`queue`
    /// for a provided subscription, a new one for a managed) and the subscription's handle,
    /// closed with [`Connection::close`] (`CloseOptions::RemoveSub` ends a durable one).
    pub fn subscribe(&mut self, sd: &SubDescriptor, queue: Option<Hobj>) -> MqResult<(Hobj, Hobj)> {
        self.mqi().subscribe(sd, queue)
    }

    /// MQSUBRQ: sends the subscription (its handle from [`Connection::subscribe`]) the
    /// retained publications its filter matches; how many. NO_RETAINED_MSG (2437) when none.
    pub fn sub_request(&mut self, hsub: Hobj) -> MqResult<usize> {
        self.mqi().sub_request(hsub)
    }

    /// Opens a queue by name.
    pub fn open_queue(&mut self, name: &str, opts: OpenOptions) -> MqResult<Hobj> {
        let od = ObjectDescriptor::queue(object_name(name)?);
        self.open(&od, opts)
    }

    /// Opens a model queue, creating a dynamic queue named from `pattern` (e.g. `REPLY.*`).
    /// [`Connection::queue_name`] tells the name it got.
    pub fn open_dynamic(
        &mut self,
        model: &str,
        pattern: &str,
        opts: OpenOptions,
    ) -> MqResult<Hobj> {
        let od = ObjectDescriptor::model(object_name(model)?, pattern);
        self.open(&od, opts)
    }

    /// The resolved name of the queue behind a handle (the generated name of a dynamic queue).
    pub fn queue_name(&self, h: Hobj) -> MqResult<ObjectName> {
        self.mqi_ref().queue_name(h)
    }

    /// Closes a handle (MQCLOSE).
    pub fn close(&mut self, h: Hobj, opts: CloseOptions) -> MqResult<()> {
        self.mqi().close(h, opts)
    }

    /// Puts a message (MQPUT).
    pub fn put(&mut self, h: Hobj, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        self.mqi().put(h, msg, opts)
    }

    /// Opens, puts and closes in one call (MQPUT1).
    pub fn put1(&mut self, queue: &str, msg: Message, opts: &PutOptions) -> MqResult<PutOutcome> {
        self.put1_to(&ObjectDescriptor::queue(object_name(queue)?), msg, opts)
    }

    /// MQPUT1 to any object descriptor — for a reply, the request's reply-to queue at its
    /// reply-to queue manager ([`ObjectDescriptor::QueueAt`]).
    pub fn put1_to(
        &mut self,
        od: &ObjectDescriptor,
        msg: Message,
        opts: &PutOptions,
    ) -> MqResult<PutOutcome> {
        self.mqi().put1(od, msg, opts)
    }

    /// Gets or browses a message (MQGET).
    pub fn get(&mut self, h: Hobj, opts: &GetOptions) -> MqResult<Got> {
        self.mqi().get(h, opts)
    }

    /// Gets up to `max` messages in one call (a FerryMQ extension; the MQI has no such verb):
    /// the first exactly as [`Connection::get`] with `opts` would (waiting as they say), then
    /// as many more as the queue holds now, up to `max` (at most [`MAX_GET_MANY`], and within
    /// the server's read-ahead limits, `read_ahead_msgs`/`read_ahead_kib`), each got as a
    /// separate MQGET with the same options would be, without waiting — in the same unit of
    /// work under syncpoint. Over a socket that is one request and one round trip for the
    /// batch. Every message got is returned; the error is the first get's, when it got none.
    /// Browsing from `First` goes on with `Next`; a get or browse under the cursor takes one.
    pub fn get_many(&mut self, h: Hobj, opts: &GetOptions, max: usize) -> MqResult<Vec<Got>> {
        match &mut self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => get_many_in_turn(session, h, opts, max),
            Transport::Remote { remote, .. } => remote.get_many(h, opts, max),
        }
    }

    /// Reads attributes (MQINQ).
    pub fn inquire(&mut self, h: Hobj, selectors: &[Selector]) -> MqResult<Vec<AttrValue>> {
        self.mqi().inquire(h, selectors)
    }

    /// Sets attributes (MQSET): the inhibit flags.
    pub fn set(&mut self, h: Hobj, values: &[(Selector, AttrValue)]) -> MqResult<()> {
        self.mqi().set(h, values)
    }

    /// Commits the unit of work (MQCMIT).
    pub fn commit(&mut self) -> MqResult<()> {
        self.mqi().commit()
    }

    /// Backs out the unit of work (MQBACK).
    pub fn backout(&mut self) -> MqResult<()> {
        self.mqi().backout()
    }

    /// Disconnects (MQDISC): commits the open unit of work and closes every handle.
    pub fn disconnect(self) -> MqResult<()> {
        match self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => session.disconnect(),
            Transport::Remote { remote, .. } => remote.disconnect(),
        }
    }

    /// Runs MQSC-style administrative commands (one per line; see docs/admin.md) on the queue
    /// manager this connection reaches, and returns a reply per command. Definitions the
    /// script makes are durable before this returns.
    /// Embedded, the program must have installed a command server
    /// (`ferry_core::qmgr::commands::install`, done by `ferry_admin::install`).
    pub fn admin(&mut self, script: &str) -> MqResult<Vec<Reply>> {
        match &mut self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { session, .. } => session.queue_manager().run_commands(script),
            Transport::Remote { remote, .. } => {
                let json = remote.admin(script)?;
                serde_json::from_slice(&json).map_err(|e| {
                    MqError::new(
                        Reason::UnexpectedError,
                        format!("the server's administrative answer could not be read: {e}"),
                    )
                })
            }
        }
    }

    /// The sending end of a message channel introduces itself to the queue manager this
    /// connection reaches (where `channel` must be defined as a receiver), offering its batch
    /// size, message length, last committed sequence number and the window of recoverable
    /// batches it would keep unconfirmed; returns the receiver's side. Used by the server's
    /// sender channels (docs/channels.md); remote connections only.
    pub fn channel_start(
        &mut self,
        channel: &str,
        sender_qmgr: &str,
        sender: ferry_model::channel::SenderOffer,
    ) -> MqResult<ChannelPeer> {
        let req = ferry_proto::Request::ChannelStart {
            channel: channel.to_owned(),
            sender_qmgr: sender_qmgr.to_owned(),
            batch_size: sender.batch_size,
            max_msg_length: sender.max_msg_length,
            seq: sender.seq,
            window: sender.window,
            // Over QUIC, fast batches may go on streams of their own (see quic::LANES).
            lanes: self.lanes_offered(),
        };
        let offered = match &req {
            ferry_proto::Request::ChannelStart { lanes, .. } => *lanes,
            _ => 1,
        };
        match self.channel_call(&req)? {
            ferry_proto::Reply::ChannelStarted {
                qmgr,
                batch_size,
                max_msg_length,
                seq,
                ids,
                luwid,
                window,
                more,
                lanes,
            } => Ok(ChannelPeer {
                qmgr,
                batch_size,
                max_msg_length,
                committed: SyncRecord {
                    seq,
                    ids: ids.into_iter().map(MsgId).collect(),
                    luwid,
                    key: None,
                    more: more
                        .into_iter()
                        .map(|b| ferry_model::channel::BatchRecord {
                            seq: b.seq,
                            ids: b.ids.into_iter().map(MsgId).collect(),
                            luwid: b.luwid,
                        })
                        .collect(),
                },
                window: window.clamp(1, sender.window.max(1)),
                lanes: lanes.clamp(1, offered),
            }),
            other => Err(unexpected("channel start", &other)),
        }
    }

    /// Sends one batch of a message channel (messages with transmission headers) under its
    /// logical unit of work id; returns once the receiver has committed it: (delivered,
    /// dead-lettered).
    pub fn channel_batch(
        &mut self,
        seq: u64,
        luwid: [u8; ferry_model::channel::LUWID_LEN],
        messages: &[Message],
    ) -> MqResult<(u32, u32)> {
        let req = batch_request(seq, luwid, messages);
        batch_done(self.channel_remote()?.channel_call(&req)?, seq)
    }

    /// Sends one batch of a message channel without waiting for the receiver's answer (a
    /// pipelined batch); returns its request id, which [`Connection::channel_batch_next`]
    /// names with its answer. `lane` (below [`ChannelPeer::lanes`]) is the stream it goes on:
    /// 0 the connection's own, others QUIC streams of their own (answers to batches on
    /// different lanes come in the order the receiver took them).
    pub fn channel_batch_send(
        &mut self,
        lane: usize,
        seq: u64,
        luwid: [u8; ferry_model::channel::LUWID_LEN],
        messages: &[Message],
    ) -> MqResult<u64> {
        let req = batch_request(seq, luwid, messages);
        self.channel_remote()?.channel_send_lane(&req, lane)
    }

    /// Waits for the next answer to a batch sent with [`Connection::channel_batch_send`]:
    /// which one (its request id) and how it went, or the receiver's refusal.
    pub fn channel_batch_next(&mut self) -> MqResult<BatchAnswer> {
        let opcode = ferry_proto::Opcode::ChannelBatch as u8;
        let (id, reply) = self.channel_remote()?.channel_next_answer(opcode)?;
        match reply {
            ferry_proto::Reply::ChannelBatchDone {
                seq,
                delivered,
                dead_lettered,
            } => Ok(BatchAnswer {
                id,
                seq,
                delivered,
                dead_lettered,
            }),
            other => Err(unexpected("channel batch", &other)),
        }
    }

    /// Whether an answer to a batch has arrived (read without waiting):
    /// [`Connection::channel_batch_next`] then takes it at once.
    pub fn channel_answer_ready(&mut self) -> MqResult<bool> {
        self.channel_remote()?.response_ready()
    }

    fn channel_call(&mut self, req: &ferry_proto::Request) -> MqResult<ferry_proto::Reply> {
        self.channel_remote()?.channel_call(req)
    }

    /// The socket connection a channel speaks over (an embedded one has none).
    fn channel_remote(&mut self) -> MqResult<&mut Reconnecting> {
        match &mut self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => Err(MqError::new(
                Reason::FunctionNotSupported,
                "channels connect to another queue manager over a socket, not embedded",
            )),
            Transport::Remote { remote, .. } => Ok(remote),
        }
    }

    /// Async put outcomes since the last call (MQSTAT), which resets them. Embedded puts are
    /// always synchronous, so an embedded connection reports no async puts.
    pub fn async_put_status(&mut self) -> MqResult<AsyncPutStatus> {
        match &mut self.transport {
            #[cfg(feature = "embedded")]
            Transport::Embedded { .. } => Ok(AsyncPutStatus::default()),
            Transport::Remote { remote, .. } => remote.status(),
        }
    }
}

/// The receiving end of a message channel, as it answered [`Connection::channel_start`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelPeer {
    /// The receiving queue manager.
    pub qmgr: String,
    /// The batch size both ends use.
    pub batch_size: u32,
    /// The message length both ends accept.
    pub max_msg_length: u32,
    /// The receiver's last committed batch, and (in `more`) those it committed after the
    /// sender's last before it.
    pub committed: SyncRecord,
    /// Recoverable batches the sender may keep sent and unconfirmed at once (1: it waits for
    /// each).
    pub window: u32,
    /// Streams the sender may spread fast batches over (1: the connection's own only).
    pub lanes: u32,
}

/// The receiver's answer to one batch sent without waiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchAnswer {
    /// The request id the batch went under.
    pub id: u64,
    /// Its sequence number (0 for a fast batch).
    pub seq: u64,
    /// Messages put to their destination queues.
    pub delivered: u32,
    /// Messages put to the dead-letter queue instead.
    pub dead_lettered: u32,
}

#[cfg(not(feature = "embedded"))]
pub(crate) fn no_embedded() -> MqError {
    MqError::new(
        Reason::FunctionNotSupported,
        "this program was built without ferry-client's `embedded` feature, so it cannot host a \
         queue manager in its own process; connect with unix:, tcp:// or tls://",
    )
}

/// A channel batch on the wire: the messages with their transmission headers.
fn batch_request(
    seq: u64,
    luwid: [u8; ferry_model::channel::LUWID_LEN],
    messages: &[Message],
) -> ferry_proto::Request {
    ferry_proto::Request::ChannelBatch {
        seq,
        luwid,
        messages: messages
            .iter()
            .map(ferry_proto::map::message_to_wire)
            .collect(),
    }
}

/// (delivered, dead-lettered) from the receiver's answer to batch `seq`.
fn batch_done(reply: ferry_proto::Reply, seq: u64) -> MqResult<(u32, u32)> {
    match reply {
        ferry_proto::Reply::ChannelBatchDone {
            seq: done,
            delivered,
            dead_lettered,
        } if done == seq => Ok((delivered, dead_lettered)),
        other => Err(unexpected("channel batch", &other)),
    }
}

fn unexpected(what: &str, reply: &ferry_proto::Reply) -> MqError {
    MqError::new(
        Reason::UnexpectedError,
        format!("unexpected answer to a {what}: {reply:?}"),
    )
}
