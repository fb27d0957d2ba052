//! Publish/subscribe against a real server: an administrative subscription (DEFINE SUB) and a
//! publication put to a topic by a client over the local socket and over TCP; the subscription
//! survives SIGKILL and a clean restart (its log record, then its checkpoint), DISPLAY SUB and
//! DUMP QMGR show it, DELETE SUB ends it for good, and a user without PUB cannot publish.

mod common;

use common::Server;
use ferry_client::{
    Connection, GetOptions, Message, ObjectDescriptor, OpenOptions, PropertyValue, PutOptions,
};

fn admin(server: &Server, script: &str) -> Vec<ferry_client::Reply> {
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    let replies = c.admin(script).unwrap();
    for r in &replies {
        assert!(r.ok, "{r:?}");
    }
    replies
}

fn publish(endpoint: &str, topic: &str, text: &str) {
    let mut c = Connection::connect(endpoint, "publisher").unwrap();
    let h = c
        .open(&ObjectDescriptor::topic(topic), OpenOptions::output())
        .unwrap();
    c.put(h, Message::text(text), &PutOptions::default())
        .unwrap();
}

fn received(server: &Server) -> Vec<Message> {
    let mut c = Connection::connect(&server.unix, "subscriber").unwrap();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::input()).unwrap();
    std::iter::from_fn(|| c.get(h, &GetOptions::new()).ok().map(|g| g.message)).collect()
}

fn text(m: &Message) -> String {
    String::from_utf8(m.body.to_vec()).unwrap()
}

#[test]
fn an_administrative_subscription_receives_publications_and_survives_restarts() {
    let mut server = Server::start("pubsub-admin", &[]);
    admin(
        &server,
        "DEFINE SUB('Fruit prices') TOPICSTR('Price/Fruit/#') DEST(DEV.QUEUE.1) USERDATA('market')",
    );
    publish(&server.unix, "Price/Fruit/Apples", "1.20");
    publish(&server.tcp, "Price/Fruit/Pears", "0.90");
    publish(&server.unix, "Price/Vegetables/Leeks", "0.50");
    let got = received(&server);
    assert_eq!(got.iter().map(text).collect::<Vec<_>>(), ["1.20", "0.90"]);
    assert_eq!(
        got[0].properties.get("MQTopicString"),
        Some(&PropertyValue::String("Price/Fruit/Apples".into()))
    );
    assert_eq!(
        got[1].properties.get("MQSubUserData"),
        Some(&PropertyValue::String("market".into()))
    );
    let status = |key| common::display(&server, "DISPLAY SBSTATUS('Fruit*') ALL", key);
    assert_eq!(status("NUMMSGS").as_deref(), Some("2"));
    assert_eq!(status("SUBTYPE").as_deref(), Some("ADMIN"));
    assert!(
        status("LMSGDATE").is_some_and(|d| d.len() == 10),
        "{:?}",
        status("LMSGDATE")
    );
    let correl = common::display(&server, "DISPLAY SUB('Fruit prices') ALL", "DESTCORL").unwrap();
    assert_eq!(
        got[0].descriptor.correl_id.to_hex().to_ascii_uppercase(),
        correl
    );

    // SIGKILL: the subscription comes back from its log record.
    server.restart(&[]);
    server.wait_ready();
    let topic = common::display(&server, "DISPLAY SUB('Fruit*') TOPICSTR", "TOPICSTR");
    assert_eq!(topic.as_deref(), Some("Price/Fruit/#"));
    publish(&server.unix, "Price/Fruit/Plums", "2.10");
    assert_eq!(
        received(&server).iter().map(text).collect::<Vec<_>>(),
        ["2.10"]
    );

    // A clean stop writes a checkpoint: it comes back from there too, and DUMP QMGR has it.
    stop_cleanly(&mut server);
    server.restart(&[]);
    server.wait_ready();
    let dump = admin(&server, "DUMP QMGR");
    assert!(
        dump[0]
            .script
            .iter()
            .any(|l| l.starts_with("DEFINE SUB('Fruit prices') TOPICSTR('Price/Fruit/#')")),
        "{:?}",
        dump[0].script
    );
    // The dump replays into the same queue manager (DEFINE ... REPLACE throughout).
    let again = admin(&server, &dump[0].script.join("\n"));
    assert!(again.iter().all(|r| r.ok), "{again:?}");

    // DELETE SUB ends it, across a restart too.
    admin(&server, "DELETE SUB('Fruit prices')");
    server.restart(&[]);
    server.wait_ready();
    publish(&server.unix, "Price/Fruit/Apples", "1.30");
    assert!(received(&server).is_empty());
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    let r = c.admin("DISPLAY SUB('Fruit prices')").unwrap();
    assert!(!r[0].ok && r[0].messages[0].code == "AMQ8147E", "{r:?}");
}

