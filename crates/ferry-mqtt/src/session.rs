//! One MQTT client connection: CONNECT (authenticated by the [`crate::Gate`], its client id
//! seated in the [`crate::Broker`]), then a loop that reads the client's packets, delivers what
//! arrives on the session's queue, and keeps the keep-alive — until DISCONNECT, an error, a
//! takeover or the server's stop. See the crate documentation for the mapping.
//!
//! Invariants: at most `receive_maximum` QoS 1 and 2 deliveries are unacknowledged (or the
//! MQTT 5 client's own Receive Maximum, when smaller), and at most
//! half of MAXUMSGS (at most 4,096, at least the window) are in the unit of work; a kept
//! session's or a shared subscription's deliveries are got under syncpoint and committed only
//! once none is unacknowledged (a connection that ends first backs them out, so they wait on
//! the queue for the next); a clean session's leave the queue as they are got; a get that waits
//! is a `PendingGet` polled beside the socket, and is cancelled (its message given back) before
//! the session is used for anything else.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use bytes::BytesMut;
use ferry_core::model::security::Principal;
use ferry_core::{
    CloseOptions, ConnMode, ConnectOptions, CorrelId, GetAttempt, GetOptions, Got, Hobj, Message,
    MqError, MqResult, ObjectDescriptor, OpenOptions, PendingGet, Persistence, PropertyValue,
    PutOptions, QueueManager, Reason, Session, SubAction, SubDescriptor,
};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadHalf, WriteHalf};

use crate::wire::{self, code, Connect, Filter, In, Out, Publication, Refused, Version};
use crate::{Broker, Seat};

mod outbound;
mod publishing;

/// Serves one MQTT connection from `peer` until it ends; `stop` turning true ends it (the
/// server is stopping).
pub async fn serve<S>(
    stream: S,
    broker: Arc<Broker>,
    who: crate::Peer,
    mut stop: tokio::sync::watch::Receiver<bool>,
) where
    S: AsyncRead + AsyncWrite + Unpin + Send,
{
    // Boxed, and so only as large as it is while connecting: what stays across the session's
    // waits is the client, its stream's halves and its read buffer (an idle client is mostly
    // this future).
    let Some((mut client, mut rd, mut wr, mut rbuf)) = Box::pin(connect(stream, broker, who)).await
    else {
        return;
    };
    let clean = client.run(&mut rd, &mut wr, &mut rbuf, &mut stop).await;
    // A last DISCONNECT or acknowledgement.
    let _ = client.flush_out(&mut wr).await;
    Box::pin(client.end(clean)).await;
}

/// A client and its stream's halves and read buffer, once connected.
type Connected<S> = (Client, ReadHalf<S>, WriteHalf<S>, BytesMut);

/// Reads the CONNECT (within the connect timeout), opens the client's session and answers
/// CONNACK, then what a resumed session owes; `None` when the connection ended or was refused.
async fn connect<S>(stream: S, broker: Arc<Broker>, who: crate::Peer) -> Option<Connected<S>>
where
    S: AsyncRead + AsyncWrite + Unpin + Send,
{
    let peer = who.addr.clone();
    let (mut rd, mut wr) = tokio::io::split(stream);
    // Small until a packet needs more: most clients send little but PINGREQs, and an idle
    // client's buffer is most of what it costs while connected.
    let mut rbuf = BytesMut::with_capacity(IDLE_READ_BUFFER);
    let first = tokio::time::timeout(
        broker.settings.connect_timeout,
        read_packet(
            &mut rd,
            &mut rbuf,
            None,
            (broker.settings.max_connect_packet, None),
        ),
    )
    .await;
    let connect = match first {
        Ok(Ok(Some(In::Connect(c)))) if who.rules.allows(c.version) => c,
        Ok(Ok(Some(In::Connect(c)))) => {
            tracing::warn!(peer, client = %c.client_id, channel = %who.channel, version = ?c.version, "MQTT connection refused: its channel's PROTOCOL does not list this version");
            refuse(&mut wr, c.version, code::UNSUPPORTED_VERSION).await;
            return None;
        }
        Ok(Err(r)) => {
            tracing::debug!(peer, why = %r.why, "MQTT connection refused");
            if r.code == code::UNSUPPORTED_VERSION {
                // Answered in 3.1.1's form (return code 1), which every version's client reads.
                refuse(&mut wr, Version::V311, r.code).await;
            }
            return None;
        }
        _ => {
            tracing::debug!(peer, "MQTT connection closed before its CONNECT");
            return None;
        }
    };
    let mut client = match Box::pin(Client::open(&broker, &connect, &who)).await {
        Ok(c) => c,
        Err((code, why)) => {
            tracing::warn!(peer, client = %connect.client_id, reason = %why, "MQTT connection refused");
            refuse(&mut wr, connect.version, code).await;
            return None;
        }
    };
    let sent = match client.write(&mut wr, &client.connack()).await {
        Ok(()) => Box::pin(client.resume(&mut wr)).await,
        Err(e) => Err(e),
    };
    if sent.is_err() || client.flush_out(&mut wr).await.is_err() {
        Box::pin(client.end(false)).await;
        return None;
    }
    Some((client, rd, wr, rbuf))
}

/// Answers a CONNECT with a CONNACK refusing it with `code`.
async fn refuse<W: AsyncWrite + Unpin>(wr: &mut W, v: Version, code: u8) {
    let out = Out::ConnAck {
        code,
        present: false,
        assigned_id: None,
        receive_maximum: 0,
    };
    let _ = write(wr, v, &out).await;
}

/// Ends `grace` from now (never for a keep-alive of 0).
async fn keep_alive_ends(grace: Duration) {
    if grace.is_zero() {
        std::future::pending::<()>().await
    } else {
        tokio::time::sleep(grace).await
    }
}

/// A connection's read buffer to begin with.
const IDLE_READ_BUFFER: usize = 256;
/// What the read buffer grows by when a packet needs more room.
const READ_CHUNK: usize = 4096;

/// Reads one whole packet into `buf` (reading more as needed): `Ok(None)` at end of stream.
/// Before the CONNECT `version` is `None`, and the packet must be a CONNECT.
async fn read_packet<R: AsyncRead + Unpin>(
    rd: &mut R,
    buf: &mut BytesMut,
    version: Option<Version>,
    (max, aliases): (usize, Option<&crate::alias::Aliases>),
) -> Result<Option<In>, Refused> {
    loop {
        if let Some(raw) = wire::frame(buf, max)? {
            // A read that left most of the buffer unused came from a client that sends now and
            // then (a streaming one fills it): the grown buffer goes back, so that 100,000 such
            // clients hold 256 bytes each between packets, not 4 KiB.
            if buf.is_empty() && buf.capacity() > READ_CHUNK / 2 {
                *buf = BytesMut::with_capacity(IDLE_READ_BUFFER);
            }
            let v = match version {
                Some(v) => v,
                None => wire::connect_version(&raw)?,
            };
            let raw = match aliases {
                Some(a) if v == Version::V5 => crate::alias::resolve(raw, a)?,
                _ => raw,
            };
            return wire::decode(v, raw).map(Some);
        }
        if buf.capacity() - buf.len() < IDLE_READ_BUFFER / 2 {
            buf.reserve(READ_CHUNK);
        }
        match rd.read_buf(buf).await {
            Ok(0) | Err(_) => return Ok(None),
            Ok(_) => {}
        }
    }
}

async fn write<W: AsyncWrite + Unpin>(wr: &mut W, v: Version, out: &Out) -> std::io::Result<()> {
    let mut buf = BytesMut::new();
    wire::encode(v, out, &mut buf).map_err(std::io::Error::other)?;
    wr.write_all(&buf).await?;
    // A no-op on TCP; TLS and WebSocket streams send what they hold.
    wr.flush().await
}

/// Runs `f` on the session, then waits (without holding the thread) until what it logged is on
/// disk: a persistent publication is acknowledged only once it is.
async fn durably<T>(s: &mut Session, f: impl FnOnce(&mut Session) -> MqResult<T>) -> MqResult<T> {
    let (r, lsn) = ferry_core::qmgr::journal::deferring(|| f(s));
    if let (Some(lsn), Some(d)) = (lsn, s.queue_manager().durability()) {
        std::future::poll_fn(|cx| d.poll_durable(lsn, cx.waker())).await?;
    }
    r
}

