//! Client channel definition tables (CCDT) in MQ's JSON format: where a client connection
//! goes when the application gives no MQCD and MQSERVER is not set. The table is named by the
//! MQCNO's CCDTUrl (version 6 and later: a `file://` URL or a path), else by the environment
//! variables MQCHLLIB (its directory) and MQCHLTAB (its file name, default `AMQCLCHL.TAB`).
//!
//! ```json
//! {"channel": [{"name": "DEV.APP.SVRCONN", "type": "clientConnection",
//!   "clientConnection": {"connection": [{"host": "mq1", "port": 1414}, {"host": "mq2"}],
//!                        "queueManager": "QM1"},
//!   "transmissionSecurity": {"cipherSpecification": "TLS_AES_128_GCM_SHA256"}}]}
//! ```
//!
//! Which definitions a connection tries, in order (as MQ chooses, without weighting or
//! affinity): for MQCONN("QM1"), those whose queueManager is QM1; for "*QM1" (a queue manager
//! group: whichever queue manager answers), the same definitions without checking the name that
//! answers; for a blank name, those with a blank queueManager, else every definition. Among
//! them, by channel name; each definition's connections in the order listed (port 1414 when
//! none). Binary tables (MQ's own format) are refused with a clear log line; so are remote URLs.

use std::path::PathBuf;

/// Default table file name, as MQ's.
pub const DEFAULT_TABLE: &str = "AMQCLCHL.TAB";
/// Largest table read.
pub const MAX_TABLE: u64 = 4 << 20;

/// One client-connection channel of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientChannel {
    /// The server-connection channel it names.
    pub name: String,
    /// The queue manager it reaches (blank: any).
    pub qmgr: String,
    /// Where, in order: (host, port).
    pub connections: Vec<(String, u16)>,
    /// The CipherSpec it asks for (TLS) when not blank.
    pub cipher: Option<String>,
    /// Conversations a socket may carry (`connectionManagement.sharingConversations`, MQ's
    /// SHARECNV); 1 when the table does not say (MQ's default is 10: FerryMQ shares only when
    /// asked).
    pub sharing: u32,
}

/// Where the table is, from the MQCNO's CCDTUrl or MQCHLLIB/MQCHLTAB; `None` when nothing
/// names one.
pub fn location(cno_url: Option<&str>) -> Option<Result<PathBuf, String>> {
    if let Some(url) = cno_url.map(str::trim).filter(|u| !u.is_empty()) {
        return Some(url_path(url));
    }
    let lib = std::env::var("MQCHLLIB").ok().filter(|s| !s.is_empty());
    let tab = std::env::var("MQCHLTAB").ok().filter(|s| !s.is_empty());
    if lib.is_none() && tab.is_none() {
        return None;
    }
    let tab = tab.unwrap_or_else(|| DEFAULT_TABLE.to_owned());
    if let Some(rest) = tab.strip_prefix("file://") {
        return Some(Ok(PathBuf::from(rest)));
    }
    Some(Ok(match lib {
        Some(dir) => PathBuf::from(dir).join(tab),
        None => PathBuf::from(tab),
    }))
}

fn url_path(url: &str) -> Result<PathBuf, String> {
    match url.split_once("://") {
        Some(("file", rest)) => Ok(PathBuf::from(rest)),
        Some((scheme, _)) => Err(format!(
            "CCDT URL {url}: only file:// tables are read ({scheme}:// is not fetched); copy the table to a file"
        )),
        None => Ok(PathBuf::from(url)),
    }
}

/// Reads and parses the table at `path`.
pub fn read(path: &std::path::Path) -> Result<Vec<ClientChannel>, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("CCDT {}: {e}", path.display()))?;
    if meta.len() > MAX_TABLE {
        return Err(format!(
            "CCDT {} is larger than {MAX_TABLE} bytes",
            path.display()
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| format!("CCDT {}: {e}", path.display()))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "CCDT {} is not a JSON table (MQ's binary table format is not read); write the channels in the JSON format",
            path.display()
        )
    })?;
    parse(&text).map_err(|e| format!("CCDT {}: {e}", path.display()))
}

/// Parses a JSON table (trailing commas, which MQ's examples carry, are accepted).
pub fn parse(text: &str) -> Result<Vec<ClientChannel>, String> {
    let v: serde_json::Value = serde_json::from_str(&without_trailing_commas(text))
        .map_err(|e| format!("not a JSON table: {e}"))?;
    let list = v
        .get("channel")
        .and_then(|c| c.as_array())
        .ok_or("it has no \"channel\" array")?;
    let mut out = Vec::new();
    for c in list {
        let kind = c
            .get("type")
            .and_then(|t| t.as_str())
            .unwrap_or("clientConnection");
        if kind != "clientConnection" {
            continue;
        }
        let name = c
            .get("name")
            .and_then(|n| n.as_str())
            .filter(|n| !n.is_empty() && n.len() <= 20)
            .ok_or("a channel has no name of 1 to 20 characters")?;
        out.push(channel(name, c)?);
    }
    Ok(out)
}