fn stop_cleanly(server: &mut Server) {
    let ok = std::process::Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
    assert!(server.child.wait().unwrap().success(), "{}", server.log());
}

#[test]
fn bad_subscriptions_are_refused_with_their_reason() {
    let server = Server::start("pubsub-bad", &[]);
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    for (cmd, want) in [
        (
            "DEFINE SUB(S1) TOPICSTR('a') DEST(NO.SUCH.QUEUE)",
            "MQRC_UNKNOWN_OBJECT_NAME",
        ),
        (
            "DEFINE SUB(S2) TOPICSTR('50%') WSCHEMA(CHAR) DEST(DEV.QUEUE.1)",
            "MQRC_TOPIC_STRING_ERROR",
        ),
        ("DEFINE SUB(S3) DEST(DEV.QUEUE.1)", "TOPICSTR"),
    ] {
        let r = c.admin(cmd).unwrap();
        assert!(
            !r[0].ok && r[0].messages[0].text.contains(want),
            "{cmd}: {r:?}"
        );
    }
    let r = c
        .admin("DEFINE SUB(S4) TOPICSTR('x') DEST(DEV.QUEUE.1)\nDEFINE SUB(S4) TOPICSTR('y') DEST(DEV.QUEUE.1)")
        .unwrap();
    assert!(r[0].ok, "{r:?}");
    assert!(
        !r[1].ok && r[1].messages[0].text.contains("MQRC_SUB_ALREADY_EXISTS"),
        "{r:?}"
    );
    // An empty topic string cannot be published to.
    let e = c
        .open(&ObjectDescriptor::topic(""), OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::TopicStringError, "{e}");
}

#[test]
fn publishing_and_defining_subscriptions_need_authority_on_the_base_topic() {
    let server = Server::start_with_users("pubsub-auth", "QM1", &[("dave", "dave-pw")], &[]);
    admin(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('dave') AUTHADD(CONNECT)",
    );
    let opts = ferry_client::ClientOptions {
        user: Some("dave".into()),
        password: Some("dave-pw".into()),
        ..Default::default()
    };
    let mut dave = Connection::connect_with(&server.tcp_bare, "dave", &opts).unwrap();
    let topic = ObjectDescriptor::topic("Price/Fruit/Apples");
    let e = dave.open(&topic, OpenOptions::output()).unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::NotAuthorized && e.detail.contains("PUB"),
        "{e}"
    );
    let r = dave
        .admin("DEFINE SUB(D1) TOPICSTR('x') DEST(DEV.QUEUE.1)")
        .unwrap();
    assert!(!r[0].ok && r[0].messages[0].code == "AMQ8135E", "{r:?}");
    admin(
        &server,
        "SET AUTHREC PROFILE('SYSTEM.BASE.TOPIC') OBJTYPE(TOPIC) PRINCIPAL('dave') AUTHADD(PUB)",
    );
    let mut dave = Connection::connect_with(&server.tcp_bare, "dave", &opts).unwrap();
    let h = dave.open(&topic, OpenOptions::output()).unwrap();
    dave.put(h, Message::text("1.25"), &PutOptions::default())
        .unwrap();
}

