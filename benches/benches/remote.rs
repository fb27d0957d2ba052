//! Local (Unix socket) and tcp connection benchmarks, each beside the raw limits of the same run:
//! ping-pong round trips (2 KB out, 64 B back) and one-way streaming of 2 KB frames over the same
//! socket kind.
//!
//! Workload (the reference single-thread ladder of 000): one putting connection, 2 KB
//! non-persistent messages, two getting connections draining the queue; with sync and with async
//! put, embedded (connections straight to the served queue manager), local and tcp. The server
//! runs in this process on its own runtime, as `ferry qm start` runs it.
//!
//! Run: `cargo bench -p ferry-benches --bench remote -- --secs 3 --runs 3`

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{define_bench_queues, fmt_rate, median, payload, BenchArgs, InProcessServer};
use ferry_client::{
    Connection, GetOptions, Message, OpenOptions, PutOptions, QueueManager, Reason,
};
use ferry_perf::limits::{ping_pong, relay, sock_pair, streaming};

const MSG_LEN: usize = 2048;

/// The bench queue manager: BENCH.Q and ten request/reply queue pairs, all deep enough.
fn bench_qm() -> QueueManager {
    let qm = QueueManager::with_name("BENCH").unwrap();
    define_bench_queues(&qm);
    qm
}

/// Where a ladder's connections go: a server's socket, or the server's queue manager itself
/// (embedded, in this process), so that all three modes run against one queue manager in one run.
#[derive(Clone)]
enum Target {
    Remote(String),
    Embedded(QueueManager),
}

impl Target {
    fn connect(&self, app: &str) -> Connection {
        match self {
            Target::Remote(ep) => ferry_benches::connect(ep, app),
            Target::Embedded(qm) => Connection::embedded(qm, app).unwrap(),
        }
    }
}

