//! The Prometheus endpoint: `GET /metrics` in the text exposition format (version 0.0.4),
//! rendered from the queue manager's live state at each scrape, so there is nothing to keep in
//! step and nothing to cost when nobody scrapes.
//!
//! The HTTP side is deliberately small — one request per connection, `Connection: close` — and
//! bounded: requests over [`MAX_REQUEST`] bytes or slower than [`REQUEST_TIMEOUT`] are dropped,
//! and at most [`MAX_SCRAPES`] are served at once. Metric names: docs/metrics.md.

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use ferry_core::{ConnMode, QueueManager};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, Semaphore};

/// Largest request head read.
pub const MAX_REQUEST: usize = 8 * 1024;
/// How long a client has to send its request (a scraper sends it at once).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// Connections served at once, a pool of the endpoint's own (client connections never take
/// from it, nor it from them); one more is closed as soon as it is accepted, so idle sockets
/// hold a slot for at most [`REQUEST_TIMEOUT`] and never block the accept loop.
pub const MAX_SCRAPES: usize = 64;

/// Serves the endpoint on `listener` (over TLS when `tls` is given) until `stop` turns true.
pub(crate) async fn serve(
    listener: TcpListener,
    qm: QueueManager,
    token: Option<String>,
    tls: Option<tokio_rustls::TlsAcceptor>,
    mut stop: watch::Receiver<bool>,
) {
    let token = Arc::new(token);
    let permits = Arc::new(Semaphore::new(MAX_SCRAPES));
    loop {
        tokio::select! {
            _ = stop.changed() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let Ok(permit) = permits.clone().try_acquire_owned() else {
                        tracing::debug!("metrics connection closed: every slot is busy");
                        continue;
                    };
                    let (qm, token, tls) = (qm.clone(), token.clone(), tls.clone());
                    tokio::spawn(async move {
                        if let Err(e) = scrape(stream, tls, &qm, token.as_deref()).await {
                            tracing::debug!(error = %e, "metrics request dropped");
                        }
                        drop(permit);
                    });
                }
                Err(e) => tracing::warn!(error = %e, "metrics accept failed"),
            },
        }
    }
}

/// One scrape's connection: its TLS handshake (within the request timeout), then its answer.
async fn scrape(
    stream: TcpStream,
    tls: Option<tokio_rustls::TlsAcceptor>,
    qm: &QueueManager,
    token: Option<&str>,
) -> std::io::Result<()> {
    match tls {
        None => answer(stream, qm, token).await,
        Some(acceptor) => {
            let s = tokio::time::timeout(REQUEST_TIMEOUT, acceptor.accept(stream))
                .await
                .map_err(|_| std::io::Error::other("TLS handshake timed out"))??;
            answer(s, qm, token).await
        }
    }
}

/// Whether the request head carries `Authorization: Bearer <token>` (compared in constant time).
fn authorized(head: &[u8], token: &str) -> bool {
    let text = String::from_utf8_lossy(head);
    text.split("\r\n").skip(1).any(|l| {
        let Some((k, v)) = l.split_once(':') else {
            return false;
        };
        let Some(given) = v.trim().strip_prefix("Bearer ") else {
            return false;
        };
        k.trim().eq_ignore_ascii_case("authorization")
            && given.len() == token.len()
            && given
                .bytes()
                .zip(token.bytes())
                .fold(0u8, |d, (a, b)| d | (a ^ b))
                == 0
    })
}

