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
    let failed = replies.iter().filter(|r| !r.ok).count();
    s.push_str(&format!(
        "{} MQSC commands read.\nNo commands have a syntax error.\n",
        replies.len()
    ));
    if failed > 0 {
        // Replace the generic line with the count of failures.
        s = s.replace(
            "No commands have a syntax error.\n",
            &format!("{failed} commands failed.\n"),
        );
    } else {
        s.push_str("All valid MQSC commands were processed.\n");
    }
    s
}

/// The replies as JSON: an array of replies, each with its messages and their attributes as
/// an object.
pub fn json(replies: &[Reply]) -> serde_json::Value {
    let list: Vec<serde_json::Value> = replies
        .iter()
        .map(|r| {
            let messages: Vec<serde_json::Value> = r
                .messages
                .iter()
                .map(|m| {
                    let mut o = serde_json::json!({ "code": m.code, "text": m.text });
                    if !m.fields.is_empty() {
                        let attrs: serde_json::Map<String, serde_json::Value> = m
                            .fields
                            .iter()
                            .map(|f| {
                                let v = match &f.value {
                                    None => serde_json::Value::Bool(true),
                                    Some(v) => match (f.kind, v.parse::<i64>()) {
                                        (
                                            crate::attrs::Kind::Int | crate::attrs::Kind::Status,
                                            Ok(n),
                                        ) => n.into(),
                                        _ => v.clone().into(),
                                    },
                                };
                                (f.key.clone(), v)
                            })
                            .collect();
                        o["attributes"] = serde_json::Value::Object(attrs);
                    }
                    o
                })
                .collect();
            let mut o = serde_json::json!({
                "number": r.number,
                "command": r.command,
                "ok": r.ok,
                "messages": messages,
            });
            if !r.script.is_empty() {
                o["script"] = r.script.clone().into();
            }
            o
        })
        .collect();
    serde_json::Value::Array(list)
}