/// One putter, two getters. Messages per second delivered.
fn ladder(target: &Target, asynchronous: bool, d: Duration) -> f64 {
    let done = Arc::new(AtomicBool::new(false));
    let got = Arc::new(AtomicU64::new(0));
    let mut getters = Vec::new();
    let getter_count: usize = std::env::var("FERRY_BENCH_GETTERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    for g in 0..getter_count {
        let (target, done, got) = (target.clone(), done.clone(), got.clone());
        getters.push(std::thread::spawn(move || {
            let mut c = target.connect(&format!("getter{g}"));
            // Remote getters use read-ahead (non-persistent, outside syncpoint), as MQ clients
            // do for this workload; embedded ones take messages straight from the queue.
            let open = OpenOptions {
                read_ahead: Some(matches!(target, Target::Remote(_))),
                ..OpenOptions::input()
            };
            let h = c.open_queue("BENCH.Q", open).unwrap();
            let opts = GetOptions::new().wait(Duration::from_millis(100));
            let mut n = 0u64;
            loop {
                match c.get(h, &opts) {
                    Ok(_) => n += 1,
                    Err(e) if e.reason == Reason::NoMsgAvailable => {
                        if done.load(Ordering::Acquire) {
                            break;
                        }
                    }
                    Err(e) => panic!("get: {e}"),
                }
            }
            c.disconnect().unwrap();
            got.fetch_add(n, Ordering::Relaxed);
        }));
    }
    let mut c = target.connect("putter");
    let h = c
        .open_queue("BENCH.Q", OpenOptions::output().with_inquire())
        .unwrap();
    let opts = if asynchronous {
        PutOptions::default().with_async()
    } else {
        PutOptions::default()
    };
    // One body, shared by every put (as mq-cph puts one buffer): the rate is the queue
    // manager's and the client's, not the cost of making messages.
    let body = Bytes::from(payload(MSG_LEN, 0));
    let start = Instant::now();
    let mut put = 0u64;
    while start.elapsed() < d {
        for _ in 0..64 {
            c.put(h, Message::new(body.clone()), &opts).unwrap();
            put += 1;
        }
        if asynchronous && put.is_multiple_of(4096) {
            // Async puts can outrun the getters: hold back while the queue is deep, so it stays
            // within MAXDEPTH (what an application does with MQSTAT and MQINQ).
            let s = c.async_put_status().unwrap();
            assert_eq!(s.failed, 0, "async put failed: {:?}", s.first_failure);
            while getter_count > 0 && depth(&mut c, h) > 20_000 {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
    }
    if asynchronous {
        let s = c.async_put_status().unwrap();
        assert_eq!(s.failed, 0, "async put failed: {:?}", s.first_failure);
    }
    done.store(true, Ordering::Release);
    for g in getters {
        g.join().unwrap();
    }
    if getter_count == 0 {
        // Probe mode: measure the putter alone (the queue must not fill: run briefly).
        return put as f64 / start.elapsed().as_secs_f64();
    }
    let n = got.load(Ordering::Relaxed);
    assert_eq!(n, put, "every message put was got");
    n as f64 / start.elapsed().as_secs_f64()
}

fn depth(c: &mut Connection, h: ferry_client::Hobj) -> i64 {
    match c
        .inquire(h, &[ferry_client::Selector::CurrentDepth])
        .unwrap()[0]
    {
        ferry_client::AttrValue::Int(d) => d,
        _ => 0,
    }
}

/// Request/reply over `endpoint` as in 002's RR-CC: `requesters` requester connections and one
/// responder connection per request queue, 10 request and 10 reply queues, 2 KB non-persistent,
/// replies got by correl id = request msg id. Round trips per second.
///
/// `tuned`: requesters put asynchronously (the get that follows carries the put in the same
/// write) and responders read ahead and reply with async put1s; otherwise every call is
/// synchronous.
fn request_reply(endpoint: &str, requesters: usize, tuned: bool, d: Duration) -> f64 {
    let put_opts = if tuned {
        PutOptions::default().with_async()
    } else {
        PutOptions::default()
    };
    const PAIRS: usize = 10;
    let stop = Arc::new(AtomicBool::new(false));
    let mut responders = Vec::new();
    // Enough responders that a getter is always waiting: two per request queue.
    for k in 0..PAIRS * 2 {
        let (ep, stop) = (endpoint.to_owned(), stop.clone());
        responders.push(std::thread::spawn(move || {
            let mut c = ferry_benches::connect(&ep, "responder");
            let h = c
                .open_queue(&format!("BENCH.REQ.{}", k % PAIRS), OpenOptions::input())
                .unwrap();
            let opts = GetOptions::new().wait(Duration::from_millis(100));
            while !stop.load(Ordering::Acquire) {
                match c.get(h, &opts) {
                    Ok(req) => {
                        let d = &req.message.descriptor;
                        let mut reply = Message::new(req.message.body.clone());
                        reply.descriptor.correl_id = ferry_core::CorrelId::from(d.msg_id);
                        reply.descriptor.message_type = ferry_core::MessageType::Reply;
                        c.put1(d.reply_to_queue.as_str(), reply, &PutOptions::default())
                            .unwrap();
                    }
                    Err(e) if e.reason == Reason::NoMsgAvailable => {}
                    Err(e) => panic!("responder: {e}"),
                }
            }
            c.disconnect().unwrap();
        }));
    }
    let trips = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let mut reqs = Vec::new();
    for r in 0..requesters {
        let (ep, trips) = (endpoint.to_owned(), trips.clone());
        reqs.push(std::thread::spawn(move || {
            let k = r % PAIRS;
            let mut c = ferry_benches::connect(&ep, "requester");
            let rq = c
                .open_queue(&format!("BENCH.REQ.{k}"), OpenOptions::output())
                .unwrap();
            let reply_name = format!("BENCH.REPLY.{k}");
            let pq = c.open_queue(&reply_name, OpenOptions::input()).unwrap();
            let reply_to = ferry_core::object_name(&reply_name).unwrap();
            let wait = GetOptions::new().wait(Duration::from_secs(10));
            let mut n = 0u64;
            while start.elapsed() < d {
                let m = Message::new(Bytes::from(payload(MSG_LEN, n))).with_reply_to(reply_to);
                let out = c.put(rq, m, &put_opts).unwrap();
                c.get(pq, &wait.correl_id(ferry_core::CorrelId::from(out.msg_id)))
                    .unwrap();
                n += 1;
            }
            c.disconnect().unwrap();
            trips.fetch_add(n, Ordering::Relaxed);
        }));
    }
    for r in reqs {
        r.join().unwrap();
    }
    let rate = trips.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64();
    stop.store(true, Ordering::Release);
    for r in responders {
        r.join().unwrap();
    }
    rate
}

/// Request/reply with the async client: every requester and responder is a task on one
/// single-threaded runtime (the way an async application would run them), each its own
/// connection. Same shape as [`request_reply`]. `per_socket` connections share one socket (MQ's
/// SHARECNV); 1 gives each its own socket.
fn request_reply_async(endpoint: &str, requesters: usize, per_socket: usize, d: Duration) -> f64 {
    use ferry_client::{AsyncConnection, ClientOptions};
    const PAIRS: usize = 10;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let opts = ClientOptions::default();
        // Connections, `per_socket` to a socket (a socket's first connection opens it).
        let mut convs: Vec<AsyncConnection> = Vec::new();
        for i in 0..PAIRS * 2 + requesters {
            let c = if i % per_socket == 0 {
                AsyncConnection::connect(endpoint, "bench", &opts)
                    .await
                    .unwrap()
            } else {
                let first = i - i % per_socket;
                convs[first].share("bench", &opts).await.unwrap()
            };
            convs.push(c);
        }
        let mut convs = convs.into_iter();
        let stop = Arc::new(AtomicBool::new(false));
        let mut responders = Vec::new();
        for k in 0..PAIRS * 2 {
            let stop = stop.clone();
            let mut c = convs.next().unwrap();
            responders.push(tokio::spawn(async move {
                let open = OpenOptions {
                    read_ahead: Some(true),
                    ..OpenOptions::input()
                };
                let h = c
                    .open_queue(&format!("BENCH.REQ.{}", k % PAIRS), open)
                    .await
                    .unwrap();
                let opts = GetOptions::new().wait(Duration::from_millis(100));
                let put = PutOptions::default().with_async();
                while !stop.load(Ordering::Acquire) {
                    match c.get(h, &opts).await {
                        Ok(req) => {
                            let d = &req.message.descriptor;
                            let mut reply = Message::new(req.message.body.clone());
                            reply.descriptor.correl_id = ferry_core::CorrelId::from(d.msg_id);
                            reply.descriptor.message_type = ferry_core::MessageType::Reply;
                            c.put1(d.reply_to_queue.as_str(), reply, &put)
                                .await
                                .unwrap();
                        }
                        Err(e) if e.reason == Reason::NoMsgAvailable => {}
                        Err(e) => panic!("responder: {e}"),
                    }
                }
                c
            }));
        }
        let trips = Arc::new(AtomicU64::new(0));
        let start = Instant::now();
        let mut reqs = Vec::new();
        for r in 0..requesters {
            let trips = trips.clone();
            let mut c = convs.next().unwrap();
            reqs.push(tokio::spawn(async move {
                let k = r % PAIRS;
                let rq = c
                    .open_queue(&format!("BENCH.REQ.{k}"), OpenOptions::output())
                    .await
                    .unwrap();
                let reply_name = format!("BENCH.REPLY.{k}");
                let pq = c
                    .open_queue(&reply_name, OpenOptions::input())
                    .await
                    .unwrap();
                let reply_to = ferry_core::object_name(&reply_name).unwrap();
                let wait = GetOptions::new().wait(Duration::from_secs(10));
                let put = PutOptions::default().with_async();
                let mut n = 0u64;
                while start.elapsed() < d {
                    let m = Message::new(Bytes::from(payload(MSG_LEN, n))).with_reply_to(reply_to);
                    let out = c.put(rq, m, &put).await.unwrap();
                    c.get(pq, &wait.correl_id(ferry_core::CorrelId::from(out.msg_id)))
                        .await
                        .unwrap();
                    n += 1;
                }
                trips.fetch_add(n, Ordering::Relaxed);
                c
            }));
        }
        let mut done = Vec::new();
        for r in reqs {
            done.push(r.await.unwrap());
        }
        let rate = trips.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64();
        stop.store(true, Ordering::Release);
        for r in responders {
            done.push(r.await.unwrap());
        }
        for c in done {
            c.disconnect().await.unwrap();
        }
        rate
    })
}