async fn answer<S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin>(
    mut stream: S,
    qm: &QueueManager,
    token: Option<&str>,
) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(512);
    let read = tokio::time::timeout(REQUEST_TIMEOUT, async {
        let mut buf = [0u8; 1024];
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).await?;
            if n == 0 {
                break;
            }
            head.extend_from_slice(&buf[..n]);
            if head.len() > MAX_REQUEST {
                return Err(std::io::Error::other("request head too large"));
            }
        }
        Ok(())
    })
    .await;
    let (status, content_type, body) = match read {
        Err(_) => return Err(std::io::Error::other("request timed out")),
        Ok(Err(e)) if head.len() > MAX_REQUEST => {
            let body = format!("{e}: the limit is {MAX_REQUEST} bytes\n");
            ("431 Request Header Fields Too Large", "text/plain", body)
        }
        Ok(Err(e)) => return Err(e),
        Ok(Ok(())) if token.is_some_and(|t| !authorized(&head, t)) => (
            "401 Unauthorized\r\nWWW-Authenticate: Bearer realm=\"ferrymq\"",
            "text/plain",
            "a bearer token is required: send Authorization: Bearer <token from [metrics] token_file>\n".to_owned(),
        ),
        Ok(Ok(())) => {
            let line = head.split(|b| *b == b'\r').next().unwrap_or_default();
            let line = String::from_utf8_lossy(line);
            let mut parts = line.split(' ');
            match (parts.next(), parts.next()) {
                (Some("GET"), Some("/metrics")) => (
                    "200 OK",
                    "text/plain; version=0.0.4; charset=utf-8",
                    render(qm),
                ),
                (Some("GET"), Some("/")) => (
                    "200 OK",
                    "text/plain",
                    "FerryMQ: metrics are at /metrics\n".to_owned(),
                ),
                (Some("GET"), _) => (
                    "404 Not Found",
                    "text/plain",
                    "not found: metrics are at /metrics\n".to_owned(),
                ),
                _ => (
                    "405 Method Not Allowed",
                    "text/plain",
                    "only GET is served\n".to_owned(),
                ),
            }
        }
    };
    let reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(reply.as_bytes()).await?;
    stream.write_all(body.as_bytes()).await?;
    stream.shutdown().await
}

/// Escapes a label value (backslash, double quote, newline).
fn label(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}");
    let _ = writeln!(out, "# TYPE {name} {kind}");
}

fn histogram(out: &mut String, name: &str, help: &str, h: &ferry_core::Histogram) {
    family(out, name, "histogram", help);
    let cumulative = h.cumulative();
    for (bound, count) in h.bounds.iter().zip(&cumulative) {
        let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {count}");
    }
    let _ = writeln!(
        out,
        "{name}_bucket{{le=\"+Inf\"}} {}",
        cumulative.last().copied().unwrap_or(0)
    );
    let _ = writeln!(out, "{name}_sum {}", h.sum);
    let _ = writeln!(out, "{name}_count {}", h.count);
}

/// A per-queue metric: name, type, help, and its value from a queue's status.
type QueueColumn = (
    &'static str,
    &'static str,
    &'static str,
    fn(&ferry_model::status::QueueStatus) -> String,
);

/// The per-queue metrics, in the order they are rendered.
const QUEUE_COLUMNS: [QueueColumn; 10] = [
    (
        "ferry_queue_depth",
        "gauge",
        "Messages on the queue, committed or not (CURDEPTH).",
        |s| s.depth.to_string(),
    ),
    (
        "ferry_queue_uncommitted_messages",
        "gauge",
        "Messages put or got in units of work not yet ended (UNCOM).",
        |s| s.uncommitted.to_string(),
    ),
    (
        "ferry_queue_puts_total",
        "counter",
        "Messages put since the queue manager started.",
        |s| s.stats.puts.to_string(),
    ),
    (
        "ferry_queue_gets_total",
        "counter",
        "Messages got destructively since the queue manager started.",
        |s| s.stats.gets.to_string(),
    ),
    (
        "ferry_queue_damaged_total",
        "counter",
        "Messages set aside because their content could not be read from the recovery log.",
        |s| s.stats.damaged.to_string(),
    ),
    (
        "ferry_queue_expired_total",
        "counter",
        "Expired messages discarded since the queue manager started.",
        |s| s.expired.to_string(),
    ),
    (
        "ferry_queue_oldest_message_age_seconds",
        "gauge",
        "Age of the oldest message on the queue, 0 when empty (MSGAGE).",
        |s| {
            s.oldest_msg_age
                .map_or(0.0, |d| d.as_secs_f64())
                .to_string()
        },
    ),
    (
        "ferry_queue_time_seconds",
        "gauge",
        "Moving average of how long got messages waited on the queue (QTIME).",
        |s| (s.stats.qtime_us as f64 / 1e6).to_string(),
    ),
    (
        "ferry_queue_open_input_handles",
        "gauge",
        "Handles open for input (IPPROCS).",
        |s| s.open_input.to_string(),
    ),
    (
        "ferry_queue_open_output_handles",
        "gauge",
        "Handles open for output (OPPROCS).",
        |s| s.open_output.to_string(),
    ),
];

/// A per-channel metric: name, type, help, and its value from a channel instance's status.
type ChannelColumn = (
    &'static str,
    &'static str,
    &'static str,
    fn(&ferry_core::channel::ChannelStatus) -> String,
);