/// Waits until what `deferring` logged (`lsn`) is on disk (at once for none, or without a log).
async fn durable(qm: &QueueManager, lsn: Option<u64>) -> MqResult<()> {
    match (lsn, qm.durability()) {
        (Some(lsn), Some(d)) => std::future::poll_fn(|cx| d.poll_durable(lsn, cx.waker())).await,
        _ => Ok(()),
    }
}

/// Waits until `qm`'s log holds everything up to `lsn` (at once for 0, or without a log).
async fn on_disk(qm: &QueueManager, lsn: u64) -> MqResult<()> {
    match qm.durability() {
        Some(d) if lsn > 0 => std::future::poll_fn(|cx| d.poll_durable(lsn, cx.waker())).await,
        _ => Ok(()),
    }
}

/// Acknowledgements a client may be owed at once before its connection reads no more.
const MAX_OWED_ACKS: usize = 1024;

/// Runs `f` on the session without waiting for what it logged to reach the disk: a get under
/// syncpoint promises nothing until its commit, and the commits of deliveries are not waited
/// for either (a removal a crash loses means the delivery is sent again).
fn unforced<T>(s: &mut Session, f: impl FnOnce(&mut Session) -> MqResult<T>) -> MqResult<T> {
    ferry_core::qmgr::journal::deferring(|| f(s)).0
}

/// What the name of every MQTT session's queue starts with.
pub const SESSION_QUEUE_PREFIX: &str = "SYSTEM.MQTT.CLIENT.";

/// The queue a client's session's publications wait on.
pub(crate) fn queue_name(client_id: &str) -> String {
    // FNV-1a: stable across releases, unlike the standard library's hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in client_id.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{SESSION_QUEUE_PREFIX}{h:016X}")
}

/// The correlation id a subscription stamps on its copies: the QoS it was granted.
/// The correlation id a subscription stamps on its copies: the QoS it was granted and whether
/// it is no-local (MQTT 5: not sent what the same client published).
fn granted_correl(qos: u8, no_local: bool) -> CorrelId {
    CorrelId::from_slice(&[b'M', b'Q', b'T', b'T', qos, u8::from(no_local)])
}

/// The message property naming the MQTT client that published a publication (for no-local;
/// MQI applications see it too).
pub const CLIENT_PROPERTY: &str = "mqtt.clientid";

/// Whether `g` came through a no-local subscription and was published by `client`.
fn own_publication(g: &Got, client: &str) -> bool {
    let c = g.message.descriptor.correl_id.0;
    &c[..4] == b"MQTT"
        && c[5] == 1
        && matches!(g.message.properties.get(CLIENT_PROPERTY), Some(PropertyValue::String(id)) if id == client)
}

fn granted_of(g: &Got) -> u8 {
    let c = g.message.descriptor.correl_id.0;
    if &c[..4] == b"MQTT" {
        c[4].min(2)
    } else {
        0
    }
}

/// The message property an MQTT publication's QoS is kept in, so a subscriber gets it at no
/// more than the QoS it was published with (MQI applications see it too).
pub const QOS_PROPERTY: &str = "mqtt.qos";

/// MQTT 5 request/response on the queue manager's messages: a PUBLISH's Response Topic, its
/// Correlation Data and its Content Type travel as these message properties (an MQI
/// application answering reads them and publishes its reply to that topic, copying the
/// correlation data), and come back as the PUBLISH properties of a delivery to an MQTT 5
/// client. (Not the CorrelId: each subscriber's copy carries its subscription's, as MQ's
/// publications do.) A Payload Format Indicator of 1 (UTF-8) is format MQSTR, and MQSTR is
/// sent as 1.
pub const RESPONSE_TOPIC_PROPERTY: &str = "mqtt.responseTopic";
/// See [`RESPONSE_TOPIC_PROPERTY`].
pub const CORRELATION_PROPERTY: &str = "mqtt.correlationData";
/// See [`RESPONSE_TOPIC_PROPERTY`].
pub const CONTENT_TYPE_PROPERTY: &str = "mqtt.contentType";

/// The QoS a delivery was published with: an MQTT publication's own; an MQI application's
/// 2 when persistent (MQ's assured delivery), 0 when not.
fn published_qos(g: &Got) -> u8 {
    match g.message.properties.get(QOS_PROPERTY) {
        Some(PropertyValue::I32(q)) => (*q).clamp(0, 2) as u8,
        _ if g.message.descriptor.persistence == Persistence::Persistent => 2,
        _ => 0,
    }
}

/// Where a QoS 1 or 2 delivery stands: waiting for PUBACK, for PUBREC, or (PUBREL sent) for
/// PUBCOMP.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outbound {
    Ack,
    Rec,
    Comp,
}

/// A connected client.
struct Client {
    broker: Arc<Broker>,
    version: Version,
    id: String,
    assigned: bool,
    persistent: bool,
    present: bool,
    session: Session,
    queue: Hobj,
    /// Subscriptions made on this connection: filter → subscription handle.
    subs: HashMap<String, Hobj>,
    will: Option<Box<Publication>>,
    keep_alive: Duration,
    /// QoS 1 and 2 deliveries outstanding at most: `[mqtt] receive_maximum`, or the client's
    /// own Receive Maximum (MQTT 5) when smaller.
    window: usize,
    /// Waits armed: on the session's queue (`None`) and on each group's (`Some(i)`, an index
    /// in `shared`); the first to end is taken, the others given back.
    pending: Vec<(Option<usize>, PendingGet)>,
    /// Shared subscriptions' groups this connection is a member of.
    shared: Vec<crate::shared::Membership>,
    /// Which queue the next delivery is looked for on first (they take turns).
    turn: usize,
    /// QoS 1 and 2 deliveries not yet acknowledged, by packet id.
    inflight: HashMap<u16, Outbound>,
    /// Outbound QoS 2 deliveries tracked in the QoS 2 queue (`outbound.rs`).
    track: outbound::Tracking,
    /// Packets encoded and not yet written (`write`, `flush_out`).
    out: parking_lot::Mutex<BytesMut>,
    /// Gets in the unit of work not yet committed.
    uncommitted: usize,
    /// Topics the client keeps publishing on, with their handles.
    publishing: publishing::Publishing,
    next_id: u16,
    /// Packet ids of QoS 2 publications received and not yet released.
    awaiting_rel: HashSet<u16>,
    /// A persistent session's QoS 2 state (made on its first QoS 2 PUBLISH, or found when it
    /// resumes): its publications are exactly once across reconnections and crashes.
    qos2: Option<Box<crate::qos2::Qos2>>,
    /// MQTT 5 topic aliases the client set on this connection.
    aliases: crate::alias::Aliases,
    /// Acknowledgements of the client's publications in the order owed, each with the log
    /// position that must be on disk before it is sent (publications are not waited for one
    /// by one: one log force covers all a client has in flight).
    acks: std::collections::VecDeque<(Option<u64>, Out)>,
    /// MQTT 5: how long the will waits after an abnormal end (the lesser of the will's delay
    /// and the session's expiry; zero: at once).
    will_delay: Duration,
    /// A subscriber's queue this client's last publication left three quarters full: the
    /// next publication waits for it to drain ([`Client::ease`]).
    crowded: Option<Arc<ferry_core::engine::queue::Queue>>,
    /// What DISPLAY CHSTATUS shows of this client, refreshed by [`Client::note`].
    status: crate::LiveStatus,
    /// PUBLISH packets sent and received, and when the last was.
    sent: u64,
    received: u64,
    last_msg: Option<std::time::SystemTime>,
    _seat: Seat,
}