/// The ladder with the async client: one putting task and two getting tasks (read-ahead), each
/// its own connection, on one single-threaded runtime; async puts. Returns msg/s and the CPU
/// time of the whole process (server thread and clients) per message, in nanoseconds: a
/// steadier measure of the path's cost than the rate on this VM.
fn ladder_async(endpoint: &str, d: Duration) -> (f64, f64) {
    use ferry_client::{AsyncConnection, ClientOptions};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let done = Arc::new(AtomicBool::new(false));
        let mut getters = Vec::new();
        for _ in 0..2 {
            let (ep, done) = (endpoint.to_owned(), done.clone());
            getters.push(tokio::spawn(async move {
                let mut c = AsyncConnection::connect(&ep, "getter", &ClientOptions::default())
                    .await
                    .unwrap();
                let open = OpenOptions {
                    read_ahead: Some(true),
                    ..OpenOptions::input()
                };
                let h = c.open_queue("BENCH.Q", open).await.unwrap();
                let opts = GetOptions::new().wait(Duration::from_millis(100));
                let mut n = 0u64;
                loop {
                    match c.get(h, &opts).await {
                        Ok(_) => n += 1,
                        Err(e) if e.reason == Reason::NoMsgAvailable => {
                            if done.load(Ordering::Acquire) {
                                break;
                            }
                        }
                        Err(e) => panic!("get: {e}"),
                    }
                }
                c.disconnect().await.unwrap();
                n
            }));
        }
        let mut c = AsyncConnection::connect(endpoint, "putter", &ClientOptions::default())
            .await
            .unwrap();
        let h = c
            .open_queue("BENCH.Q", OpenOptions::output().with_inquire())
            .await
            .unwrap();
        let opts = PutOptions::default().with_async();
        let body = Bytes::from(payload(MSG_LEN, 0));
        let cpu_start = ferry_perf::sys::cpu_time(std::process::id()).unwrap_or_default();
        let start = Instant::now();
        let mut put = 0u64;
        while start.elapsed() < d {
            for _ in 0..64 {
                c.put(h, Message::new(body.clone()), &opts).await.unwrap();
                put += 1;
            }
            if put.is_multiple_of(4096) {
                let s = c.async_put_status().await.unwrap();
                assert_eq!(s.failed, 0, "async put failed: {:?}", s.first_failure);
                loop {
                    let depth = match c
                        .inquire(h, &[ferry_client::Selector::CurrentDepth])
                        .await
                        .unwrap()[0]
                    {
                        ferry_client::AttrValue::Int(d) => d,
                        _ => 0,
                    };
                    if depth <= 20_000 {
                        break;
                    }
                    tokio::time::sleep(Duration::from_micros(200)).await;
                }
            }
        }
        let s = c.async_put_status().await.unwrap();
        assert_eq!(s.failed, 0, "async put failed: {:?}", s.first_failure);
        done.store(true, Ordering::Release);
        let mut got = 0;
        for g in getters {
            got += g.await.unwrap();
        }
        assert_eq!(got, put, "every message put was got");
        let rate = got as f64 / start.elapsed().as_secs_f64();
        let cpu = ferry_perf::sys::cpu_time(std::process::id()).unwrap_or_default() - cpu_start;
        c.disconnect().await.unwrap();
        (rate, cpu.as_nanos() as f64 / got as f64)
    })
}

