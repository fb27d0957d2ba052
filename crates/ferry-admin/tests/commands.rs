//! The command language against a real (in-memory) queue manager: every command kind, its
//! errors, golden DISPLAY output, and a dump replayed into a fresh queue manager.

use ferry_admin::{format, run, run_script};
use ferry_core::{ConnectOptions, ObjectDescriptor, OpenOptions, QueueManager};

fn qm() -> QueueManager {
    QueueManager::with_name("QM1").unwrap()
}

fn ok(qm: &QueueManager, cmd: &str) -> ferry_admin::Reply {
    let r = run(qm, cmd, 1);
    assert!(r.ok, "{cmd}: {:?}", r.messages);
    r
}

fn err(qm: &QueueManager, cmd: &str) -> ferry_admin::Message {
    let r = run(qm, cmd, 1);
    assert!(!r.ok, "{cmd} should fail");
    r.messages[0].clone()
}

fn value(r: &ferry_admin::Reply, i: usize, key: &str) -> Option<String> {
    r.messages[i]
        .fields
        .iter()
        .find(|f| f.key == key)
        .map(|f| f.value.clone().unwrap_or_else(|| f.key.clone()))
}

#[test]
fn define_alter_display_and_delete_a_local_queue() {
    let qm = qm();
    let r = ok(
        &qm,
        "DEFINE QLOCAL(APP.IN) MAXDEPTH(20000) DESCR('Orders in') DEFPSIST(YES) NOSHARE",
    );
    assert_eq!(r.messages[0].code, "AMQ8006I");
    let r = ok(&qm, "DISPLAY QLOCAL(APP.IN) CRDATE CRTIME ALTDATE ALTTIME");
    assert_eq!(value(&r, 0, "CRDATE").map(|d| d.len()), Some(10), "{r:?}");
    assert_eq!(value(&r, 0, "ALTTIME").map(|d| d.len()), Some(8), "{r:?}");
    let a = qm.local_attrs("APP.IN").unwrap();
    assert_eq!(
        (a.max_depth, a.description.as_str(), a.shareable),
        (20000, "Orders in", false)
    );
    ok(&qm, "ALTER QLOCAL(APP.IN) MAXDEPTH(30000) PUT(DISABLED)");
    let a = qm.local_attrs("APP.IN").unwrap();
    assert!(a.put_inhibited && a.max_depth == 30000);
    let r = ok(&qm, "DISPLAY QLOCAL(APP.IN) MAXDEPTH DEFPSIST");
    assert_eq!(value(&r, 0, "MAXDEPTH").as_deref(), Some("30000"));
    assert_eq!(value(&r, 0, "DEFPSIST").as_deref(), Some("YES"));
    assert_eq!(value(&r, 0, "DESCR"), None, "only what was asked for");
    let r = ok(&qm, "DISPLAY QLOCAL(APP.IN) ALL");
    assert_eq!(value(&r, 0, "DESCR").as_deref(), Some("Orders in"));
    assert_eq!(value(&r, 0, "CURDEPTH").as_deref(), Some("0"));
    ok(&qm, "DELETE QLOCAL(APP.IN)");
    assert_eq!(err(&qm, "DISPLAY QLOCAL(APP.IN)").code, "AMQ8147E");
}

#[test]
fn like_replace_generic_names_and_where() {
    let qm = qm();
    ok(&qm, "DEFINE QLOCAL(APP.A) MAXDEPTH(7) DESCR('template')");
    ok(&qm, "DEFINE QLOCAL(APP.B) LIKE(APP.A)");
    assert_eq!(qm.local_attrs("APP.B").unwrap().max_depth, 7);
    assert_eq!(
        err(&qm, "DEFINE QLOCAL(APP.B) MAXDEPTH(8)").code,
        "AMQ8150E"
    );
    ok(&qm, "DEFINE QLOCAL(APP.B) MAXDEPTH(8) REPLACE");
    assert_eq!(qm.local_attrs("APP.B").unwrap().max_depth, 8);
    ok(&qm, "DEFINE QALIAS(APP.ALIAS) TARGET(APP.A)");
    let r = ok(&qm, "DISPLAY QUEUE(APP.*)");
    assert_eq!(r.messages.len(), 3);
    let r = ok(&qm, "DISPLAY QUEUE(APP.*) TYPE(QALIAS)");
    assert_eq!(r.messages.len(), 1);
    let r = ok(&qm, "DISPLAY QLOCAL(*) WHERE(MAXDEPTH LT 8)");
    let names: Vec<_> = r
        .messages
        .iter()
        .map(|m| m.fields[0].value.clone().unwrap())
        .collect();
    assert_eq!(names, vec!["APP.A"]);
    // REPLACE redefined APP.B from the defaults: only APP.A keeps the description.
    let r = ok(&qm, "DISPLAY QLOCAL(*) WHERE(DESCR EQ 'template')");
    assert_eq!(r.messages.len(), 1);
    let r = ok(&qm, "DISPLAY QLOCAL(SYSTEM.*) WHERE(QUEUE LK SYSTEM.DEAD*)");
    assert_eq!(r.messages.len(), 1);
    // A generic name that matches nothing is not an error; a missing object is.
    assert!(ok(&qm, "DISPLAY QLOCAL(NONE.*)").messages.is_empty());
    assert_eq!(err(&qm, "DELETE QALIAS(APP.A)").code, "AMQ8141E");
}

