//! Channels as data: names, the synchronisation record a channel keeps of its last committed
//! batch, and the status DISPLAY CHSTATUS and metrics report.

use std::time::Duration;

use crate::message::MsgId;
use crate::name::ObjectName;
use crate::reason::{MqError, MqResult, Reason};

/// Longest channel name (MQ's MQ_CHANNEL_NAME_LENGTH): it keys the synchronisation record.
pub const MAX_CHANNEL_NAME: usize = 20;

/// A channel's last committed batch, as its synchronisation record holds it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SyncRecord {
    /// Sequence number of the last committed batch (0: none yet).
    pub seq: u64,
    /// Transmission ids of the messages in a batch: at the receiver, the last one it committed;
    /// at the sender, the one it sent and is in doubt about (empty: none).
    pub ids: Vec<MsgId>,
    /// The logical unit of work id of that batch (all zeros: none).
    pub luwid: [u8; LUWID_LEN],
    /// The sender's key for making logical unit of work ids (the sender's record only): an
    /// outsider cannot make an id the sender would take for its own.
    pub key: Option<[u8; LUWID_KEY_LEN]>,
    /// Batches beyond the one `ids` describes, in sequence order: at the sender, those after
    /// the first it is in doubt about (a window of recoverable batches was unconfirmed when it
    /// failed); in a receiver's answer to a starting sender, those it committed after the
    /// sender's last and before its own last.
    pub more: Vec<BatchRecord>,
}

/// One batch a synchronisation record remembers: its sequence number, its messages'
/// transmission ids and its logical unit of work id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchRecord {
    /// The batch's sequence number.
    pub seq: u64,
    /// Its messages' transmission ids, in order.
    pub ids: Vec<MsgId>,
    /// Its logical unit of work id.
    pub luwid: [u8; LUWID_LEN],
}

/// What a starting sender says of itself to the receiver.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SenderOffer {
    /// Its BATCHSZ.
    pub batch_size: u32,
    /// Its MAXMSGL.
    pub max_msg_length: u32,
    /// The sequence number of the last batch it committed.
    pub seq: u64,
    /// Recoverable batches it would keep unconfirmed at once (1: it waits for each).
    pub window: u32,
}

impl SenderOffer {
    /// A sender that waits for each recoverable batch (a window of 1).
    pub fn waiting_for_each(batch_size: u32, max_msg_length: u32, seq: u64) -> SenderOffer {
        SenderOffer {
            batch_size,
            max_msg_length,
            seq,
            window: 1,
        }
    }
}

/// Most recoverable batches a sender keeps sent and unconfirmed at once (the receiver keeps
/// the ids of as many of its last committed batches, to settle them after a failure).
pub const RECOVERABLE_WINDOW: u32 = 16;

/// Length of a logical unit of work id.
pub const LUWID_LEN: usize = 16;
/// Length of a sender's key for them.
pub const LUWID_KEY_LEN: usize = 32;

/// Checks a channel name can key a synchronisation record.
pub fn check_channel_name(name: &ObjectName) -> MqResult<()> {
    if name.as_str().len() > MAX_CHANNEL_NAME {
        return Err(MqError::new(
            Reason::AttributeValueError,
            format!(
                "channel name {name} is {} characters; channel names have at most {MAX_CHANNEL_NAME}",
                name.as_str().len()
            ),
        ));
    }
    Ok(())
}

/// MQ's channel states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ChannelState {
    /// Defined, nothing to send (a sender waits for messages on its transmission queue).
    #[default]
    Inactive,
    /// Connecting to the partner and agreeing batch size and sequence numbers.
    Binding,
    /// Moving messages.
    Running,
    /// Waiting to try again after a failure (SHORTRTY/SHORTTMR, then LONGRTY/LONGTMR).
    Retrying,
    /// Stopped by STOP CHANNEL, or after the retries ran out; START CHANNEL starts it.
    Stopped,
}

impl ChannelState {
    /// MQ's name for the state.
    pub fn word(self) -> &'static str {
        match self {
            ChannelState::Inactive => "INACTIVE",
            ChannelState::Binding => "BINDING",
            ChannelState::Running => "RUNNING",
            ChannelState::Retrying => "RETRYING",
            ChannelState::Stopped => "STOPPED",
        }
    }
}