#[test]
fn mqsub_over_the_wire_managed_and_durable_across_a_crash() {
    use ferry_client::{CloseOptions, Persistence, SubDescriptor};
    let mut server = Server::start("pubsub-mqsub", &[]);
    // Non-durable and managed, over TCP: it lives while its handle does.
    let mut sub = Connection::connect(&server.tcp, "subscriber").unwrap();
    let (q, hsub) = sub
        .subscribe(&SubDescriptor::managed("Weather/+/Rain"), None)
        .unwrap();
    assert!(sub
        .queue_name(q)
        .unwrap()
        .as_str()
        .starts_with("SYSTEM.MANAGED.NDURABLE."));
    publish(&server.unix, "Weather/Paris/Rain", "light");
    let got = sub.get(q, &GetOptions::new()).unwrap();
    assert_eq!(text(&got.message), "light");
    sub.close(hsub, CloseOptions::None).unwrap();
    // Durable, over the local socket: persistent publications wait for it across a crash.
    let sd = SubDescriptor::durable("rain-log", "Weather/#");
    let mut d = Connection::connect(&server.unix, "durable").unwrap();
    let (_q, hsub) = d.subscribe(&sd, None).unwrap();
    d.close(hsub, CloseOptions::None).unwrap();
    drop(d);
    let mut p = Connection::connect(&server.unix, "publisher").unwrap();
    let h = p
        .open(
            &ObjectDescriptor::topic("Weather/Oslo/Snow"),
            OpenOptions::output(),
        )
        .unwrap();
    let m = Message::text("heavy").with_persistence(Persistence::Persistent);
    p.put(h, m, &PutOptions::default()).unwrap();
    drop(p);
    server.restart(&[]);
    server.wait_ready();
    let mut d = Connection::connect(&server.unix, "durable").unwrap();
    let (q, hsub) = d.subscribe(&sd, None).unwrap();
    let got = d.get(q, &GetOptions::new()).unwrap();
    assert_eq!(text(&got.message), "heavy");
    assert_eq!(
        got.message.properties.get("MQTopicString"),
        Some(&PropertyValue::String("Weather/Oslo/Snow".into()))
    );
    // Held by this handle: another resume is refused with 2429.
    let mut other = Connection::connect(&server.unix, "other").unwrap();
    let e = other.subscribe(&sd, None).unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::SubscriptionInUse, "{e}");
    d.close(hsub, CloseOptions::RemoveSub).unwrap();
    let r = other.admin("DISPLAY SUB('rain-log')").unwrap();
    assert!(!r[0].ok, "{r:?}");
}

#[test]
fn a_durable_subscription_held_by_a_dead_connection_is_released() {
    use ferry_client::{CloseOptions, SubDescriptor};
    use std::io::Write;
    let server = Server::start("pubsub-dead", &[]);
    let sd = SubDescriptor::durable("held-by-the-dead", "Dead/#");
    // A client subscribes over a raw socket, then its connection dies without a goodbye.
    let mut s = std::net::TcpStream::connect(server.tcp_addr()).unwrap();
    let subscribe = ferry_proto::Request::Subscribe {
        sub: ferry_proto::map::sub_to_wire(&sd),
        hobj: 0,
    };
    let hello = common::raw::hello("doomed", common::TEST_USER, common::TEST_PASSWORD);
    s.write_all(&[hello, common::raw::frame(&subscribe, 1, 2)].concat())
        .unwrap();
    let held = || {
        common::display(
            &server,
            "DISPLAY SBSTATUS('held-by-the-dead') ALL",
            "ACTCONN",
        )
        .is_some_and(|c| c.chars().any(|ch| ch != '0'))
    };
    common::eventually("the subscription to be held", held);
    // The same user, on another connection.
    let mut other = Connection::connect(&server.tcp, "other").unwrap();
    let e = other.subscribe(&sd, None).unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::SubscriptionInUse, "{e}");
    // Closed as a killed client's kernel closes it: no Disconnect, no MQCLOSE.
    drop(s);
    // Found dead, it lets the subscription go: another connection resumes it.
    common::eventually("the subscription to be released", || !held());
    let (_q, hsub) = other.subscribe(&sd, None).unwrap();
    other.close(hsub, CloseOptions::RemoveSub).unwrap();
}

