//! MQOPEN of a queue with a selection string (MQOD SelectionString): gets and browses through
//! the handle see only the messages the selector selects, in the queue's order; others stay for
//! other handles; a waiting get wakes for a selected message only; bad strings are refused with
//! MQ's reasons.

use std::time::Duration;

use ferry_core::{
    object_name, BrowseMode, ConnectOptions, GetOptions, Hobj, Message, ObjectDescriptor,
    OpenOptions, PropertyValue, PutOptions, QueueManager, Reason, Session,
};

fn qm() -> QueueManager {
    QueueManager::with_name("QMS").unwrap()
}

fn session(qm: &QueueManager) -> Session {
    qm.connect(&ConnectOptions::app("selection")).unwrap()
}

fn selecting(s: &mut Session, selector: &str, opts: OpenOptions) -> Hobj {
    s.open(
        &ObjectDescriptor::queue_selecting(object_name("DEV.QUEUE.1").unwrap(), selector),
        opts,
    )
    .unwrap()
}

fn order(text: &str, region: &str, priority: u8) -> Message {
    let mut m = Message::text(text).with_priority(priority);
    m.properties
        .set("region", PropertyValue::String(region.into()))
        .unwrap();
    m
}

fn put_orders(s: &mut Session) {
    let h = s
        .open(
            &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
            OpenOptions::output(),
        )
        .unwrap();
    for (i, region) in ["APAC", "EMEA", "APAC", "EMEA", "AMER", "EMEA"]
        .iter()
        .enumerate()
    {
        s.put(
            h,
            order(&format!("o{i}"), region, 4),
            &PutOptions::default(),
        )
        .unwrap();
    }
}

fn text(s: &mut Session, h: Hobj, opts: &GetOptions) -> Option<String> {
    match s.get(h, opts) {
        Ok(g) => Some(String::from_utf8(g.message.body.to_vec()).unwrap()),
        Err(e) if e.reason == Reason::NoMsgAvailable => None,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn a_selecting_handle_gets_only_what_its_selector_selects_and_leaves_the_rest() {
    let qm = qm();
    let mut s = session(&qm);
    put_orders(&mut s);
    let h = selecting(&mut s, "region = 'EMEA'", OpenOptions::input());
    let got: Vec<String> = std::iter::from_fn(|| text(&mut s, h, &GetOptions::new())).collect();
    assert_eq!(got, ["o1", "o3", "o5"]);
    let plain = s
        .open(
            &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    let rest: Vec<String> =
        std::iter::from_fn(|| text(&mut s, plain, &GetOptions::new())).collect();
    assert_eq!(rest, ["o0", "o2", "o4"], "passed over, not taken");
}

#[test]
fn browsing_with_a_selector_moves_the_cursor_over_selected_messages_only() {
    let qm = qm();
    let mut s = session(&qm);
    put_orders(&mut s);
    let h = selecting(
        &mut s,
        "region <> 'EMEA' AND Root.MQMD.Priority = 4",
        OpenOptions::input().with_browse(),
    );
    let first = text(&mut s, h, &GetOptions::new().browse(BrowseMode::First));
    let next = text(&mut s, h, &GetOptions::new().browse(BrowseMode::Next));
    let third = text(&mut s, h, &GetOptions::new().browse(BrowseMode::Next));
    let end = text(&mut s, h, &GetOptions::new().browse(BrowseMode::Next));
    assert_eq!(
        (first.as_deref(), next.as_deref(), third.as_deref(), end),
        (Some("o0"), Some("o2"), Some("o4"), None)
    );
    // Browsed, not got: all six are still there.
    let all = selecting(&mut s, "region IS NOT NULL", OpenOptions::input());
    assert_eq!(
        std::iter::from_fn(|| text(&mut s, all, &GetOptions::new())).count(),
        6
    );
}

#[test]
fn a_waiting_selecting_get_wakes_for_a_selected_message_only() {
    let qm = qm();
    let mut s = session(&qm);
    put_orders(&mut s);
    let h = selecting(&mut s, "region = 'LATAM'", OpenOptions::input());
    let qm2 = qm.clone();
    let putter = std::thread::spawn(move || {
        let mut p = session(&qm2);
        let q = p
            .open(
                &ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
                OpenOptions::output(),
            )
            .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        p.put(q, order("not-this", "EMEA", 9), &PutOptions::default())
            .unwrap();
        std::thread::sleep(Duration::from_millis(100));
        p.put(q, order("this", "LATAM", 0), &PutOptions::default())
            .unwrap();
    });
    let wait = GetOptions::new().wait(Duration::from_secs(10));
    assert_eq!(text(&mut s, h, &wait).as_deref(), Some("this"));
    putter.join().unwrap();
    let short = GetOptions::new().wait(Duration::from_millis(50));
    assert_eq!(text(&mut s, h, &short), None, "nothing else is LATAM");
}

#[test]
fn a_selected_get_in_syncpoint_comes_back_at_backout() {
    let qm = qm();
    let mut s = session(&qm);
    put_orders(&mut s);
    let h = selecting(&mut s, "region = 'AMER'", OpenOptions::input());
    assert_eq!(
        text(&mut s, h, &GetOptions::new().syncpoint()).as_deref(),
        Some("o4")
    );
    assert_eq!(text(&mut s, h, &GetOptions::new().syncpoint()), None);
    s.backout().unwrap();
    assert_eq!(text(&mut s, h, &GetOptions::new()).as_deref(), Some("o4"));
}

#[test]
fn selection_strings_are_refused_where_mq_refuses_them() {
    let qm = qm();
    let mut s = session(&qm);
    let q = || object_name("DEV.QUEUE.1").unwrap();
    let open = |s: &mut Session, sel: &str, opts: OpenOptions| {
        s.open(&ObjectDescriptor::queue_selecting(q(), sel), opts)
            .unwrap_err()
    };
    let e = open(&mut s, "region = ", OpenOptions::input());
    assert_eq!(e.reason, Reason::SelectorSyntaxError, "{e}");
    let e = open(&mut s, "region = 'EMEA'", OpenOptions::output());
    assert_eq!(e.reason, Reason::SelectorInvalidForType, "{e}");
    let long = format!("region = '{}'", "x".repeat(10_300));
    let e = open(&mut s, &long, OpenOptions::input());
    assert_eq!(e.reason, Reason::SelectionStringError, "{e}");
    // A blank selection string is no selector.
    let h = s
        .open(
            &ObjectDescriptor::queue_selecting(q(), "  "),
            OpenOptions::input(),
        )
        .unwrap();
    s.close(h, ferry_core::CloseOptions::None).unwrap();
}