#[test]
fn errors_name_the_keyword_and_the_position() {
    let qm = qm();
    let m = err(&qm, "DEFINE QLOCAL(X) MAXDPETH(5)");
    assert_eq!(m.code, "AMQ8405E");
    assert!(
        m.text.contains("MAXDPETH") && m.text.contains("position 18"),
        "{}",
        m.text
    );
    let m = err(&qm, "DEFINE QLOCAL(X) MAXDEPTH(lots)");
    assert!(
        m.text.contains("MAXDEPTH") && m.text.contains("not a whole number"),
        "{}",
        m.text
    );
    let m = err(&qm, "DEFINE QLOCAL(X) DEFPSIST(MAYBE)");
    assert!(m.text.contains("YES, NO"), "{}", m.text);
    let m = err(&qm, "DISPLAY QLOCAL(*) CURDEPHT");
    assert!(m.text.contains("CURDEPHT"), "{}", m.text);
    let m = err(&qm, "DELETE QLOCAL(APP.*)");
    assert!(m.text.contains("generic"), "{}", m.text);
    let m = err(&qm, "ALTER QLOCAL(NOPE) MAXDEPTH(1)");
    assert_eq!(m.code, "AMQ8147E");
    let m = err(&qm, "DEFINE QLOCAL(X) MAXDEPTH(1000000000)");
    assert!(m.text.contains("largest allowed"), "{}", m.text);
    let m = err(&qm, "DEFINE CHANNEL(C1) CONNAME('h(1)')");
    assert!(m.text.contains("CHLTYPE"), "{}", m.text);
    let m = err(&qm, "START CHANNEL(C1)");
    assert_eq!(m.code, "AMQ8147E");
    ok(
        &qm,
        "DEFINE CHANNEL(C1) CHLTYPE(SDR) CONNAME('h(1)') XMITQ(Q)",
    );
    let m = err(&qm, "START CHANNEL(C1)");
    assert!(m.text.contains("ferry qm start"), "{}", m.text);
    let m = err(&qm, "DEFINE CHANNEL(A.CHANNEL.NAME.TOO.LONG) CHLTYPE(RCVR)");
    assert!(m.text.contains("at most 20"), "{}", m.text);
    let m = err(&qm, "START LISTENER(NONE)");
    assert_eq!(m.code, "AMQ8147E");
}

#[test]
fn queue_status_connections_and_handles() {
    let qm = qm();
    ok(&qm, "DEFINE QLOCAL(APP.Q)");
    let mut s = qm.connect(&ConnectOptions::app("orders-app")).unwrap();
    let h = s
        .open(
            &ObjectDescriptor::queue(ferry_core::object_name("APP.Q").unwrap()),
            OpenOptions::output().with_input(),
        )
        .unwrap();
    s.put(h, ferry_core::Message::text("m"), &Default::default())
        .unwrap();
    let r = ok(&qm, "DISPLAY QSTATUS(APP.Q) ALL");
    assert_eq!(value(&r, 0, "CURDEPTH").as_deref(), Some("1"));
    assert_eq!(value(&r, 0, "IPPROCS").as_deref(), Some("1"));
    assert_eq!(value(&r, 0, "OPPROCS").as_deref(), Some("1"));
    assert!(value(&r, 0, "LPUTDATE").unwrap().starts_with("20"));
    let r = ok(&qm, "DISPLAY QSTATUS(APP.Q) TYPE(HANDLE)");
    assert_eq!(value(&r, 0, "APPLTAG").as_deref(), Some("orders-app"));
    let r = ok(
        &qm,
        "DISPLAY CONN(*) TYPE(ALL) WHERE(APPLTAG EQ 'orders-app')",
    );
    assert_eq!(
        r.messages.len(),
        2,
        "the connection and its handle: {:?}",
        r.messages
    );
    assert_eq!(value(&r, 0, "CONNOPTS").as_deref(), Some("EMBEDDED"));
    assert_eq!(value(&r, 1, "OBJNAME").as_deref(), Some("APP.Q"));
    assert_eq!(value(&r, 1, "OPENOPTS").as_deref(), Some("INPUT,OUTPUT"));
    let r = ok(&qm, "DISPLAY CONN(*) WHERE(APPLTAG EQ 'nobody')");
    assert!(r.messages.is_empty());
    let r = ok(&qm, "DISPLAY QMSTATUS ALL");
    assert_eq!(value(&r, 0, "STATUS").as_deref(), Some("RUNNING"));
    drop(s);
}