#[test]
fn topic_objects_are_defined_inherited_and_kept_across_restarts() {
    let mut server = Server::start("pubsub-topics", &[]);
    admin(
        &server,
        "DEFINE TOPIC(FRUIT) TOPICSTR('Price/Fruit') DEFPSIST(YES) DEFPRTY(6) DESCR('fruit')\n\
         DEFINE SUB(ALLPRICES) TOPICSTR('Price/#') DEST(DEV.QUEUE.1)",
    );
    let shown = |server: &Server, key| common::display(server, "DISPLAY TOPIC(FRUIT) ALL", key);
    assert_eq!(shown(&server, "TOPICSTR").as_deref(), Some("Price/Fruit"));
    assert_eq!(shown(&server, "DURSUB").as_deref(), Some("ASPARENT"));
    // SIGKILL: the object comes back from its log record, and publications below it inherit.
    server.restart(&[]);
    server.wait_ready();
    assert_eq!(shown(&server, "DEFPRTY").as_deref(), Some("6"));
    publish(&server.unix, "Price/Fruit/Apples", "1.20");
    publish(&server.unix, "Price/Veg/Leeks", "0.50");
    let got = received(&server);
    let seen: Vec<_> = got
        .iter()
        .map(|m| (text(m), m.descriptor.persistence))
        .collect();
    assert_eq!(
        seen,
        [
            ("1.20".to_owned(), ferry_client::Persistence::Persistent),
            ("0.50".to_owned(), ferry_client::Persistence::NotPersistent)
        ]
    );
    // ALTER, then a clean stop (a checkpoint): the change is kept, and DUMP QMGR writes it.
    admin(&server, "ALTER TOPIC(FRUIT) PUB(DISABLED)");
    stop_cleanly(&mut server);
    server.restart(&[]);
    server.wait_ready();
    let mut c = Connection::connect(&server.unix, "publisher").unwrap();
    let h = c
        .open(
            &ObjectDescriptor::topic("Price/Fruit/Pears"),
            OpenOptions::output(),
        )
        .unwrap();
    let e = c
        .put(h, Message::text("0.90"), &PutOptions::default())
        .unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::PutInhibited, "{e}");
    let dump = admin(&server, "DUMP QMGR");
    assert!(
        dump[0].script.iter().any(|l| l
            .starts_with("DEFINE TOPIC('FRUIT') TOPICSTR('Price/Fruit')")
            && l.contains("PUB(DISABLED)")),
        "{:?}",
        dump[0].script
    );
    admin(&server, "DELETE TOPIC(FRUIT)");
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    let r = c.admin("DELETE TOPIC(SYSTEM.BASE.TOPIC)").unwrap();
    assert!(
        !r[0].ok && r[0].messages[0].text.contains("MQRC_OBJECT_IN_USE"),
        "{r:?}"
    );
}

