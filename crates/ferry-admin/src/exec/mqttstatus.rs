//! DISPLAY CHSTATUS(generic) CHLTYPE(MQTT): the MQTT service's clients, as MQ shows its
//! telemetry channels' — a summary per channel (CONNECTIONS, STATUS) without CLIENTID, and a
//! row per client matching CLIENTID(generic) with it (CLNTUSER, MCAUSER, KAINT, MSGSNT,
//! MSGRCVD, INDOUBTIN, INDOUBTOUT, PENDING, PROTOCOL, LMSGDATE/LMSGTIME, CHLSDATE/CHLSTIME,
//! and FerryMQ's SUBCOUNT). The channels are those defined (CHLTYPE(MQTT); the summary shows
//! each, RUNNING with its LOCLADDR or STOPPED) and the `[mqtt]` listeners' (SYSTEM.MQTT.TCP,
//! .TLS, .WS and .WSS, shown while they have clients).

use std::collections::BTreeMap;

use ferry_core::{ObjectName, QueueManager};
use ferry_model::channel::MqttClientStatus;
use ferry_model::security::AuthObjType;

use super::display::{generic, seen, shown};
use super::{date_time, field, info, object, reply, Outcome};
use crate::attrs::{Field, Kind};
use crate::parse::Command;

/// The MQTT form of DISPLAY CHSTATUS.
pub(super) fn display(qm: &QueueManager, c: &Command) -> Outcome {
    let pattern = generic(c)?;
    let visible = |name: &str| {
        ObjectName::new(name).is_some_and(|n| seen(qm, c, &pattern, AuthObjType::Channel, &n))
    };
    let clients: Vec<MqttClientStatus> = qm
        .mqtt_statuses()
        .into_iter()
        .filter(|s| visible(&s.channel))
        .collect();
    // SUMMARY asks for what is shown without CLIENTID anyway.
    let mut c = c.clone();
    c.params.retain(|p| p.key != "SUMMARY");
    let mut out = Vec::new();
    match c.value("CLIENTID").map(|v| v.text.clone()) {
        Some(wanted) => {
            let mut clients = clients;
            clients.sort_by(|a, b| (&a.channel, &a.client_id).cmp(&(&b.channel, &b.client_id)));
            for st in clients.iter().filter(|s| like(&wanted, &s.client_id)) {
                let always = ["CHANNEL", "CHLTYPE", "CLIENTID", "STATUS", "CONNAME"];
                if let Some(f) = shown(&c, client_fields(st), &always)? {
                    out.push(object("AMQ8417I", "Display Channel Status details.", f));
                }
            }
        }
        None => {
            for (channel, (n, run)) in summaries(qm, &clients, &visible) {
                let always = ["CHANNEL", "CHLTYPE", "CONNECTIONS", "STATUS", "LOCLADDR"];
                if let Some(f) = shown(&c, summary_fields(&channel, n, run), &always)? {
                    out.push(object("AMQ8417I", "Display Channel Status details.", f));
                }
            }
        }
    }
    if out.is_empty() {
        return reply(&c, vec![info("AMQ8420I", "Channel Status not found.")]);
    }
    reply(&c, out)
}

/// Whether a CLIENTID value (which may end in `*`) matches.
fn like(pattern: &str, id: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => id.starts_with(prefix),
        None => id == pattern,
    }
}

/// How a channel's summary row stands: listening on an address, stopped, or (an `[mqtt]`
/// listener's channel, known by its clients) running.
enum Run {
    Listening(String),
    Stopped,
    Service,
}

/// Each channel's clients and state: every MQTT channel defined (but a SYSTEM.DEF template),
/// and the `[mqtt]` listeners' channels that have clients; `pattern` and authority as asked.
fn summaries(
    qm: &QueueManager,
    clients: &[MqttClientStatus],
    visible: &dyn Fn(&str) -> bool,
) -> BTreeMap<String, (u64, Run)> {
    let runs = qm.mqtt_channel_runs();
    let mut per: BTreeMap<String, (u64, Run)> = BTreeMap::new();
    let mqtt = ferry_model::objects::ChannelType::Mqtt;
    for (name, a) in qm.channels() {
        let n = name.as_str();
        if a.channel_type != mqtt || n.starts_with("SYSTEM.DEF.") || !visible(n) {
            continue;
        }
        let run = match runs.iter().find(|r| r.name == name) {
            Some(r) => Run::Listening(r.address.clone()),
            None => Run::Stopped,
        };
        per.insert(n.to_owned(), (0, run));
    }
    for st in clients {
        per.entry(st.channel.clone()).or_insert((0, Run::Service)).0 += 1;
    }
    per
}

fn summary_fields(channel: &str, connections: u64, run: Run) -> Vec<Field> {
    let (status, at) = match run {
        Run::Listening(a) => ("RUNNING", locladdr(&a)),
        Run::Service => ("RUNNING", String::new()),
        Run::Stopped => ("STOPPED", String::new()),
    };
    vec![
        field("CHANNEL", channel, Kind::Name),
        field("CHLTYPE", "MQTT", Kind::Status),
        field("CONNECTIONS", connections, Kind::Status),
        field("STATUS", status, Kind::Status),
        field("LOCLADDR", at, Kind::Status),
    ]
}

/// An address as MQ writes LOCLADDR: `127.0.0.1(1883)`.
fn locladdr(addr: &str) -> String {
    match addr.parse::<std::net::SocketAddr>() {
        Ok(a) => format!("{}({})", a.ip(), a.port()),
        Err(_) => addr.to_owned(),
    }
}

fn client_fields(st: &MqttClientStatus) -> Vec<Field> {
    let (sdate, stime) = st.started.map(date_time).unwrap_or_default();
    let (ldate, ltime) = st.last_msg.map(date_time).unwrap_or_default();
    vec![
        field("CHANNEL", &st.channel, Kind::Name),
        field("CHLTYPE", "MQTT", Kind::Status),
        field("CLIENTID", &st.client_id, Kind::Status),
        field("STATUS", "RUNNING", Kind::Status),
        field("CONNAME", &st.conname, Kind::Status),
        field("CLNTUSER", &st.client_user, Kind::Status),
        field("MCAUSER", &st.mca_user, Kind::Status),
        field("PROTOCOL", &st.protocol, Kind::Status),
        field("KAINT", st.keep_alive_secs, Kind::Status),
        field("MSGSNT", st.msgs_sent, Kind::Status),
        field("MSGRCVD", st.msgs_received, Kind::Status),
        field("INDOUBTIN", st.indoubt_in, Kind::Status),
        field("INDOUBTOUT", st.indoubt_out, Kind::Status),
        field("PENDING", st.pending, Kind::Status),
        field("SUBCOUNT", st.subscriptions, Kind::Status),
        field("LMSGDATE", ldate, Kind::Status),
        field("LMSGTIME", ltime, Kind::Status),
        field("CHLSDATE", sdate, Kind::Status),
        field("CHLSTIME", stime, Kind::Status),
    ]
}
