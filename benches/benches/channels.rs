//! Message channel throughput, TLS 1.3 beside plain TCP, in one run: two queue managers served
//! in this process (QM1 sends, QM2 receives), 2 KB and 200 KB non-persistent messages put on
//! QM1 to a remote queue and got from QM2, with the raw limit of the same run (tcp streaming of
//! 2 KB frames) beside them.
//!
//! The plain channel's partner authenticates with a password (RCVR MCAUSER); the TLS channel's
//! with its certificate (mutual TLS, SSLPEER). Both go through the same sender, receiver and
//! batching; only the socket differs.
//!
//! Run: `cargo bench -p ferry-benches --bench channels -- --secs 3 --runs 3`

use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use ferry_benches::{
    fmt_rate, median, payload, BenchArgs, InProcessServer, BENCH_PASSWORD, BENCH_USER,
};
use ferry_client::{
    Connection, GetOptions, Message, OpenOptions, PutOptions, QueueManager, Reason,
};
use ferry_perf::limits::{sock_pair, streaming};

/// A CA and certificates for QM1 and QM2 (CN = the name; QM2's also for 127.0.0.1).
fn make_pki(dir: &Path) {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};
    let mut ca = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca.distinguished_name.push(DnType::CommonName, "bench CA");
    let ca = CertifiedIssuer::self_signed(ca, KeyPair::generate().unwrap()).unwrap();
    std::fs::write(dir.join("ca.pem"), ca.pem()).unwrap();
    for name in ["QM1", "QM2"] {
        let key = KeyPair::generate().unwrap();
        let mut p =
            CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()]).unwrap();
        p.distinguished_name.push(DnType::CommonName, name);
        let cert = p.signed_by(&key, &ca).unwrap();
        std::fs::write(dir.join(format!("{name}.pem")), cert.pem()).unwrap();
        let key_file = dir.join(format!("{name}.key"));
        std::fs::write(&key_file, key.serialize_pem()).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key_file, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
}

fn mqsc(qm: &QueueManager, script: &str) {
    for r in ferry_admin::run_script(qm, script) {
        assert!(r.ok, "{}: {:?}", r.command, r.messages);
    }
}

/// The two queue managers, with a plain channel (PLAIN.TO.QM2, remote queue APP.PLAIN) and a
/// TLS one (TLS.TO.QM2, remote queue APP.TLS) between them.
struct Pair {
    qm1: InProcessServer,
    qm2: InProcessServer,
}