#[test]
fn qmgr_channels_and_listeners() {
    let qm = qm();
    ok(&qm, "ALTER QMGR DESCR('test qm') MAXUMSGS(500)");
    assert_eq!(qm.attrs().max_uncommitted_msgs, 500);
    let r = ok(&qm, "DISPLAY QMGR DESCR");
    assert_eq!(value(&r, 0, "DESCR").as_deref(), Some("test qm"));
    ok(
        &qm,
        "DEFINE CHANNEL(TO.QM2) CHLTYPE(SDR) CONNAME('qm2.example(1414)') XMITQ(QM2)",
    );
    ok(&qm, "ALTER CHANNEL(TO.QM2) CHLTYPE(SDR) BATCHSZ(100)");
    let r = ok(&qm, "DISPLAY CHANNEL(TO.*) ALL");
    assert_eq!(value(&r, 0, "BATCHSZ").as_deref(), Some("100"));
    assert_eq!(
        value(&r, 0, "CONNAME").as_deref(),
        Some("qm2.example(1414)")
    );
    assert!(!run(&qm, "ALTER CHANNEL(TO.QM2) CHLTYPE(RCVR)", 1).ok);
    ok(
        &qm,
        "DEFINE LISTENER(L1) TRPTYPE(TCP) PORT(1515) CONTROL(QMGR)",
    );
    let r = ok(&qm, "DISPLAY LISTENER(L1) PORT");
    assert_eq!(value(&r, 0, "PORT").as_deref(), Some("1515"));
    // No server to run listeners in an embedded queue manager: said clearly.
    let m = err(&qm, "START LISTENER(L1)");
    assert!(m.text.contains("server"), "{}", m.text);
    ok(
        &qm,
        "DEFINE QREMOTE(TO.APP) RNAME(APP.IN) RQMNAME(QM2) XMITQ(QM2)",
    );
    let r = ok(&qm, "DISPLAY QREMOTE(TO.APP) RNAME");
    assert_eq!(value(&r, 0, "RNAME").as_deref(), Some("APP.IN"));
    ok(&qm, "DELETE CHANNEL(TO.QM2)");
    ok(&qm, "DELETE LISTENER(L1)");
    // MQ's system channels and listener are there, and are the templates of DEFINE without LIKE.
    let r = ok(&qm, "DISPLAY CHANNEL(SYSTEM.DEF.*) CHLTYPE");
    let types: Vec<_> = (0..r.messages.len())
        .filter_map(|i| value(&r, i, "CHLTYPE"))
        .collect();
    assert_eq!(types, ["CLNTCONN", "RCVR", "SDR", "SVRCONN"], "{r:?}");
    ok(&qm, "DISPLAY LISTENER(SYSTEM.DEFAULT.LISTENER.TCP)");
    ok(
        &qm,
        "ALTER CHANNEL(SYSTEM.DEF.SVRCONN) CHLTYPE(SVRCONN) MAXMSGL(1000)",
    );
    ok(&qm, "DEFINE CHANNEL(APP.SVRCONN) CHLTYPE(SVRCONN)");
    let r = ok(&qm, "DISPLAY CHANNEL(APP.SVRCONN) MAXMSGL");
    assert_eq!(value(&r, 0, "MAXMSGL").as_deref(), Some("1000"));
    ok(
        &qm,
        "ALTER LISTENER(SYSTEM.DEFAULT.LISTENER.TCP) BACKLOG(77)",
    );
    ok(&qm, "DEFINE LISTENER(L2) PORT(1616)");
    let r = ok(&qm, "DISPLAY LISTENER(L2) BACKLOG");
    assert_eq!(value(&r, 0, "BACKLOG").as_deref(), Some("77"));
}

