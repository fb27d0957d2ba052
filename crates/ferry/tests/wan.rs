//! Channels across an emulated wide-area link: two queue managers on two "hosts" (network
//! namespaces) joined by `ferry perf link` (ferry-perf's `linkem`: a TUN bridge applying seed
//! 004's delay and loss each way), the channel over mutual TLS as any non-loopback one.
//!
//! Making namespaces needs root (CAP_NET_ADMIN), iproute2 and /dev/net/tun, so the tests are
//! ignored by a plain `cargo test`; `.ci/run` runs them with `--ignored` (and fails where the
//! machine does not allow them).

mod common;

use std::path::Path;
use std::time::{Duration, Instant};

use common::nsqm::Qm;
use ferry_client::{Connection, GetOptions, Message, OpenOptions, Persistence, PutOptions, Reason};
use ferry_perf::linkem::{Emulator, Hosts};

const BIN: &str = env!("CARGO_BIN_EXE_ferry");
/// QM2's TLS port on its host.
const PORT: u16 = 15415;

/// QM1 on host 0 sending to QM2 on host 1 over `hosts`' link (TLS both ways, client
/// certificates required), the channel QM1.TO.QM2 and the remote queue APP.FAR → APP.IN.
/// `congctl` `quic` is TRPTYPE(QUIC) with BBR (QM2 listens for QUIC on its TLS port number).
fn two_hosts(hosts: &Hosts, home: &Path, congctl: &str) -> (Qm, Qm) {
    two_hosts_listening(hosts, home, congctl, &hosts.addr[1])
}

/// [`two_hosts`] with QM2 listening on `listen` (an address of host 1, or 0.0.0.0).
fn two_hosts_listening(hosts: &Hosts, home: &Path, congctl: &str, listen: &str) -> (Qm, Qm) {
    two_hosts_setting(hosts, home, (congctl, listen), &[])
}

/// [`two_hosts_listening`] with QM1 started with `qm1_sets` too.
fn two_hosts_setting(
    hosts: &Hosts,
    home: &Path,
    (congctl, listen): (&str, &str),
    qm1_sets: &[&str],
) -> (Qm, Qm) {
    let port = PORT;
    let (trptype, congctl) = match congctl {
        "quic" => ("QUIC", "bbr"),
        cc => ("TCP", cc),
    };
    let (qm1, qm2) = common::nsqm::tls_pair_setting(
        [hosts.ns[0].as_str(), hosts.ns[1].as_str()],
        [hosts.addr[0].as_str(), hosts.addr[1].as_str()],
        home,
        (listen, port),
        qm1_sets,
    );
    qm2.admin(
        "DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(RCVR) SSLCIPH(ANY_TLS13) SSLPEER('CN=qm1')
         DEFINE QLOCAL(APP.IN) MAXDEPTH(100000)",
    );
    qm1.admin(&format!(
        "DEFINE QLOCAL(QM2) USAGE(XMITQ) MAXDEPTH(100000)
         DEFINE CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('{}({port})') XMITQ(QM2) SSLCIPH(ANY_TLS13) SSLPEER('CN=qm2') SHORTTMR(1) CONGCTL({congctl}) TRPTYPE({trptype})
         DEFINE QREMOTE(APP.FAR) RNAME(APP.IN) RQMNAME(QM2)",
        hosts.addr[1]
    ));
    (qm1, qm2)
}

