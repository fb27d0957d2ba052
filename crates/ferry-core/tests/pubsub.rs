//! Publish/subscribe through the engine's API: subscriptions to local queues, publications
//! copied to every matching one with its correlation id and MQ's properties, the delivery rules
//! for non-persistent (to every queue that takes it) and persistent publications (to all or
//! none), syncpoint, and the `$` topics.

use ferry_core::{
    object_name, ConnectOptions, CorrelId, GetOptions, Hobj, LocalQueueAttrs, Message,
    ObjectDescriptor, OpenOptions, Persistence, PropertyValue, PutOptions, QueueDefinition,
    QueueManager, Reason, Session, SubRequest,
};
use ferry_model::topic::Wildcards;
use ferry_model::topicobj::{DeliveryRule, TopicAttrs};

fn qm_with(queues: &[(&str, usize)]) -> (QueueManager, Session) {
    let qm = QueueManager::with_name("QM1").unwrap();
    for (q, depth) in queues {
        let a = LocalQueueAttrs {
            max_depth: *depth,
            ..Default::default()
        };
        qm.define_queue(q, QueueDefinition::Local(a), false)
            .unwrap();
    }
    let s = qm.connect(&ConnectOptions::app("pubsub")).unwrap();
    (qm, s)
}

fn sub(topic: &str, queue: &str) -> SubRequest {
    SubRequest::to_queue(topic, object_name(queue).unwrap())
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

fn np(text: &str) -> Message {
    Message::text(text).with_persistence(Persistence::NotPersistent)
}

#[test]
fn a_publication_reaches_every_matching_subscription_with_its_correl_id_and_topic() {
    let (qm, mut s) = qm_with(&[("A", 100), ("B", 100), ("C", 100)]);
    let exact = qm.subscribe(&sub("Sport/Football/Results", "A")).unwrap();
    qm.subscribe(&SubRequest {
        user_data: Some("fans".into()),
        correl_id: Some(CorrelId::from_slice(b"MY-CORREL")),
        ..sub("Sport/#", "B")
    })
    .unwrap();
    qm.subscribe(&sub("News/+", "C")).unwrap();
    let p = s
        .publish("Sport/Football/Results", np("3-1"), &PutOptions::default())
        .unwrap();
    assert_eq!((p.subscribers, p.delivered, p.failed), (2, 2, 0));
    let (ha, hb, hc) = (input(&mut s, "A"), input(&mut s, "B"), input(&mut s, "C"));
    let a = drain(&mut s, ha);
    let b = drain(&mut s, hb);
    assert_eq!((a.len(), b.len(), drain(&mut s, hc).len()), (1, 1, 0));
    assert_eq!(
        &b[0].descriptor.correl_id,
        &CorrelId::from_slice(b"MY-CORREL")
    );
    assert_ne!(
        a[0].descriptor.correl_id,
        CorrelId::NONE,
        "the queue manager chose one"
    );
    assert_ne!(
        a[0].descriptor.msg_id, b[0].descriptor.msg_id,
        "each copy its own msg id"
    );
    let topic = PropertyValue::String("Sport/Football/Results".into());
    assert_eq!(a[0].properties.get("MQTopicString"), Some(&topic));
    assert_eq!(
        b[0].properties.get("MQSubUserData"),
        Some(&PropertyValue::String("fans".into()))
    );
    assert_eq!(a[0].properties.get("MQSubUserData"), None);
    // Unsubscribed, it receives no more.
    qm.unsubscribe(exact).unwrap();
    assert_eq!(
        qm.unsubscribe(exact).unwrap_err().reason,
        Reason::NoSubscription
    );
    let p = s
        .publish("Sport/Football/Results", np("4-1"), &PutOptions::default())
        .unwrap();
    assert_eq!(p.delivered, 1);
    assert!(drain(&mut s, ha).is_empty());
}

#[test]
fn a_full_queue_sends_its_copy_to_the_dead_letter_queue_and_never_stops_the_others() {
    let (qm, mut s) = qm_with(&[("ROOMY", 100), ("TINY", 1)]);
    qm.subscribe(&sub("t", "ROOMY")).unwrap();
    qm.subscribe(&sub("t", "TINY")).unwrap();
    s.publish("t", np("first"), &PutOptions::default()).unwrap();
    let p = s
        .publish("t", np("second"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        (p.delivered, p.failed, p.dead_lettered),
        (1, 1, 1),
        "TINY is full: its copy goes to the DLQ (USEDLQ(YES)); ROOMY still gets it"
    );
    // Persistent, PMSGDLV(ALLDUR): a non-durable subscriber's refusal does not stop it.
    let persistent = Message::text("third").with_persistence(Persistence::Persistent);
    let p = s.publish("t", persistent, &PutOptions::default()).unwrap();
    assert_eq!((p.delivered, p.dead_lettered), (1, 1));
    let h = input(&mut s, "ROOMY");
    assert_eq!(drain(&mut s, h).len(), 3);
    let dlq = input(&mut s, "SYSTEM.DEAD.LETTER.QUEUE");
    let dead = drain(&mut s, dlq);
    assert_eq!(dead.len(), 2);
    let dlh = dead[0].dead_letter.as_ref().expect("a dead-letter header");
    assert_eq!(
        (dlh.reason, dlh.dest_queue.as_str()),
        (Reason::QFull, "TINY")
    );
}

#[test]
fn a_persistent_publication_goes_to_all_or_none_where_the_delivery_rule_says_all() {
    let (qm, mut s) = qm_with(&[("ROOMY", 100), ("TINY", 1)]);
    let attrs = TopicAttrs {
        topic_string: "t".into(),
        persistent_delivery: Some(DeliveryRule::All),
        use_dlq: Some(false),
        ..TopicAttrs::default()
    };
    qm.define_topic("T", attrs, false).unwrap();
    qm.subscribe(&sub("t", "ROOMY")).unwrap();
    qm.subscribe(&sub("t", "TINY")).unwrap();
    s.publish("t", np("first"), &PutOptions::default()).unwrap();
    let p = s
        .publish("t", np("second"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        (p.delivered, p.failed, p.dead_lettered),
        (1, 1, 0),
        "NPMSGDLV(ALLAVAIL)"
    );
    let persistent = Message::text("third").with_persistence(Persistence::Persistent);
    let e = s
        .publish("t", persistent, &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, Reason::QFull, "{e}");
    assert!(
        e.detail.contains("delivered to none") && e.detail.contains("(ALL)"),
        "{e}"
    );
    let h = input(&mut s, "ROOMY");
    let got: Vec<String> = drain(&mut s, h)
        .iter()
        .map(|m| String::from_utf8(m.body.to_vec()).unwrap())
        .collect();
    assert_eq!(
        got,
        ["first", "second"],
        "the persistent one reached no queue"
    );
    let dlq = input(&mut s, "SYSTEM.DEAD.LETTER.QUEUE");
    assert!(drain(&mut s, dlq).is_empty(), "USEDLQ(NO)");
}

#[test]
fn alldur_fails_a_persistent_publication_a_durable_subscriber_cannot_take() {
    let (qm, mut s) = qm_with(&[("ROOMY", 100), ("TINY", 1)]);
    let attrs = TopicAttrs {
        topic_string: "t".into(),
        use_dlq: Some(false),
        ..TopicAttrs::default()
    };
    qm.define_topic("T", attrs, false).unwrap();
    qm.subscribe(&sub("t", "ROOMY")).unwrap();
    qm.define_sub(&SubRequest {
        name: Some("tiny".into()),
        ..sub("t", "TINY")
    })
    .unwrap();
    let persistent = || Message::text("p").with_persistence(Persistence::Persistent);
    s.publish("t", persistent(), &PutOptions::default())
        .unwrap();
    let e = s
        .publish("t", persistent(), &PutOptions::default())
        .unwrap_err();
    assert!(e.detail.contains("(ALLDUR)"), "{e}");
    let h = input(&mut s, "ROOMY");
    assert_eq!(drain(&mut s, h).len(), 1);
}

#[test]
fn a_publication_in_syncpoint_is_seen_at_commit_and_gone_at_backout() {
    let (qm, mut s) = qm_with(&[("Q", 100)]);
    qm.subscribe(&sub("a/b", "Q")).unwrap();
    let mut reader = qm.connect(&ConnectOptions::app("reader")).unwrap();
    let h = input(&mut reader, "Q");
    s.publish("a/b", np("kept"), &PutOptions::syncpoint())
        .unwrap();
    assert!(drain(&mut reader, h).is_empty(), "invisible before commit");
    s.commit().unwrap();
    assert_eq!(drain(&mut reader, h).len(), 1);
    s.publish("a/b", np("dropped"), &PutOptions::syncpoint())
        .unwrap();
    s.backout().unwrap();
    assert!(drain(&mut reader, h).is_empty());
}

#[test]
fn system_topics_named_subscriptions_and_bad_filters() {
    let (qm, mut s) = qm_with(&[("ALL", 100), ("SYS", 100)]);
    qm.subscribe(&sub("#", "ALL")).unwrap();
    qm.subscribe(&SubRequest {
        name: Some("monitor".into()),
        ..sub("$SYS/#", "SYS")
    })
    .unwrap();
    let p = s
        .publish("$SYS/MQ/INFO", np("x"), &PutOptions::default())
        .unwrap();
    assert_eq!(p.delivered, 1, "# does not reach $SYS topics; $SYS/# does");
    assert!(qm.subscription_named("monitor").is_some());
    let again = qm.subscribe(&SubRequest {
        name: Some("monitor".into()),
        ..sub("x", "ALL")
    });
    assert_eq!(again.unwrap_err().reason, Reason::SubAlreadyExists);
    let bad = qm.subscribe(&SubRequest {
        wildcards: Wildcards::Char,
        ..sub("50%", "ALL")
    });
    assert_eq!(bad.unwrap_err().reason, Reason::TopicStringError);
    let missing = qm.subscribe(&sub("x", "NO.SUCH.QUEUE"));
    assert_eq!(missing.unwrap_err().reason, Reason::UnknownObjectName);
    assert_eq!(
        s.publish("", np("x"), &PutOptions::default())
            .unwrap_err()
            .reason,
        Reason::TopicStringError
    );
    assert_eq!(qm.subscription_count(), 2);
}

#[test]
fn a_topic_opened_for_output_publishes_through_put_and_put1() {
    let (qm, mut s) = qm_with(&[("Q", 100)]);
    qm.subscribe(&sub("Price/Fruit/#", "Q")).unwrap();
    let od = ferry_core::ObjectDescriptor::topic("Price/Fruit/Apples");
    let h = s.open(&od, OpenOptions::output()).unwrap();
    assert_eq!(s.topic_string(h).unwrap(), "Price/Fruit/Apples");
    let out = s
        .put(h, Message::text("1.20"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        out.persistence,
        Persistence::NotPersistent,
        "as the topic's default"
    );
    s.put1(
        &ObjectDescriptor::topic("Price/Fruit/Pears"),
        Message::text("0.90"),
        &PutOptions::default(),
    )
    .unwrap();
    let hq = input(&mut s, "Q");
    let got: Vec<String> = drain(&mut s, hq)
        .iter()
        .map(|m| String::from_utf8(m.body.to_vec()).unwrap())
        .collect();
    assert_eq!(got, ["1.20", "0.90"]);
    // A topic is opened to publish, not to get; an undefined topic object is unknown.
    let e = s.open(&od, OpenOptions::input()).unwrap_err();
    assert_eq!(e.reason, Reason::OptionNotValidForType);
    let other = ObjectDescriptor::Topic {
        object: Some(object_name("NO.SUCH.TOPIC").unwrap()),
        string: "x".into(),
    };
    assert_eq!(
        s.open(&other, OpenOptions::output()).unwrap_err().reason,
        Reason::UnknownObjectName
    );
    assert_eq!(
        s.get(h, &GetOptions::new()).unwrap_err().reason,
        Reason::ObjectTypeError
    );
    s.close(h, ferry_core::CloseOptions::None).unwrap();
}

// ----- MQSUB through handles --------------------------------------------------------------------

use ferry_core::{CloseOptions, SubAction, SubDescriptor};

fn get_text(s: &mut Session, h: Hobj) -> Option<String> {
    s.get(h, &GetOptions::new())
        .ok()
        .map(|g| String::from_utf8(g.message.body.to_vec()).unwrap())
}

#[test]
fn a_managed_non_durable_subscription_lives_as_long_as_its_handle() {
    let (qm, mut s) = qm_with(&[]);
    let (q, hsub) = s
        .subscribe(&SubDescriptor::managed("News/#"), None)
        .unwrap();
    let qname = s.queue_name(q).unwrap();
    assert!(
        qname.as_str().starts_with("SYSTEM.MANAGED.NDURABLE."),
        "{qname}"
    );
    let mut publisher = qm.connect(&ConnectOptions::app("pub")).unwrap();
    publisher
        .publish("News/Sport", np("goal"), &PutOptions::default())
        .unwrap();
    assert_eq!(get_text(&mut s, q).as_deref(), Some("goal"));
    s.close(hsub, CloseOptions::None).unwrap();
    assert_eq!(
        qm.subscription_count(),
        0,
        "a non-durable subscription ends at close"
    );
    let p = publisher
        .publish("News/Sport", np("late"), &PutOptions::default())
        .unwrap();
    assert_eq!(p.subscribers, 0);
    s.close(q, CloseOptions::None).unwrap();
    assert!(
        qm.local_queue(&qname).is_err(),
        "its temporary queue went with its handle"
    );
    // A connection that ends takes its non-durable subscriptions with it.
    let mut t = qm.connect(&ConnectOptions::app("short")).unwrap();
    t.subscribe(&SubDescriptor::managed("x"), None).unwrap();
    assert_eq!(qm.subscription_count(), 1);
    drop(t);
    assert_eq!(qm.subscription_count(), 0);
}

#[test]
fn a_provided_subscription_delivers_to_the_callers_queue() {
    let (_qm, mut s) = qm_with(&[("MINE", 100)]);
    let q = s
        .open(
            &ObjectDescriptor::queue(object_name("MINE").unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    let sd = SubDescriptor {
        managed: false,
        ..SubDescriptor::managed("a/+")
    };
    let (same, _hsub) = s.subscribe(&sd, Some(q)).unwrap();
    assert_eq!(same, q);
    s.publish("a/b", np("to mine"), &PutOptions::default())
        .unwrap();
    assert_eq!(get_text(&mut s, q).as_deref(), Some("to mine"));
    // Managed with a queue, or provided without one, is a descriptor error.
    let e = s
        .subscribe(&SubDescriptor::managed("z"), Some(q))
        .unwrap_err();
    assert_eq!(e.reason, Reason::SdError);
}

#[test]
fn a_durable_subscription_is_resumed_by_name_and_held_by_one_handle_at_a_time() {
    let (qm, mut s) = qm_with(&[]);
    let sd = SubDescriptor::durable("orders", "Orders/#");
    let (q, hsub) = s.subscribe(&sd, None).unwrap();
    let qname = s.queue_name(q).unwrap();
    assert!(
        qname.as_str().starts_with("SYSTEM.MANAGED.DURABLE."),
        "{qname}"
    );
    let mut other = qm.connect(&ConnectOptions::app("other")).unwrap();
    let e = other.subscribe(&sd, None).unwrap_err();
    assert_eq!(e.reason, Reason::SubscriptionInUse, "{e}");
    let create_only = SubDescriptor {
        action: SubAction::Create,
        ..sd.clone()
    };
    assert_eq!(
        other.subscribe(&create_only, None).unwrap_err().reason,
        Reason::SubAlreadyExists
    );
    // Let go (closed without removing): publications keep arriving on its queue.
    s.close(hsub, CloseOptions::None).unwrap();
    s.close(q, CloseOptions::None).unwrap();
    s.publish("Orders/42", np("while away"), &PutOptions::default())
        .unwrap();
    let (q2, hsub2) = other.subscribe(&sd, None).unwrap();
    assert_eq!(other.queue_name(q2).unwrap(), qname, "the same queue");
    assert_eq!(get_text(&mut other, q2).as_deref(), Some("while away"));
    // Removed: the subscription and, once closed, its queue are gone.
    other.close(hsub2, CloseOptions::RemoveSub).unwrap();
    assert!(qm.subscription_named("orders").is_none());
    other.close(q2, CloseOptions::None).unwrap();
    assert!(
        qm.local_queue(&qname).is_err(),
        "its managed queue went with it"
    );
    let resume_only = SubDescriptor {
        action: SubAction::Resume,
        ..sd
    };
    assert_eq!(
        other.subscribe(&resume_only, None).unwrap_err().reason,
        Reason::NoSubscription
    );
}

#[test]
fn a_durable_subscription_needs_a_name_and_is_resumed_only_by_its_user() {
    let (qm, mut s) = qm_with(&[]);
    let nameless = SubDescriptor {
        durable: true,
        ..SubDescriptor::managed("t")
    };
    assert_eq!(
        s.subscribe(&nameless, None).unwrap_err().reason,
        Reason::SubNameError
    );
    let (_q, h) = s
        .subscribe(&SubDescriptor::durable("mine", "t"), None)
        .unwrap();
    s.close(h, CloseOptions::None).unwrap();
    let mut someone = qm
        .connect(&ConnectOptions {
            user_id: Some("someone".into()),
            ..ConnectOptions::app("someone")
        })
        .unwrap();
    let e = someone
        .subscribe(&SubDescriptor::durable("mine", "t"), None)
        .unwrap_err();
    assert_eq!(e.reason, Reason::IdentityMismatch, "{e}");
}

// ----- retained publications ----------------------------------------------------------------------

fn retained(text: &str) -> (Message, PutOptions) {
    (
        np(text),
        PutOptions {
            retain: true,
            ..PutOptions::default()
        },
    )
}

#[test]
fn a_retained_publication_reaches_later_subscriptions_and_mqsubrq() {
    let (qm, mut s) = qm_with(&[]);
    let (m, o) = retained("old");
    s.publish("Price/Fruit/Apples", m, &o).unwrap();
    let (m, o) = retained("1.20");
    s.publish("Price/Fruit/Apples", m, &o).unwrap();
    s.publish(
        "Price/Fruit/Pears",
        np("not retained"),
        &PutOptions::default(),
    )
    .unwrap();
    assert_eq!(qm.retained_topics(), ["Price/Fruit/Apples"]);
    // A new subscription gets the retained one (the latest), marked MQIsRetained.
    let (q, _h) = s
        .subscribe(&SubDescriptor::managed("Price/Fruit/+"), None)
        .unwrap();
    let got = s.get(q, &GetOptions::new()).unwrap().message;
    assert_eq!(got.body.as_ref(), b"1.20");
    assert_eq!(
        got.properties.get("MQIsRetained"),
        Some(&PropertyValue::Bool(true))
    );
    assert!(get_text(&mut s, q).is_none(), "only the latest is kept");
    // New publications only: none now; MQSUBRQ sends it on request.
    let only_new = SubDescriptor {
        new_publications_only: true,
        ..SubDescriptor::managed("Price/#")
    };
    let (q2, h2) = s.subscribe(&only_new, None).unwrap();
    assert!(get_text(&mut s, q2).is_none());
    assert_eq!(s.sub_request(h2).unwrap(), 1);
    assert_eq!(get_text(&mut s, q2).as_deref(), Some("1.20"));
    // On request only: publications come only through MQSUBRQ.
    let on_request = SubDescriptor {
        on_request: true,
        ..SubDescriptor::managed("Price/Fruit/Apples")
    };
    let (q3, h3) = s.subscribe(&on_request, None).unwrap();
    s.publish("Price/Fruit/Apples", np("live"), &PutOptions::default())
        .unwrap();
    assert!(get_text(&mut s, q3).is_none());
    assert_eq!(s.sub_request(h3).unwrap(), 1);
    assert_eq!(get_text(&mut s, q3).as_deref(), Some("1.20"));
    // Nothing retained where it looks: 2437.
    let (_q4, h4) = s
        .subscribe(&SubDescriptor::managed("News/#"), None)
        .unwrap();
    assert_eq!(s.sub_request(h4).unwrap_err().reason, Reason::NoRetainedMsg);
    assert_eq!(s.sub_request(q).unwrap_err().reason, Reason::HobjError);
    // CLEAR TOPICSTR.
    assert!(qm.clear_retained("Price/Fruit/Apples").unwrap());
    assert!(!qm.clear_retained("Price/Fruit/Apples").unwrap());
    assert!(qm.retained_topics().is_empty());
}

#[test]
fn a_retained_publication_in_syncpoint_is_kept_only_when_committed() {
    let (qm, mut s) = qm_with(&[]);
    let o = PutOptions {
        retain: true,
        syncpoint: true,
        ..PutOptions::default()
    };
    let persistent = || Message::text("p").with_persistence(Persistence::Persistent);
    s.publish("t", persistent(), &o).unwrap();
    assert!(qm.retained_topics().is_empty(), "not before commit");
    s.backout().unwrap();
    assert!(qm.retained_topics().is_empty(), "backed out");
    s.publish("t", persistent(), &o).unwrap();
    s.commit().unwrap();
    assert_eq!(qm.retained_topics(), ["t"]);
    let stored = s
        .open(
            &ObjectDescriptor::queue(object_name("SYSTEM.RETAINED.PUB.QUEUE").unwrap()),
            OpenOptions::browse(),
        )
        .unwrap();
    assert_eq!(
        drain_browse(&mut s, stored),
        1,
        "one stored message for the topic"
    );
    // Replaced: still one stored message.
    s.publish("t", persistent(), &o).unwrap();
    s.commit().unwrap();
    assert_eq!(drain_browse(&mut s, stored), 1);
    qm.clear_retained("t").unwrap();
    assert_eq!(drain_browse(&mut s, stored), 0);
}

/// How many messages a browse of the queue behind `h` sees.
fn drain_browse(s: &mut Session, h: Hobj) -> usize {
    use ferry_core::BrowseMode;
    let mut n = 0;
    let mut mode = BrowseMode::First;
    while s.get(h, &GetOptions::new().browse(mode)).is_ok() {
        n += 1;
        mode = BrowseMode::Next;
    }
    n
}

// ----- selectors ----------------------------------------------------------------------------------

#[test]
fn a_subscription_with_a_selector_receives_only_what_satisfies_it() {
    let (qm, mut s) = qm_with(&[("BIG", 100), ("ALL", 100)]);
    qm.subscribe(&SubRequest {
        selector: Some("qty > 10 AND region IN ('EMEA', 'APAC')".into()),
        ..sub("Orders/#", "BIG")
    })
    .unwrap();
    qm.subscribe(&sub("Orders/#", "ALL")).unwrap();
    let order = |qty: i32, region: &str| {
        let mut m = np(&format!("{qty} {region}"));
        m.properties.set("qty", PropertyValue::I32(qty)).unwrap();
        m.properties
            .set("region", PropertyValue::String(region.into()))
            .unwrap();
        m
    };
    for (q, r) in [(5, "EMEA"), (50, "EMEA"), (50, "US"), (11, "APAC")] {
        s.publish("Orders/new", order(q, r), &PutOptions::default())
            .unwrap();
    }
    // A missing property is NULL: the comparison is unknown, so it is not sent.
    s.publish("Orders/new", np("no properties"), &PutOptions::default())
        .unwrap();
    let (hb, ha) = (input(&mut s, "BIG"), input(&mut s, "ALL"));
    let big: Vec<String> = drain(&mut s, hb)
        .iter()
        .map(|m| String::from_utf8(m.body.to_vec()).unwrap())
        .collect();
    assert_eq!(big, ["50 EMEA", "11 APAC"]);
    assert_eq!(drain(&mut s, ha).len(), 5);
    // The topic string is a property too.
    qm.subscribe(&SubRequest {
        selector: Some("MQTopicString LIKE 'Orders/n%'".into()),
        ..sub("#", "BIG")
    })
    .unwrap();
    s.publish("Orders/new", np("x"), &PutOptions::default())
        .unwrap();
    s.publish("Orders/old", np("y"), &PutOptions::default())
        .unwrap();
    assert_eq!(drain(&mut s, hb).len(), 1);
    // A bad selector: 2459, and no subscription.
    let e = qm
        .subscribe(&SubRequest {
            selector: Some("qty >".into()),
            ..sub("Orders/#", "BIG")
        })
        .unwrap_err();
    assert_eq!(e.reason, Reason::SelectorSyntaxError, "{e}");
    assert_eq!(qm.subscription_count(), 3);
}

#[test]
fn publication_options_on_a_put_to_a_queue_are_refused_not_ignored() {
    let (_qm, mut s) = qm_with(&[("Q", 10)]);
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("Q").unwrap()),
            OpenOptions::output(),
        )
        .unwrap();
    for opts in [
        PutOptions {
            retain: true,
            ..PutOptions::default()
        },
        PutOptions {
            not_own_subs: true,
            ..PutOptions::default()
        },
    ] {
        assert_eq!(
            s.put(h, np("x"), &opts).unwrap_err().reason,
            Reason::OptionsError
        );
        let od = ObjectDescriptor::queue(object_name("Q").unwrap());
        assert_eq!(
            s.put1(&od, np("x"), &opts).unwrap_err().reason,
            Reason::OptionsError
        );
    }
}

#[test]
fn mqso_alter_changes_user_data_and_correl_id_but_never_the_topic() {
    let (_qm, mut s) = qm_with(&[]);
    let (q, h) = s
        .subscribe(&SubDescriptor::durable("alt", "Price/#"), None)
        .unwrap();
    s.close(q, CloseOptions::None).unwrap();
    s.close(h, CloseOptions::None).unwrap();
    let alter = SubDescriptor {
        action: SubAction::Alter,
        user_data: Some("desk 4".into()),
        correl_id: Some(CorrelId::from_slice(b"ALTERED")),
        ..SubDescriptor::durable("alt", "Price/#")
    };
    let (q, h) = s.subscribe(&alter, None).unwrap();
    s.publish("Price/Tea", np("2.00"), &PutOptions::default())
        .unwrap();
    let got = s.get(q, &GetOptions::new()).unwrap().message;
    assert_eq!(got.descriptor.correl_id, CorrelId::from_slice(b"ALTERED"));
    assert_eq!(
        got.properties.get("MQSubUserData"),
        Some(&PropertyValue::String("desk 4".into()))
    );
    s.close(q, CloseOptions::None).unwrap();
    s.close(h, CloseOptions::None).unwrap();
    for (sd, want) in [
        (
            SubDescriptor {
                action: SubAction::Alter,
                ..SubDescriptor::durable("alt", "Price/Fruit/#")
            },
            Reason::TopicNotAlterable,
        ),
        (
            SubDescriptor {
                action: SubAction::Alter,
                char_wildcards: true,
                ..SubDescriptor::durable("alt", "Price/#")
            },
            Reason::TopicNotAlterable,
        ),
        (
            SubDescriptor {
                action: SubAction::Alter,
                selector: Some("a = 1".into()),
                ..SubDescriptor::durable("alt", "Price/#")
            },
            Reason::SelectorNotAlterable,
        ),
        (
            SubDescriptor {
                action: SubAction::Alter,
                durable: false,
                ..SubDescriptor::durable("alt", "Price/#")
            },
            Reason::DurabilityNotAlterable,
        ),
        (
            SubDescriptor {
                action: SubAction::Alter,
                ..SubDescriptor::durable("none", "Price/#")
            },
            Reason::NoSubscription,
        ),
    ] {
        assert_eq!(s.subscribe(&sd, None).unwrap_err().reason, want);
    }
}

/// A managed subscription to `topic` at `level`.
fn at_level(topic: &str, level: u8) -> SubDescriptor {
    SubDescriptor {
        sub_level: Some(level),
        ..SubDescriptor::managed(topic)
    }
}

fn at_pub_level(level: u8) -> PutOptions {
    PutOptions {
        pub_level: Some(level),
        ..PutOptions::default()
    }
}

#[test]
fn an_intercepting_subscription_takes_publications_from_the_levels_below_it() {
    let (_qm, mut s) = qm_with(&[]);
    let (final_q, _f) = s
        .subscribe(&SubDescriptor::managed("Orders/#"), None)
        .unwrap();
    let (catch_all, _c) = s.subscribe(&at_level("#", 0), None).unwrap();
    let (audit, _a) = s.subscribe(&at_level("Orders/+", 5), None).unwrap();
    let (enrich, _e) = s.subscribe(&at_level("Orders/#", 3), None).unwrap();
    // PubLevel 9 (the default): the highest level present, 5, takes it; nobody below.
    s.publish("Orders/New", np("raw"), &PutOptions::default())
        .unwrap();
    assert_eq!(get_text(&mut s, audit).as_deref(), Some("raw"));
    for q in [enrich, final_q, catch_all] {
        assert!(get_text(&mut s, q).is_none());
    }
    // The interceptor at 5 republishes below itself: level 3 takes it.
    s.publish("Orders/New", np("audited"), &at_pub_level(4))
        .unwrap();
    assert_eq!(get_text(&mut s, enrich).as_deref(), Some("audited"));
    assert!(get_text(&mut s, audit).is_none());
    // And level 3 republishes at 2: the final subscribers at level 1 get it.
    s.publish("Orders/New", np("enriched"), &at_pub_level(2))
        .unwrap();
    assert_eq!(get_text(&mut s, final_q).as_deref(), Some("enriched"));
    assert!(get_text(&mut s, catch_all).is_none());
    // A topic only the catch-all matches: level 0 gets what no other subscription does.
    let p = s
        .publish("Stock/Low", np("nobody else"), &PutOptions::default())
        .unwrap();
    assert_eq!(p.delivered, 1);
    assert_eq!(get_text(&mut s, catch_all).as_deref(), Some("nobody else"));
    // Two levels deep into Orders/Old/x: "Orders/+" (5) does not match, so 3 takes it.
    s.publish("Orders/Old/x", np("deep"), &PutOptions::default())
        .unwrap();
    assert_eq!(get_text(&mut s, enrich).as_deref(), Some("deep"));
    // PubLevel 0 reaches only level 0.
    s.publish("Orders/New", np("zero"), &at_pub_level(0))
        .unwrap();
    assert_eq!(get_text(&mut s, catch_all).as_deref(), Some("zero"));
    for q in [audit, enrich, final_q] {
        assert!(get_text(&mut s, q).is_none());
    }
}

#[test]
fn sub_levels_are_checked_fixed_and_not_sent_retained_publications_above_one() {
    let (qm, mut s) = qm_with(&[]);
    let (m, o) = retained("kept");
    s.publish("Price/Tea", m, &o).unwrap();
    let (q, _h) = s.subscribe(&at_level("Price/#", 2), None).unwrap();
    assert!(get_text(&mut s, q).is_none(), "retained ones go at level 1");
    let (q1, _h1) = s.subscribe(&at_level("Price/#", 1), None).unwrap();
    assert_eq!(get_text(&mut s, q1).as_deref(), Some("kept"));
    let on_request = SubDescriptor {
        on_request: true,
        ..at_level("Price/#", 4)
    };
    assert_eq!(
        s.subscribe(&on_request, None).unwrap_err().reason,
        Reason::OptionsError
    );
    assert_eq!(
        s.subscribe(&at_level("Price/#", 10), None)
            .unwrap_err()
            .reason,
        Reason::SdError
    );
    // A durable one keeps its level: MQSO_ALTER to another is 2512; a resume ignores it.
    let durable = SubDescriptor {
        sub_level: Some(7),
        ..SubDescriptor::durable("lvl", "Price/#")
    };
    let (dq, dh) = s.subscribe(&durable, None).unwrap();
    s.close(dq, CloseOptions::None).unwrap();
    s.close(dh, CloseOptions::None).unwrap();
    let alter = SubDescriptor {
        action: SubAction::Alter,
        ..SubDescriptor::durable("lvl", "Price/#")
    };
    assert_eq!(
        s.subscribe(&alter, None).unwrap_err().reason,
        Reason::SublevelNotAlterable
    );
    assert_eq!(qm.subscription_named("lvl").unwrap().level, 7);
    let (dq, _dh) = s
        .subscribe(&SubDescriptor::durable("lvl", "Price/#"), None)
        .unwrap();
    s.publish("Price/Tea", np("new"), &PutOptions::default())
        .unwrap();
    assert_eq!(get_text(&mut s, dq).as_deref(), Some("new"));
    assert!(get_text(&mut s, q).is_none(), "level 7 intercepts level 2");
}

// ----- monitoring topics --------------------------------------------------------------------------

/// The MQCFIN64 values (parameter id → value) of a PCF body's top level.
fn pcf_int64s(body: &[u8]) -> Vec<(i32, i64)> {
    ferry_model::monitor::int64_params(body)
}

#[test]
fn the_monitoring_topics_describe_themselves_and_publish_per_queue_statistics() {
    let (qm, mut s) = qm_with(&[("APP.Q", 100)]);
    qm.publish_monitor_metadata().unwrap();
    let root = "$SYS/MQ/INFO/QMGR/QM1/Monitor";
    // A collector reads the retained metadata from the class list down.
    let (mq, _h) = s
        .subscribe(
            &SubDescriptor::managed(&format!("{root}/METADATA/CLASSES")),
            None,
        )
        .unwrap();
    let classes = s.get(mq, &GetOptions::new()).unwrap().message;
    assert_eq!(classes.descriptor.format.as_str(), "MQADMIN");
    let text = String::from_utf8_lossy(&classes.body).to_string();
    assert!(text.contains("STATQ") && text.contains(&format!("{root}/METADATA/STATQ/TYPES")));
    // Nobody subscribes to data yet: nothing is published.
    assert_eq!(qm.publish_monitor_data().unwrap(), 0);
    let (dq, _hd) = s
        .subscribe(
            &SubDescriptor::managed(&format!("{root}/STATQ/APP.Q/PUT")),
            None,
        )
        .unwrap();
    assert_eq!(qm.publish_monitor_data().unwrap(), 1, "first: a baseline");
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("APP.Q").unwrap()),
            OpenOptions::output(),
        )
        .unwrap();
    for _ in 0..3 {
        s.put(h, np("x"), &PutOptions::default()).unwrap();
    }
    assert_eq!(qm.publish_monitor_data().unwrap(), 1);
    let first = s.get(dq, &GetOptions::new()).unwrap().message;
    assert_eq!(
        pcf_int64s(&first.body)
            .iter()
            .find(|(id, _)| *id == 0)
            .unwrap()
            .1,
        0
    );
    let second = s.get(dq, &GetOptions::new()).unwrap().message;
    let values = pcf_int64s(&second.body);
    assert_eq!(
        values.iter().find(|(id, _)| *id == 0).unwrap().1,
        3,
        "three puts since the last publication: {values:?}"
    );
    assert!(String::from_utf8_lossy(&second.body).contains("APP.Q"));
}

/// The next publication on `q`'s values by element id.
fn next_values(s: &mut Session, q: Hobj) -> Vec<(i32, i64)> {
    pcf_int64s(&s.get(q, &GetOptions::new()).unwrap().message.body)
}

fn value(values: &[(i32, i64)], id: i32) -> i64 {
    values.iter().find(|(i, _)| *i == id).map(|v| v.1).unwrap()
}

#[test]
fn statmqi_counts_connections_opens_inquiries_syncpoints_and_subscriptions_per_interval() {
    use ferry_model::inquire::Selector;
    let (qm, mut s) = qm_with(&[("APP.Q", 100)]);
    let root = "$SYS/MQ/INFO/QMGR/QM1/Monitor/STATMQI";
    let mut watch = qm.connect(&ConnectOptions::app("collector")).unwrap();
    let mut queues = Vec::new();
    for ty in ["CONNDISC", "OPENCLOSE", "INQSET", "SYNCPOINT", "SUBSCRIBE"] {
        let sd = SubDescriptor::managed(&format!("{root}/{ty}"));
        queues.push(watch.subscribe(&sd, None).unwrap().0);
    }
    assert_eq!(qm.publish_monitor_data().unwrap(), 5, "a baseline each");
    let baselines: Vec<_> = queues.iter().map(|q| next_values(&mut watch, *q)).collect();
    assert_eq!(
        value(&baselines[0], 2),
        2,
        "two connections open: the high-water mark"
    );
    // In the interval: 2 connects (one to disconnect), opens (one failing), closes, an inquiry,
    // a commit and a backout, a durable subscription made, resumed and removed, MQSUBRQ.
    let extra = qm.connect(&ConnectOptions::app("short")).unwrap();
    let third = qm.connect(&ConnectOptions::app("third")).unwrap();
    extra.disconnect().unwrap();
    let q = ObjectDescriptor::queue(object_name("APP.Q").unwrap());
    let h = s.open(&q, OpenOptions::output().with_inquire()).unwrap();
    let missing = ObjectDescriptor::queue(object_name("NO.SUCH.Q").unwrap());
    assert!(s.open(&missing, OpenOptions::output()).is_err());
    s.inquire(h, &[Selector::CurrentDepth]).unwrap();
    s.put1(&q, np("p1"), &PutOptions::default()).unwrap(); // opens nothing an application sees
    s.close(h, CloseOptions::None).unwrap();
    s.commit().unwrap();
    s.backout().unwrap();
    let (dq, dh) = s
        .subscribe(&SubDescriptor::durable("stat", "Stat/#"), None)
        .unwrap();
    s.close(dh, CloseOptions::None).unwrap();
    s.close(dq, CloseOptions::None).unwrap();
    let (_dq, dh) = s
        .subscribe(&SubDescriptor::durable("stat", "Stat/#"), None)
        .unwrap();
    assert_eq!(s.sub_request(dh).unwrap_err().reason, Reason::NoRetainedMsg);
    s.close(dh, CloseOptions::RemoveSub).unwrap();
    assert_eq!(qm.publish_monitor_data().unwrap(), 5);
    let v: Vec<_> = queues.iter().map(|q| next_values(&mut watch, *q)).collect();
    assert_eq!(
        (value(&v[0], 0), value(&v[0], 1), value(&v[0], 3)),
        (2, 0, 1),
        "{v:?}"
    );
    assert_eq!(value(&v[0], 2), 4, "four at once at most: {v:?}");
    let opens = (
        value(&v[1], 0),
        value(&v[1], 1),
        value(&v[1], 2),
        value(&v[1], 3),
    );
    assert_eq!(
        opens,
        (1, 1, 4, 0),
        "opens, failed, closes (queue, 2 sub handles, managed queue)"
    );
    assert_eq!((value(&v[2], 0), value(&v[2], 2)), (1, 0));
    assert_eq!((value(&v[3], 0), value(&v[3], 2)), (1, 1));
    let subs: Vec<i64> = [0, 2, 3, 6, 7, 10]
        .iter()
        .map(|id| value(&v[4], *id))
        .collect();
    assert_eq!(
        subs,
        [1, 1, 0, 0, 1, 1],
        "create, resume, non-durable, failed, deleted, MQSUBRQ"
    );
    drop(third);
}

#[test]
fn counts_from_open_publisher_handles_and_closed_ones_add_up_once() {
    let (qm, mut s) = qm_with(&[("A", 100)]);
    qm.subscribe(&sub("Count/#", "A")).unwrap();
    let topic = ObjectDescriptor::topic("Count/Me");
    let h1 = s.open(&topic, OpenOptions::output()).unwrap();
    let h2 = s.open(&topic, OpenOptions::output()).unwrap();
    for h in [h1, h1, h2] {
        s.put(h, np("x"), &PutOptions::default()).unwrap();
    }
    // Without a handle (the shared counters).
    s.publish("Count/Me", np("y"), &PutOptions::default())
        .unwrap();
    let counts = |qm: &QueueManager| {
        let t = qm.topic_stats();
        let c = t.iter().find(|(t, _)| t == "Count/Me").unwrap().1;
        let all = qm.pubsub_totals();
        (
            c.publications,
            c.deliveries,
            all.publications,
            all.deliveries,
        )
    };
    assert_eq!(counts(&qm), (4, 4, 4, 4), "two handles open");
    s.close(h1, ferry_core::CloseOptions::None).unwrap();
    assert_eq!(counts(&qm), (4, 4, 4, 4), "one folded in, one open");
    // A new subscription is seen by an open handle's next publication.
    qm.subscribe(&sub("Count/Me", "A")).unwrap();
    let p = s.put(h2, np("z"), &PutOptions::default());
    assert!(p.is_ok());
    s.close(h2, ferry_core::CloseOptions::None).unwrap();
    assert_eq!(counts(&qm), (5, 6, 5, 6), "all folded in, each once");
    let h = input(&mut s, "A");
    assert_eq!(drain(&mut s, h).len(), 6);
}

/// A host whose figures the test sets.
#[derive(Debug, Default)]
struct FakeHost(std::sync::Mutex<ferry_core::qmgr::monitor::HostSample>);

impl ferry_core::qmgr::monitor::HostProbe for FakeHost {
    fn sample(&self) -> ferry_core::qmgr::monitor::HostSample {
        *self.0.lock().unwrap()
    }
}

#[test]
fn with_a_host_probe_the_cpu_and_disk_classes_are_described_and_published() {
    use ferry_core::qmgr::monitor::HostSample;
    let (qm, mut s) = qm_with(&[]);
    let root = "$SYS/MQ/INFO/QMGR/QM1/Monitor";
    let host = std::sync::Arc::new(FakeHost::default());
    *host.0.lock().unwrap() = HostSample {
        cpu_user: 100,
        cpu_system: 50,
        cpu_total: 1000,
        load: [0.5, 1.25, 2.0],
        ram_total: 8 << 30,
        ram_available: 2 << 30,
        log_in_use: 4096,
        log_max: 1 << 30,
        ..HostSample::default()
    };
    qm.set_host_probe(host.clone());
    qm.publish_monitor_metadata().unwrap();
    let (mq, _h) = s
        .subscribe(
            &SubDescriptor::managed(&format!("{root}/METADATA/CLASSES")),
            None,
        )
        .unwrap();
    let classes = s.get(mq, &GetOptions::new()).unwrap().message;
    let text = String::from_utf8_lossy(&classes.body).to_string();
    assert!(
        text.contains(&format!("{root}/METADATA/CPU/TYPES")),
        "{text}"
    );
    assert!(
        text.contains(&format!("{root}/METADATA/DISK/TYPES")),
        "{text}"
    );
    let (cpu, _hc) = s
        .subscribe(
            &SubDescriptor::managed(&format!("{root}/CPU/SystemSummary")),
            None,
        )
        .unwrap();
    let (log, _hl) = s
        .subscribe(&SubDescriptor::managed(&format!("{root}/DISK/Log")), None)
        .unwrap();
    assert_eq!(qm.publish_monitor_data().unwrap(), 2);
    {
        let mut h = host.0.lock().unwrap();
        h.cpu_user += 200;
        h.cpu_system += 50;
        h.cpu_total += 1000;
    }
    assert_eq!(qm.publish_monitor_data().unwrap(), 2);
    let _baseline = s.get(cpu, &GetOptions::new()).unwrap();
    let v = pcf_int64s(&s.get(cpu, &GetOptions::new()).unwrap().message.body);
    let at = |v: &[(i32, i64)], id: i32| v.iter().find(|(i, _)| *i == id).map(|p| p.1);
    assert_eq!(at(&v, 0), Some(2000), "user 20 % in hundredths: {v:?}");
    assert_eq!(at(&v, 1), Some(500), "system 5 %");
    assert_eq!(
        (at(&v, 2), at(&v, 3), at(&v, 4)),
        (Some(50), Some(125), Some(200))
    );
    assert_eq!(at(&v, 5), Some(2500), "RAM free 25 %");
    assert_eq!(at(&v, 6), Some(8192), "RAM total in MB");
    let _ = s.get(log, &GetOptions::new()).unwrap();
    let v = pcf_int64s(&s.get(log, &GetOptions::new()).unwrap().message.body);
    assert_eq!((at(&v, 0), at(&v, 1)), (Some(4096), Some(1 << 30)));
}

#[test]
fn a_publication_refused_in_the_callers_unit_of_work_leaves_none_of_its_copies_there() {
    let (qm, mut s) = qm_with(&[("ROOMY", 100), ("TINY", 1)]);
    let attrs = TopicAttrs {
        topic_string: "t".into(),
        nonpersistent_delivery: Some(DeliveryRule::All),
        use_dlq: Some(false),
        ..TopicAttrs::default()
    };
    qm.define_topic("T", attrs, false).unwrap();
    qm.subscribe(&sub("t", "ROOMY")).unwrap();
    qm.subscribe(&sub("t", "TINY")).unwrap();
    s.publish("t", np("fills TINY"), &PutOptions::default())
        .unwrap();
    let e = s
        .publish("t", np("refused"), &PutOptions::syncpoint())
        .unwrap_err();
    assert_eq!(e.reason, Reason::QFull, "{e}");
    s.publish("t", np("also refused"), &PutOptions::syncpoint())
        .unwrap_err();
    s.commit().unwrap();
    let h = input(&mut s, "ROOMY");
    let got: Vec<String> = drain(&mut s, h)
        .iter()
        .map(|m| String::from_utf8(m.body.to_vec()).unwrap())
        .collect();
    assert_eq!(
        got,
        ["fills TINY"],
        "the refused publications reached no queue"
    );
}
