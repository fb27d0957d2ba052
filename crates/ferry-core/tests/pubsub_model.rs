//! Publish/subscribe against a reference model: random sequences of subscribes (both wildcard
//! schemes), unsubscribes and publications, then every queue drained and compared with what
//! the model says each subscription should have received, in order. The model decides matching
//! with `Filter::matches` one subscription at a time (itself checked against a plain recursive
//! matcher in ferry-model), so this checks the index, the registry and delivery together.

use ferry_core::{
    object_name, ConnectOptions, GetOptions, LocalQueueAttrs, Message, ObjectDescriptor,
    OpenOptions, Persistence, PutOptions, QueueDefinition, QueueManager, SubRequest,
};
use ferry_model::topic::{Filter, Wildcards};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Subscribe(String, Wildcards),
    Unsubscribe(usize),
    Publish(String),
}

fn level() -> impl Strategy<Value = &'static str> {
    prop_oneof![Just("a"), Just("b"), Just(""), Just("$s")]
}

fn op() -> impl Strategy<Value = Op> {
    let topic = prop::collection::vec(level(), 1..4).prop_map(|l| l.join("/"));
    let topic_filter = prop::collection::vec(prop_oneof![level(), Just("+"), Just("#")], 1..4)
        .prop_map(|l| l.join("/"));
    prop_oneof![
        3 => topic_filter.prop_map(|f| Op::Subscribe(f, Wildcards::Topic)),
        1 => "[ab/*?]{1,5}".prop_map(|f| Op::Subscribe(f, Wildcards::Char)),
        1 => (0usize..16).prop_map(Op::Unsubscribe),
        5 => topic.prop_map(Op::Publish),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn deliveries_agree_with_the_model(ops in prop::collection::vec(op(), 1..40)) {
        let qm = QueueManager::with_name("QM1").unwrap();
        let mut s = qm.connect(&ConnectOptions::app("model")).unwrap();
        // The model: per subscription its filter, whether it is live, and what it should hold.
        let mut subs: Vec<(Filter, u64, bool, Vec<String>)> = Vec::new();
        for (n, op) in ops.iter().enumerate() {
            match op {
                Op::Subscribe(f, w) if !f.is_empty() => {
                    let q = format!("Q.{}", subs.len());
                    let attrs = LocalQueueAttrs { max_depth: 10_000, ..Default::default() };
                    qm.define_queue(&q, QueueDefinition::Local(attrs), false).unwrap();
                    let id = qm.subscribe(&SubRequest {
                        wildcards: *w,
                        ..SubRequest::to_queue(f, object_name(&q).unwrap())
                    }).unwrap();
                    subs.push((Filter::parse(f, *w).unwrap(), id, true, Vec::new()));
                }
                Op::Subscribe(..) => {}
                Op::Unsubscribe(i) => {
                    if let Some(sub) = subs.get_mut(*i).filter(|s| s.2) {
                        qm.unsubscribe(sub.1).unwrap();
                        sub.2 = false;
                    }
                }
                Op::Publish(t) if !t.is_empty() => {
                    let body = format!("{n}:{t}");
                    let m = Message::text(&body).with_persistence(Persistence::NotPersistent);
                    let p = s.publish(t, m, &PutOptions::default()).unwrap();
                    let mut want = 0;
                    for sub in subs.iter_mut().filter(|s| s.2 && s.0.matches(t)) {
                        sub.3.push(body.clone());
                        want += 1;
                    }
                    prop_assert_eq!(p.delivered, want, "publication {} on {:?}", n, t);
                }
                Op::Publish(_) => {}
            }
        }
        for (i, (_, _, _, want)) in subs.iter().enumerate() {
            let h = s
                .open(&ObjectDescriptor::queue(object_name(&format!("Q.{i}")).unwrap()), OpenOptions::input())
                .unwrap();
            let got: Vec<String> = std::iter::from_fn(|| s.get(h, &GetOptions::new()).ok())
                .map(|g| String::from_utf8(g.message.body.to_vec()).unwrap())
                .collect();
            prop_assert_eq!(&got, want, "subscription {}", i);
        }
    }
}
