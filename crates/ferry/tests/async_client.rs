//! The async API against the real server: the same verbs as the blocking one, waits that
//! suspend tasks rather than threads, and several conversations sharing one socket (SHARECNV).

use std::time::{Duration, Instant};

use ferry_client::{
    AsyncConnection, ClientOptions, CorrelId, GetOptions, Message, MessageType, OpenOptions,
    PutOptions, Reason,
};

mod common;
use common::Server;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

#[test]
fn the_async_api_speaks_every_mode() {
    let server = Server::start("modes", &[]);
    runtime().block_on(async {
        for ep in [server.unix.clone(), server.tcp.clone()] {
            let opts = ClientOptions {
                compression: vec![ferry_client::Compression::ZlibFast],
                ..Default::default()
            };
            let mut c = AsyncConnection::connect(&ep, "async", &opts).await.unwrap();
            let q = c
                .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
                .await
                .unwrap();
            c.put(q, Message::text("one"), &PutOptions::default())
                .await
                .unwrap();
            c.put(
                q,
                Message::new(vec![b'x'; 4000]),
                &PutOptions::default().with_async(),
            )
            .await
            .unwrap();
            assert_eq!(c.async_put_status().await.unwrap().succeeded, 1);
            assert_eq!(
                &c.get(q, &GetOptions::new()).await.unwrap().message.body[..],
                b"one"
            );
            assert_eq!(
                c.get(q, &GetOptions::new()).await.unwrap().data_length,
                4000
            );
            let t = Instant::now();
            let e = c
                .get(q, &GetOptions::new().wait(Duration::from_millis(200)))
                .await
                .unwrap_err();
            assert_eq!(e.reason, Reason::NoMsgAvailable);
            assert!(t.elapsed() >= Duration::from_millis(150));
            // Read-ahead.
            let ra = c
                .open_queue(
                    "DEV.QUEUE.2",
                    OpenOptions {
                        read_ahead: Some(true),
                        ..OpenOptions::input()
                    },
                )
                .await
                .unwrap();
            for i in 0..50u8 {
                c.put1("DEV.QUEUE.2", Message::new(vec![i]), &PutOptions::default())
                    .await
                    .unwrap();
            }
            for i in 0..50u8 {
                let g = c
                    .get(ra, &GetOptions::new().wait(Duration::from_secs(5)))
                    .await
                    .unwrap();
                assert_eq!(&g.message.body[..], &[i]);
            }
            c.disconnect().await.unwrap();
        }
    });
}

#[test]
fn an_embedded_async_wait_suspends_the_task_not_the_thread() {
    let qm = ferry_client::QueueManager::with_name("QMA").unwrap();
    runtime().block_on(async {
        let mut getter = AsyncConnection::embedded(&qm, "getter").unwrap();
        let mut putter = AsyncConnection::embedded(&qm, "putter").unwrap();
        let gq = getter
            .open_queue("DEV.QUEUE.1", OpenOptions::input())
            .await
            .unwrap();
        let pq = putter
            .open_queue("DEV.QUEUE.1", OpenOptions::output())
            .await
            .unwrap();
        // Both run on this one thread: the put can only happen if the get's wait yields.
        let get = async {
            getter
                .get(gq, &GetOptions::new().wait(Duration::from_secs(5)))
                .await
        };
        let put = async {
            tokio::time::sleep(Duration::from_millis(50)).await;
            putter
                .put(pq, Message::text("hi"), &PutOptions::default())
                .await
        };
        let (got, put) = tokio::join!(get, put);
        put.unwrap();
        assert_eq!(&got.unwrap().message.body[..], b"hi");
    });
}