#[test]
fn authority_on_a_topic_object_covers_the_topics_below_it_only() {
    let server = Server::start_with_users("pubsub-topic-auth", "QM1", &[("dave", "dave-pw")], &[]);
    admin(
        &server,
        "SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('dave') AUTHADD(CONNECT)\n\
         DEFINE TOPIC(FRUIT) TOPICSTR('Price/Fruit')\n\
         SET AUTHREC PROFILE('FRUIT') OBJTYPE(TOPIC) PRINCIPAL('dave') AUTHADD(PUB)",
    );
    let opts = ferry_client::ClientOptions {
        user: Some("dave".into()),
        password: Some("dave-pw".into()),
        ..Default::default()
    };
    let mut dave = Connection::connect_with(&server.tcp_bare, "dave", &opts).unwrap();
    let h = dave
        .open(
            &ObjectDescriptor::topic("Price/Fruit/Apples"),
            OpenOptions::output(),
        )
        .unwrap();
    dave.put(h, Message::text("1.25"), &PutOptions::default())
        .unwrap();
    let e = dave
        .open(
            &ObjectDescriptor::topic("Price/Veg/Leeks"),
            OpenOptions::output(),
        )
        .unwrap_err();
    assert!(
        e.reason == ferry_client::Reason::NotAuthorized && e.detail.contains("SYSTEM.BASE.TOPIC"),
        "the closest topic object above Price/Veg is the base: {e}"
    );
    // Administrative subscriptions are checked the same way: SUB on FRUIT covers its topics.
    admin(
        &server,
        "SET AUTHREC PROFILE('FRUIT') OBJTYPE(TOPIC) PRINCIPAL('dave') AUTHADD(SUB)",
    );
    let mut dave = Connection::connect_with(&server.tcp_bare, "dave", &opts).unwrap();
    let r = dave
        .admin("DEFINE SUB('FRUIT.SUB') TOPICSTR('Price/Fruit/#') DEST(DEV.QUEUE.1)")
        .unwrap();
    assert!(r[0].ok, "SUB on FRUIT: {r:?}");
    let r = dave
        .admin("DEFINE SUB('VEG.SUB') TOPICSTR('Price/Veg/#') DEST(DEV.QUEUE.1)")
        .unwrap();
    assert!(!r[0].ok && r[0].messages[0].code == "AMQ8135E", "{r:?}");
    assert!(format!("{r:?}").contains("SYSTEM.BASE.TOPIC"), "{r:?}");
    let r = dave.admin("DELETE SUB('FRUIT.SUB')").unwrap();
    assert!(r[0].ok, "{r:?}");
}

fn publish_retained(endpoint: &str, topic: &str, text: &str) {
    let mut c = Connection::connect(endpoint, "publisher").unwrap();
    let h = c
        .open(&ObjectDescriptor::topic(topic), OpenOptions::output())
        .unwrap();
    let msg = Message::text(text).with_persistence(ferry_client::Persistence::Persistent);
    let opts = PutOptions {
        retain: true,
        ..PutOptions::default()
    };
    c.put(h, msg, &opts).unwrap();
}

