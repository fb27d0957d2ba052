//! The `ferry perf` command line (clap), and parsing of sizes and durations.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use serde::{Deserialize, Serialize};

/// `ferry perf` subcommands.
#[derive(Debug, Subcommand)]
pub enum PerfCommand {
    /// Senders: each thread puts messages on a queue (mq-cph's Sender).
    Put(WorkloadArgs),
    /// Receivers: each thread gets messages from a queue, waiting for them (mq-cph's Receiver).
    Get(WorkloadArgs),
    /// Each thread puts a message, then gets that same message back by correl id.
    Putget(WorkloadArgs),
    /// Request/reply: requesters put to one of 10 request queues round robin and wait for the
    /// reply by correl id = request msg id on the matching reply queue; responders answer.
    Rr(WorkloadArgs),
    /// Forwarders: each thread gets from PREFIX.IN and puts to PREFIX.OUT (a feeder keeps IN
    /// supplied, a drainer empties OUT).
    Forward(WorkloadArgs),
    /// Publishers: each thread publishes on --topic (its own with --triplets) to --subscribers
    /// managed subscriptions, each on a connection of its own; reports deliveries per second.
    Publish(WorkloadArgs),
    /// MQTT end to end against any broker (FerryMQ's [mqtt] listener, or another side by
    /// side): one publisher (QoS 0 as fast as it writes, QoS 1 with at most --window
    /// unacknowledged) and one subscriber; messages delivered per second, lost, CPU a message.
    Mqtt(crate::mqtt::MqttArgs),
    /// Many MQTT clients in one process, steered by lines on standard input (connection
    /// scale, fan-in and fan-out for benches/mqtt-scale.sh): idle, subscribed each to a topic
    /// of its own, one watching every fan-in publication, or publishing at a rate.
    MqttClients(crate::mqttclients::MqttClientsArgs),
    /// Measure this machine's raw ceilings: thread hand-off, Unix and TCP ping-pong,
    /// streaming and two-hop relay, disk sync rate.
    Limits(LimitsArgs),
    /// Vary one parameter over a list, stop at the first step that breaks an SLA, report the
    /// best setting within it, and draw charts (the tuning method of IBM's paper 003).
    Sweep(SweepArgs),
    /// Emulate a wide-area link between two network namespaces (delay, loss and rate each
    /// way, seed 004's profiles) until Ctrl-C or SIGTERM; SIGUSR1 cuts the link and restores
    /// it. Needs root (CAP_NET_ADMIN) and iproute2.
    Link(LinkArgs),
    /// Seed 004's channels over emulated wide-area links: for each link profile, congestion
    /// control, message size, channel count and compression, the messages a far getter
    /// receives per second, with iperf3's ceiling of each profile beside them. Needs root.
    Wan(WanArgs),
    /// Draw a saved sweep report's charts again (SVG and PNG).
    Chart {
        /// The sweep report (JSON written by sweep --json).
        report: PathBuf,
        /// Directory for the charts.
        #[arg(long, value_name = "DIR")]
        charts: PathBuf,
    },
    /// Compare a run (or sweep) report with a saved baseline, metric by metric, against the
    /// run-to-run noise.
    Compare {
        /// The baseline report (JSON written by --json).
        baseline: PathBuf,
        /// The report to compare with it.
        report: PathBuf,
    },
}

/// The workloads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Workload {
    /// Senders.
    Put,
    /// Receivers.
    Get,
    /// Put then get the same message by correl id.
    Putget,
    /// Request/reply.
    Rr,
    /// Get from one queue, put to another.
    Forward,
    /// Publish to a topic that --subscribers subscriptions (each its own connection) receive.
    Publish,
}

impl Workload {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Workload::Put => "put",
            Workload::Get => "get",
            Workload::Putget => "putget",
            Workload::Rr => "rr",
            Workload::Forward => "forward",
            Workload::Publish => "publish",
        }
    }
}

/// Payload compression choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompressionArg {
    /// LZ4, fastest setting.
    Lz4,
    /// LZ4 HC.
    Lz4High,
    /// zlib level 1.
    Zlib,
    /// zlib level 9.
    ZlibHigh,
}

