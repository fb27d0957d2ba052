//! Administrative topic objects through the engine's API: the attributes a topic inherits from
//! the closest topic object above it (DEFPSIST, DEFPRTY, PUB, SUB, DURSUB, MNDURMDL, WILDCARD),
//! publishing and subscribing below a topic object, and the catalogue's own rules.

use ferry_core::{
    object_name, CloseOptions, ConnectOptions, GetOptions, Hobj, LocalQueueAttrs, Message,
    ObjectDescriptor, OpenOptions, Persistence, PutOptions, QueueDefinition, QueueManager, Reason,
    Session, SubDescriptor, SubRequest,
};
use ferry_model::message::Priority;
use ferry_model::topicobj::{TopicAttrs, WildcardOperation};

fn setup() -> (QueueManager, Session) {
    let qm = QueueManager::with_name("QM1").unwrap();
    qm.define_queue(
        "Q",
        QueueDefinition::Local(LocalQueueAttrs::default()),
        false,
    )
    .unwrap();
    let s = qm.connect(&ConnectOptions::app("topics")).unwrap();
    (qm, s)
}

fn topic(string: &str) -> TopicAttrs {
    TopicAttrs {
        topic_string: string.into(),
        ..TopicAttrs::default()
    }
}

fn input(s: &mut Session, q: &str) -> Hobj {
    s.open(
        &ObjectDescriptor::queue(object_name(q).unwrap()),
        OpenOptions::input(),
    )
    .unwrap()
}

fn drain(s: &mut Session, h: Hobj) -> Vec<Message> {
    std::iter::from_fn(|| s.get(h, &GetOptions::new()).ok().map(|g| g.message)).collect()
}

#[test]
fn a_topic_inherits_from_the_closest_topic_object_above_it() {
    let (qm, mut s) = setup();
    qm.define_topic(
        "SPORTS",
        TopicAttrs {
            def_persistent: Some(true),
            ..topic("Sports")
        },
        false,
    )
    .unwrap();
    qm.define_topic(
        "GOLF",
        TopicAttrs {
            def_priority: Some(7),
            publish: Some(false),
            ..topic("Sports/Golf")
        },
        false,
    )
    .unwrap();
    qm.subscribe(&SubRequest::to_queue("Sports/#", object_name("Q").unwrap()))
        .unwrap();
    let put = |s: &mut Session, t: &str| s.publish(t, Message::text(t), &PutOptions::default());
    put(&mut s, "Sports/Tennis").unwrap();
    let e = put(&mut s, "Sports/Golf/Open").unwrap_err();
    assert_eq!(e.reason, Reason::PutInhibited, "{e}");
    assert!(e.detail.contains("GOLF"), "{e}");
    // ALTER to ASPARENT: publishing comes back from the base.
    let mut golf = qm.topic_object("GOLF").unwrap();
    golf.publish = None;
    qm.define_topic("GOLF", golf, true).unwrap();
    put(&mut s, "Sports/Golf/Open").unwrap();
    let h = input(&mut s, "Q");
    let got = drain(&mut s, h);
    let seen: Vec<(Persistence, Priority)> = got
        .iter()
        .map(|m| (m.descriptor.persistence, m.descriptor.priority))
        .collect();
    assert_eq!(
        seen,
        [
            (Persistence::Persistent, Priority::Value(7)),
            (Persistence::Persistent, Priority::Value(0))
        ],
        "DEFPSIST from SPORTS, DEFPRTY from GOLF (else the base's 0); got in priority order"
    );
    // A topic opened through its object: TOPICSTR joined with the object string.
    let od = ObjectDescriptor::Topic {
        object: Some(object_name("SPORTS").unwrap()),
        string: "Rugby".into(),
    };
    let ht = s.open(&od, OpenOptions::output()).unwrap();
    assert_eq!(s.topic_string(ht).unwrap(), "Sports/Rugby");
    let out = s
        .put(ht, Message::text("try"), &PutOptions::default())
        .unwrap();
    assert_eq!(out.persistence, Persistence::Persistent);
    assert_eq!(drain(&mut s, h).len(), 1);
}

