//! The PCF command server of the real `ferry` server: requests put to
//! SYSTEM.ADMIN.COMMAND.QUEUE over a real socket, answered on the reply-to queue — inquiries,
//! changes, MQSC through MQCMD_ESCAPE, refusals with MQ's reason codes, the requester's
//! authority, and requests that are not PCF at all.

mod common;

use std::time::Duration;

use common::Server;
use ferry_client::{ClientOptions, Connection, GetOptions, Message, MessageType, OpenOptions};
use ferry_model::name::{object_name, FormatName};
use ferry_model::pcf::{self, cft, Header, Param};

const CMD_Q: &str = "SYSTEM.ADMIN.COMMAND.QUEUE";

// MQCMD_*, parameters and reasons, as MQ's reference numbers them.
const CREATE_Q: i32 = 11;
const CHANGE_Q: i32 = 8;
const DELETE_Q: i32 = 12;
const INQUIRE_Q: i32 = 13;
const INQUIRE_Q_NAMES: i32 = 18;
const INQUIRE_Q_STATUS: i32 = 41;
const INQUIRE_Q_MGR: i32 = 2;
const ESCAPE: i32 = 38;
const PING_Q_MGR: i32 = 40;
const RESET_Q_STATS: i32 = 17;
const MSG_ENQ_COUNT: i32 = 37;
const HIGH_Q_DEPTH: i32 = 36;
const Q_NAME: i32 = 2016;
const Q_TYPE: i32 = 20;
const Q_DESC: i32 = 2013;
const MAX_Q_DEPTH: i32 = 15;
const SHAREABILITY: i32 = 23;
const CURRENT_Q_DEPTH: i32 = 3;
const Q_ATTRS: i32 = 1002;
const PURGE: i32 = 1007;

struct Pcf {
    conn: Connection,
    cmd: ferry_client::Hobj,
    reply: ferry_client::Hobj,
}

impl Pcf {
    fn new(conn: Connection) -> Pcf {
        let mut conn = conn;
        let cmd = conn.open_queue(CMD_Q, OpenOptions::output()).unwrap();
        let reply = conn.open_queue("PCF.REPLY", OpenOptions::input()).unwrap();
        Pcf { conn, cmd, reply }
    }

    /// Puts `body` (with `format` and `encoding`) and collects the responses to the last.
    fn raw(&mut self, body: Vec<u8>, format: &str, encoding: u32) -> Vec<(Header, Vec<Param>)> {
        let mut m = Message::new(body);
        m.descriptor.format = FormatName::truncating(format);
        m.descriptor.message_type = MessageType::Request;
        m.descriptor.reply_to_queue = object_name("PCF.REPLY").unwrap();
        m.descriptor.encoding = encoding;
        let out = self.conn.put(self.cmd, m, &Default::default()).unwrap();
        let mut answers = Vec::new();
        loop {
            let opts = GetOptions::new()
                .wait(Duration::from_secs(10))
                .correl_id(ferry_client::CorrelId(out.msg_id.0));
            let got = self.conn.get(self.reply, &opts).expect("a PCF response");
            let d = &got.message.descriptor;
            assert_eq!(d.format.as_str().trim(), "MQADMIN");
            assert_eq!(d.message_type, MessageType::Reply);
            let (h, p) = pcf::decode(&got.message.body, cfg!(target_endian = "big")).unwrap();
            assert_eq!(h.kind, cft::RESPONSE);
            assert_eq!(h.seq as usize, answers.len() + 1);
            let last = h.control == 1;
            answers.push((h, p));
            if last {
                return answers;
            }
        }
    }

    fn ask(&mut self, command: i32, params: &[Param]) -> Vec<(Header, Vec<Param>)> {
        let h = Header {
            kind: cft::COMMAND,
            version: 1,
            command,
            seq: 1,
            control: 1,
            comp_code: 0,
            reason: 0,
        };
        self.raw(pcf::encode(&h, params), "MQADMIN", 546)
    }

    /// The one successful response's parameters.
    fn ok(&mut self, command: i32, params: &[Param]) -> Vec<Param> {
        let mut a = self.ask(command, params);
        assert_eq!(a.len(), 1, "{a:?}");
        let (h, p) = a.remove(0);
        assert_eq!((h.comp_code, h.reason, h.command), (0, 0, command), "{p:?}");
        p
    }

    /// The reason of a refusal: a failed response with it, then MQ's summary
    /// MQRCCF_COMMAND_FAILED (3008) as the last.
    fn refused(&mut self, command: i32, params: &[Param]) -> i32 {
        let a = self.ask(command, params);
        assert_eq!(a.len(), 2, "{a:?}");
        assert_eq!((a[0].0.comp_code, a[0].0.control), (2, 0), "{a:?}");
        assert_eq!((a[1].0.comp_code, a[1].0.reason), (2, 3008), "{a:?}");
        a[0].0.reason
    }
}

fn int(p: &[Param], id: i32) -> Option<i32> {
    p.iter().find_map(|x| match x {
        Param::Int(i, v) if *i == id => Some(*v),
        _ => None,
    })
}

fn text(p: &[Param], id: i32) -> Option<String> {
    p.iter().find_map(|x| match x {
        Param::Str(i, v) if *i == id => Some(v.clone()),
        _ => None,
    })
}

fn name(s: &str) -> Param {
    Param::Str(Q_NAME, s.into())
}

fn owner_session(server: &Server) -> Pcf {
    let mut c = Connection::connect(&server.unix, "pcf-test").unwrap();
    let r = c.admin("DEFINE QLOCAL(PCF.REPLY) REPLACE").unwrap();
    assert!(r[0].ok, "{r:?}");
    Pcf::new(c)
}