#[test]
fn a_dump_replayed_into_a_fresh_queue_manager_rebuilds_it() {
    let a = qm();
    let script = "DEFINE QLOCAL(APP.IN) MAXDEPTH(123) DESCR('it''s in') MSGDLVSQ(FIFO) BOTHRESH(3) BOQNAME(APP.BO)
DEFINE QLOCAL(APP.BO)
DEFINE QALIAS(APP.ALIAS) TARGET(APP.IN) PUT(DISABLED)
DEFINE QMODEL(APP.MODEL) DEFTYPE(PERMDYN) MAXDEPTH(9)
DEFINE QREMOTE(APP.REMOTE) RNAME(X) RQMNAME(QM2)
DEFINE CHANNEL(SVR.CHL) CHLTYPE(SVRCONN) SHARECNV(5)
DEFINE LISTENER(L9) PORT(1999)
ALTER QMGR DESCR('rebuilt') MAXHANDS(99)
ALTER QLOCAL(DEV.QUEUE.1) MAXDEPTH(42)";
    let replies = run_script(&a, script);
    assert!(replies.iter().all(|r| r.ok), "{replies:?}");
    let dump = run(&a, "DUMP QMGR", 1);
    assert!(dump.ok);
    let text = dump.script.join("\n");
    let b = qm();
    let replayed = run_script(&b, &text);
    assert!(
        replayed.iter().all(|r| r.ok),
        "{:?}",
        replayed.iter().filter(|r| !r.ok).collect::<Vec<_>>()
    );
    // Everything displays the same on both.
    for cmd in [
        "DISPLAY QUEUE(*) ALL",
        "DISPLAY CHANNEL(*) ALL",
        "DISPLAY LISTENER(*) ALL",
        "DISPLAY QMGR DESCR MAXHANDS MAXUMSGS DEADQ",
    ] {
        // CRDATE/ALTDATE are when each was made (the replay is later), the rest the same.
        let undated = |r: ferry_admin::Reply| {
            let mut m = r.messages;
            for x in &mut m {
                x.fields.retain(|f| {
                    !["CRDATE", "CRTIME", "ALTDATE", "ALTTIME"].contains(&f.key.as_str())
                });
            }
            m
        };
        assert_eq!(undated(run(&a, cmd, 1)), undated(run(&b, cmd, 1)), "{cmd}");
    }
}

#[test]
fn display_output_reads_like_runmqsc() {
    let qm = qm();
    let replies = run_script(
        &qm,
        "DEFINE QLOCAL(APP.GOLDEN) MAXDEPTH(5000) DESCR('golden')\nDISPLAY QLOCAL(APP.GOLDEN) DESCR MAXDEPTH SHARE\nDISPLAY QLOCAL(NOPE)",
    );
    let text = format::text(&replies);
    let want = "     1 : DEFINE QLOCAL(APP.GOLDEN) MAXDEPTH(5000) DESCR('golden')
AMQ8006I: Queue APP.GOLDEN created.
     2 : DISPLAY QLOCAL(APP.GOLDEN) DESCR MAXDEPTH SHARE
AMQ8409I: Display Queue details.
   QUEUE(APP.GOLDEN)                       TYPE(QLOCAL)
   DESCR(golden)                           MAXDEPTH(5000)
   SHARE
     3 : DISPLAY QLOCAL(NOPE)
AMQ8147E: QLOCAL NOPE not found.
3 MQSC commands read.
No commands have a syntax error.
One valid MQSC command could not be processed.
";
    assert_eq!(text, want);
    let j = format::json(&replies);
    assert_eq!(j[1]["messages"][0]["attributes"]["MAXDEPTH"], 5000);
    assert_eq!(j[1]["messages"][0]["attributes"]["SHARE"], true);
    assert_eq!(j[2]["ok"], false);
}

#[test]
fn misspelt_verbs_objects_and_attributes_get_a_did_you_mean() {
    let qm = qm();
    for (cmd, want) in [
        ("DISPALY QMGR", "did you mean DISPLAY?"),
        ("DISPLAY QLOCL(X)", "did you mean QLOCAL?"),
        ("DEFINE QLOCAL(X) MAXDEPHT(5)", "did you mean MAXDEPTH?"),
        (
            "DISPLAY QLOCAL(SYSTEM.DEAD.LETTER.QUEUE) CURDEPT",
            "did you mean CURDEPTH?",
        ),
    ] {
        let m = err(&qm, cmd);
        assert!(m.text.contains(want), "{cmd}: {}", m.text);
    }
    let m = err(&qm, "FROBNICATE QMGR");
    assert!(
        !m.text.contains("did you mean"),
        "nothing close: {}",
        m.text
    );
}