#[test]
fn retained_publications_survive_a_crash_and_the_tree_shows_them() {
    let mut server = Server::start("pubsub-retained", &["--metrics-listen", "127.0.0.1:0"]);
    publish_retained(&server.unix, "Price/Fruit/Apples", "1.10");
    publish_retained(&server.tcp, "Price/Fruit/Apples", "1.20");
    publish_retained(&server.unix, "Price/Fruit/Pears", "0.90");
    let m = common::scrape(&server);
    assert!(
        m.contains("ferry_topic_publications_total{topic=\"Price/Fruit/Apples\"} 2"),
        "{m}"
    );
    // SIGKILL: the persistent retained publications come back.
    server.restart(&["--metrics-listen", "127.0.0.1:0"]);
    server.wait_ready();
    let mut c = Connection::connect(&server.tcp, "subscriber").unwrap();
    let (q, hsub) = c
        .subscribe(&ferry_client::SubDescriptor::managed("Price/Fruit/+"), None)
        .unwrap();
    let got: Vec<String> = std::iter::from_fn(|| c.get(q, &GetOptions::new()).ok())
        .map(|g| text(&g.message))
        .collect();
    assert_eq!(got, ["1.20", "0.90"], "the latest of each topic, once");
    assert_eq!(c.sub_request(hsub).unwrap(), 2, "MQSUBRQ over TCP");
    let status = |server: &Server, cmd: &str, key| common::display(server, cmd, key);
    assert_eq!(
        status(
            &server,
            "DISPLAY TPSTATUS('Price/Fruit/Apples') ALL",
            "RETAINED"
        )
        .as_deref(),
        Some("YES")
    );
    assert_eq!(
        status(
            &server,
            "DISPLAY TPSTATUS('Price/Fruit/+') TYPE(SUB) ALL",
            "SUBTYPE"
        )
        .as_deref(),
        Some("API")
    );
    let mut p = Connection::connect(&server.unix, "publisher").unwrap();
    let hp = p
        .open(
            &ObjectDescriptor::topic("Price/Fruit/Plums"),
            OpenOptions::output(),
        )
        .unwrap();
    p.put(hp, Message::text("2.00"), &PutOptions::default())
        .unwrap();
    assert_eq!(
        status(
            &server,
            "DISPLAY TPSTATUS('Price/Fruit/Plums') TYPE(PUB) ALL",
            "NUMPUBS"
        )
        .as_deref(),
        Some("1")
    );
    assert_eq!(
        status(
            &server,
            "DISPLAY TPSTATUS('Price/Fruit/Plums') ALL",
            "SUBCOUNT"
        )
        .as_deref(),
        Some("0")
    );
    // CLEAR TOPICSTR, across a restart too.
    admin(
        &server,
        "CLEAR TOPICSTR('Price/Fruit/Apples') CLRTYPE(RETAINED)",
    );
    server.restart(&["--metrics-listen", "127.0.0.1:0"]);
    server.wait_ready();
    assert_eq!(
        status(
            &server,
            "DISPLAY TPSTATUS('Price/Fruit/Apples') ALL",
            "RETAINED"
        )
        .as_deref(),
        None,
        "no node left for it"
    );
    assert_eq!(
        status(
            &server,
            "DISPLAY TPSTATUS('Price/Fruit/Pears') ALL",
            "RETAINED"
        )
        .as_deref(),
        Some("YES")
    );
}

#[test]
fn an_intercepting_subscription_at_a_higher_sublevel_takes_publications_across_a_crash() {
    use ferry_client::{CloseOptions, SubDescriptor};
    let mut server = Server::start("pubsub-levels", &[]);
    admin(
        &server,
        "DEFINE SUB('audit') TOPICSTR('Orders/#') DEST(DEV.QUEUE.1) SUBLEVEL(3)",
    );
    server.restart(&[]); // SIGKILL: the level is in the subscription's record
    server.wait_ready();
    let shown = common::display(&server, "DISPLAY SUB('audit') ALL", "SUBLEVEL");
    assert_eq!(shown.as_deref(), Some("3"));
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    let dump = c.admin("DUMP QMGR").unwrap();
    assert!(
        format!("{dump:?}").contains("SUBLEVEL(3) REPLACE"),
        "{dump:?}"
    );
    let r = c.admin("ALTER SUB('audit') SUBLEVEL(1)").unwrap();
    assert!(!r[0].ok && r[0].messages[0].text.contains("2512"), "{r:?}");
    // A final subscriber at level 1 over TCP, and a publisher at the default PubLevel (9).
    let mut sub = Connection::connect(&server.tcp, "final").unwrap();
    let (q, hsub) = sub
        .subscribe(&SubDescriptor::managed("Orders/+"), None)
        .unwrap();
    publish(&server.tcp, "Orders/New", "raw");
    assert!(sub.get(q, &GetOptions::new()).is_err(), "intercepted");
    let got = received(&server);
    assert_eq!(got.iter().map(text).collect::<Vec<_>>(), ["raw"]);
    // The interceptor republishes below its level: the final subscriber gets it.
    let mut p = Connection::connect(&server.tcp, "interceptor").unwrap();
    let h = p
        .open(
            &ObjectDescriptor::topic("Orders/New"),
            OpenOptions::output(),
        )
        .unwrap();
    let below = PutOptions {
        pub_level: Some(2),
        ..PutOptions::default()
    };
    p.put(h, Message::text("checked"), &below).unwrap();
    let got = sub.get(q, &GetOptions::new()).unwrap();
    assert_eq!(text(&got.message), "checked");
    assert!(received(&server).is_empty());
    // Out of range over the wire: 2424 for SubLevel, 2173 for PubLevel.
    let bad = SubDescriptor {
        sub_level: Some(12),
        ..SubDescriptor::managed("Orders/#")
    };
    let e = sub.subscribe(&bad, None).unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::SdError, "{e}");
    let too_high = PutOptions {
        pub_level: Some(10),
        ..PutOptions::default()
    };
    let e = p.put(h, Message::text("x"), &too_high).unwrap_err();
    assert_eq!(e.reason, ferry_client::Reason::PmoError, "{e}");
    sub.close(hsub, CloseOptions::None).unwrap();
}

