//! `ferry perf put --async-client`: the putters and the getters as tasks of the async client on
//! one single-threaded runtime, each task its own connection — the shape of the benches'
//! async-client ladder (`benches/benches/remote.rs`, "async put, async client, 1 putter 2
//! getters"), so `ferry perf` and the benches measure the same thing.
//!
//! Flow control is the benches' too: a putter with getters behind it checks the queue's depth
//! every [`DEPTH_CHECK_EVERY`] puts and waits while it is above [`DEPTH_BOUND`], so the rate is
//! what flows through the queue, not how fast an empty queue fills, and no put waits out a full
//! queue (a full queue is still counted and waited out, as the blocking putters do).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ferry_client::{AsyncConnection, AttrValue, Hobj, OpenOptions, Selector};
use ferry_core::Reason;

use crate::args::{Workload, WorkloadArgs};
use crate::stats::Recorder;
use crate::workload::{
    count_async, fail, input_options, message, put_options, Shared, WorkerResult,
};

/// A putter with getters checks the depth this often (puts)...
pub const DEPTH_CHECK_EVERY: u64 = 4096;
/// ...and waits while the queue holds more than this many messages.
pub const DEPTH_BOUND: i64 = 20_000;

/// What a put run asks for, settled: `--async-put` (asynchronous work) runs as the async-client
/// ladder with read-ahead getters unless `--blocking-client` is given, or unless it also asks
/// for what only the blocking putters do (`--put1`, `--syncpoint`, `--rate`); `--async-client`
/// with one of those is refused with the reason.
pub fn settle(w: Workload, a: &WorkloadArgs) -> Result<WorkloadArgs, String> {
    let mut b = a.clone();
    if a.share_conv > 1 && w != Workload::Rr {
        return Err(format!(
            "--share-conv {} shares sockets between rr's requesters and responders; {} opens \
             a socket a worker: drop it",
            a.share_conv,
            w.name()
        ));
    }
    match w {
        Workload::Put => {}
        Workload::Publish => return Ok(b),
        Workload::Rr if a.async_client => return crate::asyncrr::check(a).map(|()| b),
        _ if a.async_client => {
            return Err(format!(
                "--async-client runs put, rr and publish; {} runs a blocking client's thread per \
                 worker (its --async-put and --read-ahead are the MQI's)",
                w.name()
            ))
        }
        _ => return Ok(b),
    }
    let blocking_only = [
        (a.put1, "--put1"),
        (a.syncpoint, "--syncpoint"),
        (a.rate.is_some(), "--rate"),
    ]
    .into_iter()
    .find(|(on, _)| *on)
    .map(|(_, flag)| flag);
    match blocking_only {
        Some(flag) if a.async_client => Err(format!(
            "put --async-client runs the putters as tasks without {flag}; drop one of the two"
        )),
        Some(_) => Ok(b),
        None => {
            if a.async_put && !a.blocking_client {
                b.async_client = true;
                b.read_ahead = true;
            }
            Ok(b)
        }
    }
}

/// Runs `a.threads` putters (recording into `recorders`) and `a.helpers` getters on one thread
/// until `shared` is stopped; then the getters drain what is left and all disconnect.
pub fn ladder(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: Arc<Shared>,
    recorders: Vec<Arc<Recorder>>,
) -> WorkerResult {
    let rt = one_thread_runtime()?;
    let done = Arc::new(AtomicBool::new(false));
    rt.block_on(async {
        let mut getters = Vec::new();
        for _ in 0..a.helpers {
            let (ep, a, shared, done) =
                (endpoint.to_owned(), a.clone(), shared.clone(), done.clone());
            getters.push(tokio::spawn(async move {
                let connect = crate::workload::connect_async(&ep, &a);
                let mut c = connect.await.map_err(|e| fail("connect", e))?;
                let h = c.open_queue(&a.queue, input_options(&a)).await;
                let h = h.map_err(|e| fail("open", e))?;
                count_async(&mut c, h, &shared, &done, "get").await?;
                c.disconnect().await.map_err(|e| fail("disconnect", e))
            }));
        }
        let mut putters = Vec::new();
        for rec in recorders {
            let (ep, a, shared) = (endpoint.to_owned(), a.clone(), shared.clone());
            putters.push(tokio::spawn(
                async move { putter(&ep, &a, &shared, &rec).await },
            ));
        }
        let first_error = first_error_of(putters, "putter").await;
        done.store(true, Ordering::Release);
        let later = first_error_of(getters, "getter").await;
        first_error.or(later).map_or(Ok(()), Err)
    })
}

/// The single-threaded runtime the async workloads' tasks share (as an async application
/// runs them).
pub(crate) fn one_thread_runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))
}

/// Awaits every task of `tasks` (each a `what`); the first error any of them ended with.
pub(crate) async fn first_error_of(
    tasks: Vec<tokio::task::JoinHandle<WorkerResult>>,
    what: &str,
) -> Option<String> {
    let mut first = None;
    for t in tasks {
        let r = t
            .await
            .unwrap_or_else(|e| Err(format!("a {what} task failed: {e}")));
        first = first.or(r.err());
    }
    first
}

/// One putter: puts until the run stops, keeping the queue's depth bounded when getters run.
async fn putter(endpoint: &str, a: &WorkloadArgs, shared: &Shared, rec: &Recorder) -> WorkerResult {
    let connect = crate::workload::connect_async(endpoint, a);
    let mut c = connect.await.map_err(|e| fail("connect", e))?;
    let h = c
        .open_queue(&a.queue, OpenOptions::output().with_inquire())
        .await
        .map_err(|e| fail("open", e))?;
    let opts = put_options(a);
    let mut n = 0u64;
    while !shared.stopping() {
        let t = Instant::now();
        match c.put(h, message(a, n), &opts).await {
            Ok(_) => {
                shared.put.fetch_add(1, Ordering::Relaxed);
                rec.record(t.elapsed());
                n += 1;
            }
            Err(e) if e.reason == Reason::QFull => {
                rec.error();
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            Err(e) => return Err(fail("put", e)),
        }
        if n.is_multiple_of(DEPTH_CHECK_EVERY) {
            if a.async_put {
                status(&mut c, shared, rec).await?;
            }
            if a.helpers > 0 {
                bound_depth(&mut c, h, shared).await?;
            }
        }
    }
    if a.async_put {
        status(&mut c, shared, rec).await?;
    }
    c.disconnect().await.map_err(|e| fail("disconnect", e))
}

/// Waits while the queue holds more than [`DEPTH_BOUND`] messages (or until the run stops).
async fn bound_depth(c: &mut AsyncConnection, h: Hobj, shared: &Shared) -> WorkerResult {
    while !shared.stopping() {
        let depth = match c.inquire(h, &[Selector::CurrentDepth]).await {
            Ok(v) => match v.first() {
                Some(AttrValue::Int(d)) => *d,
                _ => 0,
            },
            Err(e) => return Err(fail("inquire", e)),
        };
        if depth <= DEPTH_BOUND {
            break;
        }
        tokio::time::sleep(Duration::from_micros(200)).await;
    }
    Ok(())
}

/// The asynchronous puts' status since the last call: puts refused for a full queue are taken
/// back from the count and counted as waits (then a 1 ms pause); any other failure ends the run.
async fn status(c: &mut AsyncConnection, shared: &Shared, rec: &Recorder) -> WorkerResult {
    let s = c.async_put_status().await.map_err(|e| fail("status", e))?;
    if crate::workload::count_refusals(&s, shared, rec)? {
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    Ok(())
}
