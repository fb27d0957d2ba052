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
/// had answered: it does not wait a round trip per batch, so a long link is kept full. They
/// are off the transmission queue already, as one batch is without the window.
const FAST_WINDOW: usize = 16;

/// TLS for sender channels with SSLCIPH.
#[derive(Debug, Clone, Default)]
pub struct ChannelTls {
    /// PEM file with the CA that signs partner queue managers' certificates.
    pub ca: Option<std::path::PathBuf>,
    /// This queue manager's certificate chain and key (PEM), presented to receivers that
    /// require client certificates.
    pub own: Option<(std::path::PathBuf, std::path::PathBuf)>,
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
        unanswered: std::collections::VecDeque::new(),
        rates: std::cell::Cell::new(None),
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

/// Starts the channel with the receiver and settles a batch left in doubt: the receiver's
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
    let peer = conn.channel_start(
        name.as_str(),
        qm.name().as_str(),
        def.batch_size,
        def.max_msg_length.min(u32::MAX as usize) as u32,
        mine.seq,
    )?;
    let mut seq = mine.seq;
    if !mine.ids.is_empty() && peer.committed.seq == seq {
        // The batch left in doubt never reached the receiver: it goes again.
        ch::sender_commit(s, &name, seq, Some(*key))?;
        tracing::info!(channel = %name, seq = seq + 1, "in-doubt batch resolved: the receiver never committed it; sending it again");
    }
    if peer.committed.seq == seq + 1 {
        let batch = committed_batch(&name, &mine, &peer.committed, key)?;
        let removed = ch::resolve_committed_batch(s, &name, xmitq, &batch)?;
        tracing::info!(channel = %name, seq = peer.committed.seq, removed,
            "resolved an in-doubt batch: the receiver had committed it");
        seq = peer.committed.seq;
    }
    Ok((peer, seq))
}

/// The batch the receiver says it committed one ahead of the sender, checked against what the
/// sender knows it sent: its own in-doubt record (ids and logical unit of work id), or — when
/// it has none (it stopped between sending and recording) — a logical unit of work id that only
/// its key makes for exactly those ids. Anything else is refused: nothing is removed.
fn committed_batch(
    name: &ObjectName,
    mine: &ch::SyncRecord,
    theirs: &ch::SyncRecord,
    key: &[u8; ch::LUWID_KEY_LEN],
) -> MqResult<ch::SyncRecord> {
    let seq = theirs.seq;
    let ok = if !mine.ids.is_empty() {
        mine.ids == theirs.ids && (mine.luwid == [0; ch::LUWID_LEN] || mine.luwid == theirs.luwid)
    } else {
        luw::verify(key, name, seq, &theirs.ids, &theirs.luwid)
    };
    if !ok {
        tracing::error!(channel = %name, seq, in_doubt = mine.ids.len(), theirs = theirs.ids.len(),
            "the receiver reports a committed batch this sender did not send; nothing removed, channel stopped (RESOLVE CHANNEL or RESET CHANNEL once checked)");
        return Err(MqError::new(
            Reason::ChannelSeqNumError,
            format!("channel {name}: the receiver's last batch ({seq}) is not one this sender sent (its logical unit of work id does not match); check the partner, then RESOLVE CHANNEL or RESET CHANNEL"),
        ));
    }
    let ids = if mine.ids.is_empty() {
        theirs.ids.clone()
    } else {
        mine.ids.clone()
    };
    Ok(ch::SyncRecord {
        seq,
        ids,
        luwid: theirs.luwid,
        key: Some(*key),
    })
}