#[test]
fn alter_sub_changes_what_may_change_and_keeps_it_across_a_crash() {
    let mut server = Server::start("pubsub-alter", &[]);
    admin(
        &server,
        "DEFINE SUB('Fruit') TOPICSTR('Price/Fruit/#') DEST(DEV.QUEUE.1) USERDATA('old')\n\
         ALTER SUB('Fruit') USERDATA('new') REQONLY(NO) VARUSER(FIXED)",
    );
    let mut c = Connection::connect(&server.unix, "admin").unwrap();
    let r = c.admin("ALTER SUB('Fruit') TOPICSTR('Price/#')").unwrap();
    assert!(
        !r[0].ok && r[0].messages[0].text.contains("TOPICSTR"),
        "{r:?}"
    );
    server.restart(&[]);
    server.wait_ready();
    let shown = |key| common::display(&server, "DISPLAY SUB('Fruit') ALL", key);
    assert_eq!(shown("USERDATA").as_deref(), Some("new"));
    assert_eq!(shown("VARUSER").as_deref(), Some("FIXED"));
    publish(&server.unix, "Price/Fruit/Figs", "3.10");
    let got = received(&server);
    assert_eq!(
        got[0].properties.get("MQSubUserData"),
        Some(&PropertyValue::String("new".into()))
    );
}

#[test]
fn a_server_publishes_its_monitoring_metadata_for_collectors_to_discover() {
    let server = Server::start("pubsub-monitor", &[]);
    let mut c = Connection::connect(&server.tcp, "collector").unwrap();
    let root = "$SYS/MQ/INFO/QMGR/QM1/Monitor/METADATA";
    for topic in [
        format!("{root}/CLASSES"),
        format!("{root}/STATQ/TYPES"),
        format!("{root}/STATMQI/PUT"),
    ] {
        let (q, h) = c
            .subscribe(&ferry_client::SubDescriptor::managed(&topic), None)
            .unwrap();
        let got = c
            .get(
                q,
                &GetOptions::new().wait(std::time::Duration::from_secs(5)),
            )
            .unwrap_or_else(|e| panic!("{topic}: {e}"))
            .message;
        assert_eq!(got.descriptor.format.as_str(), "MQADMIN", "{topic}");
        assert_eq!(
            got.properties.get("MQIsRetained"),
            Some(&PropertyValue::Bool(true))
        );
        c.close(h, ferry_client::CloseOptions::RemoveSub).unwrap();
    }
    // The host's classes are there too (a started queue manager measures them), and their
    // data comes on the data topics.
    let (q, h) = c
        .subscribe(
            &ferry_client::SubDescriptor::managed(&format!("{root}/CLASSES")),
            None,
        )
        .unwrap();
    let classes = c.get(q, &GetOptions::new()).unwrap().message;
    assert!(String::from_utf8_lossy(&classes.body).contains("Platform central processing units"));
    c.close(h, ferry_client::CloseOptions::RemoveSub).unwrap();
    let data = "$SYS/MQ/INFO/QMGR/QM1/Monitor/CPU/QMgrSummary";
    let (q, _hd) = c
        .subscribe(&ferry_client::SubDescriptor::managed(data), None)
        .unwrap();
    let wait = GetOptions::new().wait(std::time::Duration::from_secs(10));
    let got = c.get(q, &wait).unwrap().message;
    let values = ferry_model::monitor::int64_params(&got.body);
    let rss_mb = values.iter().find(|(id, _)| *id == 2).map(|p| p.1);
    assert!(
        rss_mb.is_some_and(|mb| mb > 0),
        "the queue manager's memory: {values:?}"
    );
    // A wildcard above $SYS does not see them.
    let (q, _h) = c
        .subscribe(&ferry_client::SubDescriptor::managed("#"), None)
        .unwrap();
    assert!(c.get(q, &GetOptions::new()).is_err());
}