/// DISPLAY without an attribute list shows every attribute of one named object (and of the
/// queue manager), and only the names of a generic one — MQ's rule.
#[test]
fn display_without_attributes_shows_all_of_a_named_object_and_names_of_generic_ones() {
    let qm = qm();
    ok(&qm, "DEFINE QLOCAL(APP.ONE) MAXDEPTH(77)");
    let r = ok(&qm, "DISPLAY QMGR");
    for key in [
        "QMNAME", "MAXHANDS", "DEADQ", "CCSID", "CMDLEVEL", "MAXMSGL",
    ] {
        assert!(
            value(&r, 0, key).is_some(),
            "DISPLAY QMGR shows {key}: {r:?}"
        );
    }
    let r = ok(&qm, "DISPLAY QLOCAL(APP.ONE)");
    assert_eq!(value(&r, 0, "MAXDEPTH").as_deref(), Some("77"), "{r:?}");
    for key in [
        "DEFPSIST", "DEFPRTY", "MAXMSGL", "DESCR", "USAGE", "BOQNAME",
    ] {
        assert!(
            value(&r, 0, key).is_some(),
            "DISPLAY QLOCAL shows {key}: {r:?}"
        );
    }
    let r = ok(&qm, "DISPLAY QLOCAL(APP.*)");
    assert!(value(&r, 0, "MAXDEPTH").is_none(), "{r:?}");
    assert_eq!(value(&r, 0, "QUEUE").as_deref(), Some("APP.ONE"), "{r:?}");
}

/// CMDEV: a command that ran makes a command event on SYSTEM.ADMIN.COMMAND.EVENT (ENABLED:
/// every one; NODISPLAY: all but DISPLAY); a failed command makes none; ALTER QMGR
/// CMDEV(DISABLED) is itself reported.
#[test]
fn command_events_report_what_ran_as_cmdev_says() {
    use ferry_model::pcf::{self, Param};
    let qm = qm();
    let events = |qm: &QueueManager| -> Vec<(i32, String)> {
        let mut s = qm.connect(&ConnectOptions::app("events")).unwrap();
        let q = ferry_core::object_name("SYSTEM.ADMIN.COMMAND.EVENT").unwrap();
        let h = s
            .open(&ObjectDescriptor::queue(q), OpenOptions::input())
            .unwrap();
        let mut out = Vec::new();
        while let Ok(g) = s.get(h, &ferry_core::GetOptions::new()) {
            assert_eq!(g.message.descriptor.format.as_str().trim(), "MQEVENT");
            let (h, params) = pcf::decode(&g.message.body, false).unwrap();
            assert_eq!((h.command, params.len()), (pcf::CMD_COMMAND_EVENT, 2));
            let Param::Group(pcf::GACF_COMMAND_DATA, data) = &params[1] else {
                panic!("{params:?}")
            };
            let Param::Str(pcf::CACF_COMMAND_MQSC, text) = &data[0] else {
                panic!("{data:?}")
            };
            out.push((h.reason, text.clone()));
        }
        s.disconnect().unwrap();
        out
    };
    ok(&qm, "DEFINE QLOCAL(BEFORE)");
    assert!(events(&qm).is_empty(), "CMDEV is DISABLED by default");
    ok(&qm, "ALTER QMGR CMDEV(ENABLED)");
    ok(&qm, "DEFINE QLOCAL(APP.EV)");
    ok(&qm, "DISPLAY QLOCAL(APP.EV)");
    err(&qm, "DEFINE QLOCAL(APP.EV)");
    let seen = events(&qm);
    let texts: Vec<&str> = seen.iter().map(|(_, t)| t.as_str()).collect();
    assert_eq!(
        texts,
        [
            "ALTER QMGR CMDEV(ENABLED)",
            "DEFINE QLOCAL(APP.EV)",
            "DISPLAY QLOCAL(APP.EV)"
        ],
        "{seen:?}"
    );
    assert!(seen.iter().all(|(r, _)| *r == pcf::RC_COMMAND_MQSC));
    ok(&qm, "ALTER QMGR CMDEV(NODISPLAY)");
    ok(&qm, "DISPLAY QMGR CMDEV");
    ok(&qm, "ALTER QMGR CMDEV(DISABLED)");
    ok(&qm, "DELETE QLOCAL(APP.EV)");
    let texts: Vec<String> = events(&qm).into_iter().map(|(_, t)| t).collect();
    assert_eq!(
        texts,
        ["ALTER QMGR CMDEV(NODISPLAY)", "ALTER QMGR CMDEV(DISABLED)"],
        "NODISPLAY skips DISPLAY; turning events off is reported; then none"
    );
    let r = ok(&qm, "DISPLAY QMGR CMDEV");
    assert_eq!(value(&r, 0, "CMDEV").as_deref(), Some("DISABLED"));
}