/// The status of a channel that has just bound: RUNNING, to whom, and how.
/// The kernel's figures for the connection's socket (none for a local one, or when the kernel
/// will not say).
fn tcp_figures(conn: &Connection) -> Option<ferry_model::channel::TcpFigures> {
    if let Some(q) = conn.quic_figures() {
        // Over QUIC: losses for retransmissions, the congestion window for what may be in
        // flight, and the rate that window allows a round trip (a running sender replaces it
        // with the rate achieved: `Running::with_rates`).
        let rtt = q.rtt.as_secs_f64();
        return Some(ferry_model::channel::TcpFigures {
            rtt_us: q.rtt.as_micros() as u64,
            retransmits: q.lost_packets.min(u32::MAX as u64) as u32,
            in_flight: q.cwnd,
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
    st.seq = seq;
    st.in_doubt = false;
    st.started = Some(std::time::SystemTime::now());
    st.compression = conn
        .compression()
        .0
        .map_or_else(|| "NONE".to_owned(), |c| c.name().to_owned());
    st.last_error.clear();
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
    /// NPMSPEED(FAST) batches sent and not yet answered, oldest first: (request id, messages).
    unanswered: std::collections::VecDeque<(u64, usize)>,
    /// The start of the current interval of the rates the status shows (achieved rate over
    /// QUIC, loss over either), and the last interval's.
    rates: std::cell::Cell<Option<RateMark>>,
}

impl Running<'_> {
    /// Moves batches until the channel must pause (STOP CHANNEL: `control.stops` no longer
    /// `stops`) or its transmission queue has been empty for DISCINT (Ok), or something fails
    /// (Err).
    fn run(mut self, control: &Control, stops: u64) -> MqResult<()> {
        let limit = (self.def.batch_limit_kib as usize).max(1) << 10;
        let interval = Duration::from_millis(self.def.batch_interval_ms as u64);
        let disc = Duration::from_secs(self.def.disc_interval_secs as u64);
        let mut idle_since = Instant::now();
        loop {
            if control.must_pause() || control.stops.load(Ordering::Acquire) != stops {
                self.settle(0)?;
                let _ = self.conn.disconnect();
                return Ok(());
            }
            // With fast batches in flight, look for more only briefly, so their answers are
            // taken as they come — but a message that arrives meanwhile (a request whose reply
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
                    let _ = self.conn.disconnect();
                    set_state(self.status, ChannelState::Inactive);
                    return Ok(());
                }
                continue;
            }
            let sent = Instant::now();
            self.send(&batch)?;
            idle_since = Instant::now();
            self.batch_done(&batch, sent);
        }
    }

    /// Sends one batch: with NPMSPEED(FAST) and no persistent message, committed off the
    /// transmission queue first; otherwise in doubt until the receiver confirms it.
    fn send(&mut self, batch: &ch::SenderBatch) -> MqResult<()> {
        let name = self.name;
        let fast = self.def.np_speed_fast
            && batch
                .messages
                .iter()
                .all(|m| m.descriptor.persistence != ferry_core::Persistence::Persistent);
        if fast {
            // NPMSPEED(FAST): off the transmission queue before it is sent (no disk write:
            // non-persistent gets are not logged), so a failure loses it and never repeats it.
            self.s.commit()?;
            let sent = self
                .conn
                .channel_batch_send(0, [0; ch::LUWID_LEN], &batch.messages)
                .inspect_err(|e| self.lost(batch.messages.len(), e))?;
            self.unanswered.push_back((sent, batch.messages.len()));
            self.settle(FAST_WINDOW - 1)?;
        } else {
            // A recoverable batch follows only what went before it.
            self.settle(0)?;
            self.status.lock().in_doubt = true;
            let next = self.seq + 1;
            let ids = ch::transmission_ids(&batch.messages);
            let luwid = luw::id(&self.key, &name, next, &ids);
            if let Err(e) = self.conn.channel_batch(next, luwid, &batch.messages) {
                // Sent, but no answer: the receiver may or may not have committed it. Keep
                // its ids, so the next start (or RESOLVE CHANNEL) can settle it.
                let key = Some(self.key);
                ch::sender_in_doubt(self.s, &name, self.seq, &batch.messages, luwid, key)?;
                return Err(e);
            }
            ch::sender_commit(self.s, &name, next, Some(self.key))?;
            self.seq = next;
        }
        Ok(())
    }

    /// Takes the receiver's answers to fast batches until at most `keep` are unanswered. A
    /// refusal, or the connection failing, loses the batches not yet answered (non-persistent
    /// messages sent NPMSPEED(FAST), as MQ's are): said in the log, and the channel restarts.
    fn settle(&mut self, keep: usize) -> MqResult<()> {
        while self.unanswered.len() > keep {
            let Some((id, n)) = self.unanswered.pop_front() else {
                break;
            };
            if let Err(e) = self.conn.channel_batch_answer(id, 0) {
                let lost = n + self.unanswered.iter().map(|(_, n)| n).sum::<usize>();
                self.unanswered.clear();
                self.lost(lost, &e);
                return Err(e);
            }
        }
        Ok(())
    }

    /// Takes the answers that have already arrived, without waiting for the others.
    fn settle_arrived(&mut self) -> MqResult<()> {
        while !self.unanswered.is_empty() {
            match self.conn.channel_answer_ready() {
                Ok(true) => self.settle(self.unanswered.len() - 1)?,
                Ok(false) => break,
                Err(e) => {
                    let lost = self.unanswered.iter().map(|(_, n)| n).sum::<usize>();
                    self.unanswered.clear();
                    self.lost(lost, &e);
                    return Err(e);
                }
            }
        }
        Ok(())
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
        st.compression_saved = saved;
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