/// What message bodies hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PayloadArg {
    /// One repeated byte (after an 8-byte counter): the cheapest to make, and compresses
    /// almost to nothing.
    #[default]
    Fill,
    /// JSON text: an array of order records with varying numbers, cut to size (compresses
    /// like typical application data).
    Json,
    /// Pseudo-random bytes: incompressible.
    Random,
}

/// Everything a workload run can be told.
#[derive(Debug, Clone, PartialEq, Args, Serialize, Deserialize)]
pub struct WorkloadArgs {
    /// A running queue manager by name (FERRY_HOME/qmgrs/QM), reached over its local socket as
    /// the other commands reach it. Without it (and without --connect), a queue manager is
    /// created and hosted in this process in a temporary directory (removed afterwards).
    #[arg(value_name = "QM")]
    #[serde(default, skip_serializing)]
    pub qm: Option<String>,
    /// Queue manager to run against: embedded:PATH, unix:PATH, tcp://HOST:PORT or
    /// tls://HOST:PORT, or a queue manager's name.
    #[arg(short = 'c', long, value_name = "URL")]
    pub connect: Option<String>,
    /// Where rr's responders connect, when they serve another queue manager than --connect
    /// (distributed queuing: requests cross a channel and replies come back by their reply-to
    /// queue manager; docs/channels.md has the set-up). Default: --connect.
    #[arg(long, value_name = "URL")]
    #[serde(default)]
    pub responder_connect: Option<String>,
    /// Where the helpers connect (put's drainers, get's feeders, forward's feeder and
    /// drainer), when they use another queue manager than --connect: with a remote queue on
    /// --connect, `put --helpers 2 --helper-connect URL` measures delivery across a channel.
    /// Default: --connect.
    #[arg(long, value_name = "URL")]
    #[serde(default)]
    pub helper_connect: Option<String>,
    /// Message size: bytes, or with a unit (2KB, 20KB, 200KB, 2MB; KB = 1024 bytes).
    #[arg(short = 's', long, default_value = "2KB", value_parser = parse_size)]
    pub size: usize,
    /// What the message bodies hold (fill, json, random).
    #[arg(long, value_enum, default_value_t = PayloadArg::Fill)]
    #[serde(default)]
    pub payload: PayloadArg,
    /// Persistent messages (non-persistent otherwise).
    #[arg(long)]
    pub persistent: bool,
    /// Put and get inside units of work, committing every --commit-count messages.
    #[arg(long)]
    pub syncpoint: bool,
    /// Messages per commit with --syncpoint.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub commit_count: u32,
    /// Put with put1 (open, put, close in one call) instead of an open handle.
    #[arg(long)]
    pub put1: bool,
    /// Asynchronous put: do not wait for the queue manager's answer.
    #[arg(long)]
    pub async_put: bool,
    /// Read ahead on gets (non-persistent, outside syncpoint).
    #[arg(long)]
    pub read_ahead: bool,
    /// Worker threads, each its own connection (putters, getters, requesters, forwarders).
    #[arg(short = 't', long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// For put: this many getter threads drain the queue while the putters are measured (IBM's
    /// reference ladder is `put --helpers 2`). For get: this many putter threads feed it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub helpers: usize,
    /// Responder threads for rr (default: 2 per request queue, and at least --threads; never
    /// fewer than one per request queue).
    #[arg(long, value_name = "N")]
    pub responders: Option<usize>,
    /// For rr: conversations a socket carries (MQ's SHARECNV), responders and requesters alike
    /// (with --async-client each group of N opens one socket; with the blocking client each
    /// connection joins a socket of the harness with room, as an MQI program's threads do); 1
    /// gives each its own socket.
    /// The server lets a socket carry at most `server.max_conversations` (10 by default).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=10))]
    #[serde(default = "one")]
    pub share_conv: u32,
    /// Target rate in operations per second over all threads (default: flat out). Latency is
    /// measured from each operation's scheduled start, so a late start counts against it.
    #[arg(long, value_name = "OPS")]
    pub rate: Option<f64>,
    /// Measured run length (e.g. 10s, 2m, 500ms).
    #[arg(short = 'd', long, default_value = "10s", value_parser = parse_duration)]
    #[serde(with = "secs")]
    pub duration: Duration,
    /// Warm-up before measuring.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    #[serde(with = "secs")]
    pub warmup: Duration,
    /// Statistics interval.
    #[arg(long, default_value = "1s", value_parser = parse_duration)]
    #[serde(with = "secs")]
    pub interval: Duration,
    /// Queue for put, get and putget.
    #[arg(long, default_value = "PERF.Q")]
    pub queue: String,
    /// Queue name prefix: rr uses PREFIX.REQ.0–9 and PREFIX.REPLY.0–9, forward PREFIX.IN and
    /// PREFIX.OUT.
    #[arg(long, default_value = "PERF")]
    pub prefix: String,
    /// PEM file with the CA certificates trusted to sign the server's certificate (tls://).
    #[arg(long, value_name = "PEM")]
    pub tls_ca: Option<PathBuf>,
    /// User to connect as; the password is read from FERRY_PASSWORD.
    #[arg(long)]
    pub user: Option<String>,
    /// Payload compression to ask for.
    #[arg(long, value_enum)]
    pub compression: Option<CompressionArg>,
    /// Application name the connections carry.
    #[arg(long, default_value = "ferry perf")]
    pub app_name: String,
    /// Settings for the queue manager the harness hosts, as qm.toml KEY=VALUE (e.g.
    /// log.queue_buffer_kib=1024, log.type=linear, qmgr.max_uncommitted_msgs=50000); repeatable.
    /// Only without --connect.
    #[arg(long = "qm-set", value_name = "KEY=VALUE")]
    pub qm_set: Vec<String>,
    /// Process id of the queue manager, for its CPU and memory (found automatically for
    /// embedded runs and for unix: sockets in a queue manager directory).
    #[arg(long, value_name = "PID")]
    pub qm_pid: Option<u32>,
    /// For publish: subscriptions receiving each publisher's topic (0: publishing to nobody).
    #[arg(long, value_name = "N", default_value_t = 0)]
    #[serde(default)]
    pub subscribers: usize,
    /// For publish: the topic string (with --triplets, each publisher adds /N).
    #[arg(long, default_value = "PERF/T")]
    #[serde(default = "default_topic")]
    pub topic: String,
    /// For publish: each publisher has its own topic and --subscribers subscribers of its own
    /// (N independent publisher → topic → subscriber chains).
    #[arg(long)]
    #[serde(default)]
    pub triplets: bool,
    /// For publish: run every subscriber as a task of the async client on one thread (as an
    /// event-driven consumer does), rather than a thread each with the blocking client. For
    /// put: the --threads putters and the --helpers getters as tasks of one thread, the
    /// benches' async-client ladder. For rr: the requesters and responders as tasks of one
    /// thread, the benches' async-client request/reply. Other workloads refuse it.
    #[arg(long)]
    #[serde(default)]
    pub async_client: bool,
    /// For put with --async-put: keep the blocking client (a thread per putter and getter, as
    /// an MQI program with MQPMO_ASYNC_RESPONSE runs) instead of the async-client ladder that
    /// --async-put otherwise implies.
    #[arg(long, conflicts_with = "async_client")]
    #[serde(default)]
    pub blocking_client: bool,
    /// For publish: durable subscriptions (named PERF.SUB.N, removed at the end).
    #[arg(long)]
    #[serde(default)]
    pub durable: bool,
    /// For publish: a selector on every subscription (publications carry region = 'EMEA'),
    /// e.g. "region = 'EMEA'".
    #[arg(long, value_name = "SQL")]
    #[serde(default)]
    pub selector: Option<String>,
    /// Measure the raw limits first and print every figure beside them.
    #[arg(long)]
    pub with_limits: bool,
    /// Write the JSON report here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write one JSON line per statistics interval here.
    #[arg(long, value_name = "FILE")]
    pub json_lines: Option<PathBuf>,
}

