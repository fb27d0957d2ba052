//! The queue manager a run talks to (hosted in a temporary directory, or reached by a
//! connection string), the queues each workload needs, and the worker loops.
//!
//! Each worker thread is one application connection, as in mq-cph. A worker records one
//! operation per unit of work it measures: a put (put), a get (get), a put and the get of the
//! same message (putget), a request's round trip (rr), a get and a put (forward). With
//! --syncpoint the commit that ends a batch is part of the operation that triggers it.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_client::{
    ClientOptions, Compression, Connection, CorrelId, EmbeddedQm, GetOptions, Message, MessageType,
    MqError, MqResult, OpenOptions, Persistence, PutOptions, Reason, TlsOptions,
};
use ferry_core::engine::inbox::Padded;
use ferry_core::{LocalQueueAttrs, QueueDefinition};

use crate::args::{CompressionArg, Workload, WorkloadArgs};
use crate::limits::payload;
use crate::stats::Recorder;

/// Request/reply queue pairs.
pub const PAIRS: usize = 10;

/// Bytes of messages a hosted queue may hold (its MAXDEPTH is this over the message size, at
/// least 1,000): a put-only run against a hosted queue manager fills it and then waits, rather
/// than fill memory.
const HOSTED_QUEUE_BYTES: usize = 256 << 20;

/// The queue manager a run talks to.
#[derive(Debug)]
pub struct Target {
    /// Connection string for the workers.
    pub endpoint: String,
    /// embedded, unix, tcp or tls.
    pub mode: &'static str,
    /// Its process, when known (for CPU and memory).
    pub qm_pid: Option<u32>,
    /// Its qm.toml, when visible.
    pub qm_config: Option<serde_json::Value>,
    host: Option<Arc<EmbeddedQm>>,
    temp: Option<PathBuf>,
    /// Queues this run made on a running queue manager (permanent dynamic ones), removed with
    /// their messages when it ends, and how to reach them.
    made: Vec<String>,
    made_with: Option<ClientOptions>,
}

impl Drop for Target {
    fn drop(&mut self) {
        self.host = None;
        if let Some(t) = self.temp.take() {
            let _ = std::fs::remove_dir_all(t);
        }
        self.remove_made();
    }
}

impl Target {
    /// Deletes the queues this run made (MQCO_DELETE_PURGE), so a run leaves nothing behind.
    fn remove_made(&mut self) {
        let (Some(opts), false) = (self.made_with.take(), self.made.is_empty()) else {
            return;
        };
        let Ok(mut c) = Connection::connect_with(&self.endpoint, "ferry perf cleanup", &opts)
        else {
            return;
        };
        for q in std::mem::take(&mut self.made) {
            let gone = c
                .open_queue(&q, OpenOptions::input())
                .and_then(|h| c.close(h, ferry_client::CloseOptions::DeletePurge));
            match gone {
                Ok(()) => ferry_host::outln!("removed queue {q}, which this run made"),
                Err(e) => {
                    eprintln!("ferry perf: could not remove queue {q}, which this run made: {e}")
                }
            }
        }
        let _ = c.disconnect();
    }
}

/// The queues `w` uses.
pub fn queues(w: Workload, a: &WorkloadArgs) -> Vec<String> {
    match w {
        Workload::Put | Workload::Get | Workload::Putget => vec![a.queue.clone()],
        Workload::Rr => (0..PAIRS)
            .flat_map(|k| {
                [
                    format!("{}.REQ.{k}", a.prefix),
                    format!("{}.REPLY.{k}", a.prefix),
                ]
            })
            .collect(),
        Workload::Forward => vec![format!("{}.IN", a.prefix), format!("{}.OUT", a.prefix)],
        Workload::Publish => Vec::new(),
    }
}

