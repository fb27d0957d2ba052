//! `ferry perf rr --async-client`: requesters and responders as tasks of the async client on
//! one single-threaded runtime, each task its own connection, `--share-conv` of them to a
//! socket (MQ's SHARECNV) — the shape of the benches'
//! "request/reply async client" rows (`benches/benches/remote.rs`, `request_reply_async`), so
//! `ferry perf` and the benches measure the same thing.
//!
//! A requester puts a request (asynchronously with `--async-put`) to `PREFIX.REQ.k` naming
//! `PREFIX.REPLY.k`, and gets the reply by correlation id; a responder reads ahead on
//! `PREFIX.REQ.k` and put1s each reply. Syncpoint and rated runs stay with the blocking client.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferry_client::{AsyncConnection, CorrelId, GetOptions, Message, MessageType, OpenOptions};
use ferry_core::Reason;

use crate::args::WorkloadArgs;
use crate::asyncput::{first_error_of, one_thread_runtime};
use crate::stats::Recorder;
use crate::workload::{
    client_options, connect_async, fail, message, put_options, Shared, WorkerResult, PAIRS,
};

/// Refuses what only the blocking requesters do.
pub fn check(a: &WorkloadArgs) -> Result<(), String> {
    match [
        (a.syncpoint, "--syncpoint"),
        (a.rate.is_some(), "--rate"),
        (a.put1, "--put1"),
    ]
    .into_iter()
    .find(|(on, _)| *on)
    {
        Some((_, flag)) => Err(format!(
            "rr --async-client runs requesters as tasks without {flag}; drop one of the two"
        )),
        None => Ok(()),
    }
}

/// Runs `a.threads` requesters (recording into `recorders`) and `responders` responders on one
/// thread until `shared` is stopped; then the responders stop and all disconnect.
pub fn run(
    endpoint: &str,
    a: &WorkloadArgs,
    responders: usize,
    shared: Arc<Shared>,
    recorders: Vec<Arc<Recorder>>,
) -> WorkerResult {
    let rt = one_thread_runtime()?;
    let done = Arc::new(AtomicBool::new(false));
    rt.block_on(async {
        let mut convs = connections(endpoint, a, responders).await?.into_iter();
        let mut reqs_convs = connections(endpoint, a, recorders.len()).await?.into_iter();
        let mut tasks = Vec::new();
        for i in 0..responders {
            let (c, a, done) = (
                convs.next().expect("one a responder"),
                a.clone(),
                done.clone(),
            );
            tasks.push(tokio::spawn(async move {
                responder(c, &a, &done, i % PAIRS).await
            }));
        }
        let mut requesters = Vec::new();
        for (i, rec) in recorders.into_iter().enumerate() {
            let c = reqs_convs.next().expect("one a requester");
            let (a, shared) = (a.clone(), shared.clone());
            requesters.push(tokio::spawn(async move {
                requester(c, &a, &shared, &rec, i).await
            }));
        }
        let first_error = first_error_of(requesters, "requester").await;
        done.store(true, Ordering::Release);
        let later = first_error_of(tasks, "responder").await;
        first_error.or(later).map_or(Ok(()), Err)
    })
}

/// `n` connections, `--share-conv` to a socket: each group's first opens the socket and the
/// others start their conversations on it (MQ's SHARECNV). Groups connect side by side.
async fn connections(
    endpoint: &str,
    a: &WorkloadArgs,
    n: usize,
) -> Result<Vec<AsyncConnection>, String> {
    let per = (a.share_conv as usize).max(1);
    let mut groups = Vec::new();
    for start in (0..n).step_by(per) {
        let (ep, a, len) = (endpoint.to_owned(), a.clone(), per.min(n - start));
        groups.push(tokio::spawn(async move {
            let first = connect_async(&ep, &a)
                .await
                .map_err(|e| fail("connect", e))?;
            let mut group = Vec::with_capacity(len);
            for _ in 1..len {
                let c = first.share(&a.app_name, &client_options(&a)).await;
                group.push(c.map_err(|e| fail("connect a shared conversation", e))?);
            }
            group.insert(0, first);
            Ok::<_, String>(group)
        }));
    }
    let mut all = Vec::with_capacity(n);
    for g in groups {
        all.extend(
            g.await
                .map_err(|e| format!("a connecting task failed: {e}"))??,
        );
    }
    Ok(all)
}

/// One requester: a request to each pair in turn, waiting for its reply.
async fn requester(
    mut c: AsyncConnection,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut pairs = Vec::with_capacity(PAIRS);
    for k in 0..PAIRS {
        let req = format!("{}.REQ.{k}", a.prefix);
        let reply = format!("{}.REPLY.{k}", a.prefix);
        let rq = c.open_queue(&req, OpenOptions::output()).await;
        let pq = c.open_queue(&reply, OpenOptions::input()).await;
        let name = ferry_core::object_name(&reply).map_err(|e| fail("queue name", e))?;
        pairs.push((
            rq.map_err(|e| fail("open", e))?,
            pq.map_err(|e| fail("open", e))?,
            name,
        ));
    }
    let opts = put_options(a);
    let wait = GetOptions::new().wait(Duration::from_secs(30));
    let mut n = 0u64;
    while !shared.stopping() {
        let (rq, pq, reply_to) = pairs[(worker + n as usize) % PAIRS];
        let t = Instant::now();
        let mut m = message(a, n).with_reply_to(reply_to);
        m.descriptor.message_type = MessageType::Request;
        let out = c.put(rq, m, &opts).await;
        let out = out.map_err(|e| fail("put request", e))?;
        shared.put.fetch_add(1, Ordering::Relaxed);
        let got = c.get(pq, &wait.correl_id(CorrelId::from(out.msg_id))).await;
        got.map_err(|e| fail("get reply", e))?;
        shared.got.fetch_add(1, Ordering::Relaxed);
        rec.record(t.elapsed());
        n += 1;
    }
    c.disconnect().await.map_err(|e| fail("disconnect", e))
}

/// One responder on `PREFIX.REQ.k`, reading ahead, until `done`.
async fn responder(
    mut c: AsyncConnection,
    a: &WorkloadArgs,
    done: &AtomicBool,
    k: usize,
) -> WorkerResult {
    let open = OpenOptions {
        read_ahead: Some(true),
        ..OpenOptions::input()
    };
    let h = c.open_queue(&format!("{}.REQ.{k}", a.prefix), open).await;
    let h = h.map_err(|e| fail("open", e))?;
    let get = GetOptions::new().wait(Duration::from_millis(100));
    let opts = put_options(a);
    while !done.load(Ordering::Acquire) {
        match c.get(h, &get).await {
            Ok(req) => {
                let d = &req.message.descriptor;
                let mut reply = Message::new(req.message.body.clone());
                reply.descriptor.persistence = d.persistence;
                reply.descriptor.correl_id = CorrelId::from(d.msg_id);
                reply.descriptor.message_type = MessageType::Reply;
                let to = d.reply_to_queue;
                let r = c.put1(to.as_str(), reply, &opts).await;
                r.map_err(|e| fail("put reply", e))?;
            }
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(e) => return Err(fail("get request", e)),
        }
    }
    c.disconnect().await.map_err(|e| fail("disconnect", e))
}