fn channel(name: &str, c: &serde_json::Value) -> Result<ClientChannel, String> {
    let cc = c.get("clientConnection");
    let qmgr = cc
        .and_then(|x| x.get("queueManager"))
        .and_then(|q| q.as_str())
        .unwrap_or("");
    let mut connections = Vec::new();
    for conn in cc
        .and_then(|x| x.get("connection"))
        .and_then(|l| l.as_array())
        .into_iter()
        .flatten()
    {
        let host = conn
            .get("host")
            .and_then(|h| h.as_str())
            .filter(|h| !h.is_empty())
            .ok_or_else(|| format!("channel {name}: a connection has no host"))?;
        let port = match conn.get("port") {
            None => 1414,
            Some(p) => p
                .as_u64()
                .and_then(|p| u16::try_from(p).ok())
                .filter(|p| *p > 0)
                .ok_or_else(|| format!("channel {name}: port {p} is not 1 to 65535"))?,
        };
        connections.push((host.to_owned(), port));
    }
    if connections.is_empty() {
        return Err(format!(
            "channel {name} has no clientConnection.connection to go to"
        ));
    }
    let cipher = c
        .get("transmissionSecurity")
        .and_then(|t| t.get("cipherSpecification"))
        .and_then(|s| s.as_str())
        .filter(|s| !s.is_empty())
        .map(str::to_owned);
    let sharing = match c
        .get("connectionManagement")
        .and_then(|m| m.get("sharingConversations"))
    {
        None => 1,
        Some(n) => n
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .filter(|n| *n <= 999_999_999)
            .ok_or_else(|| {
                format!("channel {name}: sharingConversations {n} is not 0 to 999999999")
            })?,
    };
    Ok(ClientChannel {
        name: name.to_owned(),
        qmgr: qmgr.trim().to_owned(),
        connections,
        cipher,
        sharing,
    })
}

/// The definitions a connection to `qmgr` tries, in order (see the module documentation).
pub fn choose<'a>(table: &'a [ClientChannel], qmgr: &str) -> Vec<&'a ClientChannel> {
    let wanted = qmgr.trim().trim_start_matches('*');
    let mut picked: Vec<&ClientChannel> = table.iter().filter(|c| c.qmgr == wanted).collect();
    if picked.is_empty() && wanted.is_empty() {
        picked = table.iter().collect();
    }
    picked.sort_by(|a, b| a.name.cmp(&b.name));
    picked
}

/// `text` with commas that stand right before a closing `}` or `]` removed (outside strings).
fn without_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    let chars: Vec<char> = text.chars().collect();
    for (i, &ch) in chars.iter().enumerate() {
        if in_string {
            (escaped, in_string) = (ch == '\\' && !escaped, ch != '"' || escaped);
        } else if ch == '"' {
            in_string = true;
        } else if ch == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = r#"{"channel": [
      {"name": "B.SVRCONN", "type": "clientConnection",
       "clientConnection": {"connection": [{"host": "mq2", "port": 1415}], "queueManager": "QM1"}},
      {"name": "A.SVRCONN", "type": "clientConnection",
       "clientConnection": {"connection": [{"host": "mq1"}, {"host": "mq3", "port": 2000}], "queueManager": "QM1"},
       "transmissionSecurity": {"cipherSpecification": "TLS_AES_128_GCM_SHA256", "certificateLabel": "x",},
       "connectionManagement": {"sharingConversations": 5}},
      {"name": "OTHER", "clientConnection": {"connection": [{"host": "mq9"}], "queueManager": "QM2"}},
      {"name": "R", "type": "receiver"}
    ]}"#;

    #[test]
    fn a_table_is_read_and_chosen_from_as_mq_does() {
        let t = parse(TABLE).unwrap();
        assert_eq!(t.len(), 3, "receivers are not client channels");
        let qm1: Vec<_> = choose(&t, "QM1").iter().map(|c| c.name.as_str()).collect();
        assert_eq!(qm1, ["A.SVRCONN", "B.SVRCONN"], "by channel name");
        assert_eq!(choose(&t, "*QM2")[0].name, "OTHER");
        assert_eq!(
            choose(&t, "").len(),
            3,
            "a blank name with no blank definitions: all"
        );
        assert!(choose(&t, "QM3").is_empty());
        let a = &choose(&t, "QM1")[0];
        assert_eq!(
            a.connections,
            [("mq1".to_owned(), 1414), ("mq3".to_owned(), 2000)]
        );
        assert_eq!(a.cipher.as_deref(), Some("TLS_AES_128_GCM_SHA256"));
        assert_eq!(a.sharing, 5);
        assert_eq!(
            choose(&t, "QM1")[1].sharing,
            1,
            "unsaid: a socket of its own"
        );
    }

    #[test]
    fn bad_tables_say_what_is_wrong() {
        assert!(parse("not json").unwrap_err().contains("not a JSON table"));
        assert!(parse("{}").unwrap_err().contains("\"channel\""));
        let no_conn = r#"{"channel": [{"name": "X", "clientConnection": {}}]}"#;
        assert!(parse(no_conn)
            .unwrap_err()
            .contains("no clientConnection.connection"));
        let bad_port = r#"{"channel": [{"name": "X", "clientConnection": {"connection": [{"host": "h", "port": 70000}]}}]}"#;
        assert!(parse(bad_port).unwrap_err().contains("not 1 to 65535"));
        let bad_share = r#"{"channel": [{"name": "X", "clientConnection": {"connection": [{"host": "h"}]}, "connectionManagement": {"sharingConversations": -1}}]}"#;
        assert!(parse(bad_share)
            .unwrap_err()
            .contains("sharingConversations"));
        assert!(url_path("https://example.com/ccdt.json")
            .unwrap_err()
            .contains("only file://"));
        assert_eq!(
            url_path("file:///etc/ccdt.json").unwrap(),
            PathBuf::from("/etc/ccdt.json")
        );
        assert_eq!(
            without_trailing_commas(r#"{"a": "x,}", "b": [1,2,],}"#),
            r#"{"a": "x,}", "b": [1,2]}"#
        );
    }
}
