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