/// Client options from the arguments.
pub fn client_options(a: &WorkloadArgs) -> ClientOptions {
    ClientOptions {
        compression: a
            .compression
            .map(|c| {
                vec![match c {
                    CompressionArg::Lz4 => Compression::Lz4Fast,
                    CompressionArg::Lz4High => Compression::Lz4High,
                    CompressionArg::Zlib => Compression::ZlibFast,
                    CompressionArg::ZlibHigh => Compression::ZlibHigh,
                }]
            })
            .unwrap_or_default(),
        user: a.user.clone(),
        password: std::env::var("FERRY_PASSWORD").ok(),
        tls: a.tls_ca.as_ref().map(|ca| TlsOptions {
            ca: ca.clone(),
            server_name: None,
            client_cert: None,
        }),
        reconnect: None,
        channel: false,
        svrconn: None,
        quic: Default::default(),
        share_conversations: a.share_conv,
    }
}

/// How long a worker keeps connecting while the queue manager answers 2025: a run that opens
/// more sockets at once than the queue manager checks passwords for before authentication
/// (64 waiting, docs/security.md) is told to try again later, and does, as an MQ client would.
pub(crate) const CONNECT_PATIENCE: Duration = Duration::from_secs(30);

/// The pause between such attempts, longer for later workers so they do not come back together.
pub(crate) fn connect_pause(attempt: u32) -> Duration {
    Duration::from_millis(10 + u64::from(attempt.min(20)) * 5 + fastrand_ms())
}

fn fastrand_ms() -> u64 {
    // Spread by the clock's nanoseconds: no random source needed for a pause.
    u64::from(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos())
            % 20,
    )
}

/// Connects as the run's workers do (trying again on 2025 for [`CONNECT_PATIENCE`]).
pub fn connect(endpoint: &str, a: &WorkloadArgs) -> MqResult<Connection> {
    let until = Instant::now() + CONNECT_PATIENCE;
    let mut attempt = 0;
    loop {
        match Connection::connect_with(endpoint, &a.app_name, &client_options(a)) {
            Err(e)
                if e.reason == ferry_core::Reason::MaxConnsLimitReached
                    && Instant::now() < until =>
            {
                attempt += 1;
                std::thread::sleep(connect_pause(attempt));
            }
            r => return r,
        }
    }
}

/// As [`connect`], with the async client.
pub async fn connect_async(
    endpoint: &str,
    a: &WorkloadArgs,
) -> MqResult<ferry_client::AsyncConnection> {
    let until = Instant::now() + CONNECT_PATIENCE;
    let mut attempt = 0;
    loop {
        let opts = client_options(a);
        match ferry_client::AsyncConnection::connect(endpoint, &a.app_name, &opts).await {
            Err(e)
                if e.reason == ferry_core::Reason::MaxConnsLimitReached
                    && Instant::now() < until =>
            {
                attempt += 1;
                tokio::time::sleep(connect_pause(attempt)).await;
            }
            r => return r,
        }
    }
}

impl Target {
    /// Sets up the queue manager for a run of `w`: hosts one in a temporary directory when no
    /// connection string is given, and makes sure the workload's queues exist.
    pub fn prepare(w: Workload, a: &WorkloadArgs) -> MqResult<Target> {
        match &a.connect {
            None => Target::hosted(w, a),
            Some(url) => Target::remote(url, w, a),
        }
    }