#[test]
fn queues_are_created_inquired_changed_and_deleted_through_pcf() {
    let server = Server::start("pcf", &[]);
    let mut pcf = owner_session(&server);
    assert!(pcf.ok(PING_Q_MGR, &[]).is_empty());
    let attrs = [
        name("PCF.Q1"),
        Param::Int(Q_TYPE, 1),
        Param::Str(Q_DESC, "made through PCF".into()),
        Param::Int(MAX_Q_DEPTH, 77),
        Param::Int(SHAREABILITY, 0),
    ];
    pcf.ok(CREATE_Q, &attrs);
    pcf.ok(CREATE_Q, &[name("PCF.Q2"), Param::Int(Q_TYPE, 1)]);
    // A second create without MQIACF_REPLACE is refused as MQ refuses it.
    assert_eq!(pcf.refused(CREATE_Q, &attrs), 4001);

    // One response per queue; the attributes asked for, the name always.
    let only = Param::IntList(Q_ATTRS, vec![Q_DESC, MAX_Q_DEPTH, SHAREABILITY]);
    let a = pcf.ask(INQUIRE_Q, &[name("PCF.Q*"), only]);
    assert_eq!(a.len(), 2, "{a:?}");
    assert_eq!((a[0].0.control, a[1].0.control), (0, 1));
    let q1 = &a[0].1;
    assert_eq!(text(q1, Q_NAME).unwrap().trim_end(), "PCF.Q1");
    assert_eq!(text(q1, Q_DESC).unwrap().trim_end(), "made through PCF");
    assert_eq!(
        (int(q1, MAX_Q_DEPTH), int(q1, SHAREABILITY)),
        (Some(77), Some(0))
    );
    assert_eq!(int(q1, CURRENT_Q_DEPTH), None, "not asked for");

    let names = pcf.ok(INQUIRE_Q_NAMES, &[name("PCF.*"), Param::Int(Q_TYPE, 1)]);
    let Some(Param::StrList(3011, list)) = names.first() else {
        panic!("{names:?}")
    };
    let list: Vec<&str> = list.iter().map(|s| s.trim_end()).collect();
    assert_eq!(list, ["PCF.Q1", "PCF.Q2", "PCF.REPLY"]);
    assert_eq!(names.get(1), Some(&Param::IntList(1261, vec![1, 1, 1])));

    // Status sees messages put meanwhile; a change is seen by the next inquiry.
    let q = pcf
        .conn
        .open_queue("PCF.Q1", OpenOptions::output())
        .unwrap();
    for _ in 0..3 {
        pcf.conn
            .put(q, Message::text("x"), &Default::default())
            .unwrap();
    }
    let st = pcf.ok(INQUIRE_Q_STATUS, &[name("PCF.Q1")]);
    assert_eq!(int(&st, CURRENT_Q_DEPTH), Some(3), "{st:?}");
    // Reset Queue Statistics (as monitoring exporters ask it): puts since the last reset,
    // then none.
    let r = pcf.ok(RESET_Q_STATS, &[name("PCF.Q1")]);
    assert_eq!(
        (int(&r, MSG_ENQ_COUNT), int(&r, HIGH_Q_DEPTH)),
        (Some(3), Some(3)),
        "{r:?}"
    );
    let r = pcf.ok(RESET_Q_STATS, &[name("PCF.Q1")]);
    assert_eq!(int(&r, MSG_ENQ_COUNT), Some(0), "{r:?}");
    // An integer filter (MQCFIF, MQCFOP_GREATER) picks the queues as WHERE would.
    let deep = pcf.ask(
        INQUIRE_Q,
        &[name("PCF.Q*"), Param::IntFilter(CURRENT_Q_DEPTH, 4, 2)],
    );
    assert_eq!(deep.len(), 1, "{deep:?}");
    assert_eq!(text(&deep[0].1, Q_NAME).unwrap().trim_end(), "PCF.Q1");
    let described = Param::StrFilter(Q_DESC, 18, "made*".into());
    let a = pcf.ask(INQUIRE_Q, &[name("*"), described]);
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(
        pcf.refused(
            INQUIRE_Q,
            &[name("*"), Param::IntFilter(CURRENT_Q_DEPTH, 99, 1)]
        ),
        3150
    );
    pcf.ok(
        CHANGE_Q,
        &[
            name("PCF.Q1"),
            Param::Int(Q_TYPE, 1),
            Param::Int(MAX_Q_DEPTH, 5),
        ],
    );
    let a = pcf.ok(INQUIRE_Q, &[name("PCF.Q1")]);
    assert_eq!(int(&a, MAX_Q_DEPTH), Some(5));
    assert_eq!(int(&a, Q_TYPE), Some(1));

    // A queue with messages is deleted only with MQIACF_PURGE; then it is gone.
    pcf.conn.close(q, Default::default()).unwrap();
    assert_eq!(pcf.refused(DELETE_Q, &[name("PCF.Q1")]), 2055);
    pcf.ok(DELETE_Q, &[name("PCF.Q1"), Param::Int(PURGE, 1)]);
    assert_eq!(pcf.refused(INQUIRE_Q, &[name("PCF.Q1")]), 2085);

    let qm = pcf.ok(INQUIRE_Q_MGR, &[]);
    assert_eq!(text(&qm, 2015).unwrap().trim_end(), "QM1");
    // MQIACF_CMD_SERVER_STATUS: the command server answering says it runs.
    let st = pcf.ok(161, &[]);
    assert_eq!(int(&st, 1233), Some(2), "{st:?}");
}