/// A channel instance's status (DISPLAY CHSTATUS, metrics).
#[derive(Debug, Clone, Default)]
pub struct ChannelStatus {
    /// State.
    pub state: ChannelState,
    /// Sender or receiver end.
    pub sender: bool,
    /// The partner's address.
    pub conname: String,
    /// The partner queue manager.
    pub remote_qmgr: String,
    /// The transmission queue (senders).
    pub xmit_queue: String,
    /// Messages moved.
    pub msgs: u64,
    /// Message bytes sent (senders) or received (receivers).
    pub bytes: u64,
    /// Batches completed.
    pub batches: u64,
    /// Batch size agreed with the partner.
    pub batch_size: u32,
    /// Messages put to the dead-letter queue (receivers).
    pub dead_lettered: u64,
    /// Sequence number of the last committed batch.
    pub seq: u64,
    /// A batch is sent and its confirmation not yet received.
    pub in_doubt: bool,
    /// Compression in use (NONE, lz4-fast, ...).
    pub compression: String,
    /// Fraction of payload bytes compression saved so far (senders), if any was compressed.
    pub compression_saved: Option<f64>,
    /// Time spent compressing and decompressing so far (senders).
    pub compression_time: Duration,
    /// Moving average of a batch's confirmation round trip (send to answer), microseconds.
    pub net_time_us: u64,
    /// Moving average of how long messages waited on the transmission queue, microseconds.
    pub xmitq_time_us: u64,
    /// When the instance started (connected).
    pub started: Option<std::time::SystemTime>,
    /// When the last message moved.
    pub last_msg: Option<std::time::SystemTime>,
    /// The last error, if the channel is retrying or stopped because of one.
    pub last_error: String,
    /// The transport (senders): TCP, or TLS over TCP.
    pub transport: String,
    /// The socket's TCP congestion control (senders), as the kernel names it.
    pub congestion: String,
    /// Streams the sender spreads its fast batches over (senders): 1, or over QUIC the lanes
    /// agreed with the receiver.
    pub streams: u32,
    /// What the kernel knows of the connection (senders), refreshed after each batch.
    pub tcp: Option<TcpFigures>,
}

/// A channel connection's TCP figures, from the kernel (Linux's TCP_INFO).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TcpFigures {
    /// Smoothed round-trip time, microseconds.
    pub rtt_us: u64,
    /// Segments retransmitted over the connection's life.
    pub retransmits: u32,
    /// Bytes sent and not yet acknowledged.
    pub in_flight: u64,
    /// The kernel's latest delivery-rate estimate, bytes per second.
    pub delivery_rate: u64,
    /// Segments (QUIC: packets) sent over the connection's life; the kernel counts TCP's in 32
    /// bits, so they wrap.
    pub sent: u64,
    /// LOSSRATE: of the segments (packets) sent over the last interval of at least a second,
    /// those retransmitted (QUIC: declared lost), in hundredths of a percent.
    pub loss_bp: u32,
}

impl ChannelStatus {
    /// Counts a confirmed batch, confirmed at `now`.
    pub fn batch_done(
        &mut self,
        seq: u64,
        msgs: usize,
        bytes: usize,
        round_trip: Duration,
        now: std::time::SystemTime,
    ) {
        self.seq = seq;
        self.batches += 1;
        self.msgs += msgs as u64;
        self.bytes += bytes as u64;
        self.in_doubt = false;
        self.last_msg = Some(now);
        let rt = round_trip.as_micros() as u64;
        self.net_time_us = if self.net_time_us == 0 {
            rt
        } else {
            (self.net_time_us * 15 + rt) / 16
        };
    }
}

/// One MQTT client's status, as `DISPLAY CHSTATUS(...) CHLTYPE(MQTT) CLIENTID(...)` shows it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MqttClientStatus {
    /// The listener's channel name (`SYSTEM.MQTT.TCP`, `.TLS`, `.WS`, `.WSS`).
    pub channel: String,
    /// The client id.
    pub client_id: String,
    /// The client's address.
    pub conname: String,
    /// MQTTV3, MQTTV311 or MQTTV5.
    pub protocol: String,
    /// The user name the CONNECT gave (blank: none).
    pub client_user: String,
    /// The user it acts as (authenticated by password or certificate).
    pub mca_user: String,
    /// The keep-alive interval the client asked for, seconds.
    pub keep_alive_secs: u64,
    /// PUBLISH packets sent to the client.
    pub msgs_sent: u64,
    /// PUBLISH packets received from it.
    pub msgs_received: u64,
    /// Its QoS 2 publications received and awaiting PUBREL.
    pub indoubt_in: u64,
    /// QoS 1 and 2 deliveries sent and not yet acknowledged.
    pub indoubt_out: u64,
    /// Deliveries waiting on its session's queue.
    pub pending: u64,
    /// Its subscriptions made on this connection and shared-subscription groups.
    pub subscriptions: u64,
    /// When it connected.
    pub started: Option<std::time::SystemTime>,
    /// When it last sent or was sent a PUBLISH.
    pub last_msg: Option<std::time::SystemTime>,
}

/// One MQTT listener channel's totals since the queue manager started.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MqttListenerTotals {
    /// The listener's channel name.
    pub channel: String,
    /// Clients connected now.
    pub clients: u64,
    /// CONNECTs accepted.
    pub connects: u64,
    /// PUBLISH packets sent to its clients.
    pub msgs_sent: u64,
    /// PUBLISH packets received from them.
    pub msgs_received: u64,
}

/// What the MQTT service reports: its connected clients and its listeners' totals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MqttServiceStatus {
    /// Each connected client.
    pub clients: Vec<MqttClientStatus>,
    /// Each listener channel that has had a client.
    pub listeners: Vec<MqttListenerTotals>,
}