#[test]
fn namelists_and_process_definitions_are_defined_shown_dumped_and_deleted() {
    let qm = qm();
    // The system defaults exist, and DEFINE without LIKE starts from them.
    ok(&qm, "DISPLAY NAMELIST(SYSTEM.DEFAULT.NAMELIST)");
    ok(&qm, "DISPLAY PROCESS(SYSTEM.DEFAULT.PROCESS)");
    let r = ok(
        &qm,
        "DEFINE NAMELIST(APP.QUEUES) NAMES(APP.IN, APP.OUT) DESCR('app queues')",
    );
    assert_eq!(r.messages[0].code, "AMQ8552I");
    let r = ok(&qm, "DISPLAY NAMELIST(APP.QUEUES)");
    assert_eq!(r.messages[0].code, "AMQ8550I");
    assert_eq!(value(&r, 0, "NAMES").as_deref(), Some("APP.IN,APP.OUT"));
    assert_eq!(value(&r, 0, "NAMCOUNT").as_deref(), Some("2"));
    assert_eq!(value(&r, 0, "NLTYPE").as_deref(), Some("NONE"));
    assert!(
        value(&r, 0, "ALTDATE").is_some_and(|d| d.len() == 10),
        "{r:?}"
    );
    ok(
        &qm,
        "ALTER NAMELIST(APP.QUEUES) NAMES(A, B, C) NLTYPE(QUEUE)",
    );
    let r = ok(&qm, "DISPLAY NL(APP.*) NAMCOUNT");
    assert_eq!(value(&r, 0, "NAMCOUNT").as_deref(), Some("3"));
    let m = err(&qm, "DEFINE NAMELIST(APP.QUEUES)");
    assert!(m.text.contains("REPLACE"), "{m:?}");
    ok(&qm, "DEFINE NAMELIST(COPY.NL) LIKE(APP.QUEUES)");
    let r = ok(&qm, "DISPLAY NAMELIST(COPY.NL) NAMES");
    assert_eq!(value(&r, 0, "NAMES").as_deref(), Some("A,B,C"));
    let m = err(&qm, "DEFINE NAMELIST(BAD) NLTYPE(FRUIT)");
    assert!(m.text.contains("NLTYPE"), "{m:?}");
    let many: Vec<String> = (0..257).map(|i| format!("Q{i}")).collect();
    let m = err(
        &qm,
        &format!("DEFINE NAMELIST(BIG) NAMES({})", many.join(",")),
    );
    assert!(m.text.contains("256"), "{m:?}");

    let r = ok(
        &qm,
        "DEFINE PROCESS(ECHO) APPLTYPE(UNIX) APPLICID('/opt/app/echo') USERDATA('u') ENVRDATA('e')",
    );
    assert_eq!(r.messages[0].code, "AMQ8010I");
    let r = ok(&qm, "DISPLAY PROCESS(ECHO)");
    assert_eq!(r.messages[0].code, "AMQ8407I");
    assert_eq!(value(&r, 0, "APPLICID").as_deref(), Some("/opt/app/echo"));
    assert_eq!(value(&r, 0, "APPLTYPE").as_deref(), Some("UNIX"));
    ok(
        &qm,
        "ALTER PROCESS(ECHO) APPLTYPE(70000) DESCR('user type')",
    );
    let r = ok(&qm, "DISPLAY PRO(ECHO) APPLTYPE");
    assert_eq!(value(&r, 0, "APPLTYPE").as_deref(), Some("70000"));
    let m = err(
        &qm,
        &format!("ALTER PROCESS(ECHO) APPLICID('{}')", "x".repeat(257)),
    );
    assert!(m.text.contains("256"), "{m:?}");

    // DUMP writes them; a fresh queue manager replaying it shows the same.
    let dump = run(&qm, "DUMP QMGR", 1);
    let b = QueueManager::with_name("QM1").unwrap();
    let replayed = run_script(&b, &dump.script.join("\n"));
    assert!(replayed.iter().all(|r| r.ok), "{replayed:?}");
    for cmd in [
        "DISPLAY NAMELIST(*) NAMES NLTYPE DESCR",
        "DISPLAY PROCESS(*) APPLTYPE APPLICID ENVRDATA USERDATA DESCR",
    ] {
        assert_eq!(run(&qm, cmd, 1).messages, run(&b, cmd, 1).messages, "{cmd}");
    }

    ok(&qm, "DELETE NAMELIST(COPY.NL)");
    let m = err(&qm, "DELETE NAMELIST(COPY.NL)");
    assert!(m.text.contains("not"), "{m:?}");
    ok(&qm, "DELETE PROCESS(ECHO)");
    let m = err(&qm, "DISPLAY PROCESS(ECHO)");
    assert!(m.code.starts_with("AMQ"), "{m:?}");
}

