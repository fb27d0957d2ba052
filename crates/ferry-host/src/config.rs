//! Layered configuration: the `[server]` and `[metrics]` sections of `qm.toml`, and how the file,
//! environment variables and command-line settings combine into the configuration a queue
//! manager starts with.
//!
//! Precedence, lowest first: built-in defaults, `qm.toml`, environment variables
//! `FERRY_<SECTION>_<KEY>` (for example `FERRY_LOG_EXTENT_MIB=64`), then command-line settings
//! (`--set log.extent_mib=64` and the dedicated flags of `ferry qm start`). Every layer is checked
//! against the same schema: an unknown section or key is refused with a message naming it and the
//! layer it came from. Only the file is ever written back (ALTER QMGR); the other layers apply to
//! one run. Field-by-field reference: docs/config.md.

use serde::{Deserialize, Serialize};

use crate::home::{QmFile, CONFIG_FILE};
use ferry_model::reason::{MqError, MqResult, Reason};

/// The `[server]` section: the daemon's listeners and per-connection limits (MQ's qm.ini
/// `TCP` and `Channels` stanzas, and the client channel limits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerSection {
    /// TCP listener address (port 0 picks a free port); empty for no TCP listener. Only a
    /// loopback address is accepted until authentication is configured.
    pub listen: String,
    /// Listen on the local socket `<qm dir>/ferry.sock` (the local connection mode).
    pub local_socket: bool,
    /// TLS listener address; empty for none. Needs `tls_cert` and `tls_key`.
    pub tls_listen: String,
    /// QUIC listener address (UDP; the TCP port may be shared); empty for none. Presents
    /// `tls_cert` and `tls_key`, or a self-signed certificate made at start without them.
    pub quic_listen: String,
    /// QUIC flow-control window of a connection, KiB (the most one connection buffers).
    pub quic_window_kib: u64,
    /// Streams a sender channel over QUIC offers to spread its fast batches over, by putting
    /// connection and destination queue (1–16; 1 keeps all of a channel's batches on one
    /// stream).
    pub quic_lanes: u32,
    /// PEM file with the server certificate chain (leaf first).
    pub tls_cert: String,
    /// PEM file with the server private key.
    pub tls_key: String,
    /// PEM file with the CA whose client certificates the TLS listener requires; empty for none.
    pub tls_client_ca: String,
    /// PEM file with the CA that signs partner queue managers' certificates, for sender
    /// channels with SSLCIPH (they present `tls_cert`/`tls_key` as their own, if set).
    pub tls_ca: String,
    /// Threads serving connections; 0 for one per CPU.
    pub io_threads: usize,
    /// Most network sockets (TCP, TLS, LISTENER ports) open at once; further ones are
    /// answered MQRC_MAX_CONNS_LIMIT_REACHED.
    pub max_sockets: usize,
    /// Most local-socket connections at once (a few more are kept for administrators).
    pub max_local_sockets: usize,
    /// Most network sockets one address may hold before they open a conversation.
    pub max_unopened_per_address: usize,
    /// Most network sockets carrying client applications' conversations (a socket moves here
    /// from `max_sockets` when its first conversation opens).
    pub max_client_sockets: usize,
    /// Most network sockets carrying queue managers' message channels (likewise).
    pub max_channel_sockets: usize,
    /// Largest frame accepted from a client, KiB, header included (bounds one message).
    pub max_frame_kib: usize,
    /// Conversations one socket may carry (MQ's SHARECNV ceiling).
    pub max_conversations: usize,
    /// Requests that may queue behind a waiting get on one conversation.
    pub max_queued_requests: usize,
    /// Most messages one read-ahead stream may have in a client's buffer.
    pub read_ahead_msgs: u32,
    /// Most message KiB one read-ahead stream may have in a client's buffer.
    pub read_ahead_kib: usize,
    /// Heartbeat interval, seconds.
    pub heartbeat_secs: u64,
    /// How long a client has to complete its handshake, seconds.
    pub handshake_timeout_secs: u64,
    /// How long a socket has after its handshake to open a conversation (Connect and
    /// authentication), seconds.
    pub connect_timeout_secs: u64,
    /// Answers one socket may have waiting to be written, KiB: beyond them the server reads no
    /// more of its requests until the client reads.
    pub unsent_kib: usize,
    /// How long a client may read nothing of its answers before it is closed, seconds.
    pub write_stall_secs: u64,
    /// How long a clean stop waits for connections to finish, seconds.
    pub stop_grace_secs: u64,
}