fn one() -> u32 {
    1
}

fn default_topic() -> String {
    "PERF/T".into()
}

/// `ferry perf limits`.
#[derive(Debug, Clone, Args)]
pub struct LimitsArgs {
    /// Time for each limit, split into 5 short runs taken in turns with the other limits' (each
    /// limit is reported as the median of its runs, with the lowest and highest).
    #[arg(short = 'd', long, default_value = "3s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Directory for the disk sync test and the Unix socket (default: the system temp
    /// directory; put it on the disk the recovery log uses).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Write the limits as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// `ferry perf link`.
#[derive(Debug, Clone, Args)]
pub struct LinkArgs {
    /// The two network namespaces (names under /run/netns, made with `ip netns add`).
    #[arg(long, num_args = 2, value_names = ["NS_A", "NS_B"], required = true)]
    pub ns: Vec<String>,
    /// Each side's IPv4 address on the link.
    #[arg(long, num_args = 2, value_names = ["ADDR_A", "ADDR_B"], required = true)]
    pub addr: Vec<String>,
    /// The link: clean, n1 (25 ms), n2 (40 ms, 0.1 % loss) or n3 (50 ms, 0.5 % loss), each way.
    #[arg(long, default_value = "n3")]
    pub profile: String,
    /// The bottleneck's rate each way, Mbit/s [default: 1000].
    #[arg(long, value_name = "MBIT")]
    pub rate_mbit: Option<u64>,
    /// One-way delay instead of the profile's, milliseconds.
    #[arg(long, value_name = "MS")]
    pub delay_ms: Option<f64>,
    /// Loss each way instead of the profile's, percent.
    #[arg(long, value_name = "PCT")]
    pub loss_pct: Option<f64>,
}

/// `ferry perf wan`.
#[derive(Debug, Clone, Args)]
pub struct WanArgs {
    /// Link profiles (clean, n1, n2, n3).
    #[arg(long, value_delimiter = ',', default_value = "clean,n1,n2,n3")]
    pub profiles: Vec<String>,
    /// The bottleneck's rate each way, Mbit/s, for every profile [default: the profiles'
    /// 1000]. Seed 004's gateway was sized for up to 2 Gbit/s; TCP CUBIC at N3 is bounded by
    /// loss and round trip (Mathis), not by this rate.
    #[arg(long, value_name = "MBIT", value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub rate_mbit: Option<u64>,
    /// Congestion controls of the senders (CONGCTL) and of iperf3; `quic` (or `quic-cubic`,
    /// `quic-newreno`) for the senders over TRPTYPE(QUIC) with BBR (or that controller).
    #[arg(long, value_delimiter = ',', default_value = "cubic,bbr,quic")]
    pub congctl: Vec<String>,
    /// Message sizes.
    #[arg(long, value_delimiter = ',', default_value = "2KB,200KB", value_parser = parse_size)]
    pub sizes: Vec<usize>,
    /// Channel counts (each channel with its own putter and getter).
    #[arg(long, value_delimiter = ',', default_value = "1,10")]
    pub channels: Vec<usize>,
    /// The senders' COMPMSG values.
    #[arg(long, value_delimiter = ',', default_value = "NONE,LZ4FAST")]
    pub compress: Vec<String>,
    /// What the message bodies hold: `record` (business records as text: LZ4 saves about two
    /// thirds) or `seed004` (as compressible as seed 004's messages were: LZ4 saves about a
    /// third of a 2 KB body and a quarter of a 200 KB one).
    #[arg(long, default_value = "record", value_parser = ["record", "seed004"])]
    pub payload: String,
    /// Destination queues each channel's putter spreads its messages over (a getter each):
    /// with more than one, a QUIC channel's fast batches take several lanes.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub queues: u32,
    /// Persistence of the messages put: `np` (non-persistent, seed 004's workload: fast
    /// batches) and/or `p` (persistent: recoverable batches, logged at both ends).
    #[arg(long, value_delimiter = ',', default_value = "np", value_parser = ["np", "p"])]
    pub persistence: Vec<String>,
    /// Request/reply cells: requester counts (2 KB requests through WAN.0, replies back
    /// through WAN.BACK), for each profile and congestion control; `0` for none.
    #[arg(long, value_delimiter = ',', default_value = "16,64")]
    pub requesters: Vec<usize>,
    /// Where request/reply requesters take their replies: `shared` (one queue, WAN.REPLY,
    /// each reply got by its correl id) and/or `own` (a queue each, WAN.REPLY.k, as with a
    /// temporary dynamic queue per requester — over QUIC the replies then spread over the
    /// channel's lanes).
    #[arg(long, value_delimiter = ',', default_value = "shared", value_parser = ["shared", "own"])]
    pub reply_queues: Vec<String>,
    /// Streams each QUIC sender channel offers for its fast batches (`[server] quic_lanes`
    /// on both queue managers): 16, the default, or fewer down to 1 (each channel on one
    /// stream).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=ferry_client::quic::LANES as i64))]
    pub quic_lanes: u32,
    /// A setting of both queue managers, as `ferry qm start --set` takes it (e.g.
    /// `server.io_threads=2`); may be given more than once.
    #[arg(long, value_name = "KEY=VALUE")]
    pub qm_set: Vec<String>,
    /// Time each cell is measured (and iperf3 runs).
    #[arg(short = 'd', long, default_value = "5s", value_parser = parse_duration)]
    pub duration: Duration,
    /// Time each cell runs before it is measured.
    #[arg(long, default_value = "2s", value_parser = parse_duration)]
    pub warmup: Duration,
    /// Write the report as JSON here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// `ferry perf sweep`.
#[derive(Debug, Clone, Args)]
pub struct SweepArgs {
    /// The workload to sweep.
    #[arg(value_enum)]
    pub workload: Workload,
    /// The parameter and its values, e.g. threads=1,2,4,8,16 or size=2KB,20KB,200KB. Parameters:
    /// threads, responders, size, rate, commit-count, or a setting of the hosted queue manager as
    /// qm.KEY (e.g. qm.log.buffer_kib=64,1024,4096).
    #[arg(long, value_name = "NAME=V1,V2,...")]
    pub vary: String,
    /// Runs per step; the step's figures are the median run's.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub repeat: usize,
    /// Service levels, e.g. "cpu<=80" (queue manager CPU %), "p99<=5ms", "rate>=10000",
    /// "harness-cpu<=150", "p50<=1ms", "p999<=20ms", "rss<=1GB". The sweep stops at the first
    /// step that breaks one.
    #[arg(long, value_name = "RULE")]
    pub sla: Vec<String>,
    /// Directory for the charts (SVG and PNG: throughput, CPU and latency against the
    /// parameter).
    #[arg(long, value_name = "DIR")]
    pub charts: Option<PathBuf>,
    /// The workload's options.
    #[command(flatten)]
    pub run: WorkloadArgs,
}

/// Durations in reports: seconds as a number.
mod secs {
    use std::time::Duration;

    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        let v = f64::deserialize(d)?;
        Duration::try_from_secs_f64(v).map_err(serde::de::Error::custom)
    }
}

/// Parses `2048`, `2KB`, `20KB`, `2MB`, `1GB` (binary units; `K`, `KiB` also accepted).
pub fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a size like 2048, 2KB, 20KB or 2MB"))?;
    let mult: f64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1.0,
        "K" | "KB" | "KIB" => 1024.0,
        "M" | "MB" | "MIB" => 1024.0 * 1024.0,
        "G" | "GB" | "GIB" => 1024.0 * 1024.0 * 1024.0,
        u => {
            return Err(format!(
                "unknown size unit '{u}' in '{s}' (use B, KB, MB or GB)"
            ))
        }
    };
    Ok((n * mult).round() as usize)
}