/// The per-channel metrics, in the order they are rendered.
const CHANNEL_COLUMNS: [ChannelColumn; 16] = [
    (
        "ferry_channel_compression_seconds_total",
        "counter",
        "Time the sender spent compressing and decompressing.",
        |c| c.compression_time.as_secs_f64().to_string(),
    ),
    (
        "ferry_channel_compression_saved_ratio",
        "gauge",
        "Fraction of payload bytes compression saved (COMPRATE / 100).",
        |c| c.compression_saved.unwrap_or(0.0).to_string(),
    ),
    (
        "ferry_channel_messages_total",
        "counter",
        "Messages moved by the channel instance (MSGS).",
        |c| c.msgs.to_string(),
    ),
    (
        "ferry_channel_bytes_total",
        "counter",
        "Message bytes sent (senders) or received (receivers).",
        |c| c.bytes.to_string(),
    ),
    (
        "ferry_channel_batches_total",
        "counter",
        "Batches committed (BATCHES).",
        |c| c.batches.to_string(),
    ),
    (
        "ferry_channel_dead_lettered_total",
        "counter",
        "Messages the receiver put on the dead-letter queue.",
        |c| c.dead_lettered.to_string(),
    ),
    (
        "ferry_channel_sequence_number",
        "gauge",
        "Sequence number of the last committed batch (CURSEQNO).",
        |c| c.seq.to_string(),
    ),
    (
        "ferry_channel_in_doubt",
        "gauge",
        "1 while a batch is sent and not yet confirmed (INDOUBT).",
        |c| u8::from(c.in_doubt).to_string(),
    ),
    (
        "ferry_channel_network_seconds",
        "gauge",
        "Moving average of a batch's confirmation round trip (NETTIME).",
        |c| (c.net_time_us as f64 / 1e6).to_string(),
    ),
    (
        "ferry_channel_xmitq_seconds",
        "gauge",
        "Moving average of how long messages waited on the transmission queue (XQTIME).",
        |c| (c.xmitq_time_us as f64 / 1e6).to_string(),
    ),
    (
        "ferry_channel_tcp_rtt_seconds",
        "gauge",
        "The kernel's smoothed round-trip time of a sender's connection (TCPRTT).",
        |c| c.tcp.map_or(0.0, |t| t.rtt_us as f64 / 1e6).to_string(),
    ),
    (
        "ferry_channel_tcp_retransmits_total",
        "counter",
        "Segments a sender's connection retransmitted (RETRANS).",
        |c| c.tcp.map_or(0, |t| t.retransmits).to_string(),
    ),
    (
        "ferry_channel_tcp_in_flight_bytes",
        "gauge",
        "Bytes a sender has sent and its partner not yet acknowledged (INFLIGHT).",
        |c| c.tcp.map_or(0, |t| t.in_flight).to_string(),
    ),
    (
        "ferry_channel_loss_ratio",
        "gauge",
        "Of the segments (QUIC: packets) a sender sent over its last interval of at least a second, the share lost (LOSSRATE / 100).",
        |c| c.tcp.map_or(0.0, |t| t.loss_bp as f64 / 10_000.0).to_string(),
    ),
    (
        "ferry_channel_streams",
        "gauge",
        "Streams a sender spreads its fast batches over: 1, or its QUIC lanes (STREAMS).",
        |c| c.streams.to_string(),
    ),
    (
        "ferry_channel_tcp_delivery_rate_bytes",
        "gauge",
        "The kernel's latest delivery-rate estimate of a sender's connection, bytes per second (TCPRATE).",
        |c| c.tcp.map_or(0, |t| t.delivery_rate).to_string(),
    ),
];

/// The exposition text for the queue manager's current state.
pub fn render(qm: &QueueManager) -> String {
    let mut out = String::with_capacity(64 * 1024);
    render_info(&mut out, qm);
    render_connections(&mut out, qm);
    render_api(&mut out, qm);
    render_security(&mut out, qm);
    render_memory(&mut out, qm);
    render_queues(&mut out, qm);
    if let Some(log) = qm.log_status() {
        render_log(&mut out, &log);
    }
    render_channels(&mut out, qm);
    render_listeners(&mut out, qm);
    out
}