#[test]
fn stop_conn_ends_a_connection_named_as_display_conn_shows_it() {
    let qm = qm();
    let mut s = qm.connect(&ConnectOptions::app("victim")).unwrap();
    let conn = format!("{:016X}", s.connection_id());
    let r = ok(&qm, &format!("DISPLAY CONN({conn}) EXTCONN"));
    let ext = value(&r, 0, "EXTCONN").unwrap();
    assert!(ext.starts_with("414D5143514D31"), "AMQCQM1…: {ext}");
    let m = err(
        &qm,
        &format!("STOP CONN({conn}) EXTCONN({})", "0".repeat(32)),
    );
    assert!(m.text.contains("EXTCONN"), "{m:?}");
    let m = err(&qm, "STOP CONN(NOTHEX)");
    assert!(m.text.contains("16 hexadecimal"), "{m:?}");
    let r = ok(&qm, &format!("STOP CONN({conn}) EXTCONN({ext})"));
    assert_eq!(r.messages[0].code, "AMQ8455I");
    let e = s
        .open(
            &ObjectDescriptor::queue(ferry_core::object_name("DEV.QUEUE.1").unwrap()),
            OpenOptions::input(),
        )
        .unwrap_err();
    assert_eq!(e.reason, ferry_core::Reason::ConnectionStopped);
    let m = err(&qm, "STOP CONN(00000000DEADBEEF)");
    assert!(m.text.contains("no connection"), "{m:?}");
}

/// A set-up script in MQ's usual shape (dead-letter queue, initiation queue and process,
/// triggered request and transmission queues, channels, listener, namelist, topic, authority)
/// replays without an error, and the trigger attributes are kept and shown.
#[test]
fn an_mq_style_setup_script_replays_and_keeps_trigger_attributes() {
    let qm = qm();
    let script = "DEFINE QLOCAL('DEV.DEAD.LETTER.QUEUE') REPLACE
ALTER QMGR DEADQ('DEV.DEAD.LETTER.QUEUE')
DEFINE QLOCAL('APP.INITQ') LIKE(SYSTEM.DEFAULT.INITIATION.QUEUE) REPLACE
DEFINE PROCESS('APP.PROC') APPLICID('/opt/app/run') APPLTYPE(UNIX) REPLACE
DEFINE QLOCAL('APP.REQUEST') TRIGGER TRIGTYPE(DEPTH) TRIGDPTH(5) TRIGMPRI(4) INITQ('APP.INITQ') PROCESS('APP.PROC') REPLACE
DEFINE QLOCAL('QM2') USAGE(XMITQ) TRIGGER INITQ(SYSTEM.CHANNEL.INITQ) TRIGDATA('QM1.TO.QM2') REPLACE
DEFINE CHANNEL('QM1.TO.QM2') CHLTYPE(SDR) TRPTYPE(TCP) CONNAME('qm2host(1414)') XMITQ('QM2') REPLACE
DEFINE CHANNEL('QM2.TO.QM1') CHLTYPE(RCVR) TRPTYPE(TCP) REPLACE
DEFINE CHANNEL('DEV.APP.SVRCONN') CHLTYPE(SVRCONN) TRPTYPE(TCP) MCAUSER('app') REPLACE
DEFINE LISTENER('LISTENER.TCP') TRPTYPE(TCP) PORT(1414) CONTROL(QMGR) REPLACE
DEFINE NAMELIST('APP.QUEUES') NAMES('APP.REQUEST', 'QM2') REPLACE
DEFINE TOPIC('DEV.BASE.TOPIC') TOPICSTR('dev/') REPLACE
SET AUTHREC PROFILE('APP.**') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(BROWSE,GET,INQ,PUT)";
    let replies = run_script(&qm, script);
    let failed: Vec<_> = replies.iter().filter(|r| !r.ok).collect();
    assert!(failed.is_empty(), "{failed:?}");
    let r = ok(
        &qm,
        "DISPLAY QLOCAL(APP.REQUEST) TRIGGER TRIGTYPE TRIGDPTH TRIGMPRI INITQ PROCESS",
    );
    assert_eq!(value(&r, 0, "TRIGGER").as_deref(), Some("TRIGGER"), "{r:?}");
    assert_eq!(value(&r, 0, "TRIGTYPE").as_deref(), Some("DEPTH"));
    assert_eq!(value(&r, 0, "TRIGDPTH").as_deref(), Some("5"));
    assert_eq!(value(&r, 0, "TRIGMPRI").as_deref(), Some("4"));
    assert_eq!(value(&r, 0, "INITQ").as_deref(), Some("APP.INITQ"));
    assert_eq!(value(&r, 0, "PROCESS").as_deref(), Some("APP.PROC"));
    ok(&qm, "ALTER QLOCAL(APP.REQUEST) NOTRIGGER");
    let r = ok(&qm, "DISPLAY QLOCAL(APP.REQUEST) TRIGGER");
    assert_eq!(
        value(&r, 0, "NOTRIGGER").as_deref(),
        Some("NOTRIGGER"),
        "{r:?}"
    );
    let m = err(&qm, "ALTER QLOCAL(QM2) TRIGMPRI(10)");
    assert!(m.text.contains("TRIGMPRI"), "{m:?}");
}

