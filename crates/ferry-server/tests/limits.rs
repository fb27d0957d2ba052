//! Per-connection limits of the server, observed on an in-process server (the end-to-end tests
//! against the real binary live in crates/ferry/tests).

use std::time::Duration;

use ferry_client::{Connection, GetOptions, Message, OpenOptions, PutOptions, QueueManager};

#[test]
fn read_ahead_holds_back_at_the_byte_limit_and_resumes_as_messages_are_consumed() {
    let dir = std::env::temp_dir().join(format!("ferry-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let qm = QueueManager::with_name("QML").unwrap();
    let mut config = ferry_server::ServerConfig::new(&dir);
    config.tcp_listen = None;
    config.limits.max_read_ahead_bytes = 300_000;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let server = rt
        .block_on(ferry_server::Server::bind(qm.clone(), config))
        .unwrap();
    let endpoint = format!("unix:{}", server.unix_path().unwrap().display());
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let handle = rt.spawn(server.run(async move {
        let _ = stopped.await;
    }));

    let mut p = Connection::embedded(&qm, "putter").unwrap();
    let pq = p.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    for i in 0..40u8 {
        p.put(pq, Message::new(vec![i; 100_000]), &PutOptions::default())
            .unwrap();
    }
    let mut c = Connection::connect(&endpoint, "reader").unwrap();
    let q = c
        .open_queue(
            "DEV.QUEUE.1",
            OpenOptions {
                read_ahead: Some(true),
                ..OpenOptions::input()
            },
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    // At most 300 kB (three 100 kB messages) may sit in the client's buffer.
    let streamed = 40 - qm.queue_status("DEV.QUEUE.1").unwrap().available;
    assert!(
        (1..=3).contains(&streamed),
        "{streamed} messages were streamed ahead"
    );
    // Consuming resumes the stream, in order, without stalls.
    let started = std::time::Instant::now();
    for i in 0..40u8 {
        let g = c
            .get(q, &GetOptions::new().wait(Duration::from_secs(5)))
            .unwrap();
        assert_eq!(g.message.body[0], i);
    }
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the stream stalled: {:?}",
        started.elapsed()
    );
    c.disconnect().unwrap();
    let _ = stop.send(());
    rt.block_on(handle).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