fn region(text: &str, region: &str) -> Message {
    let mut m = Message::text(text);
    m.properties
        .set("region", PropertyValue::String(region.into()))
        .unwrap();
    m
}

#[test]
fn a_queue_opened_with_a_selection_string_gives_only_what_it_selects_over_every_client() {
    let server = Server::start("pubsub-selection", &[]);
    let mut c = Connection::connect(&server.unix, "putter").unwrap();
    let h = c.open_queue("DEV.QUEUE.1", OpenOptions::output()).unwrap();
    for (i, r) in ["APAC", "EMEA", "APAC", "EMEA"].iter().enumerate() {
        c.put(h, region(&format!("o{i}"), r), &PutOptions::default())
            .unwrap();
    }
    let q = || ferry_client::object_name("DEV.QUEUE.1").unwrap();
    // The blocking client over TCP.
    let mut t = Connection::connect(&server.tcp, "selector").unwrap();
    let sel = t
        .open(
            &ObjectDescriptor::queue_selecting(q(), "region = 'EMEA'"),
            OpenOptions::input(),
        )
        .unwrap();
    let got: Vec<String> = std::iter::from_fn(|| {
        t.get(sel, &GetOptions::new())
            .ok()
            .map(|g| text(&g.message))
    })
    .collect();
    assert_eq!(got, ["o1", "o3"]);
    // Refusals come back with MQ's reasons.
    let bad = t
        .open(
            &ObjectDescriptor::queue_selecting(q(), "region = = 'EMEA'"),
            OpenOptions::input(),
        )
        .unwrap_err();
    assert_eq!(
        bad.reason,
        ferry_client::Reason::SelectorSyntaxError,
        "{bad}"
    );
    let output = t
        .open(
            &ObjectDescriptor::queue_selecting(q(), "region = 'EMEA'"),
            OpenOptions::output(),
        )
        .unwrap_err();
    assert_eq!(output.reason, ferry_client::Reason::SelectorInvalidForType);
    // The async client over the local socket, waiting for a selected message.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let unix = server.unix.clone();
    let got = rt.block_on(async move {
        let opts = ferry_client::ClientOptions::default();
        let mut a = ferry_client::AsyncConnection::connect(&unix, "async", &opts)
            .await
            .unwrap();
        let h = a
            .open(
                &ObjectDescriptor::queue_selecting(q(), "region LIKE 'AP%'"),
                OpenOptions::input(),
            )
            .await
            .unwrap();
        let mut out = Vec::new();
        while let Ok(g) = a
            .get(
                h,
                &GetOptions::new().wait(std::time::Duration::from_millis(200)),
            )
            .await
        {
            out.push(text(&g.message));
        }
        out
    });
    assert_eq!(got, ["o0", "o2"]);
}
