//! MQTT inside the queue manager, as MQ's telemetry service (MQXR) puts it there: MQTT 3.1,
//! 3.1.1 and 5.0 clients publish and subscribe on the queue manager's own topics, so MQI
//! publishers and subscribers and MQTT clients meet on the same topic strings.
//!
//! Layer: above `ferry-core` (it is a client of the engine, through `Session`, in the queue
//! manager's process) and below `ferry-server`, which owns the listener and hands each
//! accepted socket to [`serve`]. The packets' bytes are the `mqute-codec` crate's; `wire`
//! turns them into one set of types, so `session` is written once for every version.
//!
//! ## The mapping
//!
//! | MQTT | queue manager |
//! |---|---|
//! | a client's connection | a connection (`DISPLAY CONN`, APPLTAG `MQTT <client id>`) as the user its CONNECT authenticated, topic authority checked as for MQI applications |
//! | the client's session | a queue its publications wait on: `SYSTEM.MQTT.CLIENT.<hash of the client id>`, permanent dynamic (so persistent publications stay persistent: a temporary queue would make them non-persistent); a clean session's is deleted when it ends (or, after a crash, at the client's next connection), a persistent one's stays, so what arrives while the client is away waits on disk, bounded by the queue's MAXDEPTH |
//! | SUBSCRIBE to a filter | a subscription (topic-based wildcards `+` `#`) delivering to that queue; durable, named `MQTT:<client id>:<filter>`, for a persistent session |
//! | PUBLISH, QoS 0 / 1 / 2 | a publication, non-persistent / persistent / persistent; acknowledged once the queue manager has it (and, when persistent, once it is on disk) |
//! | retained PUBLISH | a retained publication (MQPMO_RETAIN); an empty one clears the topic's |
//! | delivery | a get from the session's queue under syncpoint at the lower of the granted QoS and the publication's (its `mqtt.qos` property; an MQI publication's 2 when persistent, else 0), committed, for a kept session or a shared subscription's group, once the client has acknowledged every QoS 1 and 2 delivery sent (at most `receive_maximum` outstanding), and for a clean session as they are sent (its unacknowledged deliveries end with it; `receive_maximum` still bounds them) |
//! | will | published when the connection ends without DISCONNECT |
//! | SUBSCRIBE to `$share/{group}/{filter}` | one durable subscription for the group, `MQTT:$share/{group}/{filter}`, delivering to the group's queue `SYSTEM.MQTT.SHARED.<hash>`, which every member reads beside its own (each publication reaches one member); a persistent session's membership is kept as a subscription `MQTT:<client id>:$share/{group}/{filter}` that receives nothing (publications on request only); the group's subscription and queue go when its last member does |
//!
//! Limits (each with its reason code, before and after authentication): the CONNECT within
//! `connect_timeout` and at most `max_connect_packet` bytes; packets at most `max_packet`
//! bytes; at most `max_inbound_qos2` QoS 2 publications awaiting PUBREL; keep-alive enforced at
//! 1.5 times the client's interval.
//!
//! Not yet (issue 26): outbound exactly-once across a reconnection (a delivery backed out is
//! sent again as new; inbound QoS 2 holds, `qos2.rs`), MQTT channels in
//! MQSC. (TLS and WebSocket listeners are the server's: `[mqtt] tls_listen`, `ws_listen`.)

pub mod alias;
pub mod qos2;
pub mod session;
pub mod shared;
pub mod topic;
pub mod wire;

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use ferry_core::model::security::Principal;
use ferry_core::QueueManager;

pub use session::{serve, SESSION_QUEUE_PREFIX};

/// What authenticating a CONNECT comes to: the principal, or the MQTT 5 reason code to refuse
/// it with and a sentence for the log.
pub type Admission = Pin<Box<dyn Future<Output = Result<Principal, (u8, String)>> + Send>>;

/// Who is at the other end of a connection, as its transport knows it.
#[derive(Debug, Clone, Default)]
pub struct Peer {
    /// Its address.
    pub addr: String,
    /// The channel name its listener's clients show under in DISPLAY CHSTATUS
    /// (`SYSTEM.MQTT.TCP`, `.TLS`, `.WS`, `.WSS`).
    pub channel: String,
    /// The subject of the client certificate it presented over TLS (verified against the
    /// server's client CA before the connection reaches MQTT).
    pub cert: Option<ferry_core::model::dn::DistinguishedName>,
    /// What its channel allows.
    pub rules: Arc<ChannelRules>,
}