#[test]
fn shared_conversations_have_their_own_units_of_work_and_do_not_block_each_other() {
    let server = Server::start("sharecnv", &[]);
    runtime().block_on(async {
        let opts = ClientOptions::default();
        let mut a = AsyncConnection::connect(&server.tcp, "conv-a", &opts)
            .await
            .unwrap();
        let mut b = a.share("conv-b", &opts).await.unwrap();
        let mut waiter = a.share("conv-waiter", &opts).await.unwrap();
        let qa = a
            .open_queue("DEV.QUEUE.3", OpenOptions::output().with_input())
            .await
            .unwrap();
        let qb = b
            .open_queue("DEV.QUEUE.3", OpenOptions::output().with_input())
            .await
            .unwrap();
        let qw = waiter
            .open_queue("DEV.QUEUE.1", OpenOptions::input())
            .await
            .unwrap();
        // A long wait on one conversation...
        let wait = tokio::spawn(async move {
            let r = waiter
                .get(qw, &GetOptions::new().wait(Duration::from_millis(800)))
                .await;
            (r.map(|_| ()).unwrap_err().reason, waiter)
        });
        // ...while the others work, each with its own unit of work.
        let t = Instant::now();
        a.put(qa, Message::text("from a"), &PutOptions::syncpoint())
            .await
            .unwrap();
        b.put(qb, Message::text("from b"), &PutOptions::syncpoint())
            .await
            .unwrap();
        a.commit().await.unwrap();
        b.backout().await.unwrap();
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "the waiting get held the socket up"
        );
        let got = b.get(qb, &GetOptions::new()).await.unwrap();
        assert_eq!(&got.message.body[..], b"from a");
        assert_eq!(
            b.get(qb, &GetOptions::new()).await.unwrap_err().reason,
            Reason::NoMsgAvailable
        );
        let (reason, waiter) = wait.await.unwrap();
        assert_eq!(reason, Reason::NoMsgAvailable);
        // Dropping a shared conversation backs its unit of work out; the others carry on.
        a.put(qa, Message::text("dropped"), &PutOptions::syncpoint())
            .await
            .unwrap();
        drop(a);
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert_eq!(
            b.get(qb, &GetOptions::new()).await.unwrap_err().reason,
            Reason::NoMsgAvailable
        );
        drop(waiter);
        // A shared conversation that disconnects leaves its socket to the others.
        let c = b.share("conv-c", &opts).await.unwrap();
        c.disconnect().await.unwrap();
        b.put(qb, Message::text("still fine"), &PutOptions::default())
            .await
            .unwrap();
        assert_eq!(
            &b.get(qb, &GetOptions::new()).await.unwrap().message.body[..],
            b"still fine"
        );
        b.disconnect().await.unwrap();
    });
}

#[test]
fn many_async_requesters_share_one_thread() {
    let server = Server::start("rr", &[]);
    runtime().block_on(async {
        let opts = ClientOptions::default();
        let mut responder = AsyncConnection::connect(&server.tcp, "responder", &opts)
            .await
            .unwrap();
        let rq = responder
            .open_queue("DEV.QUEUE.1", OpenOptions::input())
            .await
            .unwrap();
        let serve = tokio::spawn(async move {
            for _ in 0..(16 * 20) {
                let req = responder
                    .get(rq, &GetOptions::new().wait(Duration::from_secs(10)))
                    .await
                    .unwrap();
                let d = &req.message.descriptor;
                let mut reply = Message::new(req.message.body.clone());
                reply.descriptor.correl_id = CorrelId::from(d.msg_id);
                reply.descriptor.message_type = MessageType::Reply;
                responder
                    .put1(d.reply_to_queue.as_str(), reply, &PutOptions::default())
                    .await
                    .unwrap();
            }
        });
        let mut tasks = Vec::new();
        for r in 0..16u32 {
            let ep = server.unix.clone();
            tasks.push(tokio::spawn(async move {
                let mut c = AsyncConnection::connect(&ep, "requester", &ClientOptions::default())
                    .await
                    .unwrap();
                let q = c
                    .open_queue("DEV.QUEUE.1", OpenOptions::output())
                    .await
                    .unwrap();
                let reply = c
                    .open_queue("DEV.QUEUE.2", OpenOptions::input())
                    .await
                    .unwrap();
                let reply_to = ferry_client::object_name("DEV.QUEUE.2").unwrap();
                for i in 0..20u32 {
                    let body = (r * 1000 + i).to_le_bytes().to_vec();
                    let out = c
                        .put(
                            q,
                            Message::new(body.clone()).with_reply_to(reply_to),
                            &PutOptions::default(),
                        )
                        .await
                        .unwrap();
                    let got = c
                        .get(
                            reply,
                            &GetOptions::new()
                                .wait(Duration::from_secs(10))
                                .correl_id(CorrelId::from(out.msg_id)),
                        )
                        .await
                        .unwrap();
                    assert_eq!(&got.message.body[..], &body[..]);
                }
                c.disconnect().await.unwrap();
            }));
        }
        for t in tasks {
            t.await.unwrap();
        }
        serve.await.unwrap();
    });
}

