//! Sender channels (docs/channels.md): one thread per SDR channel moves messages from its
//! transmission queue to the receiving queue manager in batches, each a unit of work at both
//! ends (the engine side is `ferry_core::channel`). The receiving end is an ordinary
//! conversation on the partner's server (`conn.rs`; its channel requests in `conn/dispatch.rs`),
//! so channels get the client connection's framing, limits, heartbeats and compression.
//!
//! A sender's life: INACTIVE (its transmission queue is empty; it waits for a message), BINDING
//! (connects to CONNAME, agrees batch size, and resolves a batch the receiver committed but it
//! did not), RUNNING (batches until the transmission queue has been empty for DISCINT), back to
//! INACTIVE; after a failure RETRYING — SHORTRTY tries every SHORTTMR seconds, then LONGRTY
//! every LONGTMR — then STOPPED. STOP CHANNEL stops it (the batch in flight is backed out);
//! START CHANNEL starts it again. A supervisor starts a thread for every sender channel
//! defined, and ends those whose definition is deleted.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use ferry_client::{ChannelPeer, ClientOptions, Compression, Connection};
use ferry_core::channel as ch;
use ferry_core::qmgr::catalog::ChannelHook;
use ferry_core::qmgr::catalog::StatusCell;
use ferry_core::{
    Hobj, MqError, MqResult, ObjectDescriptor, ObjectName, OpenOptions, QueueManager, Reason,
    Session,
};
use ferry_model::channel::{ChannelState, ChannelStatus};
use ferry_model::objects::{ChannelAttrs, ChannelType, TransportType};

/// How often the supervisor looks for sender channels defined or deleted.
const SUPERVISE_EVERY: Duration = Duration::from_millis(500);
/// Longest single wait of a sender thread, so it notices STOP CHANNEL and shutdown promptly.
const POLL: Duration = Duration::from_millis(250);
/// How long a sender with fast batches unanswered waits for a message before it looks for
/// their answers again.
const ANSWER_POLL: Duration = Duration::from_millis(1);
/// Batches of non-persistent messages (NPMSPEED(FAST)) a sender may have sent and not yet
/// had answered, at most, on each lane: it does not wait a round trip per batch, so a long
/// link is kept full. They are off the transmission queue already, as one batch is without
/// the window. Over QUIC with lanes a batch for several queues goes as one request a lane.
/// Over QUIC their bytes are bounded first, by the window sized from the link
/// ([`fast_window_bytes`]).
const FAST_WINDOW: usize = 256;
/// The same over TCP, whose buffers the kernel sizes from the link itself (autotuning): the
/// sender keeps no window of its own beyond this and [`FAST_WINDOW_BATCHLIMS`] (sizing one
/// from the round trip TCP reports left out the time batches wait in the socket's buffers,
/// and cost a TCP BBR channel of 200 KB at N3 a few per cent).
const FAST_WINDOW_TCP: usize = 64;
/// The most bytes of message bodies in fast batches sent and not yet answered, in full
/// batches (BATCHLIM): what a failed connection can lose, over any transport.
const FAST_WINDOW_BATCHLIMS: usize = 16;
/// The least the fast window holds, bytes (40 batches of 50 × 2 KB): a short link needs no
/// more, and a long one starts here until its rate is measured — unless batches are large.
const FAST_WINDOW_FLOOR: usize = 4 << 20;
/// The least the fast window holds, in full batches (BATCHLIM): batches of large messages
/// (the default BATCHLIM, 5,000 KiB, is 25 of 200 KB) in flight one at a time would cross even
/// a short link in lock-step with their answers.
const FAST_WINDOW_FLOOR_BATCHLIMS: usize = 4;

/// The most fast batches a sender keeps unanswered on a lane, and their starting bytes in all:
/// over QUIC [`FAST_WINDOW`] and [`fast_window_bytes`]'s floor (the window then follows the
/// link), over TCP [`FAST_WINDOW_TCP`] and [`FAST_WINDOW_BATCHLIMS`] full batches.
fn fast_bounds(conn: &Connection, def: &ChannelAttrs) -> (usize, usize) {
    let limit = (def.batch_limit_kib as usize).max(1) << 10;
    match conn.mode() {
        ferry_model::ConnMode::Quic => (FAST_WINDOW, fast_window_bytes(0, Duration::ZERO, limit)),
        _ => (FAST_WINDOW_TCP, FAST_WINDOW_BATCHLIMS * limit),
    }
}

/// The bytes of fast batches a sender over QUIC keeps unanswered: as many bandwidth-delay
/// products (message bodies sent a second, before compression, × QUIC's smoothed round trip)
/// as QUIC's own windows hold ([`ferry_client::quic::BDP_MULTIPLE`]: what is in flight, what
/// waits at the receiver behind a lost packet, the answers' way back), between
/// [`FAST_WINDOW_FLOOR`] (or [`FAST_WINDOW_FLOOR_BATCHLIMS`] full batches, if more) and
/// [`FAST_WINDOW_BATCHLIMS`] full batches. A window that bounds the
/// rate measures only what it lets through; four times that keeps it growing until the link,
/// not the window, is the bound. (QUIC's own rate counts compressed bytes: with LZ4 a window
/// from it was a third of what the bodies needed, and one channel at N3 moved less with
/// compression than without.)
fn fast_window_bytes(rate: u64, rtt: Duration, batch_limit: usize) -> usize {
    let most = FAST_WINDOW_BATCHLIMS * batch_limit;
    let want = (ferry_client::quic::BDP_MULTIPLE * rate as f64 * rtt.as_secs_f64()) as usize;
    let floor = FAST_WINDOW_FLOOR.max(FAST_WINDOW_FLOOR_BATCHLIMS * batch_limit);
    want.clamp(floor.min(most), most)
}

/// TLS for sender channels with SSLCIPH.
#[derive(Debug, Clone, Default)]
pub struct ChannelTls {
    /// PEM file with the CA that signs partner queue managers' certificates.
    pub ca: Option<std::path::PathBuf>,
    /// This queue manager's certificate chain and key (PEM), presented to receivers that
    /// require client certificates.
    pub own: Option<(std::path::PathBuf, std::path::PathBuf)>,
    /// Streams a sender over QUIC offers to spread its fast batches over (`[server]
    /// quic_lanes`; 0: `ferry_client::quic::LANES`).
    pub quic_lanes: u32,
}

/// What START / STOP CHANNEL ask of a sender thread.
#[derive(Debug, Default)]
struct Control {
    /// STOP CHANNEL (cleared by START CHANNEL).
    stopped: AtomicBool,
    /// How many STOP CHANNELs there have been: a running sender that sees it change ends its
    /// connection even if a START came before it looked (STOP then START is a restart).
    stops: std::sync::atomic::AtomicU64,
    /// The definition is gone or the server is stopping: the thread ends.
    ended: AtomicBool,
    /// Wakes a waiting thread.
    wake: Mutex<bool>,
    woken: Condvar,
}

impl Control {
    fn nudge(&self) {
        *self.wake.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.woken.notify_all();
    }

    /// Sleeps up to `d`, or until nudged.
    fn sleep(&self, d: Duration) {
        let guard = self.wake.lock().unwrap_or_else(|p| p.into_inner());
        let (mut g, _) = self
            .woken
            .wait_timeout_while(guard, d, |w| !*w)
            .unwrap_or_else(|p| p.into_inner());
        *g = false;
    }

    fn must_pause(&self) -> bool {
        self.stopped.load(Ordering::Acquire) || self.ended.load(Ordering::Acquire)
    }
}