impl Client {
    /// Authenticates and seats the client, connects it to the queue manager and opens (or
    /// finds) its session's queue.
    async fn open(
        broker: &Arc<Broker>,
        c: &Connect,
        peer: &crate::Peer,
    ) -> Result<Client, (u8, String)> {
        let (id, assigned) = client_id(c)?;
        let user = channel_user(c, &id, peer)?;
        let admit = broker.gate.admit(user, c.password.clone(), peer);
        let who: Principal = admit.await?;
        let status = live_status(c, peer, &id, &who);
        let seat = broker
            .seat(&id, &who.user, &status)
            .await
            .map_err(|why| (code::NOT_AUTHORIZED, why))?;
        let persistent = persistent_session(c);
        let opts = ConnectOptions {
            app_name: format!("MQTT {id}"),
            user_id: Some(who.user.clone()),
        };
        let mut session = broker
            .qm
            .connect_with(&opts, ConnMode::Tcp, peer.addr.clone(), who.clone())
            .map_err(|e| refusal(&e))?;
        // The session's queue is the queue manager's, made and opened with its authority (as
        // MQ's telemetry service does); topics are checked against the client's.
        session.act_as(Principal::owner(&broker.qm.name().to_string()));
        let depth = broker.settings.session_max_depth;
        let groups = crate::shared::recorded(&broker.qm, &id);
        let (queue, present) = open_queue(&mut session, &id, (persistent, c.clean), depth)
            .await
            .map_err(|e| refusal(&e))?;
        session.act_as(who);
        session.watch_crowding(true);
        let mut client = Client {
            broker: broker.clone(),
            version: c.version,
            id,
            assigned,
            persistent,
            present,
            session,
            queue,
            subs: HashMap::new(),
            will: c.will.clone().map(Box::new),
            will_delay: will_delay(c, persistent),
            keep_alive: c.keep_alive,
            window: window_of(c, &broker.settings),
            pending: Vec::new(),
            shared: Vec::new(),
            turn: 0,
            inflight: HashMap::new(),
            track: Default::default(),
            out: Default::default(),
            uncommitted: 0,
            publishing: Default::default(),
            next_id: 0,
            awaiting_rel: HashSet::new(),
            qos2: None,
            aliases: Default::default(),
            acks: Default::default(),
            crowded: None,
            status,
            sent: 0,
            received: 0,
            last_msg: None,
            _seat: seat,
        };
        client.regroup(groups).await;
        Ok(client)
    }

    /// The shared subscriptions' groups the session's memberships name: read again when the
    /// session was resumed; a clean start removed the memberships, so their groups may now be
    /// empty.
    async fn regroup(&mut self, groups: Vec<(String, String, CorrelId)>) {
        self.restore_qos2();
        if self.present {
            return self.rejoin(groups).await;
        }
        for (key, ..) in groups {
            crate::shared::remove_if_unused(&self.broker, &key);
        }
    }

    fn connack(&self) -> Out {
        Out::ConnAck {
            code: code::SUCCESS,
            present: self.present,
            assigned_id: self.assigned.then(|| self.id.clone()),
            receive_maximum: self.broker.settings.max_inbound_qos2.min(65_535) as u16,
        }
    }

    /// Queues `out` to be sent: written at the next [`Client::flush_out`] (before the
    /// connection waits for anything), or now when a burst has filled the buffer.
    async fn write<W: AsyncWrite + Unpin>(&self, wr: &mut W, out: &Out) -> std::io::Result<()> {
        let full = {
            let mut buf = self.out.lock();
            wire::encode(self.version, out, &mut buf).map_err(std::io::Error::other)?;
            buf.len() >= OUT_BURST
        };
        if full {
            self.flush_out(wr).await?;
        }
        Ok(())
    }

    /// Writes what is queued, in one call where the stream takes it.
    async fn flush_out<W: AsyncWrite + Unpin>(&self, wr: &mut W) -> std::io::Result<()> {
        let mut buf = std::mem::take(&mut *self.out.lock());
        if buf.is_empty() {
            return Ok(());
        }
        wr.write_all(&buf).await?;
        // A no-op on TCP; TLS and WebSocket streams send what they hold.
        wr.flush().await?;
        // An idle connection keeps no large buffer.
        if buf.capacity() <= OUT_BURST {
            buf.clear();
            *self.out.lock() = buf;
        }
        Ok(())
    }
}

/// The longest a publication waits for a crowded subscriber's queue ([`Client::ease`]).
const EASE_FOR: Duration = Duration::from_millis(100);

/// What a connection's outgoing packets gather to before they are written mid-burst.
const OUT_BURST: usize = 64 << 10;

/// QoS 1 and 2 deliveries a client may have unacknowledged: `[mqtt] receive_maximum`, or its
/// own Receive Maximum (MQTT 5) when smaller.
fn window_of(c: &Connect, settings: &crate::Settings) -> usize {
    let most = settings.receive_maximum.max(1);
    usize::from(c.receive_maximum.unwrap_or(u16::MAX).clamp(1, most))
}

/// Whether a CONNECT asks for a session that outlives the connection (3.1.1's clean session
/// off; MQTT 5's session expiry above 0).
fn persistent_session(c: &Connect) -> bool {
    match c.version {
        Version::V5 => c.session_expiry.is_some_and(|d| !d.is_zero()),
        _ => !c.clean,
    }
}

/// A new client's status: who and where it is.
fn live_status(c: &Connect, peer: &crate::Peer, id: &str, who: &Principal) -> crate::LiveStatus {
    let protocol = match c.version {
        Version::V31 => "MQTTV3",
        Version::V311 => "MQTTV311",
        Version::V5 => "MQTTV5",
    };
    Arc::new(parking_lot::Mutex::new(
        ferry_core::model::channel::MqttClientStatus {
            channel: peer.channel.clone(),
            client_id: id.to_owned(),
            conname: peer.addr.clone(),
            protocol: protocol.into(),
            client_user: c.user.clone().unwrap_or_default(),
            mca_user: who.user.clone(),
            keep_alive_secs: c.keep_alive.as_secs(),
            started: Some(std::time::SystemTime::now()),
            ..Default::default()
        },
    ))
}

/// The client id to use, and whether the queue manager assigned it (an empty one).
fn client_id(c: &Connect) -> Result<(String, bool), (u8, String)> {
    if c.client_id.is_empty() {
        if c.version != Version::V5 && !c.clean {
            return Err((
                code::CLIENT_ID_NOT_VALID,
                "an empty client id needs a clean session".into(),
            ));
        }
        let n = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        return Ok((format!("FERRY-{n:X}"), true));
    }
    if c.client_id.len() > 256 || c.client_id.contains('\0') {
        return Err((
            code::CLIENT_ID_NOT_VALID,
            "a client id is at most 256 bytes, without NUL".into(),
        ));
    }
    Ok((c.client_id.clone(), false))
}

/// The user a CONNECT authenticates as: its user name, or with USECLTID(YES) on its channel
/// the client id (a CONNECT naming someone else is refused).
fn channel_user(c: &Connect, id: &str, peer: &crate::Peer) -> Result<Option<String>, (u8, String)> {
    if !peer.rules.use_client_id {
        return Ok(c.user.clone());
    }
    match c.user.as_deref() {
        None | Some("") => Ok(Some(id.to_owned())),
        Some(u) if u == id => Ok(Some(id.to_owned())),
        Some(u) => Err((
            code::BAD_USER_OR_PASSWORD,
            format!(
                "channel {} takes the client id as the user (USECLTID(YES)), but client {id} names user {u}",
                peer.channel
            ),
        )),
    }
}

/// An MQTT 5 reason code and sentence for a queue manager refusal.
fn refusal(e: &MqError) -> (u8, String) {
    let c = match e.reason {
        Reason::NotAuthorized => code::NOT_AUTHORIZED,
        Reason::QMgrQuiescing | Reason::QMgrStopping => code::SERVER_SHUTTING_DOWN,
        Reason::MaxConnsLimitReached => code::QUOTA_EXCEEDED,
        _ => code::SERVER_UNAVAILABLE,
    };
    (c, e.to_string())
}