#[test]
fn mqsc_runs_through_escape_and_bad_requests_get_reasons_not_silence() {
    let server = Server::start("pcf-esc", &[]);
    let mut pcf = owner_session(&server);
    let p = pcf.ok(
        ESCAPE,
        &[
            Param::Int(1017, 1),
            Param::Str(3014, "DISPLAY QLOCAL(PCF.REPLY) MAXDEPTH".into()),
        ],
    );
    let out = text(&p, 3014).unwrap();
    assert!(
        out.contains("QUEUE(PCF.REPLY)") && out.contains("MAXDEPTH("),
        "{out}"
    );
    // A failing MQSC command fails the escape, with its text still there.
    let a = pcf.ask(
        ESCAPE,
        &[
            Param::Int(1017, 1),
            Param::Str(3014, "DELETE QLOCAL(NO.SUCH.Q)".into()),
        ],
    );
    assert_eq!((a[0].0.comp_code, a[0].0.reason), (2, 3008));
    assert!(text(&a[0].1, 3014).unwrap().contains("AMQ8147E"), "{a:?}");

    assert_eq!(pcf.refused(9999, &[]), 3007, "a command not served");
    assert_eq!(
        pcf.refused(INQUIRE_Q, &[]),
        3019,
        "a required parameter missing"
    );
    assert_eq!(
        pcf.refused(
            CREATE_Q,
            &[name("X"), Param::Int(Q_TYPE, 1), Param::Int(424242, 1)]
        ),
        3014
    );
    // Not decodable: a reason, and the server goes on serving.
    let a = pcf.raw(vec![1, 0, 0, 0, 36, 0, 0, 0, 1, 0], "MQADMIN", 546);
    assert_eq!(a[0].0.comp_code, 2);
    let a = pcf.raw(b"not a PCF message at all".to_vec(), "MQSTR", 546);
    assert_eq!((a[0].0.comp_code, a[0].0.reason), (2, 3023));
    // A big-endian request (MQENC_INTEGER_NORMAL) is read as its encoding says.
    let mut be = Vec::new();
    for w in [1, 36, 1, PING_Q_MGR, 1, 1, 0, 0, 0] {
        be.extend_from_slice(&i32::to_be_bytes(w));
    }
    let a = pcf.raw(be, "MQADMIN", 273);
    assert_eq!((a[0].0.comp_code, a[0].0.command), (0, PING_Q_MGR));
    assert!(server.log().contains("command server started"));
}

#[test]
fn a_request_runs_with_the_authority_of_the_user_who_put_it() {
    let server = Server::start_with_users("pcf-auth", "QM1", &[("bob", "bob-pw")], &[]);
    let mut owner = Connection::connect(&server.unix, "owner").unwrap();
    let script = "DEFINE QLOCAL(PCF.REPLY)\nDEFINE QLOCAL(SECRET.Q)\nDEFINE QLOCAL(BOB.Q)\n\
        SET AUTHREC OBJTYPE(QMGR) PRINCIPAL('bob') AUTHADD(CONNECT)\n\
        SET AUTHREC PROFILE('SYSTEM.ADMIN.COMMAND.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT)\n\
        SET AUTHREC PROFILE('PCF.REPLY') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(GET)\n\
        SET AUTHREC PROFILE('BOB.Q') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(DSP)";
    for r in owner.admin(script).unwrap() {
        assert!(r.ok, "{r:?}");
    }
    let opts = ClientOptions {
        user: Some("bob".into()),
        password: Some("bob-pw".into()),
        ..Default::default()
    };
    let bob = Connection::connect_with(&server.tcp_bare, "bob-pcf", &opts).unwrap();
    let mut pcf = Pcf::new(bob);
    // Bob sees what he may display, is refused what he may not, and cannot create.
    let a = pcf.ok(INQUIRE_Q, &[name("BOB.Q")]);
    assert_eq!(text(&a, Q_NAME).unwrap().trim_end(), "BOB.Q");
    assert_eq!(pcf.refused(INQUIRE_Q, &[name("SECRET.Q")]), 2035);
    assert_eq!(
        pcf.refused(CREATE_Q, &[name("BOB.NEW"), Param::Int(Q_TYPE, 1)]),
        2035
    );
    let r = owner.admin("DISPLAY QLOCAL(BOB.NEW)").unwrap();
    assert!(!r[0].ok, "the refused create made nothing");
}

#[test]
fn topics_and_subscriptions_are_made_and_seen_through_pcf() {
    let server = Server::start("pcf-topic", &[]);
    let mut pcf = owner_session(&server);
    let topic = |s: &str| Param::Str(2092, s.into());
    pcf.ok(
        172,
        &[
            topic("PCF.TOPIC"),
            Param::Str(2094, "pcf/test".into()),
            Param::Int(175, 2),
        ],
    );
    let names = pcf.ok(175, &[topic("PCF.*")]);
    let Some(Param::StrList(3151, list)) = names.first() else {
        panic!("{names:?}")
    };
    assert_eq!(
        list.iter().map(|s| s.trim_end()).collect::<Vec<_>>(),
        ["PCF.TOPIC"]
    );
    let t = pcf.ok(174, &[topic("PCF.TOPIC")]);
    assert_eq!(text(&t, 2094).as_deref(), Some("pcf/test"));
    assert_eq!(int(&t, 175), Some(2), "DURSUB(NO): {t:?}");
    pcf.ok(170, &[topic("PCF.TOPIC"), Param::Int(175, 1)]);
    assert_eq!(int(&pcf.ok(174, &[topic("PCF.TOPIC")]), 175), Some(1));

    let sub = |s: &str| Param::Str(3152, s.into());
    pcf.ok(
        177,
        &[
            sub("PCF.SUB"),
            Param::Str(2094, "pcf/test".into()),
            Param::Str(3154, "DEV.QUEUE.1".into()),
        ],
    );
    let s = pcf.ok(176, &[sub("PCF.SUB")]);
    assert_eq!(text(&s, 3154).unwrap().trim_end(), "DEV.QUEUE.1", "{s:?}");
    assert_eq!(
        pcf.refused(
            177,
            &[
                sub("PCF.SUB"),
                Param::Str(2094, "pcf/test".into()),
                Param::Str(3154, "DEV.QUEUE.1".into())
            ]
        ),
        3311
    );
    pcf.ok(179, &[sub("PCF.SUB")]);
    pcf.ok(173, &[topic("PCF.TOPIC")]);
    assert_eq!(pcf.refused(174, &[topic("PCF.TOPIC")]), 2085);
}