    fn hosted(w: Workload, a: &WorkloadArgs) -> MqResult<Target> {
        static RUN: AtomicU64 = AtomicU64::new(0);
        let temp = std::env::temp_dir().join(format!(
            "ferry-perf-{}-{}",
            std::process::id(),
            RUN.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&temp);
        let dir = ferry_host::home::create(&temp, "PERF")?;
        apply_settings(&dir, &a.qm_set)?;
        let host = ferry_client::open_embedded(&dir)?;
        let attrs = LocalQueueAttrs {
            max_depth: (HOSTED_QUEUE_BYTES / a.size.max(1)).max(1000),
            max_msg_length: a.size.max(LocalQueueAttrs::default().max_msg_length),
            ..LocalQueueAttrs::default()
        };
        for q in queues(w, a) {
            host.queue_manager()
                .define_queue(&q, QueueDefinition::Local(attrs.clone()), true)?;
        }
        let qm_config = ferry_host::home::QmFile::load(&dir)
            .ok()
            .and_then(|f| serde_json::to_value(f).ok());
        Ok(Target {
            endpoint: format!("embedded:{}", dir.display()),
            mode: "embedded",
            qm_pid: Some(std::process::id()),
            qm_config,
            host: Some(host),
            temp: Some(temp),
            made: Vec::new(),
            made_with: None,
        })
    }

    fn remote(url: &str, w: Workload, a: &WorkloadArgs) -> MqResult<Target> {
        if !a.qm_set.is_empty() {
            return Err(MqError::new(
                Reason::OptionsError,
                "--qm-set changes a queue manager the harness hosts; a running one is configured in its own qm.toml",
            ));
        }
        let (bare, _) = ferry_client::split_credentials(url);
        let endpoint = ferry_client::Endpoint::parse(&bare)?;
        let (mode, qm_dir) = match &endpoint {
            ferry_client::Endpoint::Embedded(p) => ("embedded", Some(p.clone())),
            ferry_client::Endpoint::Unix(p) => ("unix", p.parent().map(|d| d.to_path_buf())),
            ferry_client::Endpoint::Tcp(_) => ("tcp", None),
            ferry_client::Endpoint::Tls(_) => ("tls", None),
            ferry_client::Endpoint::Quic(_) => ("quic", None),
        };
        let qm_pid = a.qm_pid.or_else(|| match mode {
            "embedded" => Some(std::process::id()),
            _ => qm_dir.as_ref().and_then(|d| {
                std::fs::read_to_string(d.join(ferry_host::home::LOCK_FILE))
                    .ok()?
                    .trim()
                    .parse()
                    .ok()
            }),
        });
        let qm_config = qm_dir.as_ref().and_then(|d| {
            ferry_host::home::QmFile::load(d)
                .ok()
                .and_then(|f| serde_json::to_value(f).ok())
        });
        // The workload's queues: open each; one that does not exist is created as a permanent
        // dynamic queue from SYSTEM.DURABLE.MODEL.QUEUE (define deeper ones beforehand).
        let mut c = connect(url, a)?;
        let made = make_queues(&mut c, w, a)?;
        c.disconnect()?;
        Ok(Target {
            endpoint: url.to_owned(),
            mode,
            qm_pid,
            qm_config,
            host: None,
            temp: None,
            made,
            made_with: Some(client_options(a)),
        })
    }
}

/// Opens each of the workload's queues; one that does not exist is made as a permanent dynamic
/// queue from SYSTEM.DURABLE.MODEL.QUEUE, as deep as a hosted run's (256 MiB of messages; the
/// user needs CHG on it, else it keeps the model's depth), and removed when the run ends.
/// Returns the ones made.
fn make_queues(c: &mut Connection, w: Workload, a: &WorkloadArgs) -> MqResult<Vec<String>> {
    let mut made = Vec::new();
    for q in queues(w, a) {
        match c.open_queue(&q, OpenOptions::output()) {
            Ok(h) => c.close(h, Default::default())?,
            Err(e) if e.reason == Reason::UnknownObjectName => {
                let model = ferry_model::system::DURABLE_MODEL_QUEUE;
                let h = c.open_dynamic(model, &q, OpenOptions::output())?;
                c.close(h, Default::default())?;
                let depth = (HOSTED_QUEUE_BYTES / a.size.max(1)).max(1000);
                let _ = c.admin(&format!("ALTER QLOCAL('{q}') MAXDEPTH({depth})"));
                made.push(q);
            }
            Err(e) => return Err(e),
        }
    }
    Ok(made)
}

/// Edits the hosted queue manager's qm.toml: each `KEY=VALUE` sets a dotted key (a number,
/// true/false, or else a string), then the file is loaded to check it.
fn apply_settings(dir: &std::path::Path, settings: &[String]) -> MqResult<()> {
    if settings.is_empty() {
        return Ok(());
    }
    let bad = |m: String| MqError::new(Reason::AttributeValueError, m);
    let path = dir.join(ferry_host::home::CONFIG_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
    let mut doc: toml::Table = text.parse().map_err(|e| bad(format!("{e}")))?;
    for kv in settings {
        let (key, value) = kv.split_once('=').ok_or_else(|| {
            bad(format!(
                "--qm-set '{kv}' must look like log.buffer_kib=1024"
            ))
        })?;
        let value = if let Ok(i) = value.parse::<i64>() {
            toml::Value::Integer(i)
        } else if let Ok(b) = value.parse::<bool>() {
            toml::Value::Boolean(b)
        } else {
            toml::Value::String(value.to_owned())
        };
        let parts: Vec<&str> = key.split('.').collect();
        let (last, tables) = parts
            .split_last()
            .ok_or_else(|| bad(format!("--qm-set '{kv}' has no key")))?;
        let mut t = &mut doc;
        for p in tables {
            t = t
                .entry(p.to_string())
                .or_insert_with(|| toml::Value::Table(Default::default()))
                .as_table_mut()
                .ok_or_else(|| bad(format!("--qm-set '{kv}': {p} is not a section")))?;
        }
        t.insert(last.to_string(), value);
    }
    std::fs::write(
        &path,
        toml::to_string(&doc).map_err(|e| bad(e.to_string()))?,
    )
    .map_err(|e| bad(e.to_string()))?;
    ferry_host::home::QmFile::load(dir)
        .and_then(|f| f.persist_settings())
        .map(|_| ())
}

/// What every worker shares.
#[derive(Debug)]
pub struct Shared {
    /// Set to end the run.
    pub stop: AtomicBool,
    /// Messages put, on cache lines of its own: putters write it at each put (sharing a line
    /// with `got` or `stop` moved it between processors at every message, counted against the
    /// queue manager).
    pub put: Padded<AtomicU64>,
    /// Messages got, on cache lines of its own: getters write it at each get.
    pub got: Padded<AtomicU64>,
    /// Per-thread pacing interval for a rated run.
    pub pace: Option<Duration>,
    /// When pacing started.
    pub started: Instant,
}

impl Shared {
    /// Shared state for a run with `workers` paced to `rate` operations per second in all.
    pub fn new(rate: Option<f64>, workers: usize) -> Arc<Shared> {
        Arc::new(Shared {
            stop: AtomicBool::new(false),
            put: Padded::default(),
            got: Padded::default(),
            pace: rate
                .filter(|r| *r > 0.0)
                .map(|r| Duration::from_secs_f64(workers.max(1) as f64 / r)),
            started: Instant::now(),
        })
    }

    pub(crate) fn stopping(&self) -> bool {
        self.stop.load(Ordering::Acquire)
    }
}

/// Paces a worker and measures its operations: the start of operation k is scheduled at
/// `started + k × pace`, and its latency counted from then (so falling behind shows). An
/// unpaced worker's operation starts when the one before it ended: one clock reading an
/// operation rather than two (the time between is the loop's own few instructions).
pub(crate) struct Pacer {
    next: Option<Instant>,
    pace: Option<Duration>,
    /// When the last operation ended (unpaced only), taken by the next [`Pacer::start`].
    last: Option<Instant>,
}

impl Pacer {
    pub(crate) fn new(shared: &Shared, worker: usize, workers: usize) -> Pacer {
        let next = shared
            .pace
            .map(|p| shared.started + p.mul_f64(worker as f64 / workers.max(1) as f64));
        Pacer {
            next,
            pace: shared.pace,
            last: None,
        }
    }

    /// Waits for the next slot; returns the instant the operation's latency counts from.
    pub(crate) fn start(&mut self) -> Instant {
        match (self.next, self.pace) {
            (Some(at), Some(p)) => {
                let now = Instant::now();
                if at > now {
                    std::thread::sleep(at - now);
                }
                self.next = Some(at + p);
                at
            }
            _ => self.last.take().unwrap_or_else(Instant::now),
        }
    }

    /// Something not to count happened since the last operation ended (a status check, a
    /// pause): the next one starts when it starts.
    pub(crate) fn forget(&mut self) {
        self.last = None;
    }

    /// The latency of the operation started at `t`, now that it has ended.
    pub(crate) fn elapsed(&mut self, t: Instant) -> Duration {
        let now = Instant::now();
        if self.pace.is_none() {
            self.last = Some(now);
        }
        now.saturating_duration_since(t)
    }
}

/// A body of `len` bytes of the kind asked for, numbered `n` (the first 8 bytes for fill and
/// random; inside the text for json).
pub fn body(kind: crate::args::PayloadArg, len: usize, n: u64) -> Vec<u8> {
    use crate::args::PayloadArg;
    match kind {
        PayloadArg::Fill => payload(len, n),
        PayloadArg::Json => {
            let mut s = String::with_capacity(len + 128);
            s.push('[');
            let mut i = 0u64;
            while s.len() < len {
                let id = n.wrapping_mul(1000).wrapping_add(i);
                s.push_str(&format!(
                    "{{\"order\":{id},\"customer\":\"C{:05}\",\"item\":\"SKU-{:04}\",\"qty\":{},\"price\":{}.{:02},\"status\":\"{}\"}},",
                    id % 99_991,
                    id % 7919,
                    1 + id % 9,
                    10 + id % 490,
                    id % 100,
                    ["NEW", "PAID", "SHIPPED"][(id % 3) as usize]
                ));
                i += 1;
            }
            let mut v = s.into_bytes();
            v.truncate(len);
            v
        }
        PayloadArg::Random => {
            let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            (0..len)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })
                .collect()
        }
    }
}