/// Opens the session's queue for input (and output, so subscriptions can name it): an
/// existing persistent one is kept unless the client asks for a clean start; a clean session
/// gets a temporary one. Returns the handle and whether a session was there already.
async fn open_queue(
    s: &mut Session,
    id: &str,
    (persistent, clean): (bool, bool),
    depth: usize,
) -> MqResult<(Hobj, bool)> {
    let name = queue_name(id);
    let qm = s.queue_manager().clone();
    let exists = qm.queue_status(&name).is_ok();
    if exists && (clean || !persistent) {
        end_durable_session(&qm, id, &name);
        let h = durably(s, |s| {
            s.open(
                &ferry_core::model::options::queue(&name)?,
                OpenOptions::input(),
            )
        })
        .await?;
        durably(s, |s| s.close(h, CloseOptions::DeletePurge)).await?;
    }
    let opts = OpenOptions {
        output: true,
        ..OpenOptions::input()
    };
    if persistent && exists && !clean {
        let h = durably(s, |s| {
            s.open(&ferry_core::model::options::queue(&name)?, opts)
        })
        .await?;
        return Ok((h, true));
    }
    // Permanent dynamic even for a clean session (deleted when it ends): a temporary queue
    // would make persistent publications non-persistent, and with them their QoS.
    let model = ferry_core::model::system::DURABLE_MODEL_QUEUE;
    if !persistent {
        // A clean session's queue is not logged: it ends with the connection, and a restart
        // ends every connection, so neither it nor what waits on it could be of use after
        // one. Nothing of it goes to the disk — not its definition, not its deliveries (a
        // QoS 1 publication only clean sessions take is acknowledged without a disk write),
        // not a checkpoint's copy of it.
        qm.create_unlogged_queue(model, &name, depth)?;
        let h = s.open(&ferry_core::model::options::queue(&name)?, opts)?;
        return Ok((h, false));
    }
    let od = ObjectDescriptor::Queue {
        name: ferry_core::object_name(model)?,
        dynamic_name: Some(name.clone()),
        selector: None,
    };
    // Made and given its depth in one go. The depth's redefinition was once outside it and so
    // waited for the disk on the I/O thread itself, ~0.5 ms of the thread a connect.
    let make = |s: &mut Session| {
        let h = s.open(&od, opts)?;
        deepen(&qm, &name, depth).map(|()| h)
    };
    let h = durably(s, make).await?;
    Ok((h, false))
}

/// Gives a session's new queue the depth the MQTT service allows a session (`[mqtt]
/// max_session_messages`), deeper than the model's: a subscriber that falls behind a burst
/// loses nothing until then.
pub(crate) fn deepen(qm: &QueueManager, name: &str, depth: usize) -> MqResult<()> {
    match qm.definition(name)? {
        ferry_core::QueueDefinition::Local(mut a) if a.max_depth != depth => {
            a.max_depth = depth;
            qm.define_queue(name, ferry_core::QueueDefinition::Local(a), true)
        }
        _ => Ok(()),
    }
}

/// Removes a persistent session's durable subscriptions (named `MQTT:<id>:...`).
fn end_durable_session(qm: &QueueManager, id: &str, _queue: &str) {
    let prefix = format!("MQTT:{id}:");
    for sub in qm.subscriptions_named_from(&prefix) {
        if let Some(name) = sub.name.as_deref().filter(|n| n.starts_with(&prefix)) {
            if let Err(e) = qm.delete_sub(name) {
                tracing::warn!(subscription = name, error = %e, "MQTT clean start: a subscription of the old session stayed");
            }
        }
    }
}

/// Why the loop ended: whether cleanly (DISCONNECT without will).
type Clean = bool;