#[test]
fn listeners_are_made_started_seen_and_deleted_through_pcf() {
    let server = Server::start("pcf-listener", &[]);
    let mut pcf = owner_session(&server);
    let listener = |s: &str| Param::Str(3554, s.into());
    // MQCMD_CREATE_LISTENER: TCP on an ephemeral port, started by hand.
    pcf.ok(
        95,
        &[
            listener("PCF.LSTR"),
            Param::Int(1501, 2),
            Param::Int(1522, 0),
            Param::Str(3552, "127.0.0.1".into()),
            Param::Int(1601, 2),
            Param::Str(3555, "made by PCF".into()),
        ],
    );
    let l = pcf.ok(97, &[listener("PCF.LSTR")]);
    assert_eq!(text(&l, 3555).unwrap().trim_end(), "made by PCF", "{l:?}");
    assert_eq!((int(&l, 1501), int(&l, 1601)), (Some(2), Some(2)), "{l:?}");
    // MQCMD_CHANGE_LISTENER, MQCMD_COPY_LISTENER.
    pcf.ok(93, &[listener("PCF.LSTR"), Param::Int(1602, 42)]);
    assert_eq!(int(&pcf.ok(97, &[listener("PCF.LSTR")]), 1602), Some(42));
    pcf.ok(
        94,
        &[
            Param::Str(3124, "PCF.LSTR".into()),
            Param::Str(3125, "PCF.COPY".into()),
        ],
    );
    assert_eq!(int(&pcf.ok(97, &[listener("PCF.COPY")]), 1602), Some(42));
    // MQCMD_START_CHANNEL_LISTENER; its status; MQCMD_STOP_CHANNEL_LISTENER.
    pcf.ok(31, &[listener("PCF.LSTR")]);
    let st = pcf.ok(98, &[listener("PCF.LSTR")]);
    assert_eq!(int(&st, 1599), Some(2), "RUNNING: {st:?}");
    assert!(
        int(&st, 1522).is_some_and(|p| p > 0),
        "the port it listens on: {st:?}"
    );
    pcf.ok(142, &[listener("PCF.LSTR")]);
    for n in ["PCF.LSTR", "PCF.COPY"] {
        pcf.ok(96, &[listener(n)]);
    }
    assert_eq!(pcf.refused(97, &[listener("PCF.LSTR")]), 2085);
}

/// With CMDEV(ENABLED), a PCF command that ran is a command event naming PCF (2413), its
/// MQCMD code, the user who put it and MQEVO_MSG.
#[test]
fn a_pcf_command_makes_a_command_event_naming_its_code_and_user() {
    let server = Server::start("pcf-cmdev", &[]);
    let mut pcf = owner_session(&server);
    let r = pcf.conn.admin("ALTER QMGR CMDEV(ENABLED)").unwrap();
    assert!(r[0].ok, "{r:?}");
    pcf.ok(CREATE_Q, &[name("PCF.EV"), Param::Int(Q_TYPE, 1)]);
    let ev = pcf
        .conn
        .open_queue("SYSTEM.ADMIN.COMMAND.EVENT", OpenOptions::input())
        .unwrap();
    let mut found = None;
    while let Ok(g) = pcf.conn.get(ev, &GetOptions::new()) {
        let (h, p) = pcf::decode(&g.message.body, cfg!(target_endian = "big")).unwrap();
        if h.reason == pcf::RC_COMMAND_PCF {
            found = Some(p);
        }
    }
    let p = found.expect("a command event for the PCF request");
    let Param::Group(pcf::GACF_COMMAND_CONTEXT, ctx) = &p[0] else {
        panic!("{p:?}")
    };
    assert_eq!(int(ctx, pcf::IACF_COMMAND), Some(CREATE_Q), "{ctx:?}");
    assert_eq!(int(ctx, pcf::IACF_EVENT_ORIGIN), Some(pcf::EVO_MSG));
    assert!(text(ctx, pcf::CACF_EVENT_USER_ID).is_some_and(|u| !u.is_empty()));
    let Param::Group(pcf::GACF_COMMAND_DATA, data) = &p[1] else {
        panic!("{p:?}")
    };
    assert!(
        text(data, pcf::CACF_COMMAND_MQSC).is_some_and(|t| t.contains("PCF.EV")),
        "{data:?}"
    );
}