/// Authority checks on and off, alternated within each run: the same ladder and request/reply
/// as an administrator (no record is read) and as an ordinary user whose every open (and every
/// responder's MQPUT1) is checked against its group's generic records.
fn authority_rows(
    server: &InProcessServer,
    d: Duration,
    wanted: &dyn Fn(&str) -> bool,
    record: &mut dyn FnMut(&str, f64),
) {
    for (who, ep) in [
        ("administrator", &server.tcp),
        ("checked user", &server.tcp_app),
    ] {
        let name = format!("authority: tcp sync put ladder, {who} (msg/s)");
        if wanted(&name) {
            record(&name, ladder(&Target::Remote(ep.clone()), false, d));
        }
        let name = format!("authority: tcp request/reply all sync, 16 requesters, {who} (rt/s)");
        if wanted(&name) {
            record(&name, request_reply(ep, 16, false, d));
        }
    }
}

fn main() {
    let args = BenchArgs::from_env();
    let d = args.duration();
    let dir: PathBuf =
        std::env::temp_dir().join(format!("ferry-bench-remote-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    println!(
        "# server: 1 I/O thread unless FERRY_BENCH_SERVER_THREADS says otherwise (the clients use the other core)"
    );
    println!(
        "# FerryMQ local and tcp benchmarks: {} run(s) of {:.1} s, medians",
        args.runs, args.secs
    );
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    // FERRY_BENCH_ONLY=substring runs only the rows whose names contain it (for profiling);
    // `a|b` runs the rows with either.
    let only = std::env::var("FERRY_BENCH_ONLY").unwrap_or_default();
    let wanted = |name: &str| only.split('|').any(|o| name.contains(o));
    let mut record = |name: &str, v: f64| match rows.iter_mut().find(|r| r.0 == name) {
        Some(r) => r.1.push(v),
        None => rows.push((name.to_owned(), vec![v])),
    };
    for _ in 0..args.runs {
        for (name, tcp, pp) in [
            ("raw unix ping-pong (round trips/s)", false, true),
            ("raw unix streaming 2 KB (msg/s)", false, false),
            ("raw tcp ping-pong (round trips/s)", true, true),
            ("raw tcp streaming 2 KB (msg/s)", true, false),
        ] {
            if !wanted(name) {
                continue;
            }
            let (c, s) = sock_pair(tcp, &dir).unwrap();
            record(
                name,
                if pp {
                    ping_pong(c, s, d).unwrap()
                } else {
                    streaming(c, s, d).unwrap()
                },
            );
        }
        // The ladder's own shape with no queue manager: sender -> relay -> receiver.
        for (name, tcp) in [
            ("raw unix relay 2 KB, 2 hops (msg/s)", false),
            ("raw tcp relay 2 KB, 2 hops (msg/s)", true),
        ] {
            if !wanted(name) {
                continue;
            }
            let pid = std::process::id();
            let cpu_start = ferry_perf::sys::cpu_time(pid).unwrap_or_default();
            let rate = relay(
                sock_pair(tcp, &dir).unwrap(),
                sock_pair(tcp, &dir).unwrap(),
                d,
            )
            .unwrap();
            let cpu = ferry_perf::sys::cpu_time(pid).unwrap_or_default() - cpu_start;
            record(name, rate);
            // The kernel's own cost of the two hops, to set beside the ladder's CPU per message.
            let kind = if tcp { "tcp" } else { "unix" };
            record(
                &format!("raw {kind} relay, CPU ns/msg"),
                cpu.as_nanos() as f64 / (rate * d.as_secs_f64()),
            );
        }
        let server = InProcessServer::start(bench_qm(), &dir);
        // FERRY_BENCH_PER_SOCKET=1,2,5 chooses how many connections share a socket in the
        // async-client request/reply rows (the server allows at most 10).
        let per_socket_list: Vec<usize> = std::env::var("FERRY_BENCH_PER_SOCKET")
            .ok()
            .map(|v| v.split(',').map(|x| x.parse().unwrap()).collect())
            .unwrap_or(vec![1, 10]);
        for per_socket in per_socket_list {
            for requesters in [1usize, 4, 16, 64] {
                let name = format!(
                    "tcp request/reply async client, {per_socket:>2}/socket, {requesters:>2} requesters (rt/s)"
                );
                if wanted(&name) {
                    record(
                        &name,
                        request_reply_async(&server.tcp, requesters, per_socket, d),
                    );
                }
            }
        }
        for (mode, ep) in [("local", server.unix.clone()), ("tcp", server.tcp.clone())] {
            let name = format!("{mode} async put, async client, 1 putter 2 getters (msg/s)");
            if wanted(&name) {
                let (rate, cpu_ns) = ladder_async(&ep, d);
                record(&name, rate);
                record(&format!("{mode} async client ladder, CPU ns/msg"), cpu_ns);
            }
        }
        for tuned in [false, true] {
            for requesters in [1usize, 4, 16, 64] {
                let kind = if tuned {
                    "async put + read-ahead"
                } else {
                    "all sync"
                };
                let name = format!("tcp request/reply {kind}, {requesters:>2} requesters (rt/s)");
                if wanted(&name) {
                    record(&name, request_reply(&server.tcp, requesters, tuned, d));
                }
            }
        }
        for (mode, target) in [
            ("embedded", Target::Embedded(server.qm.clone())),
            ("local", Target::Remote(server.unix.clone())),
            ("tcp", Target::Remote(server.tcp.clone())),
        ] {
            for asynchronous in [false, true] {
                let kind = if asynchronous { "async" } else { "sync" };
                let name = format!("{mode} {kind} put, 1 putter 2 getters (msg/s)");
                if wanted(&name) {
                    record(&name, ladder(&target, asynchronous, d));
                }
            }
        }
        authority_rows(&server, d, &wanted, &mut record);
        if std::env::var("FERRY_BENCH_GETTERS").is_err() {
            assert_eq!(server.qm.queue_status("BENCH.Q").unwrap().depth, 0);
        }
    }
    for (name, v) in &rows {
        println!(
            "{name:<48} {:>12}   runs {:?}",
            fmt_rate(median(v)),
            v.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>()
        );
    }
    let get = |n: &str| rows.iter().find(|r| r.0 == n).map_or(0.0, |r| median(&r.1));
    for mode in ["unix", "tcp"] {
        let m = if mode == "unix" { "local" } else { "tcp" };
        let pp = get(&format!("raw {mode} ping-pong (round trips/s)"));
        let sync = get(&format!("{m} sync put, 1 putter 2 getters (msg/s)"));
        if pp == 0.0 || sync == 0.0 {
            continue;
        }
        println!(
            "{m}: sync put = {:.0}% of raw {mode} ping-pong",
            100.0 * sync / pp
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