impl Client {
    /// The connection's life after CONNACK. Returns whether it ended cleanly.
    async fn run<R, W>(
        &mut self,
        rd: &mut R,
        wr: &mut W,
        rbuf: &mut BytesMut,
        stop: &mut tokio::sync::watch::Receiver<bool>,
    ) -> Clean
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        let max = self.broker.settings.max_packet;
        let taken_over = self._seat.taken_over.clone();
        let grace = self.keep_alive.mul_f32(1.5);
        loop {
            self.note();
            if let Err(e) = Box::pin(self.deliver_ready(wr)).await {
                tracing::debug!(client = %self.id, error = %e, "MQTT delivery ended the connection");
                return false;
            }
            // Written before waiting, unless another packet is already read: answers to a
            // burst of packets go out together.
            if !wire::whole_packet(rbuf) && self.flush_out(wr).await.is_err() {
                return false;
            }
            let keep_alive = keep_alive_ends(grace);
            let armed = !self.pending.is_empty();
            let owed = self.acks.front().and_then(|a| a.0);
            let qm = self.broker.qm.clone();
            tokio::select! {
                read = read_packet(rd, rbuf, Some(self.version), (max, Some(&self.aliases))) => {
                    // Boxed (an allocation a read): the session's future is then only as large
                    // as its waits, which is what an idle client costs.
                    if let Some(clean) = Box::pin(self.on_reads(read, rd, rbuf, wr)).await {
                        return clean;
                    }
                }
                (at, outcome) = std::future::poll_fn(|cx| {
                    for (i, (_, p)) in self.pending.iter_mut().enumerate() {
                        if let Some(o) = p.poll(cx.waker()) {
                            return std::task::Poll::Ready((i, o));
                        }
                    }
                    std::task::Poll::Pending
                }), if armed => {
                    if !Box::pin(self.on_wait_ended(at, outcome, wr)).await {
                        return false;
                    }
                }
                done = on_disk(&qm, owed.unwrap_or(0)), if owed.is_some() => {
                    if done.is_err() || Box::pin(self.send_ready_acks(wr)).await.is_err() {
                        return false;
                    }
                }
                _ = keep_alive => {
                    tracing::info!(client = %self.id, "MQTT connection closed: no packet within 1.5 keep-alive intervals");
                    let _ = self.write(wr, &Out::Disconnect { code: code::KEEP_ALIVE_TIMEOUT }).await;
                    return false;
                }
                _ = taken_over.notified() => {
                    let _ = self.write(wr, &Out::Disconnect { code: code::SESSION_TAKEN_OVER }).await;
                    return false;
                }
                _ = stop.changed() => {
                    let _ = self.write(wr, &Out::Disconnect { code: code::SERVER_SHUTTING_DOWN }).await;
                    return false;
                }
            }
        }
    }

    /// A packet read, then the others the same read brought, handled at once: the waits of
    /// the run loop (keep-alive timer, takeover, stop) are set up once a read, not once a
    /// packet — a streaming publisher's read holds hundreds. `Some` when the connection ends.
    async fn on_reads<R, W>(
        &mut self,
        read: Result<Option<In>, Refused>,
        rd: &mut R,
        rbuf: &mut BytesMut,
        wr: &mut W,
    ) -> Option<Clean>
    where
        R: AsyncRead + Unpin,
        W: AsyncWrite + Unpin,
    {
        if let Some(clean) = self.on_read(read, wr).await {
            return Some(clean);
        }
        let max = self.broker.settings.max_packet;
        while wire::whole_packet(rbuf) {
            let read = read_packet(rd, rbuf, Some(self.version), (max, Some(&self.aliases))).await;
            if let Some(clean) = self.on_read(read, wr).await {
                return Some(clean);
            }
        }
        None
    }

    /// Counts a PUBLISH sent (or received) now.
    fn stamp(&mut self, sent: bool) {
        if sent {
            self.sent += 1;
        } else {
            self.received += 1;
        }
        self.last_msg = Some(std::time::SystemTime::now());
    }

    /// Refreshes what DISPLAY CHSTATUS shows of this client.
    fn note(&self) {
        let mut st = self.status.lock();
        st.msgs_sent = self.sent;
        st.msgs_received = self.received;
        st.indoubt_in = self.awaiting_rel.len() as u64;
        st.indoubt_out = self.inflight.len() as u64;
        st.subscriptions = (self.subs.len() + self.shared.len()) as u64;
        st.last_msg = self.last_msg;
    }

    /// What a read brought: a packet to apply, the end of the stream, or a bad packet (the
    /// connection closes, MQTT 5 told why). `Some(clean)` when the connection ends.
    async fn on_read<W: AsyncWrite + Unpin>(
        &mut self,
        read: Result<Option<In>, Refused>,
        wr: &mut W,
    ) -> Option<Clean> {
        match read {
            Ok(Some(p)) => match self.on_packet(p, wr).await {
                Ok(ending) => ending,
                Err(e) => {
                    tracing::debug!(client = %self.id, error = %e, "MQTT connection ended");
                    Some(false)
                }
            },
            Ok(None) => Some(false),
            Err(r) => {
                tracing::info!(client = %self.id, reason = %r.why, "MQTT connection closed: a bad packet");
                let _ = self.write(wr, &Out::Disconnect { code: r.code }).await;
                Some(false)
            }
        }
    }

    /// A wait armed on the queue ended: sends what it brought. Whether the connection goes on.
    async fn on_wait_ended<W: AsyncWrite + Unpin>(
        &mut self,
        at: usize,
        outcome: ferry_core::engine::WaitOutcome,
        wr: &mut W,
    ) -> bool {
        // Polled to its end: dropping it gives nothing back.
        let (src, _ended) = self.pending.swap_remove(at);
        self.cancel_wait();
        let syncpoint = self.holds_until_acked();
        let h = self.handle_of(src);
        let got = unforced(&mut self.session, |s| {
            s.finish_wait(h, &get_options(syncpoint), outcome)
        });
        // A publication woke this session: the other ready connections (more publishers,
        // most often) run first, so that the next pass delivers what they added in the same
        // write — a batch a wake-up, not a write a message.
        tokio::task::yield_now().await;
        match got {
            Ok(Some(g)) => self.send(g, src, wr).await.is_ok(),
            Ok(None) => true,
            Err(e) => {
                tracing::debug!(client = %self.id, error = %e, "MQTT delivery ended the connection");
                false
            }
        }
    }

    /// Sends what waits on the queue while the window allows, and leaves a wait armed for more.
    async fn deliver_ready<W: AsyncWrite + Unpin>(&mut self, wr: &mut W) -> MqResult<()> {
        // A kept session's gets are committed only when nothing is outstanding, so a steady
        // flow pauses every `batch` deliveries until the client has acknowledged them all. The
        // pause costs a round trip, and more when the client's last acknowledgement waits for
        // its TCP stack (Nagle against delayed ACKs: ~40 ms): so batches are large — half of
        // MAXUMSGS, at most 4,096, at least the window. A clean session's never pause
        // (`holds_until_acked`).
        let window = self.window;
        let max_uow = self.broker.qm.attrs().max_uncommitted_msgs;
        let batch = (max_uow / 2).min(4096).max(window.min(max_uow));
        loop {
            if self.uncommitted >= batch {
                self.commit_if_settled().await?;
            }
            if !self.pending.is_empty()
                || self.inflight.len() >= window
                || self.uncommitted >= batch
            {
                return Ok(());
            }
            match self.next_delivery()? {
                Some((src, g)) => self
                    .send(g, src, wr)
                    .await
                    .map_err(|e| MqError::new(Reason::ConnectionBroken, e.to_string()))?,
                // The queues are empty: commit what was sent (when all is acknowledged) before
                // waiting, then wait.
                None => {
                    if self.uncommitted > 0 {
                        self.commit_if_settled().await?;
                    }
                }
            }
        }
    }

    /// The session's queue (`None`) or a group's.
    fn handle_of(&self, src: Option<usize>) -> Hobj {
        src.map_or(self.queue, |i| self.shared[i].queue)
    }

    /// The next delivery, from the session's queue or a group's (taking turns); `None` once a
    /// wait is armed on each.
    fn next_delivery(&mut self) -> MqResult<Option<(Option<usize>, Got)>> {
        // Source 0 is the session's queue, i + 1 the group `shared[i]`'s.
        let n = self.shared.len() + 1;
        let source = |i: usize| i.checked_sub(1);
        if n > 1 {
            for k in 0..n {
                let src = source((self.turn + k) % n);
                let h = self.handle_of(src);
                let now = GetOptions::new().syncpoint();
                match unforced(&mut self.session, |s| s.try_get(h, &now)) {
                    Ok(GetAttempt::Got(g)) => {
                        self.turn = (self.turn + k + 1) % n;
                        return Ok(Some((src, g)));
                    }
                    Ok(GetAttempt::Wait(mut p)) => {
                        let o = p.cancel();
                        p.give_back(o);
                    }
                    Err(e) if e.reason == Reason::NoMsgAvailable => {}
                    Err(e) => return Err(e),
                }
            }
        }
        let opts = get_options(self.holds_until_acked());
        for src in (0..n).map(source) {
            let h = self.handle_of(src);
            match unforced(&mut self.session, |s| s.try_get(h, &opts))? {
                GetAttempt::Got(g) => {
                    self.cancel_wait();
                    return Ok(Some((src, g)));
                }
                GetAttempt::Wait(p) => self.pending.push((src, p)),
            }
        }
        Ok(None)
    }

    /// Sends one delivery as PUBLISH (its get is committed with the others: `commit_if_settled`).
    async fn send<W: AsyncWrite + Unpin>(
        &mut self,
        g: Got,
        src: Option<usize>,
        wr: &mut W,
    ) -> std::io::Result<()> {
        if self.holds_until_acked() {
            self.uncommitted += 1;
        }
        if own_publication(&g, &self.id) {
            // Taken off the queue (at once, or with the others at the next commit), never sent.
            return Ok(());
        }
        let member = src.map_or(2, |i| self.shared[i].granted);
        let qos = granted_of(&g).min(published_qos(&g)).min(member);
        let packet_id = if qos > 0 { self.packet_id() } else { 0 };
        if self.tracks(qos, src) {
            self.track(packet_id, &g.message)
                .await
                .map_err(std::io::Error::other)?;
        }
        let p = publication_of(&g.message, qos, packet_id, self.version == Version::V5);
        self.write(wr, &Out::Publish(p)).await?;
        self.stamp(true);
        if qos > 0 {
            let state = if qos == 1 {
                Outbound::Ack
            } else {
                Outbound::Rec
            };
            self.inflight.insert(packet_id, state);
        }
        Ok(())
    }

    fn packet_id(&mut self) -> u16 {
        loop {
            self.next_id = self.next_id.wrapping_add(1);
            if self.next_id != 0 && !self.inflight.contains_key(&self.next_id) {
                return self.next_id;
            }
        }
    }

    /// Whether the deliveries' gets wait for their acknowledgements before they are committed:
    /// when a connection that ends would leave them to be sent again — a session kept after
    /// the connection (MQTT 3.1.1 clean session off, MQTT 5 session expiry), whose client is
    /// sent them again when it resumes, or a shared subscription's group, whose other members
    /// take what this one did not acknowledge. A clean session's deliveries end with it (MQTT
    /// 3.1.1 4.4: only a session resumed with clean session off is sent its unacknowledged
    /// publications again), so they are committed as they are sent, and a steady flow to it
    /// never pauses for a batch's last acknowledgement.
    fn holds_until_acked(&self) -> bool {
        self.persistent || !self.shared.is_empty()
    }

    /// Commits the gets: once no delivery is unacknowledged, or at once when the gets do not
    /// wait for acknowledgements (`holds_until_acked`).
    async fn commit_if_settled(&mut self) -> MqResult<()> {
        if !self.inflight.is_empty() && self.holds_until_acked() {
            return Ok(());
        }
        if self.uncommitted > 0 {
            self.cancel_wait();
            // Not waited for on disk: a delivery whose removal a crash loses is sent again
            // (at least once; exactly once when tracked), and nothing waits on it meanwhile.
            unforced(&mut self.session, |s| s.commit())?;
            self.uncommitted = 0;
        }
        self.forget_completed();
        Ok(())
    }

    /// Ends an armed wait before the session is used for something else; a message that
    /// raced in goes back to its queue.
    fn cancel_wait(&mut self) {
        for (_, mut p) in self.pending.drain(..) {
            let outcome = p.cancel();
            p.give_back(outcome);
        }
    }
}

/// A delivery's get: under syncpoint when the session holds its deliveries until they are
/// acknowledged ([`Client::holds_until_acked`]); a clean session's leave the queue as they are
/// got — they would be committed as sent anyway, and the session ends with the connection.
fn get_options(syncpoint: bool) -> GetOptions {
    GetOptions {
        syncpoint,
        ..GetOptions::new().wait_unlimited()
    }
}

/// A delivery as the PUBLISH that carries it: its topic (MQTopicString), retained flag
/// (MQIsRetained), and for MQTT 5 its other string properties as user properties.
fn publication_of(m: &Message, qos: u8, packet_id: u16, v5: bool) -> Publication {
    let props = &m.properties;
    let topic = match props.get("MQTopicString") {
        Some(PropertyValue::String(t)) => t.clone(),
        _ => String::new(),
    };
    let retain = matches!(props.get("MQIsRetained"), Some(PropertyValue::Bool(true)));
    let mut out = wire::Props::default();
    if v5 {
        out.user = props
            .iter()
            .filter(|(k, _)| !k.starts_with("MQ") && !k.starts_with("mq"))
            .filter_map(|(k, v)| match v {
                PropertyValue::String(s) => Some((k.to_owned(), s.clone())),
                _ => None,
            })
            .collect();
        out.expiry = m.descriptor.expiry;
        response_properties(m, &mut out);
    }
    Publication {
        topic,
        qos,
        retain,
        dup: false,
        packet_id,
        payload: m.body.clone(),
        props: out,
    }
}