impl Default for ServerSection {
    fn default() -> Self {
        ServerSection {
            listen: "127.0.0.1:1414".into(),
            local_socket: true,
            tls_listen: String::new(),
            quic_listen: String::new(),
            quic_window_kib: 16384,
            quic_lanes: 16,
            tls_cert: String::new(),
            tls_key: String::new(),
            tls_client_ca: String::new(),
            tls_ca: String::new(),
            io_threads: 0,
            max_sockets: 1000,
            max_local_sockets: 1000,
            max_unopened_per_address: 64,
            max_client_sockets: 1000,
            max_channel_sockets: 100,
            // ferry_proto::DEFAULT_MAX_FRAME (a 100 MiB message plus headers); a test in
            // ferry-server keeps the two equal.
            max_frame_kib: 100 * 1024 + 64,
            max_conversations: 10,
            max_queued_requests: 1024,
            read_ahead_msgs: 1024,
            read_ahead_kib: 1024,
            heartbeat_secs: 30,
            handshake_timeout_secs: 10,
            connect_timeout_secs: 10,
            unsent_kib: 4096,
            write_stall_secs: 60,
            stop_grace_secs: 5,
        }
    }
}

/// The `[metrics]` section: the Prometheus endpoint.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MetricsSection {
    /// Address to serve `GET /metrics` on (for example `127.0.0.1:9464`); empty (the default)
    /// for no endpoint.
    pub listen: String,
    /// File holding a bearer token (one line, readable by the owner only): when set, a scrape
    /// must send `Authorization: Bearer TOKEN`. Required to listen on a non-loopback address.
    pub token_file: String,
    /// PEM certificate chain: with `tls_key`, the endpoint speaks HTTPS (TLS 1.3).
    pub tls_cert: String,
    /// PEM private key for `tls_cert` (readable by the owner only).
    pub tls_key: String,
}

/// The `[mqtt]` section: the MQTT service (MQ's telemetry service), off by default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MqttSection {
    /// Address of the MQTT listener (for example `127.0.0.1:1883`; port 0 picks a free one);
    /// empty (the default) for none. Only a loopback address is accepted until authentication
    /// is configured.
    pub listen: String,
    /// Address of the MQTT listener over TLS 1.3 (MQTT's port is 8883); empty for none. It
    /// presents `[server] tls_cert` and `tls_key`, and with `[server] tls_client_ca` requires
    /// client certificates.
    pub tls_listen: String,
    /// Address of the MQTT listener over WebSocket (subprotocol `mqtt`, any path; for example
    /// `127.0.0.1:8080`); empty for none. Loopback only until authentication is configured, as
    /// `listen`.
    pub ws_listen: String,
    /// Address of the MQTT listener over secure WebSocket (TLS 1.3 with `[server]`'s
    /// certificate); empty for none.
    pub wss_listen: String,
    /// Most MQTT clients connected at once; further ones are refused before their CONNECT is
    /// read.
    pub max_clients: usize,
    /// Largest MQTT packet accepted after CONNECT, KiB.
    pub max_packet_kib: usize,
    /// QoS 1 publications sent to a client and not yet acknowledged, at most.
    pub receive_maximum: u16,
    /// How long a new connection has to send its CONNECT, seconds.
    pub connect_timeout_secs: u64,
    /// Publications one client's session may hold waiting (its queue's MAXDEPTH).
    pub max_session_messages: usize,
    /// Processes that accept the clients of `listen` for the queue manager (0, the default:
    /// it accepts them itself). Each may hold as many connections as a process has file
    /// descriptors; they share the port (SO_REUSEPORT) and pass each client's bytes to the
    /// queue manager, which holds the sessions (docs/mqtt.md "Front ends").
    pub front_ends: usize,
}

impl Default for MqttSection {
    fn default() -> Self {
        MqttSection {
            listen: String::new(),
            tls_listen: String::new(),
            ws_listen: String::new(),
            wss_listen: String::new(),
            max_clients: 10_000,
            max_packet_kib: 4096,
            receive_maximum: 1000,
            connect_timeout_secs: 10,
            max_session_messages: 100_000,
            front_ends: 0,
        }
    }
}

