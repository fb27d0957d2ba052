//! What an administrative command answers: a reply per command, made of AMQ-style messages
//! and, for DISPLAY, the object's fields. Shared by the command executor (ferry-admin), the
//! server that carries it over the wire and the clients that show it.

use serde::{Deserialize, Serialize};

/// How a field's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Free text: quoted when written back (DESCR, CONNAME).
    Text,
    /// An object name.
    Name,
    /// A keyword value (YES, ENABLED, FIFO ...).
    Word,
    /// A number.
    Int,
    /// A bare keyword (SHARE, NOSHARE).
    Flag,
    /// A status value: shown, never written back (CURDEPTH, IPPROCS ...).
    Status,
}

/// One displayed attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// The keyword.
    pub key: String,
    /// Its value; `None` for a bare keyword.
    pub value: Option<String>,
    /// How to write it.
    pub kind: Kind,
}

/// One message of a reply: an AMQ-style code, a sentence, and the object's fields if it
/// describes one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Message {
    /// The message id, e.g. `AMQ8409I` (the last letter: I information, E error).
    pub code: String,
    /// The sentence.
    pub text: String,
    /// The object's fields, for DISPLAY.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<Field>,
    /// For a failure the queue manager refused: its MQRC_ reason code (what PCF answers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<i32>,
}

/// The reply to one command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reply {
    /// The command's number in its script (1-based).
    pub number: usize,
    /// The command as given.
    pub command: String,
    /// Whether it succeeded.
    pub ok: bool,
    /// What it says.
    pub messages: Vec<Message>,
    /// For DUMP: the script lines.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub script: Vec<String>,
}