/// `ferry_memory_budget_bytes` and `ferry_memory_used_bytes`: message bodies in memory; the
/// spill area's `ferry_spill_*` when there is one.
fn render_memory(out: &mut String, qm: &QueueManager) {
    let b = qm.memory_budget();
    family(
        out,
        "ferry_memory_budget_bytes",
        "gauge",
        "The memory budget for message bodies held in queues ([qmgr] memory_budget_mib).",
    );
    let _ = writeln!(out, "ferry_memory_budget_bytes {}", b.limit());
    family(
        out,
        "ferry_memory_used_bytes",
        "gauge",
        "Message bodies held in memory now, in queues, units of work and read-ahead streams.",
    );
    let _ = writeln!(out, "ferry_memory_used_bytes {}", b.used());
    render_pubsub(out, qm);
    if let Some(spill) = qm.spill() {
        let st = spill.stats();
        for (name, help, v) in [
            (
                "ferry_spill_messages",
                "Non-persistent messages beyond the memory budget held in the spill area.",
                st.messages,
            ),
            (
                "ferry_spill_bytes",
                "Bytes of spill-area segment files now.",
                st.bytes,
            ),
            (
                "ferry_spill_limit_bytes",
                "The most bytes the spill area may hold ([qmgr] spill_mib).",
                st.limit,
            ),
        ] {
            family(out, name, "gauge", help);
            let _ = writeln!(out, "{name} {v}");
        }
    }
}

/// `ferry_mqi_calls_total`: the MQI calls answered since start, by call and result.
fn render_api(out: &mut String, qm: &QueueManager) {
    let name = "ferry_mqi_calls_total";
    family(
        out,
        name,
        "counter",
        "MQI calls answered since start, by call and result (what STATMQI publishes).",
    );
    let t = qm.api_stats().totals();
    for (call, label) in ferry_core::qmgr::apistats::NAMES {
        for (result, n) in [("ok", t.ok(call)), ("failed", t.failed(call))] {
            let _ = writeln!(out, "{name}{{call=\"{label}\",result=\"{result}\"}} {n}");
        }
    }
}

/// `ferry_subscriptions` and the publish/subscribe counters.
fn render_pubsub(out: &mut String, qm: &QueueManager) {
    let ps = qm.pubsub_totals();
    for (name, kind, help, v) in [
        (
            "ferry_subscriptions",
            "gauge",
            "Subscriptions now, durable and not.",
            qm.subscription_count() as u64,
        ),
        (
            "ferry_publications_total",
            "counter",
            "Publications made since start.",
            ps.publications,
        ),
        (
            "ferry_pubsub_deliveries_total",
            "counter",
            "Publication copies delivered to subscriptions' queues since start.",
            ps.deliveries,
        ),
        (
            "ferry_pubsub_delivery_failures_total",
            "counter",
            "Publication copies a subscription's queue refused since start.",
            ps.failed,
        ),
        (
            "ferry_topic_stats_untracked_total",
            "counter",
            "Publications on topics beyond the first 1000 published on since start, which are counted only in the totals.",
            qm.topic_stats_untracked(),
        ),
    ] {
        family(out, name, kind, help);
        let _ = writeln!(out, "{name} {v}");
    }
    render_topics(out, qm);
}

/// Per topic (the first 1000 published on since start): publications, copies delivered, and
/// how many subscriptions match it now.
fn render_topics(out: &mut String, qm: &QueueManager) {
    let topics = qm.topic_stats();
    type Pick = fn(&QueueManager, &str, &ferry_core::qmgr::pubsub::status::TopicCounts) -> u64;
    let families: [(&str, &str, &str, Pick); 3] = [
        (
            "ferry_topic_publications_total",
            "counter",
            "Publications on the topic since start.",
            |_, _, s| s.publications,
        ),
        (
            "ferry_topic_deliveries_total",
            "counter",
            "Copies of the topic's publications delivered to subscriptions' queues since start.",
            |_, _, s| s.deliveries,
        ),
        (
            "ferry_topic_subscriptions",
            "gauge",
            "Subscriptions whose filter matches the topic now.",
            |qm, t, _| qm.subscriber_count(t) as u64,
        ),
    ];
    for (name, kind, help, pick) in families {
        family(out, name, kind, help);
        for (t, s) in &topics {
            let _ = writeln!(out, "{name}{{topic=\"{}\"}} {}", label(t), pick(qm, t, s));
        }
    }
}

/// `ferry_qmgr_info`: the queue manager's name and the FerryMQ version.
fn render_info(out: &mut String, qm: &QueueManager) {
    let qmgr = label(qm.name().as_str());
    family(
        out,
        "ferry_qmgr_info",
        "gauge",
        "The queue manager and FerryMQ version.",
    );
    let _ = writeln!(
        out,
        "ferry_qmgr_info{{qmgr=\"{qmgr}\",version=\"{}\"}} 1",
        env!("CARGO_PKG_VERSION")
    );
}

