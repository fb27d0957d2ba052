//! The descriptor fields and properties a message command sets (`ferry put`, `ferry request`):
//! parsed once from the command line, applied to every message it puts.

use std::time::Duration;

use ferry_client::{CorrelId, Message, MessageType, Persistence, PropertyValue};
use ferry_model::message::format;
use ferry_model::name::{object_name, FormatName};

use crate::CliError;

/// MQMD fields and properties for the messages a command puts.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct Spec {
    /// Priority, 0-9 [default: the queue's DEFPRTY].
    #[arg(long, value_name = "0-9", value_parser = clap::value_parser!(u8).range(0..=9))]
    pub priority: Option<u8>,
    /// Correlation id: 48 hex digits, or text of at most 24 bytes (padded with zeros).
    #[arg(long, value_name = "ID")]
    pub correl_id: Option<String>,
    /// Reply-to queue (MQMD ReplyToQ).
    #[arg(long, value_name = "QUEUE")]
    pub reply_to: Option<String>,
    /// Reply-to queue manager (MQMD ReplyToQMgr).
    #[arg(long, value_name = "QM")]
    pub reply_to_qmgr: Option<String>,
    /// Expiry in seconds, tenths allowed (MQMD Expiry) [default: unlimited].
    #[arg(long, value_name = "SECS")]
    pub expiry: Option<f64>,
    /// Format name (MQMD Format) [default: MQSTR].
    #[arg(long, value_name = "NAME")]
    pub format: Option<String>,
    /// Message type [default: datagram].
    #[arg(long = "type", value_enum, value_name = "TYPE")]
    pub msg_type: Option<Kind>,
    /// A message property: NAME=VALUE (a string) or NAME:TYPE=VALUE, TYPE one of string, bool,
    /// i8, i16, i32, i64, f32, f64, bytes (hex), null. Repeatable.
    #[arg(long = "property", value_name = "NAME[:TYPE]=VALUE")]
    pub properties: Vec<String>,
}

/// MQMD MsgType.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// MQMT_DATAGRAM.
    Datagram,
    /// MQMT_REQUEST.
    Request,
    /// MQMT_REPLY.
    Reply,
    /// MQMT_REPORT.
    Report,
}

fn bad(what: String) -> CliError {
    CliError::other(what)
}

/// A correlation or message id from 48 hex digits or up to 24 bytes of text.
pub fn id_bytes(s: &str) -> Result<[u8; 24], CliError> {
    if s.len() == 48 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        if let Some(id) = CorrelId::from_hex(s) {
            return Ok(id.0);
        }
    }
    if s.len() > 24 {
        return Err(bad(format!(
            "id {s:?}: give 48 hex digits or at most 24 bytes of text"
        )));
    }
    let mut id = [0u8; 24];
    id[..s.len()].copy_from_slice(s.as_bytes());
    Ok(id)
}

/// One `--property` argument.
pub fn property(arg: &str) -> Result<(String, PropertyValue), CliError> {
    let (name, value) = arg.split_once('=').ok_or_else(|| {
        bad(format!(
            "--property {arg}: give NAME=VALUE or NAME:TYPE=VALUE"
        ))
    })?;
    let (name, kind) = name.split_once(':').unwrap_or((name, "string"));
    let wrong = |e: String| bad(format!("--property {arg}: {e}"));
    let v = match kind {
        "string" => PropertyValue::String(value.to_owned()),
        "bool" => PropertyValue::Bool(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "i8" => PropertyValue::I8(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "i16" => PropertyValue::I16(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "i32" => PropertyValue::I32(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "i64" => PropertyValue::I64(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "f32" => PropertyValue::F32(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "f64" => PropertyValue::F64(value.parse().map_err(|e| wrong(format!("{e}")))?),
        "bytes" => PropertyValue::Bytes(hex(value).ok_or_else(|| wrong("not hex".into()))?.into()),
        "null" => PropertyValue::Null,
        t => return Err(wrong(format!("unknown type {t}"))),
    };
    Ok((name.to_owned(), v))
}

/// Bytes from hex digits.
pub fn hex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

impl Spec {
    /// Checks the whole specification before anything is put.
    pub fn check(&self) -> Result<(), CliError> {
        self.apply(&mut Message::new(Vec::new()), false).map(|_| ())
    }

    /// Sets the fields and properties on `m`; persistent when asked.
    pub fn apply(&self, m: &mut Message, persistent: bool) -> Result<(), CliError> {
        let d = &mut m.descriptor;
        d.format = FormatName::truncating(self.format.as_deref().unwrap_or(format::STRING));
        if persistent {
            d.persistence = Persistence::Persistent;
        }
        if let Some(p) = self.priority {
            d.priority = ferry_client::Priority::Value(p);
        }
        if let Some(c) = &self.correl_id {
            d.correl_id = CorrelId(id_bytes(c)?);
        }
        if let Some(q) = &self.reply_to {
            d.reply_to_queue = object_name(q)?;
        }
        if let Some(q) = &self.reply_to_qmgr {
            d.reply_to_qmgr = object_name(q)?;
        }
        if let Some(s) = self.expiry {
            if !(s > 0.0 && s.is_finite()) {
                return Err(bad(format!(
                    "--expiry {s}: give a positive number of seconds"
                )));
            }
            d.expiry =
                Some(Duration::from_millis((s * 1000.0) as u64).max(Duration::from_millis(100)));
        }
        if let Some(k) = self.msg_type {
            d.message_type = match k {
                Kind::Datagram => MessageType::Datagram,
                Kind::Request => MessageType::Request,
                Kind::Reply => MessageType::Reply,
                Kind::Report => MessageType::Report,
            };
        }
        for p in &self.properties {
            let (name, value) = property(p)?;
            m.properties.set(&name, value)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_hex_or_short_text() {
        let hex48 = "41".repeat(24);
        assert_eq!(id_bytes(&hex48).unwrap(), [0x41; 24]);
        let t = id_bytes("order-7").unwrap();
        assert_eq!(&t[..7], b"order-7");
        assert!(t[7..].iter().all(|b| *b == 0));
        assert!(id_bytes(&"x".repeat(25)).is_err());
    }

    #[test]
    fn properties_are_strings_unless_typed() {
        assert_eq!(
            property("a=b").unwrap(),
            ("a".into(), PropertyValue::String("b".into()))
        );
        assert_eq!(
            property("n:i32=-5").unwrap(),
            ("n".into(), PropertyValue::I32(-5))
        );
        assert_eq!(
            property("x:bytes=00ff").unwrap().1,
            PropertyValue::Bytes(vec![0, 255].into())
        );
        assert!(property("n:i32=five").is_err());
        assert!(property("novalue").is_err());
        assert!(property("n:int=1").is_err());
    }
}
