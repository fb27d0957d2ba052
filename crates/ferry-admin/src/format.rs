//! Replies as text an MQ administrator recognises (runmqsc's layout: the numbered command, the
//! message line, then the object's attributes two to a line), or as JSON for scripts.

use crate::attrs::Field;
use crate::exec::Reply;

/// Width of an attribute column.
const COLUMN: usize = 40;

fn field_text(f: &Field) -> String {
    match &f.value {
        None => f.key.clone(),
        Some(v) => format!("{}({v})", f.key),
    }
}

/// One reply as text (with a trailing newline).
pub fn reply_text(r: &Reply) -> String {
    let mut s = format!("{:>6} : {}\n", r.number, r.command);
    for m in &r.messages {
        s.push_str(&format!("{}: {}\n", m.code, m.text));
        let mut line = String::new();
        let mut in_line = 0;
        for f in &m.fields {
            let t = field_text(f);
            if t.len() >= COLUMN - 3 {
                // A long attribute takes a line of its own.
                if in_line > 0 {
                    s.push_str(line.trim_end());
                    s.push('\n');
                    line.clear();
                    in_line = 0;
                }
                s.push_str(&format!("   {t}\n"));
                continue;
            }
            if in_line == 0 {
                line.push_str("   ");
                line.push_str(&format!("{t:<width$}", width = COLUMN));
                in_line = 1;
            } else {
                line.push_str(&t);
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
                in_line = 0;
            }
        }
        if in_line > 0 {
            s.push_str(line.trim_end());
            s.push('\n');
        }
    }
    for l in &r.script {
        s.push_str(l);
        s.push('\n');
    }
    s
}

/// Every reply as text, with runmqsc's closing summary.
pub fn text(replies: &[Reply]) -> String {
    let mut s = String::new();
    for r in replies {
        s.push_str(&reply_text(r));
    }
    s.push_str(&summary(replies));
    s
}

/// runmqsc's closing lines, in its words: how many commands were read, how many had a syntax
/// error, and whether every valid one was processed.
fn summary(replies: &[Reply]) -> String {
    let syntax = |r: &&Reply| r.messages.first().is_some_and(|m| m.code == "AMQ8405E");
    let bad = replies.iter().filter(|r| !r.ok).filter(syntax).count();
    let failed = replies.iter().filter(|r| !r.ok).count() - bad;
    let mut s = format!("{} MQSC commands read.\n", replies.len());
    s.push_str(&match bad {
        0 => "No commands have a syntax error.\n".to_owned(),
        1 => "One command has a syntax error.\n".to_owned(),
        n => format!("{n} commands have a syntax error.\n"),
    });
    s.push_str(&match failed {
        0 => "All valid MQSC commands were processed.\n".to_owned(),
        1 => "One valid MQSC command could not be processed.\n".to_owned(),
        n => format!("{n} valid MQSC commands could not be processed.\n"),
    });
    s
}

/// The replies as JSON: an array of replies, each with its messages and their attributes as
/// an object (in the order DISPLAY shows them). Serialize it with serde_json: it is written as
/// it goes, without building a tree first (DISPLAY over 10,000 queues is a large answer).
#[derive(Debug, Clone, Copy)]
pub struct Json<'a>(pub &'a [Reply]);

/// The replies as a JSON value (for tests and callers that want to walk it).
pub fn json(replies: &[Reply]) -> serde_json::Value {
    serde_json::to_value(Json(replies)).unwrap_or(serde_json::Value::Null)
}

impl serde::Serialize for Json<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(JsonReply))
    }
}

struct JsonReply<'a>(&'a Reply);

impl serde::Serialize for JsonReply<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let r = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("number", &r.number)?;
        m.serialize_entry("command", &r.command)?;
        m.serialize_entry("ok", &r.ok)?;
        m.serialize_entry("messages", &JsonMessages(&r.messages))?;
        if !r.script.is_empty() {
            m.serialize_entry("script", &r.script)?;
        }
        m.end()
    }
}

struct JsonMessages<'a>(&'a [crate::exec::Message]);

impl serde::Serialize for JsonMessages<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(JsonMessage))
    }
}

struct JsonMessage<'a>(&'a crate::exec::Message);

impl serde::Serialize for JsonMessage<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let msg = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("code", &msg.code)?;
        m.serialize_entry("text", &msg.text)?;
        if !msg.fields.is_empty() {
            m.serialize_entry("attributes", &JsonAttrs(&msg.fields))?;
        }
        m.end()
    }
}

struct JsonAttrs<'a>(&'a [crate::attrs::Field]);

impl serde::Serialize for JsonAttrs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use crate::attrs::Kind;
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for f in self.0 {
            match &f.value {
                // A bare keyword (SHARE, NOSHARE) is a flag that is set.
                None => m.serialize_entry(&f.key, &true)?,
                Some(v) => match (f.kind, v.parse::<i64>()) {
                    (Kind::Int | Kind::Status, Ok(n)) => m.serialize_entry(&f.key, &n)?,
                    _ => m.serialize_entry(&f.key, v)?,
                },
            }
        }
        m.end()
    }
}