/// `ferry_connections`: connections open now, by mode.
fn render_connections(out: &mut String, qm: &QueueManager) {
    let conns = qm.connections();
    family(
        out,
        "ferry_connections",
        "gauge",
        "Connections open now, by connection mode.",
    );
    for (mode, tag) in [
        (ConnMode::Embedded, "embedded"),
        (ConnMode::Local, "local"),
        (ConnMode::Tcp, "tcp"),
        (ConnMode::Tls, "tls"),
        (ConnMode::Quic, "quic"),
    ] {
        let n = conns.iter().filter(|c| c.mode == mode).count();
        let _ = writeln!(out, "ferry_connections{{mode=\"{tag}\"}} {n}");
    }
    family(
        out,
        "ferry_mqtt_clients",
        "gauge",
        "MQTT clients connected now (connections whose APPLTAG is MQTT <client id>).",
    );
    let mqtt = conns
        .iter()
        .filter(|c| c.app_name.starts_with("MQTT "))
        .count();
    let _ = writeln!(out, "ferry_mqtt_clients {mqtt}");
    render_mqtt(out, qm);
}

/// The MQTT service's listener channels: clients now, CONNECTs and PUBLISH packets each way
/// since start (rates are Prometheus's `rate()` of them).
fn render_mqtt(out: &mut String, qm: &QueueManager) {
    let listeners = qm.mqtt_service().listeners;
    type Get = fn(&ferry_model::channel::MqttListenerTotals) -> u64;
    let families: [(&str, &str, &str, Get); 4] = [
        (
            "ferry_mqtt_listener_clients",
            "gauge",
            "MQTT clients connected now, by listener channel.",
            |t| t.clients,
        ),
        (
            "ferry_mqtt_connects_total",
            "counter",
            "MQTT CONNECTs accepted since start, by listener channel.",
            |t| t.connects,
        ),
        (
            "ferry_mqtt_messages_sent_total",
            "counter",
            "PUBLISH packets sent to MQTT clients since start, by listener channel.",
            |t| t.msgs_sent,
        ),
        (
            "ferry_mqtt_messages_received_total",
            "counter",
            "PUBLISH packets received from MQTT clients since start, by listener channel.",
            |t| t.msgs_received,
        ),
    ];
    for (name, kind, help, get) in families {
        family(out, name, kind, help);
        for t in &listeners {
            let _ = writeln!(out, "{name}{{channel=\"{}\"}} {}", t.channel, get(t));
        }
    }
}

/// `ferry_security_refusals_total`: refusals since start, by kind.
fn render_security(out: &mut String, qm: &QueueManager) {
    use std::sync::atomic::Ordering::Relaxed;
    let c = qm.security_counters();
    family(
        out,
        "ferry_security_refusals_total",
        "counter",
        "Refusals since start: authentication (a connection that could not prove who it is), authority (a connect, open or command without its authority record), channel (a channel start from a partner that did not prove it may), slot (a socket refused a connection slot, or a password check beyond those that may wait).",
    );
    for (kind, n) in [
        ("authentication", &c.authentication_failures),
        ("authority", &c.authority_failures),
        ("channel", &c.channel_refusals),
        ("slot", &c.slot_refusals),
    ] {
        let _ = writeln!(
            out,
            "ferry_security_refusals_total{{kind=\"{kind}\"}} {}",
            n.load(Relaxed)
        );
    }
}

/// The per-queue metrics of every local queue but the MQTT sessions' (one a client: 100,000
/// series), which are summed instead.
fn render_queues(out: &mut String, qm: &QueueManager) {
    let session = |n: &ferry_model::name::ObjectName| {
        n.as_str().starts_with(ferry_mqtt::SESSION_QUEUE_PREFIX)
    };
    // One unsorted pass for the sessions' sums (a lock and a depth each, not a full status).
    let (mut sessions, mut session_depth) = (0u64, 0u64);
    for (name, depth, _, _) in qm.queue_counters() {
        if session(&name) {
            sessions += 1;
            session_depth += depth as u64;
        }
    }
    let statuses: Vec<_> = qm
        .queue_names()
        .into_iter()
        .filter(|(n, t)| *t == ferry_model::objects::QueueType::Local && !session(n))
        .filter_map(|(n, _)| qm.queue_status(n.as_str()).ok())
        .collect();
    family(
        out,
        "ferry_mqtt_session_queues",
        "gauge",
        "MQTT sessions' queues (SYSTEM.MQTT.CLIENT.*), connected clients' and kept persistent sessions'; left out of the per-queue series.",
    );
    let _ = writeln!(out, "ferry_mqtt_session_queues {sessions}");
    family(
        out,
        "ferry_mqtt_session_queued_messages",
        "gauge",
        "Messages on MQTT sessions' queues, summed: publications not yet sent, and a kept session's sent and not yet acknowledged (a clean session's leave its queue as they are sent).",
    );
    let _ = writeln!(out, "ferry_mqtt_session_queued_messages {session_depth}");
    for (name, kind, help, value) in QUEUE_COLUMNS {
        family(out, name, kind, help);
        for s in &statuses {
            let _ = writeln!(
                out,
                "{name}{{queue=\"{}\"}} {}",
                label(s.name.as_str()),
                value(s)
            );
        }
    }
}