/// Parses `10s`, `500ms`, `2m`, `1h`, `250us`, or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: f64 = num
        .parse()
        .map_err(|_| format!("'{s}' is not a duration like 10s, 500ms or 2m"))?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "ms" => n / 1e3,
        "us" | "µs" => n / 1e6,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        u => {
            return Err(format!(
                "unknown duration unit '{u}' in '{s}' (use us, ms, s, m or h)"
            ))
        }
    };
    Ok(Duration::from_secs_f64(secs))
}

impl WorkloadArgs {
    /// Every option at its default (as if none were given).
    pub fn defaults() -> WorkloadArgs {
        #[derive(clap::Parser)]
        struct Only {
            #[command(flatten)]
            args: WorkloadArgs,
        }
        <Only as clap::Parser>::parse_from(["ferry-perf"]).args
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_parse_as_documented() {
        assert_eq!(parse_size("2048").unwrap(), 2048);
        assert_eq!(parse_size("2KB").unwrap(), 2048);
        assert_eq!(parse_size("20kb").unwrap(), 20 * 1024);
        assert_eq!(parse_size("2MB").unwrap(), 2 << 20);
        assert!(parse_size("2XB").is_err());
        assert_eq!(parse_duration("10s").unwrap(), Duration::from_secs(10));
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert!(parse_duration("2 fortnights").is_err());
    }
}
