//! The publish/subscribe workload (`ferry perf publish`): measured publishers put to a topic,
//! unmeasured subscribers — each its own connection with a managed subscription — get what
//! reaches them. The run reports the publishers' rate and the subscribers' deliveries per
//! second; with `--subscribers 0` it measures publishing to nobody, with `--triplets` each
//! publisher has a topic (and `--subscribers` subscribers) of its own.
//!
//! The topic tree under `--topic` gets a topic object (PERF.TOPIC) with NPMSGDLV(ALLAVAIL),
//! PMSGDLV(ALLAVAIL) and USEDLQ(NO): a subscriber that falls behind fills its queue and misses
//! copies (counted as the difference between what was published and what arrived) rather than
//! slowing the publishers or filling the dead-letter queue, as NATS treats slow consumers.

use std::sync::atomic::{AtomicBool, Ordering};

use ferry_client::{
    CloseOptions, Connection, Message, ObjectDescriptor, OpenOptions, PropertyValue, SubAction,
    SubDescriptor,
};

use crate::args::WorkloadArgs;
use crate::stats::Recorder;
use crate::workload::{connect, message, put_options, Pacer, Shared, WorkerResult};

/// The MQSC that prepares the topic tree for a run.
pub fn topic_setup(a: &WorkloadArgs) -> String {
    let root = a.topic.split('/').next().unwrap_or("PERF");
    format!(
        "DEFINE TOPIC(PERF.TOPIC) TOPICSTR('{}') NPMSGDLV(ALLAVAIL) PMSGDLV(ALLAVAIL) USEDLQ(NO) REPLACE",
        root.replace('\'', "''")
    )
}

/// The topic worker `worker` publishes on (and its subscribers subscribe to).
pub fn topic_of(a: &WorkloadArgs, worker: usize) -> String {
    if a.triplets {
        format!("{}/{worker}", a.topic)
    } else {
        a.topic.clone()
    }
}

fn fail(what: &str, e: ferry_client::MqError) -> String {
    format!("{what}: {e}")
}

/// A publication: the run's message, with the property `region = 'EMEA'` when the
/// subscriptions have a selector (which it satisfies: the selector's cost is measured, not a
/// smaller delivery count). Every publication of a worker shares one body, as mq-cph's
/// publishers do: the run measures publishing, not building buffers.
fn publication(a: &WorkloadArgs, shared_body: &Message) -> Message {
    let mut m = shared_body.clone();
    if a.selector.is_some() {
        let _ = m
            .properties
            .set("region", PropertyValue::String("EMEA".into()));
    }
    m
}

/// A measured publisher.
pub fn publish_worker(
    endpoint: &str,
    a: &WorkloadArgs,
    shared: &Shared,
    rec: &Recorder,
    worker: usize,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let topic = topic_of(a, worker);
    let h = c
        .open(&ObjectDescriptor::topic(&topic), OpenOptions::output())
        .map_err(|e| fail(&format!("open topic {topic}"), e))?;
    let opts = put_options(a);
    let mut pacer = Pacer::new(shared, worker, a.threads);
    let body = message(a, worker as u64);
    let mut n = 0u64;
    let mut batch = crate::workload::Batcher::new(a);
    while !shared.stopping() {
        let t = pacer.start();
        c.put(h, publication(a, &body), &opts)
            .map_err(|e| fail("publish", e))?;
        batch.step(&mut c).map_err(|e| fail("commit", e))?;
        shared.put.fetch_add(1, Ordering::Relaxed);
        rec.record(pacer.elapsed(t));
        n += 1;
        if a.async_put && n.is_multiple_of(256) {
            crate::workload::async_status(&mut c, shared, rec)?;
        }
    }
    batch.finish(&mut c).map_err(|e| fail("commit", e))?;
    if a.async_put {
        crate::workload::async_status(&mut c, shared, rec)?;
    }
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// The subscription descriptor of subscriber `index` on `topic`.
fn descriptor(a: &WorkloadArgs, topic: &str, index: usize) -> SubDescriptor {
    let mut sd = SubDescriptor::managed(topic);
    sd.selector = a.selector.clone();
    sd.read_ahead = a.read_ahead.then_some(true);
    if a.durable {
        sd = SubDescriptor {
            name: Some(format!("PERF.SUB.{index}")),
            action: SubAction::CreateOrResume,
            durable: true,
            ..sd
        };
    }
    sd
}

/// Every subscriber as a task of the async client on one thread (`--async-client`), the way
/// an event-driven consumer (or `nats bench sub`) runs many subscriptions: each (topic, index)
/// its own connection and subscription; counts in `shared.got`.
pub fn async_subscribers(
    endpoint: &str,
    a: &WorkloadArgs,
    subs: Vec<(String, usize)>,
    shared: std::sync::Arc<Shared>,
    stop: std::sync::Arc<AtomicBool>,
) -> WorkerResult {
    let rt = crate::asyncput::one_thread_runtime()?;
    rt.block_on(async {
        let mut tasks = Vec::new();
        for (topic, index) in subs {
            let (ep, sd) = (endpoint.to_owned(), descriptor(a, &topic, index));
            let (a, shared, stop) = (a.clone(), shared.clone(), stop.clone());
            tasks.push(tokio::spawn(async move {
                let mut c = crate::workload::connect_async(&ep, &a)
                    .await
                    .map_err(|e| fail("connect", e))?;
                let (q, hsub) = c
                    .subscribe(&sd, None)
                    .await
                    .map_err(|e| fail("subscribe", e))?;
                crate::workload::count_async(&mut c, q, &shared, &stop, "get a publication")
                    .await?;
                c.close(hsub, CloseOptions::RemoveSub)
                    .await
                    .map_err(|e| fail("unsubscribe", e))?;
                c.disconnect().await.map_err(|e| fail("disconnect", e))
            }));
        }
        for t in tasks {
            t.await
                .map_err(|e| format!("a subscriber task failed: {e}"))??;
        }
        Ok(())
    })
}

/// An unmeasured subscriber: subscribes to `topic` (managed; durable as PERF.SUB.`index` with
/// --durable), counts what it gets in `shared.got`, and after `stop` ends its subscription.
pub fn subscriber(
    endpoint: &str,
    a: &WorkloadArgs,
    topic: &str,
    index: usize,
    shared: &Shared,
    stop: &AtomicBool,
) -> WorkerResult {
    let mut c = connect(endpoint, a).map_err(|e| fail("connect", e))?;
    let sd = descriptor(a, topic, index);
    let (q, hsub) = c.subscribe(&sd, None).map_err(|e| fail("subscribe", e))?;
    // With --syncpoint the subscriber gets in units of work of --commit-count too (a persistent
    // get outside one waits for its own log force).
    let commit_every = a.syncpoint.then_some(a.commit_count.max(1) as usize);
    crate::workload::drain_until_stopped(
        &mut c,
        q,
        shared,
        stop,
        "get a publication",
        commit_every,
    )?;
    c.close(hsub, CloseOptions::RemoveSub)
        .map_err(|e| fail("unsubscribe", e))?;
    c.disconnect().map_err(|e| fail("disconnect", e))
}

/// Runs the topic set-up on the run's queue manager.
pub fn prepare(c: &mut Connection, a: &WorkloadArgs) -> Result<(), String> {
    let replies = c
        .admin(&topic_setup(a))
        .map_err(|e| fail("DEFINE TOPIC", e))?;
    match replies.iter().find(|r| !r.ok) {
        Some(r) => Err(format!("DEFINE TOPIC: {:?}", r.messages)),
        None => Ok(()),
    }
}