#[test]
fn sub_dursub_and_the_managed_queue_model_come_from_the_topic() {
    let (qm, mut s) = setup();
    let model = LocalQueueAttrs {
        max_depth: 17,
        definition_type: ferry_model::objects::DefinitionType::TemporaryDynamic,
        ..LocalQueueAttrs::default()
    };
    qm.define_queue("MY.MODEL", QueueDefinition::Model(model), false)
        .unwrap();
    qm.define_topic(
        "CLOSED",
        TopicAttrs {
            subscribe: Some(false),
            ..topic("Closed")
        },
        false,
    )
    .unwrap();
    qm.define_topic(
        "NODUR",
        TopicAttrs {
            durable_subs: Some(false),
            nondurable_model: Some(object_name("MY.MODEL").unwrap()),
            ..topic("NoDur")
        },
        false,
    )
    .unwrap();
    let e = s
        .subscribe(&SubDescriptor::managed("Closed/x"), None)
        .unwrap_err();
    assert_eq!(e.reason, Reason::SubInhibited, "{e}");
    let e = s
        .subscribe(&SubDescriptor::durable("d", "NoDur/x"), None)
        .unwrap_err();
    assert_eq!(e.reason, Reason::DurabilityNotAllowed, "{e}");
    let (q, hs) = s
        .subscribe(&SubDescriptor::managed("NoDur/#"), None)
        .unwrap();
    let name = s.queue_name(q).unwrap();
    let attrs = qm.local_attrs(name.as_str()).unwrap();
    assert_eq!(attrs.max_depth, 17, "made from MNDURMDL(MY.MODEL)");
    s.close(hs, CloseOptions::None).unwrap();
    // A model that is not a model queue: INVALID_DESTINATION, naming it.
    let mut nodur = qm.topic_object("NODUR").unwrap();
    nodur.nondurable_model = Some(object_name("Q").unwrap());
    qm.define_topic("NODUR", nodur, true).unwrap();
    let e = s
        .subscribe(&SubDescriptor::managed("NoDur/#"), None)
        .unwrap_err();
    assert_eq!(e.reason, Reason::InvalidDestination, "{e}");
    assert!(e.detail.contains("MNDURMDL"), "{e}");
}

#[test]
fn wildcard_block_hides_a_subtree_from_wildcards_above_it() {
    let (qm, mut s) = setup();
    for q in ["ABOVE", "BELOW", "EXACT"] {
        qm.define_queue(q, QueueDefinition::Local(LocalQueueAttrs::default()), false)
            .unwrap();
    }
    qm.define_topic(
        "FRUIT",
        TopicAttrs {
            wildcard: WildcardOperation::Block,
            ..topic("Price/Fruit")
        },
        false,
    )
    .unwrap();
    let q = |n: &str| object_name(n).unwrap();
    qm.subscribe(&SubRequest::to_queue("Price/#", q("ABOVE")))
        .unwrap();
    qm.subscribe(&SubRequest::to_queue("Price/Fruit/+", q("BELOW")))
        .unwrap();
    qm.subscribe(&SubRequest::to_queue("Price/Fruit/Apples", q("EXACT")))
        .unwrap();
    let p = s
        .publish(
            "Price/Fruit/Apples",
            Message::text("1"),
            &PutOptions::default(),
        )
        .unwrap();
    assert_eq!(p.subscribers, 2, "Price/# is blocked");
    s.publish(
        "Price/Veg/Leeks",
        Message::text("2"),
        &PutOptions::default(),
    )
    .unwrap();
    let counts: Vec<usize> = ["ABOVE", "BELOW", "EXACT"]
        .iter()
        .map(|n| {
            let h = input(&mut s, n);
            drain(&mut s, h).len()
        })
        .collect();
    assert_eq!(counts, [1, 1, 1], "ABOVE sees only Price/Veg/Leeks");
}

#[test]
fn the_catalogue_keeps_topic_strings_unique_and_the_base_in_place() {
    let (qm, mut s) = setup();
    qm.define_topic("A", topic("x/y"), false).unwrap();
    let e = qm.define_topic("B", topic("x/y"), false).unwrap_err();
    assert_eq!(e.reason, Reason::ObjectAlreadyExists);
    assert!(e.detail.contains("topic object A"), "{e}");
    let e = qm.define_topic("A", topic("x/z"), true).unwrap_err();
    assert_eq!(
        e.reason,
        Reason::AttributeValueError,
        "TOPICSTR cannot change"
    );
    assert_eq!(
        qm.define_topic("C", topic(""), false).unwrap_err().reason,
        Reason::TopicStringError
    );
    let e = qm.delete_topic("SYSTEM.BASE.TOPIC").unwrap_err();
    assert_eq!(e.reason, Reason::ObjectInUse);
    let mut base = qm.topic_object("SYSTEM.BASE.TOPIC").unwrap();
    base.def_priority = None;
    assert_eq!(
        qm.define_topic("SYSTEM.BASE.TOPIC", base, true)
            .unwrap_err()
            .reason,
        Reason::AttributeValueError,
        "the base has no parent to inherit from"
    );
    qm.delete_topic("A").unwrap();
    assert_eq!(
        qm.delete_topic("A").unwrap_err().reason,
        Reason::UnknownObjectName
    );
    let od = ObjectDescriptor::Topic {
        object: Some(object_name("A").unwrap()),
        string: String::new(),
    };
    assert_eq!(
        s.open(&od, OpenOptions::output()).unwrap_err().reason,
        Reason::UnknownObjectName
    );
    qm.define_topic("B", topic("x/y"), false).unwrap();
    assert_eq!(qm.topic_chain("x/y/z")[0].as_str(), "B");
    assert_eq!(qm.topic_chain("x")[0].as_str(), "SYSTEM.BASE.TOPIC");
}