/// A recovery log metric: name, type, help, and its value from the log's status.
type LogColumn = (
    &'static str,
    &'static str,
    &'static str,
    fn(&ferry_core::qmgr::journal::LogStatus) -> u64,
);

/// The recovery log's counters and gauges, in the order they are rendered.
const LOG_COLUMNS: [LogColumn; 7] = [
    (
        "ferry_log_syncs_total",
        "counter",
        "Recovery log syncs (group commits).",
        |log| log.syncs,
    ),
    (
        "ferry_log_records_total",
        "counter",
        "Records made durable in the recovery log.",
        |log| log.records,
    ),
    (
        "ferry_log_bytes_total",
        "counter",
        "Record bytes appended to the recovery log.",
        |log| log.bytes_appended,
    ),
    (
        "ferry_log_checkpoints_total",
        "counter",
        "Checkpoints taken.",
        |log| log.checkpoints,
    ),
    (
        "ferry_log_durable_lsn",
        "gauge",
        "Highest log sequence number on disk.",
        |log| log.durable_lsn,
    ),
    (
        "ferry_log_disk_full",
        "gauge",
        "1 while the disk holding the recovery log is full (persistent puts are refused; DISPLAY QMSTATUS LOGERR says why).",
        |log| u64::from(log.disk_full.is_some()),
    ),
    (
        "ferry_log_extents",
        "gauge",
        "Log extents present.",
        |log| log.current_extent + 1 - log.oldest_extent.min(log.current_extent + 1),
    ),
];

/// The recovery log's counters and histograms.
fn render_log(out: &mut String, log: &ferry_core::qmgr::journal::LogStatus) {
    for (name, kind, help, value) in LOG_COLUMNS {
        family(out, name, kind, help);
        let _ = writeln!(out, "{name} {}", value(log));
    }
    histogram(
        out,
        "ferry_log_write_seconds",
        "Time to write one batch of log records.",
        &log.write_seconds,
    );
    histogram(
        out,
        "ferry_log_sync_seconds",
        "Time to sync one batch of log records to disk.",
        &log.sync_seconds,
    );
    histogram(
        out,
        "ferry_log_batch_records",
        "Records per sync: the group-commit batch size.",
        &log.batch_records,
    );
}

/// Each channel instance's state and per-channel metrics.
fn render_channels(out: &mut String, qm: &QueueManager) {
    let channels = qm.channel_statuses();
    family(
        out,
        "ferry_channel_status",
        "gauge",
        "Channel instances and their state (1 for the state it is in).",
    );
    for (name, st) in &channels {
        let _ = writeln!(
            out,
            "ferry_channel_status{{channel=\"{}\",type=\"{}\",status=\"{}\",remote_qmgr=\"{}\"}} 1",
            label(name.as_str()),
            if st.sender { "SDR" } else { "RCVR" },
            st.state.word(),
            label(&st.remote_qmgr)
        );
    }
    for (metric, kind, help, value) in CHANNEL_COLUMNS {
        family(out, metric, kind, help);
        for (name, st) in &channels {
            let _ = writeln!(
                out,
                "{metric}{{channel=\"{}\"}} {}",
                label(name.as_str()),
                value(st)
            );
        }
    }
}

/// `ferry_listener_running`: the listener objects running now.
fn render_listeners(out: &mut String, qm: &QueueManager) {
    let listeners = qm.listener_status();
    family(
        out,
        "ferry_listener_running",
        "gauge",
        "Listener objects running now.",
    );
    for l in listeners {
        let _ = writeln!(
            out,
            "ferry_listener_running{{listener=\"{}\",address=\"{}\"}} 1",
            label(l.name.as_str()),
            label(&l.address)
        );
    }
}