/// MQ's other system queues exist: the alias and remote templates that DEFINE QALIAS and
/// QREMOTE start from (their blank names failing at open as MQ's do), the models MQ's tools
/// name for replies, and the monitoring queues FerryMQ does not write.
#[test]
fn the_alias_and_remote_templates_and_the_tools_queues_exist() {
    let qm = qm();
    for q in ferry_model::system::TOOL_MODEL_QUEUES {
        let r = ok(&qm, &format!("DISPLAY QMODEL({q}) DEFTYPE"));
        assert_eq!(value(&r, 0, "DEFTYPE").as_deref(), Some("TEMPDYN"), "{q}");
    }
    for q in ferry_model::system::QUIET_ADMIN_QUEUES {
        ok(&qm, &format!("DISPLAY QLOCAL({q})"));
    }
    ok(&qm, "ALTER QALIAS(SYSTEM.DEFAULT.ALIAS.QUEUE) DEFPRTY(7)");
    ok(&qm, "DEFINE QLOCAL(APP.TARGET)");
    ok(&qm, "DEFINE QALIAS(APP.ALIAS) TARGET(APP.TARGET)");
    let r = ok(&qm, "DISPLAY QALIAS(APP.ALIAS) DEFPRTY DESCR");
    assert_eq!(value(&r, 0, "DEFPRTY").as_deref(), Some("7"), "{r:?}");
    assert_eq!(value(&r, 0, "DESCR").as_deref(), Some(""), "{r:?}");
    ok(
        &qm,
        "ALTER QREMOTE(SYSTEM.DEFAULT.REMOTE.QUEUE) DEFPSIST(YES)",
    );
    ok(&qm, "DEFINE QLOCAL(QM2) USAGE(XMITQ)");
    ok(&qm, "DEFINE QREMOTE(APP.FAR) RNAME(APP.IN) RQMNAME(QM2)");
    let r = ok(&qm, "DISPLAY QREMOTE(APP.FAR) DEFPSIST");
    assert_eq!(value(&r, 0, "DEFPSIST").as_deref(), Some("YES"), "{r:?}");
    // Names stay required outside the templates.
    err(&qm, "DEFINE QALIAS(APP.NOWHERE)");
    let mut s = qm.connect(&ConnectOptions::app("commands")).unwrap();
    let od = |n: &str| ObjectDescriptor::queue(ferry_core::object_name(n).unwrap());
    let e = s
        .open(&od("SYSTEM.DEFAULT.ALIAS.QUEUE"), OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, ferry_core::Reason::UnknownAliasBaseQ, "{e}");
    let e = s
        .open(&od("SYSTEM.DEFAULT.REMOTE.QUEUE"), OpenOptions::output())
        .unwrap_err();
    assert_eq!(e.reason, ferry_core::Reason::UnknownObjectName, "{e}");
    let h = s
        .open(&od("SYSTEM.MQEXPLORER.REPLY.MODEL"), OpenOptions::input())
        .unwrap();
    assert!(s.queue_name(h).unwrap().as_str().starts_with("AMQ."));
}

/// WHERE on a list attribute: CT and EX (an item equal to the value), CTG and EXG (an item
/// matching a generic value), as MQ's DISPLAY takes them; a single value is a list of one.
#[test]
fn where_contains_and_excludes_look_into_lists() {
    let qm = qm();
    ok(&qm, "DEFINE NAMELIST(NL.ORDERS) NAMES(APP.IN, APP.OUT)");
    ok(&qm, "DEFINE NAMELIST(NL.BILLING) NAMES(BILL.IN)");
    let names = |cmd: &str| -> Vec<String> {
        let r = ok(&qm, cmd);
        (0..r.messages.len())
            .filter_map(|i| value(&r, i, "NAMELIST"))
            .collect()
    };
    assert_eq!(
        names("DISPLAY NAMELIST(NL.*) WHERE(NAMES CT APP.OUT)"),
        ["NL.ORDERS"]
    );
    assert_eq!(
        names("DISPLAY NAMELIST(NL.*) WHERE(NAMES EX APP.OUT)"),
        ["NL.BILLING"]
    );
    assert_eq!(
        names("DISPLAY NAMELIST(NL.*) WHERE(NAMES CTG BILL.*)"),
        ["NL.BILLING"]
    );
    assert_eq!(
        names("DISPLAY NAMELIST(NL.*) WHERE(NAMES EXG APP.*)"),
        ["NL.BILLING"]
    );
    assert_eq!(
        names("DISPLAY NAMELIST(NL.*) WHERE(NAMES CT APP)"),
        Vec::<String>::new()
    );
    let e = err(&qm, "DISPLAY NAMELIST(NL.*) WHERE(NAMES XX APP)");
    assert!(e.text.contains("CTG"), "{e:?}");
}