struct Sender {
    control: Arc<Control>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The server's sender channels, registered with the queue manager as its channel hook.
pub(crate) struct Channels {
    qm: QueueManager,
    tls: ChannelTls,
    senders: Mutex<HashMap<ObjectName, Sender>>,
    shutdown: AtomicBool,
}

impl std::fmt::Debug for Channels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Channels").finish_non_exhaustive()
    }
}

impl Channels {
    /// Starts the supervisor thread.
    pub(crate) fn start(qm: QueueManager, tls: ChannelTls) -> Arc<Channels> {
        let channels = Arc::new(Channels {
            qm,
            tls,
            senders: Mutex::new(HashMap::new()),
            shutdown: AtomicBool::new(false),
        });
        let weak = Arc::downgrade(&channels);
        let spawned = std::thread::Builder::new()
            .name("ferry-channels".into())
            .spawn(move || loop {
                let Some(c) = weak.upgrade() else { return };
                if c.shutdown.load(Ordering::Acquire) {
                    return;
                }
                c.supervise();
                drop(c);
                std::thread::sleep(SUPERVISE_EVERY);
            });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start the channel supervisor; sender channels start only with START CHANNEL");
        }
        channels
    }

    /// Starts threads for sender channels that have none; ends those whose channel is gone.
    fn supervise(&self) {
        let defined: HashMap<ObjectName, ChannelAttrs> = self
            .qm
            .channels()
            .into_iter()
            // A sender without a CONNAME (SYSTEM.DEF.SENDER) is a template: nothing to start.
            .filter(|(_, a)| a.channel_type == ChannelType::Sender && !a.conn_name.is_empty())
            .collect();
        let mut senders = self.senders.lock().unwrap_or_else(|p| p.into_inner());
        senders.retain(|name, s| {
            let keep =
                defined.contains_key(name) && s.thread.as_ref().is_some_and(|t| !t.is_finished());
            if !keep {
                s.control.ended.store(true, Ordering::Release);
                s.control.nudge();
            }
            keep
        });
        for name in defined.keys() {
            if !senders.contains_key(name) {
                senders.insert(*name, self.spawn(*name, false));
            }
        }
    }

    fn spawn(&self, name: ObjectName, stopped: bool) -> Sender {
        let control = Arc::new(Control::default());
        control.stopped.store(stopped, Ordering::Release);
        let (qm, c, tls) = (self.qm.clone(), control.clone(), self.tls.clone());
        let thread = std::thread::Builder::new()
            .name(format!("ferry-sdr-{name}"))
            .spawn(move || run_sender(qm, name, c, tls))
            .map_err(|e| tracing::error!(channel = %name, error = %e, "cannot start a sender channel thread"))
            .ok();
        Sender { control, thread }
    }

    /// Ends every sender (the server is stopping): batches in flight are backed out.
    pub(crate) fn shutdown(&self) {
        self.shutdown.store(true, Ordering::Release);
        let mut senders = self.senders.lock().unwrap_or_else(|p| p.into_inner());
        for s in senders.values() {
            s.control.ended.store(true, Ordering::Release);
            s.control.nudge();
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        for (name, mut s) in senders.drain() {
            if let Some(t) = s.thread.take() {
                while !t.is_finished() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(10));
                }
                if t.is_finished() {
                    let _ = t.join();
                } else {
                    tracing::warn!(channel = %name, "sender channel still busy at stop; left to end with the process");
                }
            }
        }
    }
}

impl ChannelHook for Channels {
    fn start(&self, name: ObjectName) -> MqResult<()> {
        let mut senders = self.senders.lock().unwrap_or_else(|p| p.into_inner());
        match senders.get(&name) {
            Some(s) if s.thread.as_ref().is_some_and(|t| !t.is_finished()) => {
                s.control.stopped.store(false, Ordering::Release);
                s.control.nudge();
            }
            _ => {
                senders.insert(name, self.spawn(name, false));
            }
        }
        Ok(())
    }

    fn stop(&self, name: ObjectName) -> MqResult<()> {
        let senders = self.senders.lock().unwrap_or_else(|p| p.into_inner());
        match senders.get(&name) {
            Some(s) => {
                s.control.stops.fetch_add(1, Ordering::AcqRel);
                s.control.stopped.store(true, Ordering::Release);
                s.control.nudge();
                Ok(())
            }
            None => Err(MqError::new(
                Reason::ChannelNotAvailable,
                format!("channel {name} is not a sender running here; a receiver ends when its sender stops"),
            )),
        }
    }
}

/// `host(port)` (MQ's CONNAME) or `host:port` as a connection string.
fn endpoint(conname: &str) -> MqResult<String> {
    let c = conname.trim();
    let (host, port) = match c.split_once('(') {
        Some((h, rest)) => (h.trim(), rest.trim_end_matches(')').trim()),
        None => match c.rsplit_once(':') {
            Some((h, p)) => (h, p),
            None => (c, "1414"),
        },
    };
    if host.is_empty() || port.parse::<u16>().is_err() {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!("CONNAME('{conname}') is not host(port), e.g. CONNAME('127.0.0.1(1414)')"),
        ));
    }
    Ok(format!("tcp://{host}:{port}"))
}

fn set_state(status: &StatusCell, state: ChannelState) {
    status.lock().state = state;
}

/// One sender channel's thread.
fn run_sender(qm: QueueManager, name: ObjectName, control: Arc<Control>, tls: ChannelTls) {
    let status: StatusCell = Arc::new(parking_lot::Mutex::new(ChannelStatus {
        sender: true,
        ..Default::default()
    }));
    qm.register_channel_status(name, status.clone());
    let mut failures = 0u32;
    while !control.ended.load(Ordering::Acquire) {
        if control.stopped.load(Ordering::Acquire) {
            set_state(&status, ChannelState::Stopped);
            control.sleep(POLL);
            failures = 0;
            continue;
        }
        let Ok(def) = qm.channel(name.as_str()) else {
            break;
        };
        {
            let mut st = status.lock();
            st.conname = def.conn_name.clone();
            st.xmit_queue = def.xmit_queue.to_string();
        }
        match serve(&qm, name, &def, &control, &status, &tls) {
            Ok(()) => failures = 0,
            Err(e) => {
                if control.must_pause() || qm.run_state() != ferry_core::RunState::Running {
                    continue;
                }
                failures += 1;
                let (wait, left) = if failures <= def.short_retry {
                    (def.short_timer_secs, "short")
                } else if failures - def.short_retry <= def.long_retry {
                    (def.long_timer_secs, "long")
                } else {
                    tracing::error!(channel = %name, error = %e, "sender channel stopped: its retries are used up (START CHANNEL to start it again)");
                    let mut st = status.lock();
                    st.last_error = e.to_string();
                    drop(st);
                    control.stopped.store(true, Ordering::Release);
                    continue;
                };
                tracing::warn!(channel = %name, error = %e, retry_in_s = wait, retry = left, "sender channel failed; retrying");
                {
                    let mut st = status.lock();
                    st.state = ChannelState::Retrying;
                    st.last_error = e.to_string();
                }
                let until = Instant::now() + Duration::from_secs(wait as u64);
                while Instant::now() < until && !control.must_pause() {
                    control.sleep(POLL.min(until.saturating_duration_since(Instant::now())));
                }
            }
        }
    }
    set_state(&status, ChannelState::Inactive);
    qm.unregister_channel_status(&name, &status);
}