/// Namelists and process definitions through PCF: create, change, copy, inquire (names as an
/// MQCFSL), inquire names, delete; they outlive a killed queue manager.
#[test]
fn namelists_and_processes_are_made_seen_and_deleted_through_pcf() {
    let mut server = Server::start("pcf-namelist", &[]);
    let mut pcf = owner_session(&server);
    let nl = |s: &str| Param::Str(2010, s.into());
    let names = |v: &[&str]| Param::StrList(2020, v.iter().map(|s| s.to_string()).collect());
    // MQCMD_CREATE_NAMELIST with MQCA_NAMES and MQCA_NAMELIST_DESC.
    pcf.ok(
        34,
        &[
            nl("PCF.NL"),
            names(&["APP.IN", "APP.OUT"]),
            Param::Str(2009, "by PCF".into()),
        ],
    );
    // MQCMD_INQUIRE_NAMELIST: NameCount, Names, the description.
    let a = pcf.ok(36, &[nl("PCF.NL")]);
    assert_eq!(int(&a, 19), Some(2), "{a:?}");
    let got = a.iter().find_map(|p| match p {
        Param::StrList(2020, v) => Some(v.clone()),
        _ => None,
    });
    let got = got.expect("MQCA_NAMES as an MQCFSL");
    assert_eq!(
        got.iter().map(|s| s.trim_end()).collect::<Vec<_>>(),
        ["APP.IN", "APP.OUT"]
    );
    assert_eq!(text(&a, 2009).unwrap().trim_end(), "by PCF");
    assert!(
        text(&a, 2027).is_some_and(|d| d.trim().len() == 10),
        "ALTDATE: {a:?}"
    );
    // A string filter on the list (MQCFOP_CONTAINS 10, MQCFOP_EXCLUDES 13).
    let contains = pcf.ask(
        36,
        &[nl("PCF.*"), Param::StrFilter(2020, 10, "APP.OUT".into())],
    );
    assert_eq!(contains.len(), 1, "{contains:?}");
    assert_eq!(text(&contains[0].1, 2010).unwrap().trim_end(), "PCF.NL");
    let excludes = pcf.ask(
        36,
        &[nl("PCF.*"), Param::StrFilter(2020, 13, "APP.OUT".into())],
    );
    assert!(
        excludes.iter().all(|(_, p)| text(p, 2010).is_none()),
        "{excludes:?}"
    );
    // MQCMD_CHANGE_NAMELIST, MQCMD_COPY_NAMELIST (MQCACF_FROM/TO_NAMELIST_NAME).
    pcf.ok(32, &[nl("PCF.NL"), names(&["ONE"])]);
    pcf.ok(
        33,
        &[
            Param::Str(3005, "PCF.NL".into()),
            Param::Str(3006, "PCF.NL2".into()),
        ],
    );
    assert_eq!(int(&pcf.ok(36, &[nl("PCF.NL2")]), 19), Some(1));
    // MQCMD_INQUIRE_NAMELIST_NAMES: MQCACF_NAMELIST_NAMES.
    let n = pcf.ok(37, &[nl("PCF.*")]);
    let listed = n.iter().find_map(|p| match p {
        Param::StrList(3013, v) => Some(
            v.iter()
                .map(|s| s.trim_end().to_owned())
                .collect::<Vec<_>>(),
        ),
        _ => None,
    });
    assert_eq!(listed.unwrap(), ["PCF.NL", "PCF.NL2"]);

    // Process definitions: MQCMD_CREATE_PROCESS with MQIA_APPL_TYPE and MQCA_APPL_ID.
    let pr = |s: &str| Param::Str(2012, s.into());
    pcf.ok(
        5,
        &[
            pr("PCF.PROC"),
            Param::Int(1, 6),
            Param::Str(2001, "/opt/app/run".into()),
        ],
    );
    pcf.ok(3, &[pr("PCF.PROC"), Param::Str(2021, "user data".into())]);
    let p = pcf.ok(7, &[pr("PCF.PROC")]);
    assert_eq!(int(&p, 1), Some(6), "MQAT_UNIX: {p:?}");
    assert_eq!(text(&p, 2001).unwrap().trim_end(), "/opt/app/run");
    assert_eq!(text(&p, 2021).unwrap().trim_end(), "user data");
    assert_eq!(
        pcf.refused(5, &[pr("PCF.PROC")]),
        4001,
        "exists, no MQRP_YES"
    );

    // Both outlive a killed queue manager (logged, then replayed).
    drop(pcf);
    server.restart(&[]);
    server.wait_ready();
    let mut pcf = owner_session(&server);
    assert_eq!(int(&pcf.ok(36, &[nl("PCF.NL")]), 19), Some(1));
    assert_eq!(
        text(&pcf.ok(7, &[pr("PCF.PROC")]), 2021)
            .unwrap()
            .trim_end(),
        "user data"
    );
    pcf.ok(35, &[nl("PCF.NL")]);
    pcf.ok(6, &[pr("PCF.PROC")]);
    assert_eq!(pcf.refused(36, &[nl("PCF.NL")]), 2085);
    assert_eq!(pcf.refused(7, &[pr("PCF.PROC")]), 2085);
}

fn int_list(p: &[Param], id: i32) -> Option<Vec<i32>> {
    p.iter().find_map(|x| match x {
        Param::IntList(i, v) if *i == id => Some(v.clone()),
        _ => None,
    })
}