#[test]
fn async_connections_reconnect_together_and_report_what_was_lost() {
    use ferry_client::ReconnectOptions;
    let mut server = Server::start("async-reconnect", &[]);
    let unix = server.unix.clone();
    let opts = ClientOptions {
        reconnect: Some(ReconnectOptions {
            timeout: Duration::from_secs(20),
            initial_backoff: Duration::from_millis(20),
            max_backoff: Duration::from_millis(200),
        }),
        ..Default::default()
    };
    let rt = runtime();
    let (mut a, mut b, qa, qb, reply, reply_name) = rt.block_on(async {
        let mut a = AsyncConnection::connect(&unix, "survivor-a", &opts)
            .await
            .unwrap();
        // A second conversation on the same socket (SHARECNV): both must come back.
        let mut b = a.share("survivor-b", &opts).await.unwrap();
        let qa = a
            .open_queue("DEV.QUEUE.1", OpenOptions::output().with_input())
            .await
            .unwrap();
        let qb = b
            .open_queue("DEV.QUEUE.2", OpenOptions::output().with_input())
            .await
            .unwrap();
        let reply = a
            .open_dynamic(
                "SYSTEM.DEFAULT.MODEL.QUEUE",
                "REPLY.*",
                OpenOptions::input(),
            )
            .await
            .unwrap();
        let reply_name = a.queue_name(reply).unwrap();
        a.put(
            qa,
            Message::text("in a unit of work"),
            &PutOptions::syncpoint(),
        )
        .await
        .unwrap();
        for _ in 0..5 {
            b.put(
                qb,
                Message::text("async"),
                &PutOptions::default().with_async(),
            )
            .await
            .unwrap();
        }
        // Give the async puts time to reach the server, so that only their outcome (not
        // whether they arrived) is lost with the connection.
        tokio::time::sleep(Duration::from_millis(100)).await;
        (a, b, qa, qb, reply, reply_name)
    });

    // The queue manager dies and comes back (same home, same local socket).
    server.restart(&[]);

    rt.block_on(async {
        // The call that meets the broken connection says the unit of work was lost...
        let e = a
            .put(qa, Message::text("x"), &PutOptions::default())
            .await
            .unwrap_err();
        assert_eq!(e.reason, Reason::BackedOut, "{e}");
        assert_eq!(a.reconnections(), 1);
        // ...and so does the commit of that unit of work, rather than pretending it succeeded.
        assert_eq!(a.commit().await.unwrap_err().reason, Reason::BackedOut);
        a.put(qa, Message::text("after"), &PutOptions::default())
            .await
            .unwrap();
        assert_eq!(
            &a.get(qa, &GetOptions::new()).await.unwrap().message.body[..],
            b"after"
        );
        // The dynamic reply queue was recreated under the same name.
        assert_eq!(a.queue_name(reply).unwrap(), reply_name);
        a.put1(
            reply_name.as_str(),
            Message::text("reply"),
            &PutOptions::default(),
        )
        .await
        .unwrap();
        assert_eq!(
            &a.get(reply, &GetOptions::new()).await.unwrap().message.body[..],
            b"reply"
        );

        // The shared conversation had no unit of work: its interrupted call may or may not
        // have happened, and its unconfirmed async puts are reported as failed.
        let e = b.get(qb, &GetOptions::new()).await.unwrap_err();
        assert_eq!(e.reason, Reason::CallInterrupted, "{e}");
        assert_eq!(b.reconnections(), 1);
        let s = b.async_put_status().await.unwrap();
        assert_eq!(s.failed, 5, "{s:?}");
        assert_eq!(
            s.first_failure.map(|e| e.reason),
            Some(Reason::CallInterrupted)
        );
        b.put(qb, Message::text("b after"), &PutOptions::default())
            .await
            .unwrap();
        assert_eq!(
            &b.get(qb, &GetOptions::new()).await.unwrap().message.body[..],
            b"b after"
        );
        a.disconnect().await.unwrap();
        b.disconnect().await.unwrap();
    });
}

