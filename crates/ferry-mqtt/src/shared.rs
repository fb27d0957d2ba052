//! MQTT 5 shared subscriptions (`$share/{group}/{filter}`), on the queue manager's objects:
//! a group is one durable subscription, `MQTT:$share/{group}/{filter}`, delivering to one
//! queue, `SYSTEM.MQTT.SHARED.<hash of group/filter>`, that every member opens for input beside
//! its own session's queue. A publication is put there once, and the member whose get takes
//! it is the one it reaches (waiting getters are served in turn). The subscription is made
//! with any-user resume, so members authenticated as different users share it, and each
//! member's SUBSCRIBE is checked against its own topic authority first.
//!
//! Membership: connected members are counted in the [`crate::Broker`]; a persistent session's
//! membership outlives its connection as a subscription `MQTT:<client id>:$share/...` that
//! asks for publications on request only (so it receives none), found again when the client
//! reconnects. When the last member goes (unsubscribes, or a clean session ends, or a clean
//! start removes a persistent one) the group's subscription and queue are deleted.

use ferry_core::model::security::Principal;
use ferry_core::{
    CloseOptions, Hobj, MqError, MqResult, ObjectDescriptor, OpenOptions, QueueManager, Session,
    SubAction, SubDescriptor,
};

/// The group's subscription name.
pub fn sub_name(key: &str) -> String {
    format!("MQTT:$share/{key}")
}

/// A persistent member's membership record.
pub fn member_name(client_id: &str, key: &str) -> String {
    format!("MQTT:{client_id}:$share/{key}")
}

/// The group's queue.
pub fn queue_name(key: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in key.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    format!("SYSTEM.MQTT.SHARED.{h:016X}")
}

/// One group this connection is a member of.
#[derive(Debug)]
pub struct Membership {
    /// `{group}/{filter}`.
    pub key: String,
    /// The group's queue, open for input.
    pub queue: Hobj,
    /// The QoS this member was granted.
    pub granted: u8,
}

/// Joins the group `key` (filter `topic`): checks the member's authority to subscribe (by
/// making the subscription, or resuming it, as itself), then opens the group's queue (made if
/// new) with the queue manager's authority. `correl` is what copies carry.
pub fn join(
    s: &mut Session,
    key: &str,
    topic: &str,
    correl: ferry_core::CorrelId,
    depth: usize,
) -> MqResult<Hobj> {
    let qm = s.queue_manager().clone();
    let who = (**s.principal()).clone();
    s.act_as(Principal::owner(&qm.name().to_string()));
    let queue = open_queue(s, &qm, key, depth);
    s.act_as(who);
    let queue = queue?;
    let sd = SubDescriptor {
        topic: topic.to_owned(),
        name: Some(sub_name(key)),
        correl_id: Some(correl),
        action: SubAction::CreateOrResume,
        durable: true,
        any_user: true,
        // MQTT 5: retained publications are not sent to a shared subscription.
        new_publications_only: true,
        ..Default::default()
    };
    // Two members joining at once: the other holds the subscription for an instant.
    let mut made = s.subscribe(&sd, Some(queue));
    for _ in 0..100 {
        match &made {
            Err(e) if e.reason == ferry_core::Reason::SubscriptionInUse => {
                std::thread::yield_now();
                made = s.subscribe(&sd, Some(queue));
            }
            _ => break,
        }
    }
    match made {
        // Held by nobody between members' SUBSCRIBEs: only the queue is read.
        Ok((_, hsub)) => s.close(hsub, CloseOptions::None).map(|()| queue),
        Err(e) => {
            let _ = s.close(queue, CloseOptions::None);
            Err(e)
        }
    }
}

fn open_queue(s: &mut Session, qm: &QueueManager, key: &str, depth: usize) -> MqResult<Hobj> {
    let name = queue_name(key);
    let opts = OpenOptions {
        output: true,
        ..OpenOptions::input()
    };
    if qm.queue_status(&name).is_ok() {
        return s.open(&ferry_core::model::options::queue(&name)?, opts);
    }
    let od = ObjectDescriptor::Queue {
        name: ferry_core::object_name(ferry_core::model::system::DURABLE_MODEL_QUEUE)?,
        dynamic_name: Some(name.clone()),
        selector: None,
    };
    let h = s.open(&od, opts)?;
    crate::session::deepen(qm, &name, depth)?;
    Ok(h)
}

/// The persistent member's record: a subscription to the group's filter that receives nothing
/// (publications on request only), delivering (never) to the member's own queue.
pub fn record_member(
    s: &mut Session,
    client_id: &str,
    key: &str,
    topic: &str,
    own_queue: Hobj,
    correl: ferry_core::CorrelId,
) -> MqResult<Hobj> {
    let sd = SubDescriptor {
        topic: topic.to_owned(),
        name: Some(member_name(client_id, key)),
        correl_id: Some(correl),
        action: SubAction::CreateOrResume,
        durable: true,
        on_request: true,
        new_publications_only: true,
        ..Default::default()
    };
    s.subscribe(&sd, Some(own_queue)).map(|(_, h)| h)
}

/// The groups a persistent client was a member of when it last left: `(key, topic filter,
/// its record's correl id)`.
pub fn recorded(qm: &QueueManager, client_id: &str) -> Vec<(String, String, ferry_core::CorrelId)> {
    let prefix = format!("MQTT:{client_id}:$share/");
    qm.subscriptions_named_from(&prefix)
        .iter()
        .filter_map(|sub| {
            let key = sub.name.as_deref()?.strip_prefix(&prefix)?.to_owned();
            let topic = key.split_once('/')?.1.to_owned();
            Some((key, topic, sub.correl_id))
        })
        .collect()
}

/// Deletes the group `key`'s subscription and queue when no member is left: none connected
/// (by `broker`'s count) and no persistent member's record.
pub fn remove_if_unused(broker: &crate::Broker, key: &str) {
    if broker.shared_members.lock().get(key).copied().unwrap_or(0) > 0 {
        return;
    }
    let qm = &broker.qm;
    let suffix = format!(":$share/{key}");
    let group = sub_name(key);
    let recorded = qm.subscriptions().iter().any(|sub| {
        sub.name
            .as_deref()
            .is_some_and(|n| n != group && n.starts_with("MQTT:") && n.ends_with(&suffix))
    });
    if recorded {
        return;
    }
    if let Err(e) = delete_group(qm, key) {
        tracing::info!(group = key, error = %e, "an MQTT shared subscription's group was not removed");
    }
}

fn delete_group(qm: &QueueManager, key: &str) -> Result<(), MqError> {
    if qm.subscription_named(&sub_name(key)).is_some() {
        qm.delete_sub(&sub_name(key))?;
    }
    let name = queue_name(key);
    if qm.queue_status(&name).is_err() {
        return Ok(());
    }
    let owner = Principal::owner(&qm.name().to_string());
    let opts = ferry_core::ConnectOptions {
        app_name: "MQTT shared subscriptions".into(),
        user_id: None,
    };
    let mut s = qm.connect_with(&opts, ferry_core::ConnMode::Tcp, "MQTT".into(), owner)?;
    let r = s
        .open(
            &ferry_core::model::options::queue(&name)?,
            OpenOptions::input(),
        )
        .and_then(|h| s.close(h, CloseOptions::DeletePurge));
    let _ = s.disconnect();
    r
}