/// Authority records through PCF as MQ's tools send them: Set Authority Record for two
/// principals at once (MQAUTH_* lists), Inquire Authority Records, Inquire Entity Authority,
/// removal, Delete Authority Record; bad values are refused by parameter.
#[test]
fn authority_records_are_set_seen_and_deleted_through_pcf() {
    let server = Server::start("pcf-authrec", &[]);
    let mut pcf = owner_session(&server);
    let profile = Param::Str(3067, "APP.*".into());
    let queue = Param::Int(1016, 1);
    let two = Param::StrList(3065, vec!["alice".into(), "bob".into()]);
    // MQAUTH_OUTPUT (PUT) 11, MQAUTH_INPUT (GET) 9, MQAUTH_INQUIRE 10.
    let add = Param::IntList(1116, vec![11, 9, 10]);
    pcf.ok(90, &[profile.clone(), queue.clone(), two.clone(), add]);
    // MQAUTHOPT_NAME_ALL_MATCHING | MQAUTHOPT_ENTITY_EXPLICIT, entity alice (MQZAET_PRINCIPAL).
    let inquire = [
        Param::Int(1228, 32 | 1),
        profile.clone(),
        queue.clone(),
        Param::Str(3068, "alice".into()),
        Param::Int(1118, 1),
    ];
    let r = pcf.ok(87, &inquire);
    assert_eq!(text(&r, 3067).unwrap().trim_end(), "APP.*", "{r:?}");
    assert_eq!(text(&r, 3068).unwrap().trim_end(), "alice", "{r:?}");
    assert_eq!((int(&r, 1118), int(&r, 1016)), (Some(1), Some(1)), "{r:?}");
    let mut held = int_list(&r, 1115).expect("MQIACF_AUTHORIZATION_LIST");
    held.sort();
    assert_eq!(held, [9, 10, 11]);
    // What alice may do to the queue APP.IN, the records that apply counted.
    let e = pcf.ok(
        88,
        &[
            Param::Str(3068, "alice".into()),
            Param::Int(1118, 1),
            queue.clone(),
            Param::Str(3046, "APP.IN".into()),
        ],
    );
    assert!(int_list(&e, 1115).unwrap().contains(&11), "{e:?}");
    // MQIACF_AUTH_REMOVE_AUTHS takes GET away from both.
    pcf.ok(
        90,
        &[
            profile.clone(),
            queue.clone(),
            two.clone(),
            Param::IntList(1117, vec![9]),
        ],
    );
    let mut held = int_list(&pcf.ok(87, &inquire), 1115).unwrap();
    held.sort();
    assert_eq!(held, [10, 11]);
    // Refusals name the parameter: an unknown authority, no options, no entity.
    let bad = Param::IntList(1116, vec![99]);
    assert_eq!(
        pcf.refused(90, &[profile.clone(), queue.clone(), two.clone(), bad]),
        3229
    );
    assert_eq!(pcf.refused(87, std::slice::from_ref(&profile)), 3019);
    assert_eq!(pcf.refused(90, &[profile.clone(), queue.clone()]), 3019);
    // Delete Authority Record for both; nothing matches afterwards.
    pcf.ok(89, &[profile, queue, two]);
    assert_ne!(pcf.refused(87, &inquire), 0);
}