/// What an MQTT channel (DEFINE CHANNEL CHLTYPE(MQTT)) asks of its clients; the default, every
/// version and nothing more, is the `[mqtt]` listeners'.
#[derive(Debug, Clone)]
pub struct ChannelRules {
    /// The protocol versions accepted: 3.1, 3.1.1, 5.0 (PROTOCOL). Another is answered CONNACK
    /// "unacceptable protocol version".
    pub versions: [bool; 3],
    /// USECLTID(YES): the client id is the user the client authenticates as.
    pub use_client_id: bool,
    /// MCAUSER: when not empty, the user whose authority the channel's clients act with once
    /// authenticated (DISPLAY CHSTATUS shows it as MCAUSER, the authenticated one as CLNTUSER).
    pub mca_user: String,
}

impl Default for ChannelRules {
    fn default() -> Self {
        ChannelRules {
            versions: [true; 3],
            use_client_id: false,
            mca_user: String::new(),
        }
    }
}

impl ChannelRules {
    /// Whether a client of version `v` may connect.
    pub fn allows(&self, v: wire::Version) -> bool {
        let i = match v {
            wire::Version::V31 => 0,
            wire::Version::V311 => 1,
            wire::Version::V5 => 2,
        };
        self.versions[i]
    }
}

/// Decides who a CONNECT is, from its user name and password, or its client certificate.
pub trait Gate: Send + Sync + 'static {
    /// Authenticates a CONNECT's credentials (either may be absent) from `peer`.
    fn admit(&self, user: Option<String>, password: Option<String>, peer: &Peer) -> Admission;
}

/// The MQTT service's limits.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The longest packet after CONNECT, in bytes.
    pub max_packet: usize,
    /// The longest CONNECT (before authentication), in bytes.
    pub max_connect_packet: usize,
    /// How long a new connection has to send its CONNECT.
    pub connect_timeout: Duration,
    /// QoS 1 publications sent to a client and not yet acknowledged, at most.
    pub receive_maximum: u16,
    /// QoS 2 publications from a client awaiting its PUBREL, at most.
    pub max_inbound_qos2: usize,
    /// The MAXDEPTH of a session's queue: publications waiting for one client, at most.
    pub session_max_depth: usize,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_packet: 4 << 20,
            max_connect_packet: 64 << 10,
            connect_timeout: Duration::from_secs(10),
            receive_maximum: 1000,
            max_inbound_qos2: 1024,
            session_max_depth: 100_000,
        }
    }
}

/// What every MQTT connection of one queue manager shares.
pub struct Broker {
    pub qm: QueueManager,
    pub gate: Arc<dyn Gate>,
    pub settings: Settings,
    /// The connected clients by client id: the user each authenticated as, and the signal that
    /// takes its session over.
    clients: parking_lot::Mutex<HashMap<String, Registered>>,
    next: std::sync::atomic::AtomicU64,
    /// MQTT 5 wills waiting out their delay: client id → the serial of the connection that
    /// left it. A new connection of the client id takes its entry away (the will is not sent).
    pub(crate) pending_wills: parking_lot::Mutex<HashMap<String, u64>>,
    /// Each listener channel's totals of the connections that ended (the live ones add their
    /// own): channel → (connects, PUBLISH sent, PUBLISH received). Locked inside `clients`.
    ended: parking_lot::Mutex<HashMap<String, (u64, u64, u64)>>,
    /// Shared subscriptions' connected members: `{group}/{filter}` → how many.
    pub(crate) shared_members: parking_lot::Mutex<HashMap<String, usize>>,
}

impl std::fmt::Debug for Broker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Broker")
            .field("settings", &self.settings)
            .field("clients", &self.clients.lock().len())
            .finish_non_exhaustive()
    }
}

/// A connected client's status, kept up to date by its connection.
pub(crate) type LiveStatus = Arc<parking_lot::Mutex<ferry_core::model::channel::MqttClientStatus>>;

struct Registered {
    serial: u64,
    user: String,
    status: LiveStatus,
    /// Its session's queue (PENDING is its depth).
    queue: String,
    taken_over: Arc<tokio::sync::Notify>,
    ended: Arc<tokio::sync::Notify>,
}

/// A client's place in the registry while it is connected; leaving it unregisters.
#[derive(Debug)]
pub(crate) struct Seat {
    broker: Arc<Broker>,
    client_id: String,
    serial: u64,
    pub(crate) taken_over: Arc<tokio::sync::Notify>,
    ended: Arc<tokio::sync::Notify>,
}