/// Waits for a message on the transmission queue, then connects and moves batches until the
/// queue has been empty for DISCINT (Ok) or something fails (Err; the batch in flight is
/// backed out).
fn serve(
    qm: &QueueManager,
    name: ObjectName,
    def: &ChannelAttrs,
    control: &Control,
    status: &StatusCell,
    tls: &ChannelTls,
) -> MqResult<()> {
    let mut s = qm.connect_internal(name.as_str())?;
    let out = serve_with(&mut s, qm, name, def, control, status, tls);
    if out.is_err() {
        let _ = s.backout();
    }
    let _ = s.disconnect_in_place();
    out
}

/// A sender channel's life on session `s` (see [`serve`]): INACTIVE until a message arrives,
/// BINDING, then RUNNING.
fn serve_with(
    s: &mut Session,
    qm: &QueueManager,
    name: ObjectName,
    def: &ChannelAttrs,
    control: &Control,
    status: &StatusCell,
    tls: &ChannelTls,
) -> MqResult<()> {
    // A STOP CHANNEL from here on ends this instance, even one that comes while it binds.
    let stops = control.stops.load(Ordering::Acquire);
    if def.xmit_queue.is_empty() {
        return Err(MqError::new(
            Reason::XmitQTypeError,
            format!("sender channel {name} has no XMITQ"),
        ));
    }
    let xmitq = s.open(
        &ObjectDescriptor::queue(def.xmit_queue),
        OpenOptions::input_exclusive().with_browse(),
    )?;
    // A batch left in doubt by an earlier failure shows until it is settled.
    status.lock().in_doubt = !ch::read_sync(s, &name)?.ids.is_empty();
    // INACTIVE until a message arrives.
    set_state(status, ChannelState::Inactive);
    if !await_message(s, xmitq, control, stops)? {
        return Ok(());
    }
    // BINDING.
    set_state(status, ChannelState::Binding);
    let (ep, opts) = client_options(name, def, tls)?;
    let mut conn = connect_partner(name, def, &ep, &opts)?;
    // The key of the channel's logical unit of work ids, made the first time it binds.
    let key = ch::sender_key(s, &name, luw::fresh_key()?)?;
    let congestion = apply_congestion(&name, def, &conn);
    let (peer, seq) = bind(s, qm, name, def, xmitq, &mut conn, &key)?;
    mark_running(status, &peer, seq, &conn);
    status.lock().congestion = congestion;
    tracing::info!(channel = %name, to = %peer.qmgr, conname = %def.conn_name, seq, batch_size = peer.batch_size, "sender channel running");
    // RUNNING.
    let fast = fast_bounds(&conn, def);
    let running = Running {
        s,
        conn,
        xmitq,
        name,
        def,
        status,
        batch_size: peer.batch_size,
        seq,
        key,
        sent_seq: seq,
        window: peer.window.max(1) as usize,
        lanes: peer.lanes.max(1) as usize,
        unanswered: std::collections::VecDeque::new(),
        rates: std::cell::Cell::new(None),
        fast_batches: fast.0,
        fast_window: std::cell::Cell::new(fast.1),
        body_rate: BodyRate::default(),
    };
    running.run(control, stops)
}