/// The `[console]` section: the web console and its HTTP/JSON admin API, off by default.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ConsoleSection {
    /// Address of the console in the clear (for example `127.0.0.1:9440`; port 0 picks a free
    /// one); empty (the default) for none. Only a loopback address is accepted: beyond it,
    /// passwords would cross the network in the clear (use `tls_listen`).
    pub listen: String,
    /// Address of the console over HTTPS (TLS 1.3) with `[server] tls_cert` and `tls_key`;
    /// empty for none.
    pub tls_listen: String,
    /// Most browser and script connections at once; more are closed when accepted.
    pub max_connections: usize,
    /// Logins held at once (the one idle longest gives way).
    pub max_logins: usize,
    /// A login unused this long is forgotten, minutes.
    pub login_idle_mins: u64,
    /// How often the charts' history is sampled, seconds.
    pub sample_secs: u64,
    /// Samples of history kept for each chart.
    pub history_samples: usize,
}

impl Default for ConsoleSection {
    fn default() -> Self {
        ConsoleSection {
            listen: String::new(),
            tls_listen: String::new(),
            max_connections: 64,
            max_logins: 256,
            login_idle_mins: 30,
            sample_secs: 2,
            history_samples: 180,
        }
    }
}

/// The sections of `qm.toml`, for environment variable names.
pub const SECTIONS: &[&str] = &["qmgr", "log", "server", "metrics", "mqtt", "console"];

/// The layers above the file.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// Environment variables, as (name, value); those not named `FERRY_<SECTION>_…` for a
    /// section in [`SECTIONS`] are ignored.
    pub env: Vec<(String, String)>,
    /// Command-line settings `section.key=value`, in order (a later one wins).
    pub sets: Vec<String>,
}

impl Overrides {
    /// The process environment, and `sets` from the command line.
    pub fn from_env(sets: Vec<String>) -> Overrides {
        Overrides {
            env: std::env::vars().collect(),
            sets,
        }
    }
}

/// Where a setting came from, for error messages and `ferry qm check`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    /// `section.key`.
    pub key: String,
    /// `environment variable FERRY_LOG_EXTENT_MIB` or `--set log.extent_mib=64`.
    pub from: String,
}

fn data_error(detail: String) -> MqError {
    MqError::new(Reason::ConfigError, detail)
}

/// Parses a value given as text: a TOML value if it reads as one (numbers, booleans, quoted
/// strings), else the text itself as a string.
fn value_of(raw: &str) -> toml::Value {
    match format!("v = {raw}").parse::<toml::Table>() {
        Ok(mut t) => t
            .remove("v")
            .unwrap_or_else(|| toml::Value::String(raw.into())),
        Err(_) => toml::Value::String(raw.into()),
    }
}

fn set_key(
    table: &mut toml::Table,
    section: &str,
    key: &str,
    value: toml::Value,
    from: &str,
) -> MqResult<()> {
    if !SECTIONS.contains(&section) {
        return Err(data_error(format!(
            "{from}: qm.toml has no section [{section}] (sections: {})",
            SECTIONS.join(", ")
        )));
    }
    if key.is_empty() {
        return Err(data_error(format!(
            "{from}: no key named after [{section}]"
        )));
    }
    let entry = table
        .entry(section.to_owned())
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    match entry {
        toml::Value::Table(t) => {
            t.insert(key.to_owned(), value);
            Ok(())
        }
        _ => Err(data_error(format!(
            "{from}: [{section}] in qm.toml is not a table"
        ))),
    }
}

/// Applies `overrides` on top of the parsed file `table`, returning where each overridden key
/// came from.
pub fn apply_overrides(table: &mut toml::Table, overrides: &Overrides) -> MqResult<Vec<Origin>> {
    let mut origins = Vec::new();
    let mut env: Vec<&(String, String)> = overrides.env.iter().collect();
    env.sort();
    for (name, raw) in env {
        let Some(rest) = name.strip_prefix("FERRY_") else {
            continue;
        };
        let Some((section, key)) = rest.split_once('_') else {
            continue;
        };
        let section = section.to_ascii_lowercase();
        if !SECTIONS.contains(&section.as_str()) {
            continue;
        }
        let key = key.to_ascii_lowercase();
        let from = format!("environment variable {name}");
        set_key(table, &section, &key, value_of(raw), &from)?;
        origins.push(Origin {
            key: format!("{section}.{key}"),
            from,
        });
    }
    for set in &overrides.sets {
        let from = format!("--set {set}");
        let Some((path, raw)) = set.split_once('=') else {
            return Err(data_error(format!(
                "{from}: expected section.key=value, for example --set log.extent_mib=64"
            )));
        };
        let Some((section, key)) = path.trim().split_once('.') else {
            return Err(data_error(format!(
                "{from}: '{path}' names no section; write section.key, for example log.extent_mib"
            )));
        };
        set_key(table, section, key, value_of(raw.trim()), &from)?;
        origins.push(Origin {
            key: format!("{section}.{key}"),
            from,
        });
    }
    Ok(origins)
}

