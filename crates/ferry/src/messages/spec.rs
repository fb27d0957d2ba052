//! The descriptor fields and properties a message command sets (`ferry put`, `ferry request`):
//! parsed once from the command line, applied to every message it puts.

use std::time::Duration;

use ferry_client::{CorrelId, Message, MessageType, MsgId, Persistence, PropertyValue};
use ferry_model::message::format;
use ferry_model::name::{object_name, FormatName};
use ferry_model::report;

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
    /// Message id: 48 hex digits, or text of at most 24 bytes [default: one the queue manager
    /// makes].
    #[arg(long, value_name = "ID")]
    pub msg_id: Option<String>,
    /// Report options (MQMD Report): names joined by commas — coa, cod, exception, expiration
    /// (each also as NAME-with-data or NAME-with-full-data), pan, nan, pass-msg-id,
    /// pass-correl-id, pass-discard-and-expiry, discard-msg — or a number.
    #[arg(long, value_name = "OPTIONS")]
    pub report: Option<String>,
    /// Feedback code (MQMD Feedback): a number, or quit, coa, cod, expiration, pan, nan.
    #[arg(long, value_name = "CODE")]
    pub feedback: Option<String>,
    /// Coded character set id of the body (MQMD CodedCharSetId) [default: 1208, UTF-8].
    #[arg(long, value_name = "CCSID")]
    pub ccsid: Option<u32>,
    /// Numeric encoding of the body (MQMD Encoding) [default: 546].
    #[arg(long, value_name = "N")]
    pub encoding: Option<u32>,
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

/// Report options by name (MQRO_* without the prefix, lower case, `_` as `-`).
pub const REPORT_NAMES: [(&str, u32); 17] = [
    ("coa", report::COA),
    ("coa-with-data", report::COA_WITH_DATA),
    ("coa-with-full-data", report::COA_WITH_FULL_DATA),
    ("cod", report::COD),
    ("cod-with-data", report::COD_WITH_DATA),
    ("cod-with-full-data", report::COD_WITH_FULL_DATA),
    ("exception", report::EXCEPTION),
    ("exception-with-data", report::EXCEPTION_WITH_DATA),
    ("exception-with-full-data", report::EXCEPTION_WITH_FULL_DATA),
    ("expiration", report::EXPIRATION),
    ("expiration-with-data", report::EXPIRATION_WITH_DATA),
    (
        "expiration-with-full-data",
        report::EXPIRATION_WITH_FULL_DATA,
    ),
    ("pan", report::PAN),
    ("nan", report::NAN),
    ("pass-msg-id", report::PASS_MSG_ID),
    ("pass-correl-id", report::PASS_CORREL_ID),
    ("pass-discard-and-expiry", report::PASS_DISCARD_AND_EXPIRY),
];

/// `--report`: names joined by commas (or `discard-msg`), or a number.
pub fn report_options(arg: &str) -> Result<u32, CliError> {
    if let Ok(n) = arg.trim().parse::<u32>() {
        return Ok(n);
    }
    let mut options = 0;
    for name in arg
        .split(',')
        .map(|n| n.trim().to_ascii_lowercase().replace('_', "-"))
    {
        let name = name.strip_prefix("mqro-").unwrap_or(&name);
        options |= match REPORT_NAMES.iter().find(|(n, _)| *n == name) {
            Some((_, v)) => *v,
            None if name == "discard-msg" => report::DISCARD_MSG,
            None => {
                return Err(bad(format!(
                    "--report {arg}: {name:?} is not a report option; give coa, cod, exception, \
                     expiration (each also NAME-with-data or NAME-with-full-data), pan, nan, \
                     pass-msg-id, pass-correl-id, pass-discard-and-expiry, discard-msg or a number"
                )))
            }
        };
    }
    Ok(options)
}

/// `--feedback`: a number or a name (MQFB_QUIT, COA, COD, EXPIRATION, PAN, NAN).
pub fn feedback_code(arg: &str) -> Result<u32, CliError> {
    if let Ok(n) = arg.trim().parse::<u32>() {
        return Ok(n);
    }
    let name = arg.trim().to_ascii_lowercase();
    Ok(match name.strip_prefix("mqfb_").unwrap_or(&name) {
        "quit" => 256,
        "coa" => report::feedback::COA,
        "cod" => report::feedback::COD,
        "expiration" => report::feedback::EXPIRATION,
        "pan" => report::feedback::PAN,
        "nan" => report::feedback::NAN,
        _ => {
            return Err(bad(format!(
                "--feedback {arg}: give a number or quit, coa, cod, expiration, pan, nan"
            )))
        }
    })
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
    ferry_model::message::bytes_from_hex(s)
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
        if let Some(id) = &self.msg_id {
            d.msg_id = MsgId(id_bytes(id)?);
        }
        if let Some(r) = &self.report {
            d.report = report_options(r)?;
        }
        if let Some(f) = &self.feedback {
            d.feedback = feedback_code(f)?;
        }
        if let Some(c) = self.ccsid {
            d.ccsid = c;
        }
        if let Some(e) = self.encoding {
            d.encoding = e;
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