/// Whether a PUBLISH carries no properties that become message properties (user properties,
/// response topic, correlation data, content type).
fn carries_no_properties(p: &wire::Props) -> bool {
    p.user.is_empty()
        && p.response_topic.is_none()
        && p.correlation.is_none()
        && p.content_type.is_none()
}

/// When a will is published after an abnormal end: MQTT 5's Will Delay Interval, but no later
/// than the session's end (a clean session ends with the connection: at once).
fn will_delay(c: &Connect, persistent: bool) -> Duration {
    match (c.will_delay, persistent) {
        (Some(d), true) => d.min(c.session_expiry.unwrap_or_default()),
        _ => Duration::ZERO,
    }
}

/// A client's PUBLISH as the publication the queue manager makes: its topic, the message
/// (persistent at QoS 1 and 2, its QoS and client id as properties, expiry, user and
/// request/response properties) and the put options (retain).
///
/// `shared`: the properties a publication on its topic at its QoS that carries none of its
/// own has (`Publishing::properties`), made once and shared.
fn publication_message(
    p: Publication,
    client_id: &str,
    shared: Option<ferry_core::model::message::Properties>,
) -> (String, Message, PutOptions) {
    let mut msg = Message::new(p.payload).with_persistence(if p.qos > 0 {
        Persistence::Persistent
    } else {
        Persistence::NotPersistent
    });
    match shared {
        Some(props) => msg.properties = props,
        None => {
            let _ = msg
                .properties
                .set(QOS_PROPERTY, PropertyValue::I32(i32::from(p.qos)));
            let _ = msg
                .properties
                .set(CLIENT_PROPERTY, PropertyValue::String(client_id.to_owned()));
        }
    }
    if let Some(d) = p.props.expiry {
        msg = msg.with_expiry(d);
    }
    for (k, v) in &p.props.user {
        // Names a message property cannot take are left out.
        let _ = msg.properties.set(k, PropertyValue::String(v.clone()));
    }
    request_properties(&mut msg, &p.props);
    let opts = PutOptions {
        retain: p.retain,
        ..PutOptions::default()
    };
    (p.topic, msg, opts)
}

/// Publishes `will` after `delay` as `who`, unless a new connection of `client_id` came
/// meanwhile (MQTT 5's Will Delay Interval; the seat takes the pending entry away).
fn delayed_will(
    broker: Arc<Broker>,
    client_id: String,
    serial: u64,
    will: Publication,
    delay: Duration,
    who: Principal,
) {
    broker
        .pending_wills
        .lock()
        .insert(client_id.clone(), serial);
    tokio::spawn(async move {
        tokio::time::sleep(delay).await;
        if broker.pending_wills.lock().get(&client_id) != Some(&serial) {
            return;
        }
        broker.pending_wills.lock().remove(&client_id);
        let opts = ConnectOptions {
            app_name: format!("MQTT {client_id} will"),
            user_id: Some(who.user.clone()),
        };
        let qm = broker.qm.clone();
        let published = tokio::task::spawn_blocking(move || {
            let mut s = qm.connect_with(&opts, ConnMode::Tcp, "MQTT will".into(), who)?;
            let (topic, msg, put) = publication_message(will, &client_id, None);
            let out = s.publish(&topic, msg, &put);
            let _ = s.disconnect();
            out
        })
        .await;
        if !matches!(published, Ok(Ok(_))) {
            tracing::info!("a delayed MQTT will was not published: {published:?}");
        }
    });
}

/// An MQTT 5 PUBLISH's request/response properties onto the message (see
/// [`RESPONSE_TOPIC_PROPERTY`]).
fn request_properties(msg: &mut Message, props: &wire::Props) {
    if let Some(t) = &props.response_topic {
        let _ = msg
            .properties
            .set(RESPONSE_TOPIC_PROPERTY, PropertyValue::String(t.clone()));
    }
    if let Some(c) = &props.correlation {
        let _ = msg
            .properties
            .set(CORRELATION_PROPERTY, PropertyValue::Bytes(c.clone()));
    }
    if let Some(ct) = &props.content_type {
        let _ = msg
            .properties
            .set(CONTENT_TYPE_PROPERTY, PropertyValue::String(ct.clone()));
    }
    if props.format == Some(1) {
        msg.descriptor.format = ferry_core::model::name::FormatName::truncating("MQSTR");
    }
}

/// A delivery's request/response properties for an MQTT 5 PUBLISH.
fn response_properties(msg: &Message, out: &mut wire::Props) {
    let props = &msg.properties;
    if let Some(PropertyValue::String(t)) = props.get(RESPONSE_TOPIC_PROPERTY) {
        out.response_topic = Some(t.clone());
    }
    out.correlation = match props.get(CORRELATION_PROPERTY) {
        Some(PropertyValue::Bytes(b)) => Some(b.clone()),
        Some(PropertyValue::String(s)) => Some(bytes::Bytes::from(s.clone().into_bytes())),
        _ => None,
    };
    if let Some(PropertyValue::String(ct)) = props.get(CONTENT_TYPE_PROPERTY) {
        out.content_type = Some(ct.clone());
    }
    // MQTT 5 lets a receiver refuse a body marked UTF-8 that is not: marked only when it is.
    if msg.descriptor.format.as_str().trim() == "MQSTR" && std::str::from_utf8(&msg.body).is_ok() {
        out.format = Some(1);
    }
}

/// What a packet asks for ends the connection: `Some(clean)`.
type Ending = Option<Clean>;

impl Client {
    async fn on_packet<W: AsyncWrite + Unpin>(
        &mut self,
        p: In,
        wr: &mut W,
    ) -> std::io::Result<Ending> {
        match p {
            In::Publish(p) => return self.on_publish(p, wr).await,
            In::PubAck(id) => self.settle(id, Outbound::Ack).await?,
            In::PubRec(id) => {
                if self.inflight.get(&id) == Some(&Outbound::Rec) {
                    Box::pin(self.track_received(id))
                        .await
                        .map_err(std::io::Error::other)?;
                    self.inflight.insert(id, Outbound::Comp);
                }
                self.write(wr, &Out::PubRel { id }).await?;
            }
            In::PubComp(id) => {
                if self.inflight.get(&id) == Some(&Outbound::Comp) {
                    self.track_completed(id);
                }
                self.settle(id, Outbound::Comp).await?
            }
            In::PubRel(id) => {
                self.awaiting_rel.remove(&id);
                if let Some(Err(e)) = self.qos2.as_mut().map(|q| q.released(id)) {
                    tracing::warn!(client = %self.id, error = %e, "MQTT QoS 2 release not recorded");
                }
                self.write(wr, &Out::PubComp { id }).await?;
            }
            In::Subscribe { id, filters } => {
                if filters
                    .iter()
                    .any(|f| f.no_local && crate::topic::shared(&f.topic).is_some())
                {
                    // MQTT 5: No Local on a shared subscription is a protocol error.
                    let code = code::PROTOCOL_ERROR;
                    let _ = self.write(wr, &Out::Disconnect { code }).await;
                    return Ok(Some(false));
                }
                let codes = Box::pin(self.on_subscribe(&filters)).await;
                self.write(wr, &Out::SubAck { id, codes }).await?;
            }
            In::Unsubscribe { id, filters } => {
                let codes = Box::pin(self.on_unsubscribe(&filters)).await;
                self.write(wr, &Out::UnsubAck { id, codes }).await?;
            }
            In::PingReq => self.write(wr, &Out::PingResp).await?,
            In::Disconnect { code } => return Ok(Some(code != 0x04)),
            In::Connect(_) => {
                let _ = self
                    .write(
                        wr,
                        &Out::Disconnect {
                            code: code::PROTOCOL_ERROR,
                        },
                    )
                    .await;
                return Ok(Some(false));
            }
        }
        Ok(None)
    }