#[test]
fn async_reconnection_gives_up_with_a_clear_reason() {
    use ferry_client::ReconnectOptions;
    let mut server = Server::start("async-giveup", &[]);
    let opts = ClientOptions {
        reconnect: Some(ReconnectOptions {
            timeout: Duration::from_millis(600),
            initial_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_millis(100),
        }),
        ..Default::default()
    };
    runtime().block_on(async {
        let mut c = AsyncConnection::connect(&server.unix, "hopeful", &opts)
            .await
            .unwrap();
        let q = c
            .open_queue("DEV.QUEUE.1", OpenOptions::output())
            .await
            .unwrap();
        let _ = server.child.kill();
        let _ = server.child.wait();
        let t = Instant::now();
        let e = c
            .put(q, Message::text("x"), &PutOptions::default())
            .await
            .unwrap_err();
        assert_eq!(e.reason, Reason::ReconnectFailed, "{e}");
        assert!(e.detail.contains("could not be re-established"), "{e}");
        assert!(t.elapsed() < Duration::from_secs(5));
    });
}

#[test]
fn large_bodies_arrive_intact_sync_and_async() {
    // Bodies from 5 bytes to 70 KB, sync and async puts and MQPUT1: each arrives byte for byte.
    let server = Server::start("async-bodies", &[]);
    runtime().block_on(async {
        for ep in [server.unix.clone(), server.tcp.clone()] {
            let mut c = AsyncConnection::connect(&ep, "bodies", &ClientOptions::default())
                .await
                .unwrap();
            let q = c
                .open_queue("DEV.QUEUE.2", OpenOptions::output().with_input())
                .await
                .unwrap();
            let bodies: Vec<Vec<u8>> = [1023usize, 1024, 2048, 70_000, 5]
                .iter()
                .enumerate()
                .map(|(k, len)| (0..*len).map(|i| ((i * 7 + k) % 253) as u8).collect())
                .collect();
            for (k, b) in bodies.iter().enumerate() {
                let opts = if k % 2 == 0 {
                    PutOptions::default().with_async()
                } else {
                    PutOptions::default()
                };
                c.put(q, Message::new(b.clone()), &opts).await.unwrap();
            }
            c.put1(
                "DEV.QUEUE.2",
                Message::new(bodies[2].clone()),
                &PutOptions::default(),
            )
            .await
            .unwrap();
            assert_eq!(c.async_put_status().await.unwrap().failed, 0);
            for b in bodies.iter().chain(std::iter::once(&bodies[2])) {
                let got = c.get(q, &GetOptions::new()).await.unwrap();
                assert_eq!(&got.message.body[..], &b[..], "{ep}");
            }
            c.disconnect().await.unwrap();
        }
    });
}