/// A configuration with the layers that made it.
#[derive(Debug, Clone)]
pub struct Layered {
    /// The effective configuration.
    pub file: QmFile,
    /// Settings that did not come from the file.
    pub origins: Vec<Origin>,
}

/// Reads `text` (the contents of `path`, for messages) and applies `overrides`, checking every
/// key and value the engine owns (`[qmgr]` and `[log]`; the server checks its own sections when
/// it builds its configuration from them).
pub fn layer(text: &str, path: &str, overrides: &Overrides) -> MqResult<Layered> {
    let mut table: toml::Table = text
        .parse()
        .map_err(|e| data_error(format!("{path} is not valid TOML: {e}")))?;
    let origins = apply_overrides(&mut table, overrides)?;
    let file: QmFile = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            let msg = e.message().to_owned();
            let blame: Vec<&str> = origins
                .iter()
                .filter(|o| {
                    let key = o.key.rsplit('.').next().unwrap_or_default();
                    msg.contains(&format!("`{key}`"))
                })
                .map(|o| o.from.as_str())
                .collect();
            if blame.is_empty() {
                data_error(format!("{path}: {msg}"))
            } else {
                data_error(format!("{}: {msg}", blame.join(", ")))
            }
        })?;
    file.attrs()?;
    file.persist_settings()?;
    Ok(Layered { file, origins })
}

/// Reads `dir/qm.toml` and applies `overrides`.
pub fn load_layered(dir: &std::path::Path, overrides: &Overrides) -> MqResult<Layered> {
    let path = dir.join(CONFIG_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| data_error(format!("cannot read {}: {e}", path.display())))?;
    layer(&text, &path.display().to_string(), overrides)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "[qmgr]\nname = \"QM1\"\n[log]\nextent_mib = 16\n";

    #[test]
    fn layers_apply_in_order() {
        let o = Overrides {
            env: vec![
                ("FERRY_LOG_EXTENT_MIB".into(), "32".into()),
                ("FERRY_HOME".into(), "/x".into()),
                ("FERRY_SERVER_LISTEN".into(), "127.0.0.1:0".into()),
                ("PATH".into(), "/bin".into()),
            ],
            sets: vec![
                "log.extent_mib=64".into(),
                "metrics.listen=127.0.0.1:9464".into(),
            ],
        };
        let l = layer(FILE, "qm.toml", &o).unwrap();
        assert_eq!(l.file.log.extent_mib, 64);
        assert_eq!(l.file.server.listen, "127.0.0.1:0");
        assert_eq!(l.file.metrics.listen, "127.0.0.1:9464");
        assert_eq!(l.origins.len(), 4);
        let only_env = Overrides {
            env: vec![("FERRY_LOG_EXTENT_MIB".into(), "32".into())],
            sets: vec![],
        };
        assert_eq!(
            layer(FILE, "qm.toml", &only_env)
                .unwrap()
                .file
                .log
                .extent_mib,
            32
        );
        assert_eq!(
            layer(FILE, "qm.toml", &Overrides::default())
                .unwrap()
                .file
                .log
                .extent_mib,
            16
        );
    }

    #[test]
    fn unknown_keys_are_named_with_their_layer() {
        let e = layer(
            "[qmgr]\nname = \"QM1\"\n[log]\nextnt_mib = 16\n",
            "qm.toml",
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(
            e.detail.contains("extnt_mib") && e.detail.contains("qm.toml"),
            "{e}"
        );
        let e = layer(
            FILE,
            "qm.toml",
            &Overrides {
                env: vec![("FERRY_LOG_EXTNT_MIB".into(), "3".into())],
                sets: vec![],
            },
        )
        .unwrap_err();
        assert!(e.detail.contains("FERRY_LOG_EXTNT_MIB"), "{e}");
        let e = layer(
            FILE,
            "qm.toml",
            &Overrides {
                env: vec![],
                sets: vec!["serverx.listen=1".into()],
            },
        )
        .unwrap_err();
        assert!(e.detail.contains("[serverx]"), "{e}");
        let e = layer(
            "[qmgr]\nname = \"QM1\"\n[tuning]\n",
            "qm.toml",
            &Overrides::default(),
        )
        .unwrap_err();
        assert!(e.detail.contains("tuning"), "{e}");
        let e = layer(
            FILE,
            "qm.toml",
            &Overrides {
                env: vec![],
                sets: vec!["log.extent_mib=5000".into()],
            },
        )
        .unwrap_err();
        assert!(e.detail.contains("extent_mib = 5000"), "{e}");
    }
}