fn pair(dir: &Path) -> Pair {
    make_pki(dir);
    let (d1, d2) = (dir.join("qm1"), dir.join("qm2"));
    std::fs::create_dir_all(&d1).unwrap();
    std::fs::create_dir_all(&d2).unwrap();
    let qm2 = InProcessServer::start_with(QueueManager::with_name("QM2").unwrap(), &d2, |c| {
        c.tls_listen = Some("127.0.0.1:0".parse().unwrap());
        c.tls = Some(ferry_server::TlsSettings {
            cert_chain: dir.join("QM2.pem"),
            key: dir.join("QM2.key"),
            client_ca: Some(dir.join("ca.pem")),
        });
    });
    let qm1 = InProcessServer::start_with(QueueManager::with_name("QM1").unwrap(), &d1, |c| {
        c.channel_tls = ferry_server::channels::ChannelTls {
            ca: Some(dir.join("ca.pem")),
            own: Some((dir.join("QM1.pem"), dir.join("QM1.key"))),
            ..Default::default()
        };
    });
    let tcp_port = qm2.tcp.rsplit(':').next().unwrap().to_owned();
    let tls_port = qm2.tls_addr.unwrap().port();
    mqsc(
        &qm2.qm,
        &format!(
            "DEFINE QLOCAL(APP.IN) MAXDEPTH(1000000)
             DEFINE CHANNEL(PLAIN.TO.QM2) CHLTYPE(RCVR) MCAUSER('{BENCH_USER}') RQMNAME(QM1)
             DEFINE CHANNEL(TLS.TO.QM2) CHLTYPE(RCVR) SSLCIPH(ANY_TLS13) SSLPEER('CN=QM1')
             SET CHLAUTH('*.TO.QM2') TYPE(BLOCKUSER) USERLIST('nobody') DESCR('the bench channels run as an administrator')"
        ),
    );
    mqsc(
        &qm1.qm,
        &format!(
            "DEFINE QLOCAL(XQ.PLAIN) USAGE(XMITQ) MAXDEPTH(1000000)
             DEFINE QLOCAL(XQ.TLS) USAGE(XMITQ) MAXDEPTH(1000000)
             DEFINE QREMOTE(APP.PLAIN) RNAME(APP.IN) RQMNAME(QM2) XMITQ(XQ.PLAIN)
             DEFINE QREMOTE(APP.TLS) RNAME(APP.IN) RQMNAME(QM2) XMITQ(XQ.TLS)
             DEFINE CHANNEL(PLAIN.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({tcp_port})') XMITQ(XQ.PLAIN) USERID('{BENCH_USER}') PASSWORD('{BENCH_PASSWORD}') DISCINT(0) SHORTTMR(1)
             DEFINE CHANNEL(TLS.TO.QM2) CHLTYPE(SDR) CONNAME('127.0.0.1({tls_port})') XMITQ(XQ.TLS) SSLCIPH(ANY_TLS13) SSLPEER('CN=localhost') DISCINT(0) SHORTTMR(1)"
        ),
    );
    Pair { qm1, qm2 }
}

/// Puts `size`-byte messages to `remote_queue` on QM1 for `d` (holding back while its
/// transmission queue is deep) while a getter drains APP.IN on QM2. Messages per second
/// delivered.
fn through(p: &Pair, remote_queue: &str, xmitq: &str, size: usize, d: Duration) -> f64 {
    let done = Arc::new(AtomicBool::new(false));
    let got = Arc::new(AtomicU64::new(0));
    let getter = {
        let (qm, done, got) = (p.qm2.qm.clone(), done.clone(), got.clone());
        std::thread::spawn(move || {
            let mut c = Connection::embedded(&qm, "drain").unwrap();
            let h = c.open_queue("APP.IN", OpenOptions::input()).unwrap();
            let opts = GetOptions::new()
                .wait(Duration::from_millis(200))
                .max_len(size + 1024, false);
            loop {
                match c.get(h, &opts) {
                    Ok(_) => {
                        got.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(e) if e.reason == Reason::NoMsgAvailable => {
                        if done.load(Ordering::Acquire) {
                            return;
                        }
                    }
                    Err(e) => panic!("get: {e}"),
                }
            }
        })
    };
    let mut c = Connection::embedded(&p.qm1.qm, "put").unwrap();
    let h = c.open_queue(remote_queue, OpenOptions::output()).unwrap();
    let limit = (64 << 20) / size.max(1); // at most ~64 MB waiting on the transmission queue
    let body = Bytes::from(payload(size, 0));
    let start = Instant::now();
    let base = got.load(Ordering::Relaxed);
    while start.elapsed() < d {
        for _ in 0..16 {
            c.put(h, Message::new(body.clone()), &PutOptions::default())
                .unwrap();
        }
        let waited = Instant::now();
        while p.qm1.qm.queue_status(xmitq).unwrap().depth > limit {
            assert!(
                waited.elapsed() < Duration::from_secs(60),
                "{xmitq} stays full: {:?}",
                p.qm1.qm.channel_statuses()
            );
            std::thread::sleep(Duration::from_micros(200));
        }
    }
    let rate = (got.load(Ordering::Relaxed) - base) as f64 / start.elapsed().as_secs_f64();
    // Drain what is still on its way before the next row.
    let waited = Instant::now();
    while p.qm1.qm.queue_status(xmitq).unwrap().depth > 0
        || p.qm2.qm.queue_status("APP.IN").unwrap().depth > 0
    {
        assert!(
            waited.elapsed() < Duration::from_secs(60),
            "{xmitq} does not drain: {:?}",
            p.qm1.qm.channel_statuses()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    done.store(true, Ordering::Release);
    getter.join().unwrap();
    rate
}

fn main() {
    let args = BenchArgs::from_env();
    let d = args.duration();
    let dir = std::env::temp_dir().join(format!("ferry-bench-channels-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let p = pair(&dir);
    println!(
        "# FerryMQ channel throughput, TLS 1.3 beside plain TCP: {} run(s) of {:.1} s, medians; non-persistent, one putter on QM1, one getter on QM2, both in process",
        args.runs, args.secs
    );
    let mut rows: Vec<(String, Vec<f64>)> = Vec::new();
    let mut record = |name: String, v: f64| match rows.iter_mut().find(|r| r.0 == name) {
        Some(r) => r.1.push(v),
        None => rows.push((name, vec![v])),
    };
    for _ in 0..args.runs {
        let (c, s) = sock_pair(true, &dir).unwrap();
        record(
            "raw tcp streaming 2 KB (msg/s)".into(),
            streaming(c, s, d).unwrap(),
        );
        for (size, label) in [(2048usize, "2 KB"), (200 * 1024, "200 KB")] {
            for (kind, q, xq) in [
                ("plain tcp", "APP.PLAIN", "XQ.PLAIN"),
                ("tls 1.3", "APP.TLS", "XQ.TLS"),
            ] {
                let rate = through(&p, q, xq, size, d);
                record(format!("channel {label}, {kind} (msg/s)"), rate);
                record(
                    format!("channel {label}, {kind} (MB/s)"),
                    rate * size as f64 / 1e6,
                );
            }
        }
    }
    for (name, v) in &rows {
        println!(
            "{name:<40} {:>12}   runs {:?}",
            fmt_rate(median(v)),
            v.iter().map(|x| fmt_rate(*x)).collect::<Vec<_>>()
        );
    }
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
