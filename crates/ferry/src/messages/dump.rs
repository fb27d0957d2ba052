//! A message written out in full, as amqsbcg does: every descriptor field, the properties, and
//! the body in hex with its text beside it.

use std::fmt::Write as _;

use ferry_client::{Got, MessageType, Persistence, PropertyValue};

/// The whole of message number `n`.
pub fn message(n: usize, got: &Got) -> String {
    let m = &got.message;
    let d = &m.descriptor;
    let mut s = format!("message {n}\n");
    let mut field = |k: &str, v: String| {
        let _ = writeln!(s, "  {k:<15} {v}");
    };
    field("MsgId", d.msg_id.to_hex());
    field("CorrelId", d.correl_id.to_hex());
    field("Format", quoted(d.format.as_str()));
    field("MsgType", kind(d.message_type).into());
    field("Priority", priority(d.priority));
    field("Persistence", persistence(d.persistence).into());
    field(
        "Expiry",
        d.expiry.map_or_else(
            || "unlimited".into(),
            |e| format!("{:.1} s left", e.as_secs_f64()),
        ),
    );
    field("Report", report_text(d.report));
    field("Feedback", d.feedback.to_string());
    field("ReplyToQ", quoted(d.reply_to_queue.as_str()));
    field("ReplyToQMgr", quoted(d.reply_to_qmgr.as_str()));
    field("UserIdentifier", quoted(d.user_id.as_str()));
    field("PutApplName", quoted(d.put_appl_name.as_str()));
    field("PutTime", super::utc_timestamp(d.put_time));
    field("BackoutCount", d.backout_count.to_string());
    field("Encoding", d.encoding.to_string());
    field("CodedCharSetId", d.ccsid.to_string());
    if let Some(dlh) = &m.dead_letter {
        field(
            "DeadLetter",
            format!(
                "reason {} queue {} qmgr {}",
                dlh.reason, dlh.dest_queue, dlh.dest_qmgr
            ),
        );
    }
    let _ = writeln!(s, "  properties ({})", m.properties.len());
    for (name, v) in m.properties.iter() {
        let _ = writeln!(s, "    {name} = {}", value(v));
    }
    let _ = writeln!(
        s,
        "  body ({} bytes{})",
        got.data_length,
        if m.body.len() < got.data_length {
            ", cut"
        } else {
            ""
        }
    );
    s.push_str(&hex_dump(&m.body));
    s
}

fn quoted(s: &str) -> String {
    format!("'{}'", s.trim_end())
}

fn kind(t: MessageType) -> &'static str {
    match t {
        MessageType::Request => "request (1)",
        MessageType::Reply => "reply (2)",
        MessageType::Report => "report (4)",
        MessageType::Datagram => "datagram (8)",
    }
}

fn priority(p: ferry_client::Priority) -> String {
    match p {
        ferry_client::Priority::Value(v) => v.to_string(),
        ferry_client::Priority::AsQueueDef => "as queue default".into(),
    }
}

fn persistence(p: Persistence) -> &'static str {
    match p {
        Persistence::Persistent => "persistent",
        Persistence::NotPersistent => "not persistent",
        Persistence::AsQueueDef => "as queue default",
    }
}

/// A property's value with its type.
pub fn value(v: &PropertyValue) -> String {
    match v {
        PropertyValue::Bool(b) => format!("{b} (bool)"),
        PropertyValue::I8(x) => format!("{x} (i8)"),
        PropertyValue::I16(x) => format!("{x} (i16)"),
        PropertyValue::I32(x) => format!("{x} (i32)"),
        PropertyValue::I64(x) => format!("{x} (i64)"),
        PropertyValue::F32(x) => format!("{x} (f32)"),
        PropertyValue::F64(x) => format!("{x} (f64)"),
        PropertyValue::String(s) => format!("{s:?} (string)"),
        PropertyValue::Bytes(b) => format!("{} (bytes)", hex(b)),
        PropertyValue::Null => "null".into(),
    }
}

/// Lower-case hex digits of `b`.
pub fn hex(b: &[u8]) -> String {
    b.iter()
        .fold(String::with_capacity(b.len() * 2), |mut s, x| {
            let _ = write!(s, "{x:02x}");
            s
        })
}

/// 16 bytes a line: offset, hex in pairs, and the printable text.
fn hex_dump(body: &[u8]) -> String {
    let mut s = String::new();
    for (i, chunk) in body.chunks(16).enumerate() {
        let mut hexes = String::new();
        for (j, b) in chunk.iter().enumerate() {
            let _ = write!(hexes, "{b:02x}{}", if j % 2 == 1 { " " } else { "" });
        }
        let text: String = chunk
            .iter()
            .map(|b| {
                if b.is_ascii_graphic() || *b == b' ' {
                    *b as char
                } else {
                    '.'
                }
            })
            .collect();
        let _ = writeln!(s, "  {:08x}: {hexes:<40} {text}", i * 16);
    }
    s
}

/// MQMD Report as its number and the options' names (`0x00000100 coa`).
fn report_text(r: u32) -> String {
    let mut names: Vec<&str> = Vec::new();
    // Widest first, so coa-with-full-data is named once rather than with coa and coa-with-data.
    let mut left = r;
    for (name, v) in super::spec::REPORT_NAMES.iter().rev() {
        if *v != 0 && left & v == *v {
            names.push(name);
            left &= !v;
        }
    }
    if left & ferry_model::report::DISCARD_MSG != 0 {
        names.push("discard-msg");
        left &= !ferry_model::report::DISCARD_MSG;
    }
    names.reverse();
    match (r, left) {
        (0, _) => "0 (none)".into(),
        (_, 0) => format!("0x{r:08x} ({})", names.join(",")),
        _ => format!("0x{r:08x} ({} and 0x{left:08x})", names.join(",")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_body_is_dumped_sixteen_bytes_a_line_with_its_text() {
        let d = hex_dump(b"hello world, and a second line.\x00!");
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(
            lines[0].starts_with(
                "  00000000: 6865 6c6c 6f20 776f 726c 642c 2061 6e64  hello world, and"
            ),
            "{d}"
        );
        assert!(
            lines[1].ends_with("a second line.."),
            "a zero byte shows as a dot: {d}"
        );
        assert!(lines[2].ends_with(" !"), "{d}");
    }
}