#[test]
fn the_async_api_subscribes_and_receives_publications() {
    let server = Server::start("async-sub", &[]);
    runtime().block_on(async {
        for ep in [server.unix.clone(), server.tcp.clone()] {
            let mut c = AsyncConnection::connect(&ep, "async-sub", &ClientOptions::default())
                .await
                .unwrap();
            let sd = ferry_client::SubDescriptor::managed("Async/#");
            let (q, hsub) = c.subscribe(&sd, None).await.unwrap();
            let topic = ferry_client::ObjectDescriptor::topic("Async/News");
            let t = c.open(&topic, OpenOptions::output()).await.unwrap();
            c.put(t, Message::text("fresh"), &PutOptions::default())
                .await
                .unwrap();
            let got = c.get(q, &GetOptions::new()).await.unwrap();
            assert_eq!(&got.message.body[..], b"fresh", "{ep}");
            c.close(hsub, ferry_client::CloseOptions::RemoveSub)
                .await
                .unwrap();
            c.put(t, Message::text("unheard"), &PutOptions::default())
                .await
                .unwrap();
            assert!(c.get(q, &GetOptions::new()).await.is_err(), "{ep}");
        }
    });
}

/// STOP CONN of one of a socket's shared conversations ends that conversation alone: its
/// waiting get and its next call answer MQRC_CONNECTION_BROKEN, its unit of work is backed
/// out, and the conversations sharing its socket go on.
#[test]
fn stop_conn_ends_one_shared_conversation_and_leaves_the_others() {
    let server = Server::start("sharecnv-stop", &[]);
    runtime().block_on(async {
        let opts = ClientOptions::default();
        let mut a = AsyncConnection::connect(&server.tcp, "conv-keep", &opts)
            .await
            .unwrap();
        let mut victim = a.share("conv-victim", &opts).await.unwrap();
        let qa = a
            .open_queue("DEV.QUEUE.2", OpenOptions::output().with_input())
            .await
            .unwrap();
        let qv = victim
            .open_queue("DEV.QUEUE.2", OpenOptions::output().with_input())
            .await
            .unwrap();
        victim
            .put(qv, Message::text("uncommitted"), &PutOptions::syncpoint())
            .await
            .unwrap();
        let unix = server.unix.clone();
        let admin = move |cmd: String| {
            let mut c = ferry_client::Connection::connect(&unix, "admin").unwrap();
            c.admin(&cmd).unwrap()
        };
        let listing = admin("DISPLAY CONN(*) APPLTAG".into());
        let conn = listing[0]
            .messages
            .iter()
            .find(|m| {
                m.fields
                    .iter()
                    .any(|f| f.value.as_deref() == Some("conv-victim"))
            })
            .and_then(|m| m.fields.iter().find(|f| f.key == "CONN"))
            .and_then(|f| f.value.clone())
            .expect("the victim's CONN");
        let wait = tokio::spawn(async move {
            let started = Instant::now();
            let r = victim
                .get(qv, &GetOptions::new().wait(Duration::from_secs(20)))
                .await;
            (r.map(|_| ()).unwrap_err().reason, started.elapsed(), victim)
        });
        tokio::time::sleep(Duration::from_millis(300)).await;
        let r = tokio::task::spawn_blocking(move || admin(format!("STOP CONN({conn})")))
            .await
            .unwrap();
        assert!(r[0].ok, "{r:?}");
        let (reason, took, mut victim) = wait.await.unwrap();
        assert_eq!(reason, Reason::ConnectionBroken);
        assert!(took < Duration::from_secs(10), "ended at once: {took:?}");
        let again = victim
            .put(qv, Message::text("x"), &PutOptions::default())
            .await;
        assert_eq!(again.unwrap_err().reason, Reason::ConnectionBroken);
        // The other conversation on the socket goes on; the victim's put was backed out.
        a.put(qa, Message::text("still here"), &PutOptions::default())
            .await
            .unwrap();
        let got = a.get(qa, &GetOptions::new()).await.unwrap();
        assert_eq!(&got.message.body[..], b"still here");
        assert_eq!(
            a.get(qa, &GetOptions::new()).await.unwrap_err().reason,
            Reason::NoMsgAvailable
        );
        a.disconnect().await.unwrap();
    });
}