pub(crate) fn message(a: &WorkloadArgs, n: u64) -> Message {
    Message::new(Bytes::from(body(a.payload, a.size, n))).with_persistence(if a.persistent {
        Persistence::Persistent
    } else {
        Persistence::NotPersistent
    })
}

pub(crate) fn put_options(a: &WorkloadArgs) -> PutOptions {
    let mut o = if a.syncpoint {
        PutOptions::syncpoint()
    } else {
        PutOptions::default()
    };
    if a.async_put {
        o = o.with_async();
    }
    o
}

pub(crate) fn input_options(a: &WorkloadArgs) -> OpenOptions {
    OpenOptions {
        read_ahead: a.read_ahead.then_some(true),
        ..OpenOptions::input()
    }
}

/// Get options waiting up to `wait`, in syncpoint when asked.
fn get_options(a: &WorkloadArgs, wait: Duration) -> GetOptions {
    let o = GetOptions::new().wait(wait);
    if a.syncpoint {
        o.syncpoint()
    } else {
        o
    }
}

/// Commits after each operation when in syncpoint (the workloads whose operation is a unit).
fn commit_each(c: &mut Connection, a: &WorkloadArgs) -> WorkerResult {
    if a.syncpoint {
        c.commit().map_err(|e| fail("commit", e))?;
    }
    Ok(())
}