impl Seat {
    /// Which connection of the client id holds it.
    pub(crate) fn serial(&self) -> u64 {
        self.serial
    }
}

impl Drop for Seat {
    fn drop(&mut self) {
        let mut clients = self.broker.clients.lock();
        if clients
            .get(&self.client_id)
            .is_some_and(|r| r.serial == self.serial)
        {
            if let Some(r) = clients.remove(&self.client_id) {
                // Its counts move to the channel's totals under the same lock, so a scrape
                // sees them once.
                let st = r.status.lock();
                let mut ended = self.broker.ended.lock();
                let t = ended.entry(st.channel.clone()).or_default();
                t.0 += 1;
                t.1 += st.msgs_sent;
                t.2 += st.msgs_received;
            }
        }
        self.ended.notify_waiters();
        self.ended.notify_one();
    }
}

impl Broker {
    pub fn new(qm: QueueManager, gate: Arc<dyn Gate>, settings: Settings) -> Arc<Broker> {
        Arc::new(Broker {
            qm,
            gate,
            settings,
            clients: Default::default(),
            next: Default::default(),
            pending_wills: Default::default(),
            shared_members: Default::default(),
            ended: Default::default(),
        })
    }

    /// Clients connected now.
    pub fn clients(&self) -> usize {
        self.clients.lock().len()
    }

    /// Every connected client's status (DISPLAY CHSTATUS CHLTYPE(MQTT)) and each listener
    /// channel's totals (the metrics).
    pub fn statuses(&self) -> ferry_core::model::channel::MqttServiceStatus {
        use ferry_core::model::channel::MqttListenerTotals;
        let (live, mut totals) = {
            let clients = self.clients.lock();
            let live: Vec<(ferry_core::model::channel::MqttClientStatus, String)> = clients
                .values()
                .map(|r| (r.status.lock().clone(), r.queue.clone()))
                .collect();
            (live, self.ended.lock().clone())
        };
        let mut listeners: std::collections::BTreeMap<String, MqttListenerTotals> =
            Default::default();
        for (channel, (connects, sent, received)) in totals.drain() {
            let t = listeners.entry(channel.clone()).or_default();
            (t.channel, t.connects, t.msgs_sent, t.msgs_received) =
                (channel, connects, sent, received);
        }
        let clients = live
            .into_iter()
            .map(|(mut st, queue)| {
                let t = listeners.entry(st.channel.clone()).or_default();
                t.channel.clone_from(&st.channel);
                t.clients += 1;
                t.connects += 1;
                t.msgs_sent += st.msgs_sent;
                t.msgs_received += st.msgs_received;
                st.pending = self.qm.queue_status(&queue).map_or(0, |q| q.depth as u64);
                st
            })
            .collect();
        ferry_core::model::channel::MqttServiceStatus {
            clients,
            listeners: listeners.into_values().collect(),
        }
    }

    /// Takes `client_id`'s seat for `user`: a connection already holding it is told to end
    /// (MQTT's session takeover) and waited for (up to 5 s). Another user may not take it.
    pub(crate) async fn seat(
        self: &Arc<Self>,
        client_id: &str,
        user: &str,
        status: &LiveStatus,
    ) -> Result<Seat, String> {
        for _ in 0..2 {
            let waiting = {
                let mut clients = self.clients.lock();
                match clients.get(client_id) {
                    Some(r) if r.user != user => {
                        return Err(format!(
                            "client id {client_id:?} is connected as user {}; another user may not take it over",
                            r.user
                        ))
                    }
                    Some(r) => {
                        r.taken_over.notify_one();
                        Some(r.ended.clone())
                    }
                    None => {
                        self.pending_wills.lock().remove(client_id);
                        let serial = self.next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let (taken_over, ended) = (Arc::default(), Arc::<tokio::sync::Notify>::default());
                        clients.insert(
                            client_id.to_owned(),
                            Registered {
                                serial,
                                user: user.to_owned(),
                                status: status.clone(),
                                queue: session::queue_name(client_id),
                                taken_over: Arc::clone(&taken_over),
                                ended: Arc::clone(&ended),
                            },
                        );
                        return Ok(Seat {
                            broker: self.clone(),
                            client_id: client_id.to_owned(),
                            serial,
                            taken_over,
                            ended,
                        });
                    }
                }
            };
            if let Some(ended) = waiting {
                let _ = tokio::time::timeout(Duration::from_secs(5), ended.notified()).await;
            }
        }
        Err(format!(
            "client id {client_id:?} is still held by a connection that did not end"
        ))
    }
}
