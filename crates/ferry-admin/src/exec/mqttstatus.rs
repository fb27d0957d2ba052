//! DISPLAY CHSTATUS(generic) CHLTYPE(MQTT): the MQTT service's clients, as MQ shows its
//! telemetry channels' — a summary per channel (CONNECTIONS, STATUS) without CLIENTID, and a
//! row per client matching CLIENTID(generic) with it (CLNTUSER, MCAUSER, KAINT, MSGSNT,
//! MSGRCVD, INDOUBTIN, INDOUBTOUT, PENDING, PROTOCOL, LMSGDATE/LMSGTIME, CHLSDATE/CHLSTIME,
//! and FerryMQ's SUBCOUNT). The channel names are the listeners': SYSTEM.MQTT.TCP, .TLS, .WS
//! and .WSS.

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
            let mut per: BTreeMap<&str, u64> = BTreeMap::new();
            for st in &clients {
                *per.entry(&st.channel).or_default() += 1;
            }
            for (channel, n) in per {
                let always = ["CHANNEL", "CHLTYPE", "CONNECTIONS", "STATUS"];
                if let Some(f) = shown(&c, summary_fields(channel, n), &always)? {
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

fn summary_fields(channel: &str, connections: u64) -> Vec<Field> {
    vec![
        field("CHANNEL", channel, Kind::Name),
        field("CHLTYPE", "MQTT", Kind::Status),
        field("CONNECTIONS", connections, Kind::Status),
        field("STATUS", "RUNNING", Kind::Status),
    ]
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