fn scratch(tag: &str) -> std::path::PathBuf {
    let home = std::env::temp_dir().join(format!("ferry-it-wan-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// Puts `n` persistent 2 KB messages numbered from `from` to APP.FAR on `qm1`.
fn put_numbered(qm1: &Qm, from: u32, n: u32) {
    put_numbered_as(qm1, from, n, Persistence::Persistent);
}

/// [`put_numbered`] with persistence `p`.
fn put_numbered_as(qm1: &Qm, from: u32, n: u32, p: Persistence) {
    let mut c = Connection::connect(&qm1.unix(), "wan-putter").unwrap();
    for i in from..from + n {
        let mut body = vec![0u8; 2048];
        body[..4].copy_from_slice(&i.to_le_bytes());
        c.put1(
            "APP.FAR",
            Message::new(body).with_persistence(p),
            &PutOptions::default(),
        )
        .unwrap();
    }
    c.disconnect().unwrap();
}

/// Gets `n` messages from APP.IN on `qm2`, checking they are 0..n in order, each once, and
/// that no more come.
fn get_exactly(qm1: &Qm, qm2: &Qm, n: u32, wait: Duration) {
    let mut c = Connection::connect(&qm2.unix(), "wan-getter").unwrap();
    let h = c.open_queue("APP.IN", OpenOptions::input()).unwrap();
    for i in 0..n {
        let g = c
            .get(h, &GetOptions::new().wait(wait))
            .unwrap_or_else(|e| panic!("message {i}: {e}\nQM1: {}\nQM2: {}", qm1.log(), qm2.log()));
        assert_eq!(&g.message.body[..4], &i.to_le_bytes(), "message {i}");
    }
    let more = c.get(h, &GetOptions::new().wait(Duration::from_secs(2)));
    assert_eq!(
        more.unwrap_err().reason,
        Reason::NoMsgAvailable,
        "a duplicate"
    );
}

/// A sender's CHSTATUS field.
fn chstatus(qm: &Qm, key: &str) -> Option<String> {
    let mut c = Connection::connect(&qm.unix(), "wan-test").unwrap();
    let r = c
        .admin(&format!("DISPLAY CHSTATUS(QM1.TO.QM2) {key}"))
        .unwrap();
    r.first()?
        .messages
        .first()?
        .fields
        .iter()
        .find(|f| f.key == key)
        .and_then(|f| f.value.clone())
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn a_channel_over_an_n3_link_delivers_exactly_once_through_a_minute_long_cut() {
    through_a_minute_long_cut("wan", "bbr");
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn a_quic_channel_over_an_n3_link_delivers_exactly_once_through_a_minute_long_cut() {
    through_a_minute_long_cut("wanq", "quic");
}

/// The transport a sender runs on, once it shows one.
fn transport(qm1: &Qm) -> String {
    common::eventually("the sender's transport", || {
        chstatus(qm1, "TRANSPORT").is_some_and(|t| !t.is_empty())
    });
    chstatus(qm1, "TRANSPORT").unwrap_or_default()
}

/// The transport `congctl` asks for: QUIC, or TLS over TCP.
fn expected_transport(congctl: &str) -> &'static str {
    if congctl == "quic" {
        "QUIC"
    } else {
        "TLS"
    }
}

fn through_a_minute_long_cut(tag: &str, congctl: &str) {
    let hosts = Hosts::new(tag).unwrap();
    let link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let home = scratch(tag);
    let (qm1, qm2) = two_hosts(&hosts, &home, congctl);
    // Short retries every second for as long as the link is gone (MQ's default would move to
    // LONGTMR after ten).
    qm1.admin("ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) SHORTRTY(999999)");
    put_numbered(&qm1, 0, 200);
    // The link's round trip is what the channel's TCP measures: 2 × 50 ms, and more.
    let began = Instant::now();
    let rtt = loop {
        let rtt: u64 = chstatus(&qm1, "TCPRTT")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        if rtt > 0 || began.elapsed() > common::DEADLINE {
            break rtt;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    assert!(
        (100_000..400_000).contains(&rtt),
        "TCPRTT {rtt} µs over a 50 ms-each-way link\nQM1: {}",
        qm1.log()
    );
    assert_eq!(
        transport(&qm1),
        expected_transport(congctl),
        "{}",
        qm1.log()
    );
    // The link drops for a minute while messages are on their way (long enough for the
    // connection's answer timeout and heartbeats to give up on it, and the sender to retry into
    // the void with a batch perhaps in doubt); restored; more put.
    link.toggle_cut();
    put_numbered(&qm1, 200, 100);
    std::thread::sleep(Duration::from_secs(60));
    link.toggle_cut();
    put_numbered(&qm1, 300, 100);
    get_exactly(&qm1, &qm2, 400, Duration::from_secs(120));
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

/// Messages on QM2's APP.IN now.
fn depth(qm2: &Qm) -> i64 {
    let mut c = Connection::connect(&qm2.unix(), "wan-depth").unwrap();
    let h = c.open_queue("APP.IN", OpenOptions::inquire()).unwrap();
    match c
        .inquire(h, &[ferry_client::Selector::CurrentDepth])
        .unwrap()
        .first()
    {
        Some(ferry_client::AttrValue::Int(d)) => *d,
        _ => 0,
    }
}

/// Either end killed (SIGKILL) while batches cross the long, lossy link, and started again:
/// every persistent message arrives once, in order — the in-doubt batch settled across the link.
#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn either_end_killed_mid_transfer_over_an_n3_link_each_message_arrives_once() {
    either_end_killed("wank", "bbr");
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn either_end_killed_mid_transfer_over_an_n3_quic_link_each_message_arrives_once() {
    either_end_killed("wankq", "quic");
}

fn either_end_killed(tag: &str, congctl: &str) {
    let hosts = Hosts::new(tag).unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let home = scratch(tag);
    let (mut qm1, mut qm2) = two_hosts(&hosts, &home, congctl);
    put_numbered(&qm1, 0, 1000);
    common::eventually("the first batches to arrive", || depth(&qm2) >= 100);
    assert_eq!(
        transport(&qm1),
        expected_transport(congctl),
        "{}",
        qm1.log()
    );
    qm2.kill();
    qm2.restart();
    put_numbered(&qm1, 1000, 1000);
    let began = Instant::now();
    while depth(&qm2) < 1100 {
        assert!(
            began.elapsed() < common::DEADLINE,
            "more batches did not arrive after QM2's restart\nQM1: {}\nQM2: {}",
            qm1.log(),
            qm2.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    qm1.kill();
    qm1.restart();
    get_exactly(&qm1, &qm2, 2000, Duration::from_secs(60));
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

/// The far host's address changes mid-transfer (a path change): the sender is moved to the
/// new address (ALTER CONNAME, then STOP and START) while batches are on their way; every
/// persistent message arrives once, in order, and the channel runs on the new path.
#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn a_sender_moved_to_the_receivers_new_address_mid_transfer_delivers_each_message_once() {
    moved_mid_transfer("wanm", "bbr");
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn a_quic_sender_moved_to_the_receivers_new_address_mid_transfer_delivers_each_message_once() {
    moved_mid_transfer("wanmq", "quic");
}

fn moved_mid_transfer(tag: &str, congctl: &str) {
    let hosts = Hosts::new(tag).unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let moved = hosts.add_far_address().unwrap();
    let home = scratch(tag);
    let (qm1, qm2) = two_hosts_listening(&hosts, &home, congctl, "0.0.0.0");
    put_numbered(&qm1, 0, 1000);
    common::eventually("the first batches to arrive", || depth(&qm2) >= 100);
    qm1.admin(&format!(
        "ALTER CHANNEL(QM1.TO.QM2) CHLTYPE(SDR) CONNAME('{moved}({PORT})')
         STOP CHANNEL(QM1.TO.QM2)
         START CHANNEL(QM1.TO.QM2)"
    ));
    put_numbered(&qm1, 1000, 1000);
    get_exactly(&qm1, &qm2, 2000, Duration::from_secs(60));
    let conname = chstatus(&qm1, "CONNAME").unwrap_or_default();
    assert!(
        conname.starts_with(&moved),
        "the channel runs on the new path: {conname}"
    );
    assert_eq!(
        transport(&qm1),
        expected_transport(congctl),
        "{}",
        qm1.log()
    );
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

/// Persistent messages go in recoverable batches the sender does not wait for one by one: a
/// window of them unconfirmed, each its own unit of work, so the 100 ms round trip does not
/// cap the channel at one batch (BATCHSZ 50) a round trip — 500 messages a second. 4,000
/// waiting on the transmission queue cross at more than twice that, each once, in order.
#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn recoverable_batches_are_pipelined_over_an_n3_link() {
    pipelined_recoverable_batches("wanr", "bbr");
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn recoverable_batches_are_pipelined_over_an_n3_quic_link() {
    pipelined_recoverable_batches("wanrq", "quic");
}

fn pipelined_recoverable_batches(tag: &str, congctl: &str) {
    let hosts = Hosts::new(tag).unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let home = scratch(tag);
    let (qm1, qm2) = two_hosts(&hosts, &home, congctl);
    // The channel binds on a first message, then stops while 4,000 more are put.
    put_numbered(&qm1, 0, 1);
    common::eventually("the first message to arrive", || depth(&qm2) >= 1);
    qm1.admin("STOP CHANNEL(QM1.TO.QM2)");
    put_numbered(&qm1, 1, 4000);
    let began = Instant::now();
    qm1.admin("START CHANNEL(QM1.TO.QM2)");
    common::eventually("the messages to arrive", || depth(&qm2) >= 4001);
    let took = began.elapsed();
    let rate = 4000.0 / took.as_secs_f64();
    eprintln!("{congctl} over N3: 4,000 persistent 2 KB messages in {took:?} = {rate:.0} msg/s");
    assert!(
        rate > 1000.0,
        "{rate:.0} msg/s: the window of recoverable batches is not at work (one batch of 50 a 100 ms round trip is 500/s)\nQM1: {}",
        qm1.log()
    );
    get_exactly(&qm1, &qm2, 4001, Duration::from_secs(60));
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

/// Non-persistent messages (NPMSPEED(FAST)) go in batches the sender does not wait for, many
/// in flight over the long link: every one arrives, in order, once.
#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn pipelined_fast_batches_arrive_in_order_over_an_n3_link() {
    pipelined_fast_batches("wanf", "bbr");
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn pipelined_fast_batches_arrive_in_order_over_an_n3_quic_link() {
    pipelined_fast_batches("wanfq", "quic");
}

fn pipelined_fast_batches(tag: &str, congctl: &str) {
    let hosts = Hosts::new(tag).unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let home = scratch(tag);
    let (qm1, qm2) = two_hosts(&hosts, &home, congctl);
    put_numbered_as(&qm1, 0, 5000, Persistence::NotPersistent);
    get_exactly(&qm1, &qm2, 5000, Duration::from_secs(60));
    assert_eq!(
        transport(&qm1),
        expected_transport(congctl),
        "{}",
        qm1.log()
    );
    assert!(
        !qm1.log().contains("were lost with the connection"),
        "{}",
        qm1.log()
    );
    // The link's 0.5 % loss each way shows in the sender's status as a rate (segments or
    // packets retransmitted of those sent), not only as a count.
    let loss: f64 = chstatus(&qm1, "LOSSRATE").unwrap().parse().unwrap();
    let retrans: u64 = chstatus(&qm1, "RETRANS").unwrap().parse().unwrap();
    assert!(
        loss > 0.0 && loss < 20.0 && retrans > 0,
        "LOSSRATE({loss}) RETRANS({retrans}) over N3"
    );
    // Taken as the last batch went, with the batches before it still crossing the 100 ms
    // round trip: bytes in flight (TCP_INFO's, or the QUIC congestion controller's count).
    let in_flight: u64 = chstatus(&qm1, "INFLIGHT").unwrap().parse().unwrap();
    assert!(
        in_flight > 0 && in_flight < 1 << 30,
        "INFLIGHT({in_flight}) over N3"
    );
    eprintln!("{congctl} over N3: LOSSRATE({loss}) RETRANS({retrans}) INFLIGHT({in_flight})");
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

/// Destination queues the lanes test spreads its messages over.
const SPREAD: u32 = 8;

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn fast_batches_for_several_queues_go_on_lanes_over_an_n3_quic_link() {
    fast_batches_over_lanes("wanl", "quic", 16);
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn fast_batches_from_several_putters_to_one_queue_keep_each_putters_order_over_quic_lanes() {
    let hosts = Hosts::new("wanlp").unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let home = scratch("wanlp");
    let (qm1, qm2) = two_hosts_setting(&hosts, &home, ("quic", &hosts.addr[1]), &[]);
    // APP.FAR on QM1 names APP.IN on QM2 (`two_hosts_setting`).
    let per_putter: u32 = 400;
    let mut putters: Vec<Connection> = (0..SPREAD)
        .map(|k| Connection::connect(&qm1.unix(), &format!("wan-putter-{k}")).unwrap())
        .collect();
    for i in 0..per_putter {
        for (k, c) in putters.iter_mut().enumerate() {
            let mut body = vec![0u8; 2048];
            body[..4].copy_from_slice(&(k as u32).to_le_bytes());
            body[4..8].copy_from_slice(&i.to_le_bytes());
            let m = Message::new(body).with_persistence(Persistence::NotPersistent);
            c.put1("APP.FAR", m, &PutOptions::default()).unwrap();
        }
    }
    for c in putters {
        c.disconnect().unwrap();
    }
    let mut c = Connection::connect(&qm2.unix(), "wan-getter").unwrap();
    let h = c.open_queue("APP.IN", OpenOptions::input()).unwrap();
    // Each putter's messages arrive once, in the order it put them; putters interleave as
    // their lanes deliver.
    let mut next = vec![0u32; SPREAD as usize];
    for n in 0..per_putter * SPREAD {
        let g = c
            .get(h, &GetOptions::new().wait(Duration::from_secs(60)))
            .unwrap_or_else(|e| panic!("message {n}: {e}\nQM2: {}", qm2.log()));
        let field = |at: usize| u32::from_le_bytes(g.message.body[at..at + 4].try_into().unwrap());
        let (k, i) = (field(0) as usize, field(4));
        assert_eq!(
            i, next[k],
            "putter {k}'s message {i} came when {} was due",
            next[k]
        );
        next[k] += 1;
    }
    let more = c.get(h, &GetOptions::new().wait(Duration::from_millis(200)));
    assert_eq!(
        more.unwrap_err().reason,
        Reason::NoMsgAvailable,
        "a duplicate"
    );
    let shown: u32 = chstatus(&qm1, "STREAMS").unwrap().parse().unwrap();
    assert_eq!(shown, 16, "STREAMS");
    let opened = qm2.log().matches("QUIC lane opened").count();
    assert!(opened >= 1, "the receiver opened no lane:\n{}", qm2.log());
    eprintln!("{SPREAD} putters to one queue over N3: {opened} lanes opened at the receiver");
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn fast_batches_for_several_queues_keep_one_stream_over_an_n3_tcp_link() {
    fast_batches_over_lanes("wanlt", "bbr", 1);
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn fast_batches_keep_one_quic_stream_with_quic_lanes_1() {
    fast_batches_over_lanes("wanl1", "quic", 1);
}

/// Non-persistent messages for [`SPREAD`] queues, interleaved, over N3: each queue gets its
/// own in order, each once; over QUIC the sender spreads its fast batches over `streams`
/// streams (STREAMS in its status) and the receiver opened lanes for them. `streams` 1 over
/// QUIC is QM1 with `[server] quic_lanes = 1`.
fn fast_batches_over_lanes(tag: &str, congctl: &str, streams: u32) {
    let hosts = Hosts::new(tag).unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let home = scratch(tag);
    let sets: &[&str] = match (congctl, streams) {
        ("quic", 1) => &["server.quic_lanes=1"],
        _ => &[],
    };
    let (qm1, qm2) = two_hosts_setting(&hosts, &home, (congctl, &hosts.addr[1]), sets);
    for k in 0..SPREAD {
        qm2.admin(&format!("DEFINE QLOCAL(APP.IN.{k}) MAXDEPTH(100000)"));
        qm1.admin(&format!(
            "DEFINE QREMOTE(APP.FAR.{k}) RNAME(APP.IN.{k}) RQMNAME(QM2)"
        ));
    }
    let per_queue: u32 = 500;
    let mut c = Connection::connect(&qm1.unix(), "wan-putter").unwrap();
    for i in 0..per_queue {
        for k in 0..SPREAD {
            let mut body = vec![0u8; 2048];
            body[..4].copy_from_slice(&i.to_le_bytes());
            let m = Message::new(body).with_persistence(Persistence::NotPersistent);
            c.put1(&format!("APP.FAR.{k}"), m, &PutOptions::default())
                .unwrap();
        }
    }
    c.disconnect().unwrap();
    let mut c = Connection::connect(&qm2.unix(), "wan-getter").unwrap();
    for k in 0..SPREAD {
        let h = c
            .open_queue(&format!("APP.IN.{k}"), OpenOptions::input())
            .unwrap();
        for i in 0..per_queue {
            let g = c
                .get(h, &GetOptions::new().wait(Duration::from_secs(60)))
                .unwrap_or_else(|e| {
                    panic!(
                        "APP.IN.{k} message {i}: {e}\nQM1: {}\nQM2: {}",
                        qm1.log(),
                        qm2.log()
                    )
                });
            assert_eq!(
                &g.message.body[..4],
                &i.to_le_bytes(),
                "APP.IN.{k} message {i}"
            );
        }
        let more = c.get(h, &GetOptions::new().wait(Duration::from_millis(200)));
        assert_eq!(
            more.unwrap_err().reason,
            Reason::NoMsgAvailable,
            "a duplicate on APP.IN.{k}"
        );
    }
    assert_eq!(
        transport(&qm1),
        expected_transport(congctl),
        "{}",
        qm1.log()
    );
    let shown: u32 = chstatus(&qm1, "STREAMS").unwrap().parse().unwrap();
    assert_eq!(shown, streams, "STREAMS");
    let opened = qm2.log().matches("QUIC lane opened").count();
    match streams {
        1 => assert_eq!(opened, 0, "{}", qm2.log()),
        _ => assert!(opened >= 1, "the receiver opened no lane:\n{}", qm2.log()),
    }
    assert!(
        !qm1.log().contains("were lost with the connection"),
        "{}",
        qm1.log()
    );
    eprintln!("{congctl} over N3: STREAMS({shown}), {opened} lanes opened at the receiver");
    drop((qm1, qm2));
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn the_emulated_links_round_trip_and_loss_are_the_profiles() {
    // iperf3 between the hosts: the profile's loss shows as retransmissions, its delay as the
    // sender's smoothed round trip (iperf3 reports both).
    let hosts = Hosts::new("wanp").unwrap();
    let _link = Emulator::start(Path::new(BIN), &hosts, "n3").unwrap();
    let mut server = hosts
        .command(1, "iperf3")
        .args(["-s", "-1", "-B", &hosts.addr[1]])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let out = hosts
        .command(0, "iperf3")
        .args(["-c", &hosts.addr[1], "-t", "4", "-C", "bbr", "--json"])
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    assert!(out.status.success(), "{out:?}");
    let j: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sent = &j["end"]["streams"][0]["sender"];
    let rtt_us = sent["mean_rtt"].as_f64().unwrap();
    let retransmits = sent["retransmits"].as_f64().unwrap();
    let bps = j["end"]["sum_received"]["bits_per_second"]
        .as_f64()
        .unwrap();
    assert!(
        (100_000.0..300_000.0).contains(&rtt_us),
        "mean RTT {rtt_us} µs"
    );
    assert!(retransmits > 0.0, "0.5 % loss each way must show: {sent}");
    assert!(bps > 10e6, "{bps} bit/s with BBR over n3");
}

#[test]
#[ignore = "needs root to make network namespaces; .ci/run runs it with --ignored"]
fn perf_wan_measures_channels_and_the_links_ceiling_in_one_run() {
    let dir = scratch("perf");
    let json = dir.join("wan.json");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = std::process::Command::new(BIN)
        .env("TMPDIR", &tmp)
        .args([
            "perf",
            "wan",
            "--profiles",
            "n1",
            "--congctl",
            "bbr,quic",
            "--sizes",
            "2KB",
            "--channels",
            "2",
            "--compress",
            "NONE",
            "--requesters",
            "4",
            "-d",
            "1s",
            "--warmup",
            "1s",
            "--json",
        ])
        .arg(&json)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let ceiling = &r["ceilings"][0];
    assert_eq!(ceiling["profile"], "n1", "{r}");
    assert!(ceiling["mbit_per_s"].as_f64().unwrap() > 1.0, "{r}");
    let cell = &r["cells"][0];
    assert_eq!(
        (cell["size"].as_u64(), cell["channels"].as_u64()),
        (Some(2048), Some(2))
    );
    assert!(cell["msgs_per_s"].as_f64().unwrap() > 0.0, "{r}");
    let quic = &r["cells"][1];
    assert_eq!(quic["congctl"], "quic", "{r}");
    assert!(quic["msgs_per_s"].as_f64().unwrap() > 0.0, "{r}");
    // Request/reply across the link, for each transport: bounded by 4 requesters over the
    // 50 ms round trip (80 a second), and close to it (a sender once made each request wait
    // a round trip more for earlier answers: 38 a second).
    for rr in r["rr"].as_array().unwrap() {
        let (rate, bound) = (
            rr["round_trips_per_s"].as_f64().unwrap(),
            rr["bound_per_s"].as_f64().unwrap(),
        );
        assert_eq!(bound, 80.0, "{r}");
        assert!(rate > 0.7 * bound && rate <= bound * 1.05, "{r}");
    }
    assert_eq!(r["rr"].as_array().unwrap().len(), 2, "{r}");
    // Nothing left behind: the queue managers' directory and the namespaces are gone.
    let left: Vec<_> = std::fs::read_dir(&tmp).unwrap().flatten().collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