    /// Backpressure from a subscriber's bounded queue: a publication left `q` three quarters
    /// full, so the next one waits (what is owed written first) until `q` is half full — at
    /// most [`EASE_FOR`], so that a client whose own queue it is still reads its
    /// acknowledgements. Without it a publisher faster than a subscriber fills the queue and
    /// the rest pass that subscriber by (a clean session's, MQ's rule for a non-durable
    /// subscription).
    async fn ease<W: AsyncWrite + Unpin>(
        &mut self,
        q: &ferry_core::engine::queue::Queue,
        wr: &mut W,
    ) -> std::io::Result<()> {
        self.flush_out(wr).await?;
        let until = tokio::time::Instant::now() + EASE_FOR;
        loop {
            let drained = {
                let st = q.lock();
                st.deleted || st.store.depth().saturating_mul(2) <= st.attrs.max_depth
            };
            if drained || tokio::time::Instant::now() >= until {
                return Ok(());
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
    }

    /// A delivery's last acknowledgement (PUBACK, or PUBCOMP) arrived; the gets are committed
    /// once none is outstanding.
    async fn settle(&mut self, id: u16, last: Outbound) -> std::io::Result<()> {
        if self.inflight.get(&id) == Some(&last) {
            self.inflight.remove(&id);
        }
        if !self.inflight.is_empty() {
            return Ok(());
        }
        self.commit_if_settled()
            .await
            .map_err(std::io::Error::other)
    }

    async fn on_publish<W: AsyncWrite + Unpin>(
        &mut self,
        p: Publication,
        wr: &mut W,
    ) -> std::io::Result<Ending> {
        let id = p.packet_id;
        self.stamp(false);
        if let Some(q) = self.crowded.take() {
            self.ease(&q, wr).await?;
        }
        if let Err(r) = crate::alias::note(&mut self.aliases, p.props.topic_alias, &p.topic) {
            tracing::info!(client = %self.id, reason = %r.why, "MQTT connection closed: a bad topic alias");
            let _ = self.write(wr, &Out::Disconnect { code: r.code }).await;
            return Ok(Some(false));
        }
        if p.qos == 2 && self.awaiting_rel.contains(&id) {
            // A resend of one already published: acknowledge it again, publish it once.
            self.write(
                wr,
                &Out::PubRec {
                    id,
                    code: code::SUCCESS,
                },
            )
            .await?;
            return Ok(None);
        }
        if p.qos == 2 && self.awaiting_rel.len() >= self.broker.settings.max_inbound_qos2 {
            let code = code::QUOTA_EXCEEDED;
            let _ = self.write(wr, &Out::Disconnect { code }).await;
            return Ok(Some(false));
        }
        let (qos, v5) = (p.qos, self.version == Version::V5);
        let result = self.publish_deferred(p);
        let lsn = result.as_ref().ok().and_then(|r| r.1);
        let c = match &result {
            Ok((delivered, _)) if *delivered == 0 && v5 => code::NO_MATCHING_SUBSCRIBERS,
            Ok(_) => code::SUCCESS,
            Err((c, why)) => {
                tracing::info!(client = %self.id, reason = %why, "MQTT publication refused");
                // 3.1 and 3.1.1 have no negative acknowledgement: the connection closes.
                if !v5 || qos == 0 {
                    let _ = self.write(wr, &Out::Disconnect { code: *c }).await;
                    return Ok(Some(false));
                }
                *c
            }
        };
        let ack = match qos {
            1 => Out::PubAck { id, code: c },
            2 => {
                if c < 0x80 {
                    self.awaiting_rel.insert(id);
                }
                Out::PubRec { id, code: c }
            }
            _ => return Ok(None),
        };
        self.acks.push_back((lsn, ack));
        if self.acks.len() > MAX_OWED_ACKS {
            // Read no more until the oldest is on disk.
            let oldest = self.acks.front().and_then(|a| a.0).unwrap_or(0);
            self.durable(oldest).await.map_err(std::io::Error::other)?;
        }
        self.send_ready_acks(wr).await?;
        Ok(None)
    }

    /// Waits until the log holds everything up to `lsn`.
    async fn durable(&self, lsn: u64) -> MqResult<()> {
        on_disk(&self.broker.qm, lsn).await
    }

    /// Sends the acknowledgements owed whose publications are on disk, oldest first.
    async fn send_ready_acks<W: AsyncWrite + Unpin>(&mut self, wr: &mut W) -> std::io::Result<()> {
        while let Some((lsn, _)) = self.acks.front() {
            if let (Some(lsn), Some(d)) = (lsn, self.broker.qm.durability()) {
                match d.poll_durable(*lsn, std::task::Waker::noop()) {
                    std::task::Poll::Pending => break,
                    std::task::Poll::Ready(r) => r.map_err(std::io::Error::other)?,
                }
            }
            if let Some((_, ack)) = self.acks.pop_front() {
                self.write(wr, &ack).await?;
            }
        }
        Ok(())
    }

    /// Publishes a client's PUBLISH (a will) and waits until it is on disk; how many
    /// subscriptions got it.
    async fn publish(&mut self, p: Publication) -> Result<usize, (u8, String)> {
        let (n, lsn) = self.publish_deferred(p)?;
        self.durable(lsn.unwrap_or(0))
            .await
            .map_err(|e| refusal(&e))?;
        Ok(n)
    }

    /// Publishes a client's PUBLISH without waiting for the disk: how many subscriptions got
    /// it, and the log position to wait for before it may be acknowledged.
    fn publish_deferred(&mut self, p: Publication) -> Result<(usize, Option<u64>), (u8, String)> {
        crate::topic::check_name(&p.topic)?;
        self.cancel_wait();
        if p.retain && p.payload.is_empty() {
            // MQTT's way of removing a topic's retained publication (MQSC CLEAR TOPICSTR).
            let qm = self.session.queue_manager().clone();
            qm.clear_retained(&p.topic).map_err(|e| refusal(&e))?;
            return Ok((1, None));
        }
        let (qos, packet_id) = (p.qos, p.packet_id);
        if qos == 2 && self.persistent {
            let (topic, msg, opts) = publication_message(p, &self.id, None);
            return self.publish_once(&topic, msg, &opts, packet_id);
        }
        let through = self.publishing.handle(&mut self.session, &p.topic);
        let shared = through
            .filter(|_| carries_no_properties(&p.props))
            .and_then(|h| self.publishing.properties(h, qos, &self.id));
        let (topic, msg, opts) = publication_message(p, &self.id, shared);
        let (r, lsn) = ferry_core::qmgr::journal::deferring(|| match through {
            Some(h) => self.session.publish_on(h, msg, &opts),
            None => self.session.publish(&topic, msg, &opts),
        });
        r.map(|d| {
            self.crowded = d.crowded;
            (d.delivered, lsn)
        })
        .map_err(|e| refusal(&e))
    }

    /// The session's QoS 2 state, opened (its queue made) the first time it is needed.
    fn qos2_state(&mut self) -> Result<&mut crate::qos2::Qos2, (u8, String)> {
        if self.qos2.is_none() {
            let (peer, who) = (self.status.lock().conname.clone(), self.principal());
            let q = crate::qos2::Qos2::open(&self.broker.qm, &self.id, &peer, who);
            self.qos2 = Some(Box::new(q.map_err(|e| refusal(&e))?));
        }
        Ok(self.qos2.as_mut().expect("opened above"))
    }

    /// A persistent session's QoS 2 publication, recorded with its packet id in one unit of
    /// work (`qos2.rs`).
    fn publish_once(
        &mut self,
        topic: &str,
        msg: Message,
        opts: &PutOptions,
        packet_id: u16,
    ) -> Result<(usize, Option<u64>), (u8, String)> {
        let q = self.qos2_state()?;
        let (r, lsn) =
            ferry_core::qmgr::journal::deferring(|| q.publish(topic, msg, opts, packet_id));
        r.map(|n| (n, lsn)).map_err(|e| refusal(&e))
    }

    async fn on_subscribe(&mut self, filters: &[Filter]) -> Vec<u8> {
        self.cancel_wait();
        let mut codes = Vec::with_capacity(filters.len());
        for f in filters {
            let code = match self.subscribe(f).await {
                Ok(granted) => granted,
                Err((c, why)) => {
                    tracing::info!(client = %self.id, filter = %f.topic, reason = %why, "MQTT subscription refused");
                    if self.version == Version::V5 {
                        c
                    } else {
                        code::UNSPECIFIED
                    }
                }
            };
            codes.push(code);
        }
        codes
    }

    /// One filter: a subscription to the session's queue (replacing one to the same filter),
    /// and the QoS granted.
    async fn subscribe(&mut self, f: &Filter) -> Result<u8, (u8, String)> {
        crate::topic::check_filter(&f.topic)?;
        if let Some(parts) = crate::topic::shared(&f.topic) {
            let (group, topic) = parts?;
            return self
                .subscribe_shared(f, &format!("{group}/{topic}"), topic)
                .await;
        }
        let granted = f.qos.min(2);
        if let Some(old) = self.subs.remove(&f.topic) {
            let how = if self.persistent {
                CloseOptions::RemoveSub
            } else {
                CloseOptions::None
            };
            durably(&mut self.session, |s| s.close(old, how))
                .await
                .map_err(|e| refusal(&e))?;
        }
        let sd = SubDescriptor {
            topic: f.topic.clone(),
            name: self
                .persistent
                .then(|| format!("MQTT:{}:{}", self.id, f.topic)),
            correl_id: Some(granted_correl(granted, f.no_local)),
            action: SubAction::CreateOrResume,
            durable: self.persistent,
            managed: false,
            new_publications_only: f.retain_handling == 2,
            ..Default::default()
        };
        let q = self.queue;
        let (_, hsub) = durably(&mut self.session, |s| s.subscribe(&sd, Some(q)))
            .await
            .map_err(|e| refusal(&e))?;
        self.subs.insert(f.topic.clone(), hsub);
        Ok(granted)
    }

    /// Joins a shared subscription's group (`key` is `{group}/{filter}`); a member already
    /// is only given its new QoS.
    async fn subscribe_shared(
        &mut self,
        f: &Filter,
        key: &str,
        topic: &str,
    ) -> Result<u8, (u8, String)> {
        let granted = f.qos.min(2);
        if let Some(m) = self.shared.iter_mut().find(|m| m.key == key) {
            m.granted = granted;
            return Ok(granted);
        }
        let depth = self.broker.settings.session_max_depth;
        let all = granted_correl(2, false);
        let queue = durably(&mut self.session, |s| {
            crate::shared::join(s, key, topic, all, depth)
        })
        .await
        .map_err(|e| refusal(&e))?;
        if self.persistent {
            let (id, own, mine) = (self.id.clone(), self.queue, granted_correl(granted, false));
            let recorded = durably(&mut self.session, |s| {
                crate::shared::record_member(s, &id, key, topic, own, mine)
            })
            .await;
            match recorded {
                Ok(h) => {
                    self.subs.insert(f.topic.clone(), h);
                }
                Err(e) => {
                    let _ = self.session.close(queue, CloseOptions::None);
                    return Err(refusal(&e));
                }
            }
        }
        self.joined(key, queue, granted);
        Ok(granted)
    }

    fn joined(&mut self, key: &str, queue: Hobj, granted: u8) {
        *self
            .broker
            .shared_members
            .lock()
            .entry(key.to_owned())
            .or_default() += 1;
        self.shared.push(crate::shared::Membership {
            key: key.to_owned(),
            queue,
            granted,
        });
    }

    /// Leaves the group `key`, if a member: its queue closed, the count lowered.
    fn leave(&mut self, key: &str) -> bool {
        let Some(i) = self.shared.iter().position(|m| m.key == key) else {
            return false;
        };
        let m = self.shared.remove(i);
        let _ = self.session.close(m.queue, CloseOptions::None);
        let mut members = self.broker.shared_members.lock();
        if let Some(n) = members.get_mut(key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                members.remove(key);
            }
        }
        true
    }

    /// A resumed session's QoS 2 packet ids awaiting PUBREL are read back; a fresh session's
    /// old ones go.
    fn restore_qos2(&mut self) {
        let qm = self.broker.qm.clone();
        if qm.queue_status(&crate::qos2::queue_name(&self.id)).is_err() {
            return;
        }
        let (peer, who) = (self.status.lock().conname.clone(), self.principal());
        match crate::qos2::Qos2::open(&qm, &self.id, &peer, who) {
            Ok(q) if !self.present => q.close(&qm, true),
            Ok(mut q) => {
                match q.awaiting() {
                    Ok(ids) => self.awaiting_rel.extend(ids),
                    Err(e) => {
                        tracing::warn!(client = %self.id, error = %e, "MQTT QoS 2 packet ids not read back")
                    }
                }
                self.qos2 = Some(Box::new(q));
                if let Err(e) = self.restore_unfinished() {
                    tracing::warn!(client = %self.id, error = %e, "MQTT QoS 2 deliveries in flight not read back");
                }
            }
            Err(e) => tracing::warn!(client = %self.id, error = %e, "MQTT QoS 2 state not opened"),
        }
    }

    fn principal(&self) -> Principal {
        (**self.session.principal()).clone()
    }

    /// A persistent session back: the groups it was a member of are read again.
    async fn rejoin(&mut self, groups: Vec<(String, String, CorrelId)>) {
        let depth = self.broker.settings.session_max_depth;
        let all = granted_correl(2, false);
        for (key, topic, mine) in groups {
            let joined = durably(&mut self.session, |s| {
                crate::shared::join(s, &key, &topic, all, depth)
            })
            .await;
            match joined {
                Ok(q) => self.joined(&key, q, mine.0[4].min(2)),
                Err(e) => {
                    tracing::info!(client = %self.id, group = key, error = %e, "MQTT shared subscription not rejoined")
                }
            }
        }
    }

    async fn on_unsubscribe(&mut self, filters: &[String]) -> Vec<u8> {
        self.cancel_wait();
        let mut codes = Vec::with_capacity(filters.len());
        for f in filters {
            let c = match self.unsubscribe(f).await {
                Ok(true) => code::SUCCESS,
                Ok(false) => code::NO_SUBSCRIPTION_EXISTED,
                Err((c, _)) => c,
            };
            codes.push(c);
        }
        codes
    }

    async fn unsubscribe(&mut self, f: &str) -> Result<bool, (u8, String)> {
        if let Some(Ok((group, topic))) = crate::topic::shared(f) {
            let key = format!("{group}/{topic}");
            let left = self.leave(&key);
            let recorded = self.unsubscribe_plain(f).await?;
            crate::shared::remove_if_unused(&self.broker, &key);
            return Ok(left || recorded);
        }
        self.unsubscribe_plain(f).await
    }

    async fn unsubscribe_plain(&mut self, f: &str) -> Result<bool, (u8, String)> {
        if let Some(h) = self.subs.remove(f) {
            durably(&mut self.session, |s| s.close(h, CloseOptions::RemoveSub))
                .await
                .map_err(|e| refusal(&e))?;
            return Ok(true);
        }
        if self.persistent {
            let name = format!("MQTT:{}:{}", self.id, f);
            let qm = self.session.queue_manager().clone();
            if qm.subscription_named(&name).is_some() {
                qm.delete_sub(&name).map_err(|e| refusal(&e))?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The end of the connection: the will unless it ended cleanly, the deliveries not
    /// acknowledged backed out (they stay on the queue), the handles closed — a persistent
    /// session's subscriptions and queue stay, a clean one's go.
    async fn end(mut self, clean: bool) {
        self.note();
        self.cancel_wait();
        if let Some(q) = self.qos2.take() {
            q.close(&self.broker.qm, !self.persistent);
        }
        if !clean {
            if let Some(w) = self.will.take().map(|w| *w) {
                if !self.will_delay.is_zero() {
                    let who = (**self.session.principal()).clone();
                    let (b, id) = (self.broker.clone(), self.id.clone());
                    delayed_will(b, id, self._seat.serial(), w, self.will_delay, who);
                } else if let Err((_, why)) = self.publish(w).await {
                    tracing::info!(client = %self.id, reason = %why, "MQTT will not published");
                }
            }
        }
        let _ = durably(&mut self.session, |s| s.backout()).await;
        let how = if self.persistent {
            CloseOptions::None
        } else {
            CloseOptions::RemoveSub
        };
        for (_, h) in std::mem::take(&mut self.subs) {
            let _ = durably(&mut self.session, |s| s.close(h, how)).await;
        }
        let groups: Vec<String> = self.shared.iter().map(|m| m.key.clone()).collect();
        for key in groups {
            self.leave(&key);
            crate::shared::remove_if_unused(&self.broker, &key);
        }
        let q = self.queue;
        let how = if self.persistent {
            CloseOptions::None
        } else {
            CloseOptions::DeletePurge
        };
        self.session
            .act_as(Principal::owner(&self.broker.qm.name().to_string()));
        let _ = durably(&mut self.session, |s| s.close(q, how)).await;
        let _ = self.session.disconnect_in_place();
    }
}