/// Browses the transmission queue until a message is there (true), or STOP CHANNEL (since
/// `stops`) or the end of the channel asks it to pause (false; the next instance reads the
/// definition again).
fn await_message(s: &mut Session, xmitq: Hobj, control: &Control, stops: u64) -> MqResult<bool> {
    loop {
        if control.must_pause() || control.stops.load(Ordering::Acquire) != stops {
            return Ok(false);
        }
        let peek = s.get(
            xmitq,
            &ferry_core::GetOptions::new()
                .browse(ferry_core::BrowseMode::First)
                .wait(POLL),
        );
        match peek {
            Ok(_) => return Ok(true),
            Err(e) if e.reason == Reason::NoMsgAvailable => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The receiver's connection string and the client options to reach it with: TLS when the
/// channel has SSLCIPH (which needs a CA), and the compression COMPMSG asks for.
fn client_options(
    name: ObjectName,
    def: &ChannelAttrs,
    tls: &ChannelTls,
) -> MqResult<(String, ClientOptions)> {
    let mut ep = endpoint(&def.conn_name)?;
    let tls_options = if def.ssl_cipher.is_empty() {
        None
    } else {
        let Some(ca) = tls.ca.clone() else {
            return Err(MqError::new(
                Reason::AttributeValueError,
                format!("channel {name} has SSLCIPH({}) but no CA to check its partner with: set [server] tls_ca in qm.toml", def.ssl_cipher),
            ));
        };
        ep = ep.replacen("tcp://", "tls://", 1);
        Some(ferry_client::TlsOptions {
            ca,
            server_name: ferry_model::objects::ssl_peer_name(&def.ssl_peer),
            client_cert: tls.own.clone(),
        })
    };
    let opts = ClientOptions {
        tls: tls_options,
        channel: true,
        svrconn: None,
        user: (!def.user_id.is_empty()).then(|| def.user_id.clone()),
        password: (!def.password.is_empty()).then(|| def.password.clone()),
        compression: def
            .compression
            .iter()
            .filter_map(|c| {
                Compression::from_name(match c.as_str() {
                    "LZ4FAST" => "lz4-fast",
                    "LZ4HIGH" => "lz4-high",
                    "ZLIBFAST" => "zlib-fast",
                    _ => "zlib-high",
                })
            })
            .collect(),
        quic: ferry_client::quic::QuicOptions {
            lanes: tls.quic_lanes,
            ..Default::default()
        },
        ..Default::default()
    };
    Ok((ep, opts))
}

/// Connects to the receiver: over QUIC first for TRPTYPE(QUIC), falling back to TCP (logged)
/// when the partner does not answer over QUIC; over TCP (or TLS) otherwise.
fn connect_partner(
    name: ObjectName,
    def: &ChannelAttrs,
    ep: &str,
    opts: &ClientOptions,
) -> MqResult<Connection> {
    if def.transport == TransportType::Quic {
        let quic = ep
            .replacen("tcp://", "quic://", 1)
            .replacen("tls://", "quic://", 1);
        let mut o = opts.clone();
        o.quic.congestion = def.congestion.clone();
        match Connection::connect_with(&quic, name.as_str(), &o) {
            Ok(c) => return Ok(c),
            Err(e) if e.reason == Reason::QMgrNotAvailable => {
                tracing::warn!(channel = %name, conname = %def.conn_name, error = %e.detail,
                    "AMQ9213W the partner does not answer over QUIC; the channel falls back to TCP");
            }
            Err(e) => return Err(e),
        }
    }
    Connection::connect_with(ep, name.as_str(), opts).map_err(|e| {
        MqError::new(
            Reason::HostNotAvailable,
            format!(
                "channel {name} cannot reach {} ({ep}): {}",
                def.conn_name, e.detail
            ),
        )
    })
}

/// Starts the channel with the receiver and settles the batches left in doubt: the receiver's
/// answer, and the sequence number of the last batch both ends committed.
fn bind(
    s: &mut Session,
    qm: &QueueManager,
    name: ObjectName,
    def: &ChannelAttrs,
    xmitq: Hobj,
    conn: &mut Connection,
    key: &[u8; ch::LUWID_KEY_LEN],
) -> MqResult<(ChannelPeer, u64)> {
    let mine = ch::read_sync(s, &name)?;
    let offer = ch::SenderOffer {
        batch_size: def.batch_size,
        max_msg_length: def.max_msg_length.min(u32::MAX as usize) as u32,
        seq: mine.seq,
        window: ch::RECOVERABLE_WINDOW,
    };
    let peer = conn.channel_start(name.as_str(), qm.name().as_str(), offer)?;
    let mut seq = mine.seq;
    let theirs = peer.committed.seq;
    if !mine.ids.is_empty() && theirs == seq {
        // The batches left in doubt never reached the receiver: they go again.
        ch::sender_commit(s, &name, seq, Some(*key))?;
        tracing::info!(channel = %name, seq = seq + 1, batches = 1 + mine.more.len(), "in-doubt batches resolved: the receiver never committed them; sending them again");
    }
    if theirs > seq {
        let batches = committed_batches(&name, &mine, &peer.committed, key)?;
        let removed = ch::resolve_committed_batch(s, &name, xmitq, &batches)?;
        tracing::info!(channel = %name, seq = theirs, batches = theirs - seq, removed,
            "resolved in-doubt batches: the receiver had committed them");
        seq = theirs;
    }
    Ok((peer, seq))
}

/// The batches the receiver says it committed ahead of the sender (its last, and those before
/// it in `more`), checked one by one against what the sender knows it sent: its own in-doubt
/// record (ids and logical unit of work id), or — for a batch it has none of (it stopped
/// between sending and recording) — a logical unit of work id that only its key makes for
/// exactly those ids. Anything else is refused: nothing is removed. Returns them as one
/// record: the receiver's sequence number and every message to remove.
fn committed_batches(
    name: &ObjectName,
    mine: &ch::SyncRecord,
    theirs: &ch::SyncRecord,
    key: &[u8; ch::LUWID_KEY_LEN],
) -> MqResult<ch::SyncRecord> {
    let last = ch::BatchRecord {
        seq: theirs.seq,
        ids: theirs.ids.clone(),
        luwid: theirs.luwid,
    };
    let their_batches: Vec<&ch::BatchRecord> = theirs.more.iter().chain([&last]).collect();
    let first = ch::BatchRecord {
        seq: mine.seq + 1,
        ids: mine.ids.clone(),
        luwid: mine.luwid,
    };
    let my_batches: Vec<&ch::BatchRecord> = if mine.ids.is_empty() {
        Vec::new()
    } else {
        [&first].into_iter().chain(mine.more.iter()).collect()
    };
    let contiguous = their_batches.len() as u64 == theirs.seq - mine.seq
        && their_batches
            .iter()
            .enumerate()
            .all(|(i, b)| b.seq == mine.seq + 1 + i as u64);
    let mut ids = Vec::new();
    for (i, b) in their_batches.iter().enumerate() {
        let ok = contiguous
            && match my_batches.get(i) {
                Some(m) => m.ids == b.ids && (m.luwid == [0; ch::LUWID_LEN] || m.luwid == b.luwid),
                None => luw::verify(key, name, b.seq, &b.ids, &b.luwid),
            };
        if !ok {
            tracing::error!(channel = %name, seq = b.seq, in_doubt = my_batches.len(), theirs = b.ids.len(),
                "the receiver reports a committed batch this sender did not send; nothing removed, channel stopped (RESOLVE CHANNEL or RESET CHANNEL once checked)");
            return Err(MqError::new(
                Reason::ChannelSeqNumError,
                format!("channel {name}: the receiver's batch {} is not one this sender sent (its logical unit of work id does not match, or the receiver no longer has its record); check the partner, then RESOLVE CHANNEL or RESET CHANNEL", b.seq),
            ));
        }
        ids.extend(my_batches.get(i).map_or(&b.ids, |m| &m.ids).iter().copied());
    }
    Ok(ch::SyncRecord {
        seq: theirs.seq,
        ids,
        luwid: theirs.luwid,
        key: Some(*key),
        more: Vec::new(),
    })
}

/// The status of a channel that has just bound: RUNNING, to whom, and how.
/// The kernel's figures for the connection's socket (none for a local one, or when the kernel
/// will not say).
fn tcp_figures(conn: &Connection) -> Option<ferry_model::channel::TcpFigures> {
    if let Some(q) = conn.quic_figures() {
        // Over QUIC: losses for retransmissions, the bytes in flight as the congestion
        // controller counts them, and the rate the congestion window allows a round trip (a
        // running sender replaces it with the rate achieved: `Running::with_rates`).
        let rtt = q.rtt.as_secs_f64();
        return Some(ferry_model::channel::TcpFigures {
            rtt_us: q.rtt.as_micros() as u64,
            retransmits: q.lost_packets.min(u32::MAX as u64) as u32,
            in_flight: q.in_flight,
            delivery_rate: if rtt > 0.0 {
                (q.cwnd as f64 / rtt) as u64
            } else {
                0
            },
            sent: q.sent_packets,
            loss_bp: 0,
        });
    }
    let info = ferry_host::net::tcp_info(conn.tcp_fd()?).ok()?;
    Some(ferry_model::channel::TcpFigures {
        rtt_us: info.rtt.as_micros() as u64,
        retransmits: info.retransmits,
        in_flight: info.in_flight(),
        delivery_rate: info.delivery_rate,
        sent: u64::from(info.segs_out),
        loss_bp: 0,
    })
}

/// Where a sender's rates stood at the start of their current interval, and what the last
/// interval measured.
#[derive(Debug, Clone, Copy)]
struct RateMark {
    since: Instant,
    /// Over QUIC: UDP bytes sent (TCP's achieved rate is the kernel's estimate).
    bytes: u64,
    sent: u64,
    retransmits: u32,
    /// The last interval's achieved rate (bytes/s; QUIC only) and loss (hundredths of a %).
    rate: u64,
    loss_bp: u32,
    /// Whether an interval has ended (before, the loss shown is the connection's so far).
    completed: bool,
}

/// Bytes of message bodies a sender sent a second, over intervals of at least [`BODY_RATE_EVERY`].
#[derive(Debug, Default)]
struct BodyRate {
    /// Where the current interval began (`None` before the first batch), and the bytes since.
    since: std::cell::Cell<Option<Instant>>,
    bytes: std::cell::Cell<u64>,
    /// The last interval's rate, bytes a second.
    rate: std::cell::Cell<u64>,
}

/// The shortest interval [`BodyRate`] measures over.
const BODY_RATE_EVERY: Duration = Duration::from_millis(250);

impl BodyRate {
    /// Counts `n` bytes sent now; returns the last whole interval's rate (0 before one ends).
    fn sent(&self, n: usize) -> u64 {
        let now = Instant::now();
        let since = *self.since.get().get_or_insert(now);
        let bytes = self.bytes.get() + n as u64;
        let secs = now.duration_since(since).as_secs_f64();
        if secs >= BODY_RATE_EVERY.as_secs_f64() {
            self.rate.set((bytes as f64 / secs) as u64);
            self.since.set(Some(now));
            self.bytes.set(0);
        } else {
            self.since.set(Some(since));
            self.bytes.set(bytes);
        }
        self.rate.get()
    }
}

/// Of `sent` segments, `lost` lost, in hundredths of a percent (0 when nothing was sent).
fn loss_bp(sent: u64, lost: u64) -> u32 {
    match sent {
        0 => 0,
        n => (u128::from(lost.min(n)) * 10_000 / u128::from(n)) as u32,
    }
}

/// CONGCTL: the congestion control the channel asks for, set on its socket; the kernel's
/// refusal (the algorithm not loaded) is logged and the channel runs with the default. The
/// one in use is what the status shows.
fn apply_congestion(name: &ObjectName, def: &ChannelAttrs, conn: &Connection) -> String {
    if conn.mode() == ferry_model::ConnMode::Quic {
        return ferry_client::quic::congestion_name(&def.congestion).to_owned();
    }
    let Some(fd) = conn.tcp_fd() else {
        return String::new();
    };
    if !def.congestion.is_empty() {
        if let Err(e) = ferry_host::net::set_congestion(fd, &def.congestion) {
            tracing::warn!(channel = %name, wanted = %def.congestion, error = %e, "the channel runs with the kernel's default congestion control");
        }
    }
    ferry_host::net::congestion(fd).unwrap_or_default()
}

fn mark_running(status: &StatusCell, peer: &ChannelPeer, seq: u64, conn: &Connection) {
    let mut st = status.lock();
    st.transport = match conn.mode() {
        ferry_model::ConnMode::Tls => "TLS".to_owned(),
        ferry_model::ConnMode::Tcp => "TCP".to_owned(),
        other => format!("{other:?}").to_ascii_uppercase(),
    };
    st.tcp = tcp_figures(conn);
    st.state = ChannelState::Running;
    st.remote_qmgr = peer.qmgr.clone();
    st.batch_size = peer.batch_size;
    st.streams = peer.lanes.max(1);
    st.seq = seq;
    st.in_doubt = false;
    st.started = Some(std::time::SystemTime::now());
    st.compression = conn
        .compression()
        .0
        .map_or_else(|| "NONE".to_owned(), |c| c.name().to_owned());
    st.last_error.clear();
}

/// A fast batch's messages for one lane: all of them (one lane has them all), or those
/// picked out for it.
enum Lane {
    All,
    Some(Vec<ferry_core::Message>),
}

/// Which of `lanes` lanes a message goes on: the same for every message one connection put
/// to one queue (its transmission header's origin and destination), so each putter's messages
/// to a queue keep their order — what MQ promises; messages from different putters have no
/// order between them to keep, and spread over the lanes even when they go to one queue (a
/// service's requests, replies to a shared reply queue).
fn lane_of(m: &ferry_core::Message, lanes: usize) -> usize {
    let Some(th) = m.transmission.as_ref().filter(|_| lanes > 1) else {
        return 0;
    };
    // FNV-1a over the origin and the queue manager's and queue's names.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in th
        .origin()
        .to_be_bytes()
        .into_iter()
        .chain(th.remote_qmgr.as_str().bytes())
        .chain([b'/'])
        .chain(th.remote_queue.as_str().bytes())
    {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h % lanes as u64) as usize
}

/// A fast batch split by lane (`lanes` entries, indexed by lane): when every message goes on
/// one lane, that lane is [`Lane::All`] and nothing is copied.
fn by_lane(messages: &[ferry_core::Message], lanes: usize) -> Vec<Lane> {
    if lanes <= 1 {
        // One stream (TCP, or a receiver without lanes): nothing to work out per message.
        return vec![Lane::All];
    }
    let of: Vec<usize> = messages.iter().map(|m| lane_of(m, lanes)).collect();
    let first = of.first().copied().unwrap_or(0);
    let mut parts: Vec<Lane> = (0..lanes).map(|_| Lane::Some(Vec::new())).collect();
    if of.iter().all(|&l| l == first) {
        parts[first] = Lane::All;
        return parts;
    }
    for (m, &l) in messages.iter().zip(&of) {
        if let Lane::Some(v) = &mut parts[l] {
            v.push(m.clone());
        }
    }
    parts
}

/// A batch sent and not yet answered.
struct Unanswered {
    /// The request id its answer comes under.
    id: u64,
    /// Its messages.
    n: usize,
    /// Its message bodies' bytes (fast batches; recoverable ones count 0: their window is
    /// counted in batches).
    bytes: usize,
    /// The stream it went on (recoverable batches: 0, the first).
    lane: usize,
    /// A recoverable batch (none: NPMSPEED(FAST), off the transmission queue already).
    recoverable: Option<InFlight>,
}

/// A recoverable batch sent and not yet confirmed.
struct InFlight {
    /// Its sequence number, transmission ids and logical unit of work id.
    record: ch::BatchRecord,
    /// Its gets from the transmission queue, committed when the receiver confirms it (none
    /// once backed out).
    uow: Option<ferry_core::DetachedUow>,
}

/// A RUNNING sender channel: its session (holding the transmission queue open), its
/// connection to the receiver, and the sequence number of the last batch both ends committed.
struct Running<'a> {
    s: &'a mut Session,
    conn: Connection,
    xmitq: Hobj,
    name: ObjectName,
    def: &'a ChannelAttrs,
    status: &'a StatusCell,
    batch_size: u32,
    seq: u64,
    /// The key of this channel's logical unit of work ids.
    key: [u8; ch::LUWID_KEY_LEN],
    /// The sequence number of the last recoverable batch sent (`seq` until one is).
    sent_seq: u64,
    /// Recoverable batches it may keep sent and unconfirmed (agreed with the receiver).
    window: usize,
    /// Streams fast batches are spread over by destination queue (agreed with the receiver;
    /// 1 over TCP): see [`lane_of`].
    lanes: usize,
    /// Batches sent and not yet answered, oldest first.
    unanswered: std::collections::VecDeque<Unanswered>,
    /// The start of the current interval of the rates the status shows (achieved rate over
    /// QUIC, loss over either), and the last interval's.
    rates: std::cell::Cell<Option<RateMark>>,
    /// The fast batches it may keep unanswered on a lane, and their bytes in all (over QUIC
    /// sized from the link at each batch: [`fast_window_bytes`]); see [`fast_bounds`].
    fast_batches: usize,
    fast_window: std::cell::Cell<usize>,
    /// The rate of message bodies sent, in the fast window's own units (bodies as put, before
    /// compression — QUIC's rate counts compressed bytes on the wire).
    body_rate: BodyRate,
}

impl Running<'_> {
    /// Moves batches until the channel must pause (STOP CHANNEL: `control.stops` no longer
    /// `stops`) or its transmission queue has been empty for DISCINT (Ok), or something fails
    /// (Err: the batches not yet answered are settled as [`Running::abandon`] says).
    fn run(mut self, control: &Control, stops: u64) -> MqResult<()> {
        match self.run_batches(control, stops) {
            Ok(idle) => {
                let _ = self.conn.disconnect();
                if idle {
                    set_state(self.status, ChannelState::Inactive);
                }
                Ok(())
            }
            Err(e) => {
                self.abandon(&e);
                Err(e)
            }
        }
    }

    /// [`Running::run`]'s loop: Ok(true) when the transmission queue stayed empty for
    /// DISCINT, Ok(false) when the channel must pause.
    fn run_batches(&mut self, control: &Control, stops: u64) -> MqResult<bool> {
        let limit = (self.def.batch_limit_kib as usize).max(1) << 10;
        let interval = Duration::from_millis(self.def.batch_interval_ms as u64);
        let disc = Duration::from_secs(self.def.disc_interval_secs as u64);
        let mut idle_since = Instant::now();
        loop {
            if control.must_pause() || control.stops.load(Ordering::Acquire) != stops {
                self.settle(0)?;
                return Ok(false);
            }
            // With batches in flight, look for more only briefly, so their answers are taken
            // as they come — but a message that arrives meanwhile (a request whose reply
            // someone waits for) does not wait a round trip for them.
            let first_wait = if self.unanswered.is_empty() {
                POLL
            } else {
                ANSWER_POLL
            };
            let batch = ch::next_batch(
                self.s,
                self.xmitq,
                self.batch_size,
                limit,
                first_wait,
                interval,
            )?;
            if batch.messages.is_empty() {
                self.settle_arrived()?;
                if !disc.is_zero() && idle_since.elapsed() >= disc {
                    self.settle(0)?;
                    tracing::info!(channel = %self.name, "sender channel ending: its transmission queue stayed empty for DISCINT");
                    return Ok(true);
                }
                continue;
            }
            let sent = Instant::now();
            self.send(&batch)?;
            idle_since = Instant::now();
            self.batch_done(&batch, sent);
        }
    }

    /// Sends one batch without waiting for its answer, then takes answers until the window
    /// has room. With NPMSPEED(FAST) and no persistent message it is committed off the
    /// transmission queue first (within the fast window: [`fast_bounds`]); otherwise it is
    /// recoverable: its gets stay in a unit of work of their own, set aside until the
    /// receiver confirms it (at most `window` unconfirmed — 1 with a receiver that does not
    /// keep a window: it waits for each).
    fn send(&mut self, batch: &ch::SenderBatch) -> MqResult<()> {
        let fast = self.def.np_speed_fast
            && batch
                .messages
                .iter()
                .all(|m| m.descriptor.persistence != ferry_core::Persistence::Persistent);
        let n = batch.messages.len();
        if fast {
            // NPMSPEED(FAST): off the transmission queue before it is sent (no disk write:
            // non-persistent gets are not logged), so a failure loses it and never repeats it.
            self.s.commit()?;
            self.send_fast(&batch.messages)?;
            return self.settle_fast();
        }
        let has_np = (batch.messages.iter())
            .any(|m| m.descriptor.persistence != ferry_core::Persistence::Persistent);
        if has_np {
            // Its non-persistent messages must not overtake those of fast batches still on
            // their way on other lanes (independent streams): let those arrive first.
            self.settle_other_lanes()?;
        }
        let seq = self.sent_seq + 1;
        let ids = ch::transmission_ids(&batch.messages);
        let luwid = luw::id(&self.key, &self.name, seq, &ids);
        let flight = InFlight {
            record: ch::BatchRecord { seq, ids, luwid },
            uow: Some(self.s.detach_uow()),
        };
        self.status.lock().in_doubt = true;
        let sent = self.conn.channel_batch_send(0, seq, luwid, &batch.messages);
        // Sent or not, it is in flight: a failure leaves it in doubt (the receiver may or may
        // not have committed it), settled when the channel starts again.
        self.sent_seq = seq;
        self.unanswered.push_back(Unanswered {
            id: *sent.as_ref().unwrap_or(&u64::MAX),
            n,
            bytes: 0,
            lane: 0,
            recoverable: Some(flight),
        });
        sent?;
        self.settle(self.window - 1)
    }

    /// Sends a fast batch (committed off the transmission queue already): on one stream, or
    /// over lanes one request a lane, its messages for each destination queue on that
    /// queue's lane in their order. What is not sent when sending fails is lost (logged).
    fn send_fast(&mut self, messages: &[ferry_core::Message]) -> MqResult<()> {
        let zero = [0; ch::LUWID_LEN];
        // Behind a recoverable batch still unanswered (on the first stream), a fast batch goes
        // on that stream too, so its messages cannot overtake the recoverable one's.
        let behind = self.unanswered.iter().any(|u| u.recoverable.is_some());
        let parts = by_lane(messages, if behind { 1 } else { self.lanes });
        let mut left = messages.len();
        for (lane, part) in parts.iter().enumerate() {
            let part: &[ferry_core::Message] = match part {
                Lane::All => messages,
                Lane::Some(v) if !v.is_empty() => v,
                Lane::Some(_) => continue,
            };
            match self.conn.channel_batch_send(lane, 0, zero, part) {
                Ok(id) => self.unanswered.push_back(Unanswered {
                    id,
                    n: part.len(),
                    bytes: part.iter().map(|m| m.body.len()).sum(),
                    lane,
                    recoverable: None,
                }),
                Err(e) => {
                    self.lost(left, &e);
                    return Err(e);
                }
            }
            left -= part.len();
        }
        Ok(())
    }

    /// Takes the receiver's answers as they come until at most `keep` batches are
    /// unanswered; a recoverable batch's gets are committed with the sender's record of it.
    /// A refusal, or the connection failing, fails the channel (see [`Running::abandon`]).
    fn settle(&mut self, keep: usize) -> MqResult<()> {
        while self.unanswered.len() > keep {
            self.settle_one()?;
        }
        Ok(())
    }

    /// Takes answers until no fast batch is unanswered on a lane other than the first
    /// stream's.
    fn settle_other_lanes(&mut self) -> MqResult<()> {
        while self
            .unanswered
            .iter()
            .any(|u| u.recoverable.is_none() && u.lane != 0)
        {
            self.settle_one()?;
        }
        Ok(())
    }

    /// Takes answers until no lane has its most fast batches unanswered, and they hold less
    /// than the fast window's bytes in all ([`fast_bounds`]).
    fn settle_fast(&mut self) -> MqResult<()> {
        let cap = self.fast_window.get();
        let full = |r: &Self| {
            let mut on = [0usize; ferry_client::quic::LANES as usize];
            let mut bytes = 0;
            for u in r.unanswered.iter().filter(|u| u.recoverable.is_none()) {
                on[u.lane] += 1;
                bytes += u.bytes;
            }
            bytes >= cap || on.iter().any(|&n| n >= r.fast_batches)
        };
        while full(self) {
            self.settle_one()?;
        }
        Ok(())
    }

    /// Takes the next answer, whichever batch it is for.
    fn settle_one(&mut self) -> MqResult<()> {
        let answer = self.conn.channel_batch_next()?;
        let done = self.answered(answer)?;
        if let Some(flight) = done.recoverable {
            self.confirmed(flight)?;
            // The status's lock is taken only when the last recoverable batch is settled,
            // not for every fast one.
            if !self.unanswered.iter().any(|u| u.recoverable.is_some()) {
                self.status.lock().in_doubt = false;
            }
        }
        Ok(())
    }

    /// The batch `answer` is for, taken off the unanswered ones. Fast batches on different
    /// lanes are answered in whatever order the receiver took them; recoverable ones (all on
    /// the first stream) in the order they were sent. An answer to anything else is a
    /// protocol error that fails the channel.
    fn answered(&mut self, answer: ferry_client::BatchAnswer) -> MqResult<Unanswered> {
        let seq_of = |u: &Unanswered| u.recoverable.as_ref().map_or(0, |f| f.record.seq);
        let pos = self.unanswered.iter().position(|u| u.id == answer.id);
        let first_recoverable = self.unanswered.iter().position(|u| u.recoverable.is_some());
        let in_order = |p: usize| answer.seq == 0 || first_recoverable == Some(p);
        match pos {
            Some(p) if seq_of(&self.unanswered[p]) == answer.seq && in_order(p) => {
                Ok(self.unanswered.remove(p).expect("found at p"))
            }
            _ => Err(MqError::new(
                Reason::UnexpectedError,
                format!(
                    "the receiver answered request {} (batch {}), which is not a batch sent and awaiting its answer in that order",
                    answer.id, answer.seq
                ),
            )),
        }
    }

    /// The receiver committed recoverable batch `flight`: its gets are committed with the
    /// sender's record of its sequence number (the session's own unit of work set aside
    /// meanwhile). If that fails the batch stays first in doubt, its gets backed out.
    fn confirmed(&mut self, mut flight: InFlight) -> MqResult<()> {
        debug_assert_eq!(
            flight.record.seq,
            self.seq + 1,
            "batches are confirmed in order"
        );
        let own = self.s.detach_uow();
        let done = match flight.uow.take() {
            Some(uow) => self.s.attach_uow(uow),
            None => Ok(()),
        }
        .and_then(|()| ch::sender_commit(self.s, &self.name, flight.record.seq, Some(self.key)));
        if let Err(e) = done {
            let _ = self.s.backout();
            self.unanswered.push_front(Unanswered {
                id: u64::MAX,
                n: 0,
                bytes: 0,
                lane: 0,
                recoverable: Some(flight),
            });
            return Err(e);
        }
        self.seq = flight.record.seq;
        self.s.attach_uow(own)
    }

    /// Takes the answers that have already arrived, without waiting for the others.
    fn settle_arrived(&mut self) -> MqResult<()> {
        while !self.unanswered.is_empty() {
            if !self.conn.channel_answer_ready()? {
                break;
            }
            self.settle(self.unanswered.len() - 1)?;
        }
        Ok(())
    }

    /// The channel failed with batches unanswered: fast ones are lost (non-persistent
    /// messages sent NPMSPEED(FAST), as MQ's are: said in the log); recoverable ones are backed
    /// out (their messages back on the transmission queue) and recorded as in doubt, so the
    /// next start — or RESOLVE CHANNEL — settles them from what the sender knows it sent.
    fn abandon(&mut self, e: &MqError) {
        let _ = self.s.backout();
        let mut lost = 0;
        let mut in_doubt = Vec::new();
        for u in std::mem::take(&mut self.unanswered) {
            match u.recoverable {
                None => lost += u.n,
                // Dropping its unit of work backs it out.
                Some(flight) => in_doubt.push(flight.record),
            }
        }
        if lost > 0 {
            self.lost(lost, e);
        }
        if in_doubt.is_empty() {
            return;
        }
        let n = in_doubt.len();
        let recorded =
            ch::sender_in_doubt_window(self.s, &self.name, self.seq, in_doubt, Some(self.key));
        if let Err(r) = recorded {
            tracing::warn!(channel = %self.name, error = %r, "could not record the batches in doubt; the receiver's record settles them when the channel starts");
        }
        tracing::info!(channel = %self.name, seq = self.seq, batches = n, "recoverable batches left in doubt: settled when the channel starts again");
        self.status.lock().in_doubt = true;
    }

    /// Logs `n` non-persistent messages lost with a fast batch.
    fn lost(&self, n: usize, e: &MqError) {
        tracing::warn!(channel = %self.name, lost = n, error = %e,
            "non-persistent messages sent in fast batches (NPMSPEED FAST) were lost with the connection");
    }

    /// The rates over intervals of at least a second: LOSSRATE (segments retransmitted, or
    /// QUIC packets declared lost, of those sent) and, over QUIC, the rate achieved (bytes sent
    /// a second) in place of what its window allows; TCP's TCPRATE is the kernel's estimate.
    fn with_rates(
        &self,
        mut f: ferry_model::channel::TcpFigures,
    ) -> ferry_model::channel::TcpFigures {
        let quic = self.conn.quic_figures();
        let bytes = quic.map_or(0, |q| q.sent_bytes);
        let now = Instant::now();
        let start = RateMark {
            since: now,
            bytes,
            sent: f.sent,
            retransmits: f.retransmits,
            rate: 0,
            loss_bp: 0,
            completed: false,
        };
        let mark = self.rates.get().unwrap_or(start);
        let secs = now.duration_since(mark.since).as_secs_f64();
        // TCP counts segments in 32 bits: the difference wraps with them.
        let sent = match quic {
            Some(_) => f.sent.saturating_sub(mark.sent),
            None => u64::from((f.sent as u32).wrapping_sub(mark.sent as u32)),
        };
        let lost = u64::from(f.retransmits.saturating_sub(mark.retransmits));
        let next = if secs >= 1.0 {
            RateMark {
                rate: (bytes.saturating_sub(mark.bytes) as f64 / secs) as u64,
                loss_bp: loss_bp(sent, lost),
                completed: true,
                ..start
            }
        } else if !mark.completed {
            // The connection's first second: its loss so far.
            RateMark {
                loss_bp: loss_bp(sent, lost),
                ..mark
            }
        } else {
            mark
        };
        self.rates.set(Some(next));
        if quic.is_some() && next.rate > 0 {
            f.delivery_rate = next.rate;
        }
        f.loss_bp = next.loss_bp;
        f
    }

    /// Counts a batch sent at `sent` in the channel's status.
    fn batch_done(&self, batch: &ch::SenderBatch, sent: Instant) {
        let (alg, saved) = self.conn.compression();
        let mut st = self.status.lock();
        let now = self.s.queue_manager().clock().wall();
        st.batch_done(
            self.seq,
            batch.messages.len(),
            batch.bytes,
            sent.elapsed(),
            now,
        );
        st.compression = alg.map_or_else(|| "NONE".to_owned(), |c| c.name().to_owned());
        st.tcp = tcp_figures(&self.conn).map(|f| self.with_rates(f));
        if let (Some(f), ferry_model::ConnMode::Quic) = (&st.tcp, self.conn.mode()) {
            let limit = (self.def.batch_limit_kib as usize).max(1) << 10;
            let rtt = Duration::from_micros(f.rtt_us);
            let rate = self.body_rate.sent(batch.bytes);
            self.fast_window.set(fast_window_bytes(rate, rtt, limit));
        }
        st.compression_saved = saved;
        // `batch_done` counts the batch as settled; recoverable ones in flight still are not.
        st.in_doubt = self.unanswered.iter().any(|u| u.recoverable.is_some());
        st.compression_time = self.conn.compression_time();
        let w = batch.oldest_wait.as_micros() as u64;
        st.xmitq_time_us = if st.xmitq_time_us == 0 {
            w
        } else {
            (st.xmitq_time_us * 15 + w) / 16
        };
    }
}

/// Logical unit of work ids: each batch's id is the first 16 bytes of HMAC-SHA256 under the
/// sender's own key (made at random when the channel first runs, kept in its synchronisation
/// record, never sent) of the channel name, the sequence number and the batch's transmission
/// ids. Nobody without the key can predict one, or make one for a batch the sender did not send.
mod luw {
    use ferry_core::channel::{LUWID_KEY_LEN, LUWID_LEN};
    use ferry_core::{MqError, MqResult, MsgId, ObjectName, Reason};
    use ring::hmac;

    const CONTEXT: &[u8] = b"FerryMQ LUWID v1";

    /// A new random key.
    pub(super) fn fresh_key() -> MqResult<[u8; LUWID_KEY_LEN]> {
        let mut k = [0u8; LUWID_KEY_LEN];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut k).map_err(|_| {
            MqError::new(
                Reason::ResourceProblem,
                "the operating system's random source failed; a channel key cannot be made",
            )
        })?;
        Ok(k)
    }

    fn tag(key: &[u8; LUWID_KEY_LEN], channel: &ObjectName, seq: u64, ids: &[MsgId]) -> hmac::Tag {
        let k = hmac::Key::new(hmac::HMAC_SHA256, key);
        let mut ctx = hmac::Context::with_key(&k);
        ctx.update(CONTEXT);
        ctx.update(&[channel.as_str().len() as u8]);
        ctx.update(channel.as_str().as_bytes());
        ctx.update(&seq.to_le_bytes());
        ctx.update(&(ids.len() as u32).to_le_bytes());
        for id in ids {
            ctx.update(&id.0);
        }
        ctx.sign()
    }

    /// The id of batch `seq` of `channel` carrying `ids`.
    pub(super) fn id(
        key: &[u8; LUWID_KEY_LEN],
        channel: &ObjectName,
        seq: u64,
        ids: &[MsgId],
    ) -> [u8; LUWID_LEN] {
        let mut out = [0u8; LUWID_LEN];
        out.copy_from_slice(&tag(key, channel, seq, ids).as_ref()[..LUWID_LEN]);
        out
    }

    /// Whether `luwid` is the id this key makes for that batch (compared in constant time).
    pub(super) fn verify(
        key: &[u8; LUWID_KEY_LEN],
        channel: &ObjectName,
        seq: u64,
        ids: &[MsgId],
        luwid: &[u8; LUWID_LEN],
    ) -> bool {
        let want = id(key, channel, seq, ids);
        let diff = want.iter().zip(luwid).fold(0u8, |d, (a, b)| d | (a ^ b));
        diff == 0 && !ids.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::endpoint;

    #[test]
    fn the_body_rate_is_measured_over_whole_intervals() {
        let r = super::BodyRate::default();
        assert_eq!(r.sent(100_000), 0, "no interval has ended");
        std::thread::sleep(super::BODY_RATE_EVERY + std::time::Duration::from_millis(50));
        let rate = r.sent(0);
        // 100,000 bytes over 300 ms or more (however long the sleep took).
        assert!(rate > 0 && rate <= 100_000 * 4, "rate {rate}");
        assert_eq!(r.sent(5), rate, "kept until the next interval ends");
    }

    #[test]
    fn the_fast_window_is_four_bandwidth_delay_products_within_its_floor_and_batches() {
        use super::{fast_window_bytes, FAST_WINDOW_FLOOR};
        use std::time::Duration;
        let limit = 1000 << 10;
        let rtt = Duration::from_millis(100);
        assert_eq!(
            fast_window_bytes(0, Duration::ZERO, limit),
            FAST_WINDOW_FLOOR,
            "unmeasured"
        );
        assert_eq!(
            fast_window_bytes(1_000_000, Duration::from_micros(300), limit),
            FAST_WINDOW_FLOOR,
            "a short link keeps the floor"
        );
        assert_eq!(
            fast_window_bytes(30_000_000, rtt, limit),
            12_000_000,
            "30 MB/s over 100 ms"
        );
        assert_eq!(
            fast_window_bytes(u64::MAX, rtt, limit),
            16 * limit,
            "never beyond 16 batches"
        );
        assert_eq!(
            fast_window_bytes(1_000_000, Duration::from_micros(300), 5000 << 10),
            4 * (5000 << 10),
            "the default BATCHLIM: at least four full batches (25 of 200 KB each)"
        );
        assert_eq!(
            fast_window_bytes(0, rtt, 64 << 10),
            16 << 16,
            "a small BATCHLIM's bound wins"
        );
    }

    #[test]
    fn loss_is_counted_in_hundredths_of_a_percent_of_what_was_sent() {
        use super::loss_bp;
        assert_eq!(loss_bp(0, 0), 0, "nothing sent, nothing lost");
        assert_eq!(loss_bp(1000, 5), 50, "0.5 %");
        assert_eq!(loss_bp(3, 1), 3333);
        assert_eq!(loss_bp(10, 20), 10_000, "never more than all of it");
        assert_eq!(loss_bp(u64::MAX, u64::MAX), 10_000, "no overflow");
    }

    #[test]
    fn logical_unit_of_work_ids_depend_on_key_channel_sequence_and_ids() {
        use ferry_core::MsgId;
        let ch = ferry_core::object_name("TO.QM2").unwrap();
        let other = ferry_core::object_name("TO.QM3").unwrap();
        let (k1, k2) = (
            super::luw::fresh_key().unwrap(),
            super::luw::fresh_key().unwrap(),
        );
        let ids = [MsgId([1; 24]), MsgId([2; 24])];
        let id = super::luw::id(&k1, &ch, 7, &ids);
        assert!(super::luw::verify(&k1, &ch, 7, &ids, &id));
        assert!(!super::luw::verify(&k2, &ch, 7, &ids, &id));
        assert!(!super::luw::verify(&k1, &other, 7, &ids, &id));
        assert!(!super::luw::verify(&k1, &ch, 8, &ids, &id));
        assert!(!super::luw::verify(&k1, &ch, 7, &ids[..1], &id));
        assert!(!super::luw::verify(
            &k1,
            &ch,
            7,
            &[],
            &super::luw::id(&k1, &ch, 7, &[])
        ));
    }

    /// A message for `queue` put by connection `conn`, numbered `i`.
    fn put_by(
        ids: &ferry_model::message::IdGenerator,
        conn: u64,
        queue: &str,
        i: u32,
    ) -> ferry_core::Message {
        let mut m = ferry_core::Message::new(i.to_be_bytes().to_vec());
        m.transmission = Some(Box::new(ferry_model::message::TransmissionHeader {
            remote_queue: ferry_model::object_name(queue).unwrap(),
            remote_qmgr: ferry_model::object_name("QM2").unwrap(),
            xmit_id: ferry_model::MsgId(ids.transmission_id(conn)),
        }));
        m
    }

    #[test]
    fn lanes_keep_each_putters_messages_to_a_queue_together_and_spread_the_putters() {
        use super::{by_lane, lane_of, Lane};
        let ids = ferry_model::message::IdGenerator::new("QM1");
        // Eight putters, interleaved, all to one queue; then one putter to eight queues.
        let one_queue: Vec<_> = (0..40u32)
            .map(|i| put_by(&ids, u64::from(i % 8) + 1, "REQUESTS", i / 8))
            .collect();
        let parts = by_lane(&one_queue, 16);
        let used = parts
            .iter()
            .filter(|p| matches!(p, Lane::All) || matches!(p, Lane::Some(v) if !v.is_empty()))
            .count();
        assert!(
            used >= 3,
            "eight putters to one queue took {used} of 16 lanes"
        );
        for conn in 1..=8u64 {
            let lanes: std::collections::BTreeSet<usize> = one_queue
                .iter()
                .filter(|m| m.transmission.as_ref().unwrap().origin() == conn as u32)
                .map(|m| lane_of(m, 16))
                .collect();
            assert_eq!(
                lanes.len(),
                1,
                "putter {conn}'s messages on lanes {lanes:?}"
            );
        }
        // Within a lane each putter's messages keep the order they were put in.
        for part in &parts {
            if let Lane::Some(v) = part {
                for conn in 1..=8u32 {
                    let seq: Vec<&[u8]> = v
                        .iter()
                        .filter(|m| m.transmission.as_ref().unwrap().origin() == conn)
                        .map(|m| &m.body[..])
                        .collect();
                    assert!(
                        seq.windows(2).all(|w| w[0] < w[1]),
                        "putter {conn} out of order"
                    );
                }
            }
        }
        let queues: Vec<_> = (0..8u32)
            .map(|k| put_by(&ids, 7, &format!("Q.{k}"), 0))
            .collect();
        let lanes: std::collections::BTreeSet<usize> =
            queues.iter().map(|m| lane_of(m, 16)).collect();
        assert!(
            lanes.len() >= 3,
            "one putter to eight queues took lanes {lanes:?}"
        );
        assert!(
            queues.iter().all(|m| lane_of(m, 1) == 0),
            "one lane: the first stream"
        );
    }

    #[test]
    fn conname_forms() {
        assert_eq!(endpoint("127.0.0.1(1415)").unwrap(), "tcp://127.0.0.1:1415");
        assert_eq!(
            endpoint(" host.example ( 1414 ) ").unwrap(),
            "tcp://host.example:1414"
        );
        assert_eq!(endpoint("localhost:99").unwrap(), "tcp://localhost:99");
        assert_eq!(endpoint("box").unwrap(), "tcp://box:1414");
        assert!(endpoint("(1414)").is_err());
        assert!(endpoint("h(notaport)").is_err());
    }
}