fn open(c: &mut Connection, queue: &str, opts: OpenOptions) -> Result<ferry_client::Hobj, String> {
    c.open_queue(queue, opts)
        .map_err(|e| fail(&format!("open {queue}"), e))
}

/// Commits every `commit_count` operations when in syncpoint.
pub(crate) struct Batcher {
    on: bool,
    every: u32,
    n: u32,
}

impl Batcher {
    pub(crate) fn new(a: &WorkloadArgs) -> Batcher {
        Batcher {
            on: a.syncpoint,
            every: a.commit_count.max(1),
            n: 0,
        }
    }
    pub(crate) fn step(&mut self, c: &mut Connection) -> MqResult<()> {
        if !self.on {
            return Ok(());
        }
        self.n += 1;
        if self.n >= self.every {
            self.n = 0;
            c.commit()?;
        }
        Ok(())
    }
    pub(crate) fn finish(&mut self, c: &mut Connection) -> MqResult<()> {
        if self.on && self.n > 0 {
            self.n = 0;
            c.commit()?;
        }
        Ok(())
    }
}

/// How a worker ended, if not normally.
pub type WorkerResult = Result<(), String>;

pub(crate) fn fail(what: &str, e: MqError) -> String {
    format!("{what}: {e}")
}

/// The put worker (a sender). A full queue is waited out (1 ms) and counted as an error.
pub fn put_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let h = if a.put1 {
        None
    } else {
        Some(open(
            &mut c,
            &a.queue,
            OpenOptions::output().with_inquire(),
        )?)
    };
    let opts = put_options(a);
    let mut batch = Batcher::new(a);
    let mut pacer = Pacer::new(shared, worker, a.threads);
    let mut n = 0u64;
    while !shared.stopping() {
        let t = pacer.start();
        let r = match h {
            Some(h) => c.put(h, message(a, n), &opts),
            None => c.put1(&a.queue, message(a, n), &opts),
        };
        match r {
            Ok(_) => {
                batch.step(&mut c).map_err(|e| fail("commit", e))?;
                shared.put.fetch_add(1, Ordering::Relaxed);
                rec.record(pacer.elapsed(t));
                n += 1;
                if a.async_put && n.is_multiple_of(256) {
                    async_status(&mut c, shared, rec)?;
                    pacer.forget();
                }
                // Asynchronous puts outrun getters: keep the depth bounded, as the benches do.
                if let (true, true, Some(h)) = (a.async_put, a.helpers > 0, h) {
                    if n.is_multiple_of(crate::asyncput::DEPTH_CHECK_EVERY) {
                        bound_depth(&mut c, h, shared)?;
                        pacer.forget();
                    }
                }
            }
            Err(e) if e.reason == Reason::QFull => {
                rec.error();
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(e) => return Err(fail("put", e)),
        }
    }
    batch.finish(&mut c).map_err(|e| fail("commit", e))?;
    if a.async_put {
        async_status(&mut c, shared, rec)?;
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// Asks for the status of the asynchronous puts since the last call: puts refused because the
/// queue was full are taken back from the put count and counted as waits (after one, the
/// putter pauses 1 ms); any other failure ends the run.
pub(crate) fn async_status(c: &mut Connection, shared: &Shared, rec: &Recorder) -> WorkerResult {
    let s = c.async_put_status().map_err(|e| fail("status", e))?;
    if count_refusals(&s, shared, rec)? {
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok(())
}

/// Reads an asynchronous-put status: puts refused for a full queue are taken back from the put
/// count and counted as waits (`Ok(true)`: the putter should pause); any other failure ends the
/// run with its sentence.
pub(crate) fn count_refusals(
    s: &ferry_client::AsyncPutStatus,
    shared: &Shared,
    rec: &Recorder,
) -> Result<bool, String> {
    if s.failed == 0 {
        return Ok(false);
    }
    match &s.first_failure {
        Some(e) if e.reason == Reason::QFull => {
            shared.put.fetch_sub(s.failed, Ordering::Relaxed);
            for _ in 0..s.failed {
                rec.error();
            }
            Ok(true)
        }
        first => Err(format!(
            "{} asynchronous puts failed{}",
            s.failed,
            first
                .as_ref()
                .map_or(String::new(), |e| format!(", the first with {e}"))
        )),
    }
}

/// A blocking putter with getters behind it: waits while the queue holds more than
/// [`crate::asyncput::DEPTH_BOUND`] messages, as the benches' ladder does.
fn bound_depth(c: &mut Connection, h: ferry_client::Hobj, shared: &Shared) -> WorkerResult {
    while !shared.stopping() {
        let v = c
            .inquire(h, &[ferry_client::Selector::CurrentDepth])
            .map_err(|e| fail("inquire", e))?;
        match v.first() {
            Some(ferry_client::AttrValue::Int(d)) if *d > crate::asyncput::DEPTH_BOUND => {
                std::thread::sleep(Duration::from_micros(200))
            }
            _ => break,
        }
    }
    Ok(())
}

/// The get worker (a receiver): waits up to 100 ms for each message.
pub fn get_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let h = open(&mut c, &a.queue, input_options(a))?;
    let opts = get_options(a, Duration::from_millis(100));
    let mut batch = Batcher::new(a);
    let mut pacer = Pacer::new(shared, worker, a.threads);
    while !shared.stopping() {
        let t = pacer.start();
        match c.get(h, &opts) {
            Ok(_) => {
                batch.step(&mut c).map_err(|e| fail("commit", e))?;
                shared.got.fetch_add(1, Ordering::Relaxed);
                rec.record(pacer.elapsed(t));
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(e) => return Err(fail("get", e)),
        }
    }
    batch.finish(&mut c).map_err(|e| fail("commit", e))?;
    c.disconnect().map_err(|e| fail("disconnect", e))
}

fn correl_of(worker: usize, n: u64) -> CorrelId {
    let mut id = [0u8; 24];
    id[..8].copy_from_slice(b"FERRYPRF");
    id[8..16].copy_from_slice(&(worker as u64).to_le_bytes());
    id[16..].copy_from_slice(&n.to_le_bytes());
    CorrelId::from_slice(&id)
}

/// The putget worker: puts a message with its own correl id, then gets it back by that id.
pub fn putget_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let out = open(&mut c, &a.queue, OpenOptions::output())?;
    let inp = open(&mut c, &a.queue, OpenOptions::input())?;
    let opts = put_options(a);
    let get = get_options(a, Duration::from_secs(30));
    let mut pacer = Pacer::new(shared, worker, a.threads);
    let mut n = 0u64;
    while !shared.stopping() {
        let t = pacer.start();
        let id = correl_of(worker, n);
        let m = message(a, n).with_correl_id(id);
        if a.put1 {
            c.put1(&a.queue, m, &opts)
        } else {
            c.put(out, m, &opts)
        }
        .map_err(|e| fail("put", e))?;
        commit_each(&mut c, a)?;
        shared.put.fetch_add(1, Ordering::Relaxed);
        c.get(inp, &get.correl_id(id))
            .map_err(|e| fail("get by correl id", e))?;
        commit_each(&mut c, a)?;
        shared.got.fetch_add(1, Ordering::Relaxed);
        rec.record(pacer.elapsed(t));
        n += 1;
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// The requester: puts a request (with reply-to) to request queue k, round robin over the
/// pairs, then waits for the reply with correl id = the request's msg id on reply queue k.
pub fn requester_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let mut reqs = Vec::new();
    let mut replies = Vec::new();
    for k in 0..PAIRS {
        reqs.push(open(
            &mut c,
            &format!("{}.REQ.{k}", a.prefix),
            OpenOptions::output(),
        )?);
        replies.push(open(
            &mut c,
            &format!("{}.REPLY.{k}", a.prefix),
            OpenOptions::input(),
        )?);
    }
    let reply_names: Vec<_> = (0..PAIRS)
        .map(|k| ferry_core::object_name(&format!("{}.REPLY.{k}", a.prefix)))
        .collect::<MqResult<_>>()
        .map_err(|e| fail("queue name", e))?;
    let opts = put_options(a);
    let get = get_options(a, Duration::from_secs(30));
    let mut pacer = Pacer::new(shared, worker, a.threads);
    let mut n = 0u64;
    while !shared.stopping() {
        let k = (worker + n as usize) % PAIRS;
        let t = pacer.start();
        let mut m = message(a, n).with_reply_to(reply_names[k]);
        m.descriptor.message_type = MessageType::Request;
        let out = c
            .put(reqs[k], m, &opts)
            .map_err(|e| fail("put request", e))?;
        commit_each(&mut c, a)?;
        shared.put.fetch_add(1, Ordering::Relaxed);
        c.get(replies[k], &get.correl_id(CorrelId::from(out.msg_id)))
            .map_err(|e| fail("get reply", e))?;
        commit_each(&mut c, a)?;
        shared.got.fetch_add(1, Ordering::Relaxed);
        rec.record(pacer.elapsed(t));
        n += 1;
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// A responder on request queue `k`: gets a request and put1s the reply to its reply-to queue
/// with correl id = the request's msg id (the get and put in one unit of work with
/// --syncpoint). Runs until `stop`.
pub fn responder_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    stop: &AtomicBool,
    k: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let h = open(&mut c, &format!("{}.REQ.{k}", a.prefix), input_options(a))?;
    let get = get_options(a, Duration::from_millis(100));
    let opts = put_options(a);
    while !stop.load(Ordering::Acquire) {
        match c.get(h, &get) {
            Ok(req) => {
                let d = &req.message.descriptor;
                let mut reply =
                    Message::new(req.message.body.clone()).with_persistence(if a.persistent {
                        Persistence::Persistent
                    } else {
                        Persistence::NotPersistent
                    });
                reply.descriptor.correl_id = CorrelId::from(d.msg_id);
                reply.descriptor.message_type = MessageType::Reply;
                // To the reply-to queue at the reply-to queue manager: across a channel when
                // the requester is on another queue manager.
                let to = ferry_core::ObjectDescriptor::QueueAt {
                    name: d.reply_to_queue,
                    qmgr: d.reply_to_qmgr,
                };
                c.put1_to(&to, reply, &opts)
                    .map_err(|e| fail("put reply", e))?;
                commit_each(&mut c, a)?;
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(e) => return Err(fail("get request", e)),
        }
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// A forwarder: gets from PREFIX.IN and puts to PREFIX.OUT.
pub fn forward_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let inp = open(&mut c, &format!("{}.IN", a.prefix), input_options(a))?;
    let out = open(&mut c, &format!("{}.OUT", a.prefix), OpenOptions::output())?;
    let get = get_options(a, Duration::from_millis(100));
    let opts = put_options(a);
    let mut batch = Batcher::new(a);
    let mut pacer = Pacer::new(shared, worker, a.threads);
    while !shared.stopping() {
        let t = pacer.start();
        match c.get(inp, &get) {
            Ok(g) => {
                c.put(out, g.message, &opts).map_err(|e| fail("put", e))?;
                batch.step(&mut c).map_err(|e| fail("commit", e))?;
                rec.record(pacer.elapsed(t));
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(e) => return Err(fail("get", e)),
        }
    }
    batch.finish(&mut c).map_err(|e| fail("commit", e))?;
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// Keeps `queue` supplied (for forwarders or measured getters), waiting out a full queue,
/// counting puts. Not measured.
pub fn feeder(
    endpoint: &str,
    a: &WorkloadArgs,
    queue: &str,
    shared: &Shared,
    stop: &AtomicBool,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let h = open(&mut c, queue, OpenOptions::output())?;
    let mut n = 0u64;
    let opts = PutOptions::default();
    while !stop.load(Ordering::Acquire) {
        match c.put(h, message(a, n), &opts) {
            Ok(_) => {
                shared.put.fetch_add(1, Ordering::Relaxed);
                n += 1;
            }
            Err(e) if e.reason == Reason::QFull => std::thread::sleep(Duration::from_millis(1)),
            Err(e) => return Err(fail("feed", e)),
        }
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// Empties `queue` (of forwarders or measured putters), counting gets; after `stop` it drains
/// what is left. Not measured.
pub fn drainer(
    endpoint: &str,
    a: &WorkloadArgs,
    queue: &str,
    shared: &Shared,
    stop: &AtomicBool,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let h = open(&mut c, queue, input_options(a))?;
    drain_until_stopped(&mut c, h, shared, stop, "drain", None)?;
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// Gets from `h` through the async client (waiting up to 100 ms each), counting in
/// `shared.got`, until a wait finds nothing after `stop` is set: the async drainers' and
/// subscribers' loop.
pub(crate) async fn count_async(
    c: &mut ferry_client::AsyncConnection,
    h: ferry_client::Hobj,
    shared: &Shared,
    stop: &AtomicBool,
    what: &str,
) -> WorkerResult {
    let get = GetOptions::new().wait(Duration::from_millis(100));
    loop {
        match c.get(h, &get).await {
            Ok(_) => {
                shared.got.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {
                if stop.load(Ordering::Acquire) {
                    return Ok(());
                }
            }
            Err(e) => return Err(fail(what, e)),
        }
    }
}

/// Gets from `h` (waiting up to 100 ms each), counting in `shared.got`, until a wait finds
/// nothing after `stop` is set: a drainer's and a subscriber's loop.
pub(crate) fn drain_until_stopped(
    c: &mut Connection,
    h: ferry_client::Hobj,
    shared: &Shared,
    stop: &AtomicBool,
    what: &str,
    commit_every: Option<usize>,
) -> WorkerResult {
    let mut opts = GetOptions::new().wait(Duration::from_millis(100));
    opts.syncpoint = commit_every.is_some();
    let mut pending = 0;
    loop {
        match c.get(h, &opts) {
            Ok(_) => {
                pending += 1;
                if commit_every.is_some_and(|n| pending >= n) {
                    c.commit().map_err(|e| fail("commit", e))?;
                    pending = 0;
                }
                shared.got.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {
                if pending > 0 && commit_every.is_some() {
                    c.commit().map_err(|e| fail("commit", e))?;
                    pending = 0;
                }
                if stop.load(Ordering::Acquire) {
                    return Ok(());
                }
            }
            Err(e) => return Err(fail(what, e)),
        }
    }
}