/// Inquire Connection: every connection (an empty generic id), MQ's 24-byte connection ids,
/// then one connection's handles by its id.
#[test]
fn connections_and_their_handles_are_inquired_through_pcf() {
    let server = Server::start("pcf-conn", &[]);
    let mut pcf = owner_session(&server);
    let all = pcf.ask(
        85,
        &[Param::Bytes(7007, vec![0; 24]), Param::Int(1110, 1111)],
    );
    let mine = all
        .iter()
        .map(|(_, p)| p)
        .find(|p| text(p, 3058).is_some_and(|t| t.trim_end() == "pcf-test"))
        .unwrap_or_else(|| panic!("this test's connection: {all:?}"))
        .clone();
    let id = mine
        .iter()
        .find_map(|x| match x {
            Param::Bytes(7006, b) => Some(b.clone()),
            _ => None,
        })
        .expect("MQBACF_CONNECTION_ID");
    assert_eq!(id.len(), 24, "{id:?}");
    assert_eq!(&id[..7], b"AMQCQM1");
    // Its handles: the reply queue it opened to get the answers.
    let handles = pcf.ask(85, &[Param::Bytes(7006, id), Param::Int(1110, 1112)]);
    assert!(
        handles.iter().any(
            |(_, p)| text(p, 3046).is_some_and(|t| t.trim_end() == "PCF.REPLY")
                && int(p, 1016) == Some(1)
        ),
        "{handles:?}"
    );
    assert_eq!(pcf.refused(85, &[Param::Bytes(7006, vec![1, 2, 3])]), 3229);
    // Handle status (Inquire Queue Status, MQIACF_Q_STATUS_TYPE MQIACF_Q_HANDLE): who has
    // PCF.REPLY open and how.
    let hs = pcf.ask(41, &[name("PCF.REPLY"), Param::Int(1103, 1104)]);
    let h = &hs
        .iter()
        .find(|(_, p)| text(p, 3058).is_some_and(|t| t.trim_end() == "pcf-test"))
        .unwrap_or_else(|| panic!("this test's handle: {hs:?}"))
        .1;
    assert_eq!(int(h, 1103), Some(1104), "{h:?}");
    assert_eq!(
        int(h, 1098),
        Some(1),
        "MQIACF_OPEN_INPUT_TYPE MQQSO_SHARED: {h:?}"
    );
    assert_eq!(int(h, 1099), Some(0), "MQIACF_OPEN_OUTPUT MQQSO_NO: {h:?}");
    assert!(
        h.iter()
            .any(|x| matches!(x, Param::Bytes(7006, b) if b.len() == 24)),
        "{h:?}"
    );
    // Stop Connection: another application's connection is ended at once, its waiting get
    // answered with MQRC_CONNECTION_BROKEN.
    let mut victim = Connection::connect(&server.unix, "victim").unwrap();
    let q = victim
        .open(
            &ferry_client::ObjectDescriptor::queue(object_name("DEV.QUEUE.1").unwrap()),
            OpenOptions::input(),
        )
        .unwrap();
    let all = pcf.ask(85, &[Param::Bytes(7007, vec![0; 24])]);
    let victim_id = all
        .iter()
        .map(|(_, p)| p)
        .find(|p| text(p, 3058).is_some_and(|t| t.trim_end() == "victim"))
        .and_then(|p| {
            p.iter().find_map(|x| match x {
                Param::Bytes(7006, b) => Some(b.clone()),
                _ => None,
            })
        })
        .expect("the victim's connection id");
    let waiting = std::thread::spawn(move || {
        let started = std::time::Instant::now();
        let opts = GetOptions::new().wait(Duration::from_secs(30));
        (victim.get(q, &opts).map(|_| ()), started.elapsed())
    });
    std::thread::sleep(Duration::from_millis(300));
    pcf.ok(86, &[Param::Bytes(7006, victim_id.clone())]);
    let (got, took) = waiting.join().unwrap();
    assert_eq!(
        got.unwrap_err().reason,
        ferry_model::Reason::ConnectionBroken
    );
    assert!(
        took < Duration::from_secs(10),
        "ended at once, not at the wait's end: {took:?}"
    );
    // Its record goes when its connection task has ended (asynchronously, soon after).
    let gone = (0..50).any(|_| {
        let a = pcf.ask(86, &[Param::Bytes(7006, victim_id.clone())]);
        if a.len() == 2 && a[0].0.reason == 2085 {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
        false
    });
    assert!(
        gone,
        "a stopped connection's id is refused (2085) once it has ended"
    );
}

/// The command server is controlled as MQ's: STOP CMDSERV stops it (requests then wait on
/// the command queue, DISPLAY QMSTATUS shows CMDSERV(STOPPED)), START CMDSERV starts it and
/// the waiting request is answered; SCMDSERV(MANUAL) keeps it stopped across a restart until
/// it is started.
#[test]
fn the_command_server_is_stopped_and_started_as_mq_controls_it() {
    let mut server = Server::start("pcf-cmdserv", &[]);
    let admin = |server: &Server, cmd: &str| {
        let mut c = Connection::connect(&server.unix, "pcf-admin").unwrap();
        let r = c.admin(cmd).unwrap();
        assert!(r[0].ok, "{cmd}: {r:?}");
        format!("{:?}", r[0].messages)
    };
    let wait_for = |server: &Server, state: &str| {
        for _ in 0..100 {
            if admin(server, "DISPLAY QMSTATUS CMDSERV").contains(&format!("\"{state}\"")) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("CMDSERV never became {state}");
    };
    wait_for(&server, "RUNNING");
    let mut c = Connection::connect(&server.unix, "pcf-admin").unwrap();
    let r = c.admin("START CMDSERV").unwrap();
    assert!(!r[0].ok, "already running: {r:?}");
    admin(&server, "STOP CMDSERV");
    wait_for(&server, "STOPPED");
    let mut p = owner_session(&server);
    let mut m = Message::new(pcf::encode(
        &Header {
            kind: cft::COMMAND,
            version: 1,
            command: PING_Q_MGR,
            seq: 1,
            control: 1,
            comp_code: 0,
            reason: 0,
        },
        &[],
    ));
    m.descriptor.format = FormatName::truncating("MQADMIN");
    m.descriptor.message_type = MessageType::Request;
    m.descriptor.reply_to_queue = object_name("PCF.REPLY").unwrap();
    let out = p.conn.put(p.cmd, m, &Default::default()).unwrap();
    let opts = GetOptions::new()
        .wait(Duration::from_millis(1500))
        .correl_id(ferry_client::CorrelId(out.msg_id.0));
    let e = p.conn.get(p.reply, &opts).unwrap_err();
    assert_eq!(
        e.reason,
        ferry_client::Reason::NoMsgAvailable,
        "no answer while stopped"
    );
    admin(&server, "START CMDSERV");
    let opts = opts.wait(Duration::from_secs(10));
    p.conn
        .get(p.reply, &opts)
        .expect("the waiting request is answered once started");
    drop(p);
    admin(&server, "ALTER QMGR SCMDSERV(MANUAL)");
    server.restart(&[]);
    server.wait_ready();
    std::thread::sleep(Duration::from_millis(600));
    assert!(admin(&server, "DISPLAY QMSTATUS CMDSERV").contains("\"STOPPED\""));
    assert!(admin(&server, "DISPLAY QMGR SCMDSERV").contains("\"MANUAL\""));
    admin(&server, "START CMDSERV");
    wait_for(&server, "RUNNING");
    let mut p = owner_session(&server);
    p.ok(PING_Q_MGR, &[]);
}

/// Copy Channel, Copy Topic and Copy Subscription make the new object like the old one with
/// the attributes the request changes; Change Subscription alters one.
#[test]
fn channels_topics_and_subscriptions_are_copied_and_changed_through_pcf() {
    let server = Server::start("pcf-copy", &[]);
    let mut pcf = owner_session(&server);
    let s = |id: i32, v: &str| Param::Str(id, v.into());
    // MQCMD_CREATE_CHANNEL, then MQCMD_COPY_CHANNEL (22) with MQIACH_CHANNEL_TYPE SVRCONN (7).
    pcf.ok(
        23,
        &[
            s(3501, "PCF.SVRCONN"),
            Param::Int(1511, 7),
            s(3502, "the original"),
        ],
    );
    pcf.ok(
        22,
        &[
            s(3007, "PCF.SVRCONN"),
            s(3008, "PCF.COPY"),
            Param::Int(1511, 7),
        ],
    );
    let c = pcf.ok(25, &[s(3501, "PCF.COPY")]);
    assert_eq!(
        text(&c, 3502).as_deref().map(str::trim_end),
        Some("the original")
    );
    assert_eq!(int(&c, 1511), Some(7), "{c:?}");
    // Without the type, the copy is refused naming MQIACH_CHANNEL_TYPE.
    assert_eq!(
        pcf.refused(22, &[s(3007, "PCF.SVRCONN"), s(3008, "PCF.COPY2")]),
        3019
    );
    // MQCMD_COPY_TOPIC (171): a new topic string, the rest as the original.
    pcf.ok(
        172,
        &[s(2092, "PCF.T1"), s(2094, "pcf/one"), s(2093, "topic one")],
    );
    pcf.ok(
        171,
        &[s(3150, "PCF.T1"), s(3149, "PCF.T2"), s(2094, "pcf/two")],
    );
    let t = pcf.ok(174, &[s(2092, "PCF.T2")]);
    assert_eq!(text(&t, 2094).as_deref(), Some("pcf/two"));
    assert_eq!(
        text(&t, 2093).as_deref().map(str::trim_end),
        Some("topic one")
    );
    // MQCMD_COPY_SUBSCRIPTION (181) and MQCMD_CHANGE_SUBSCRIPTION (178).
    pcf.ok(
        177,
        &[
            s(3152, "PCF.S1"),
            s(2094, "pcf/one"),
            s(3154, "DEV.QUEUE.1"),
        ],
    );
    pcf.ok(181, &[s(3163, "PCF.S1"), s(3164, "PCF.S2")]);
    let sub = pcf.ok(176, &[s(3152, "PCF.S2")]);
    assert_eq!(text(&sub, 2094).as_deref(), Some("pcf/one"), "{sub:?}");
    assert_eq!(text(&sub, 3154).unwrap().trim_end(), "DEV.QUEUE.1");
    pcf.ok(178, &[s(3152, "PCF.S2"), s(3159, "changed")]);
    let sub = pcf.ok(176, &[s(3152, "PCF.S2")]);
    assert_eq!(
        text(&sub, 3159).as_deref().map(str::trim_end),
        Some("changed")
    );
    assert_eq!(
        pcf.refused(181, &[s(3163, "NO.SUCH"), s(3164, "PCF.S3")]),
        2085
    );
}

#[test]
fn mqtt_clients_are_inquired_as_mqtt_channel_status() {
    const INQUIRE_CHANNEL_STATUS: i32 = 42;
    const CHANNEL_NAME: i32 = 3501;
    const CHANNEL_TYPE: i32 = 1511;
    const CLIENT_ID: i32 = 3564;
    let server = Server::start("pcf-mqtt", &["--mqtt-listen", "127.0.0.1:0"]);
    let addr = server
        .endpoint("mqtt://")
        .trim_start_matches("mqtt://")
        .to_owned();
    let user = (common::TEST_USER, Some(common::TEST_PASSWORD));
    let (t, ack) = common::mqtt_connect(&addr, "pcf-meter", user, true, 30);
    assert_eq!(ack, [0x20, 2, 0, 0]);
    let mut pcf = owner_session(&server);
    let mqtt = Param::Int(CHANNEL_TYPE, 10);
    let summary = pcf.ok(
        INQUIRE_CHANNEL_STATUS,
        &[Param::Str(CHANNEL_NAME, "*".into()), mqtt.clone()],
    );
    assert_eq!(
        text(&summary, CHANNEL_NAME).as_deref(),
        Some("SYSTEM.MQTT.TCP"),
        "{summary:?}"
    );
    assert_eq!(
        int(&summary, 1230),
        Some(1),
        "MQIACF_CONNECTION_COUNT: {summary:?}"
    );
    let client = pcf.ok(
        INQUIRE_CHANNEL_STATUS,
        &[
            Param::Str(CHANNEL_NAME, "SYSTEM.MQTT.*".into()),
            mqtt,
            Param::Str(CLIENT_ID, "pcf-*".into()),
        ],
    );
    assert_eq!(
        text(&client, CLIENT_ID).as_deref(),
        Some("pcf-meter"),
        "{client:?}"
    );
    assert_eq!(
        int(&client, 1643),
        Some(4),
        "MQIACH_PROTOCOL MQPROTO_MQTTV311: {client:?}"
    );
    assert_eq!(
        int(&client, 1630),
        Some(30),
        "MQIACH_MQTT_KEEP_ALIVE: {client:?}"
    );
    assert_eq!(
        int(&client, 1527),
        Some(3),
        "MQIACH_CHANNEL_STATUS running: {client:?}"
    );
    drop(t);
}

#[test]
fn an_mqtt_channel_is_created_inquired_stopped_and_deleted_by_pcf() {
    const CHANNEL_NAME: i32 = 3501;
    const CHANNEL_TYPE: i32 = 1511;
    const PROTOCOL: i32 = 1643;
    let server = Server::start("pcf-mqtt-chl", &[]);
    let mut pcf = owner_session(&server);
    let name = Param::Str(CHANNEL_NAME, "PCF.MQTT".into());
    let mqtt = Param::Int(CHANNEL_TYPE, 10);
    // CREATE_CHANNEL: PORT 0 (any free one), MQTT 3.1.1 and WebSocket, USECLTID YES.
    pcf.ok(
        23,
        &[
            name.clone(),
            mqtt.clone(),
            Param::Int(1522, 0),
            Param::IntList(PROTOCOL, vec![4, 2]),
            Param::Int(1629, 1),
        ],
    );
    let def = pcf.ok(25, &[name.clone(), mqtt.clone()]);
    assert_eq!(int(&def, CHANNEL_TYPE), Some(10), "{def:?}");
    assert!(
        def.contains(&Param::IntList(PROTOCOL, vec![4, 2])),
        "MQIACH_PROTOCOL MQTTV311, HTTP: {def:?}"
    );
    assert_eq!(int(&def, 1629), Some(1), "MQIACH_USE_CLIENT_ID: {def:?}");
    assert_eq!(int(&def, 1568), Some(0), "MQSCA_REQUIRED: {def:?}");
    let st = pcf.ok(42, &[name.clone(), mqtt.clone()]);
    assert_eq!(int(&st, 1527), Some(3), "running: {st:?}");
    let at = text(&st, 3520).unwrap_or_default();
    assert!(at.contains('('), "MQCACH_LOCAL_ADDRESS ip(port): {st:?}");
    // STOP_CHANNEL, then a second STOP is MQRCCF_CHANNEL_NOT_ACTIVE.
    pcf.ok(29, std::slice::from_ref(&name));
    assert_eq!(pcf.refused(29, std::slice::from_ref(&name)), 4064);
    let st = pcf.ok(42, &[name.clone(), mqtt]);
    assert_eq!(int(&st, 1527), Some(6), "stopped: {st:?}");
    pcf.ok(24, &[name]);
}
