//! MQSC text to commands: tokens (words folded to upper case, quoted strings kept as written,
//! parentheses), then `VERB OBJECT(NAME) KEYWORD(VALUE) ...`. Every token keeps its position,
//! so an error names what it did not understand and where.
//!
//! Script layout, as runmqsc reads it: one command per line; a line ending in `+` or `-`
//! continues on the next (`+` drops the next line's leading blanks); lines starting with `*`
//! are comments; `;` also ends a command.

use std::fmt;

/// A parse error: what, and the 0-based character position in the command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The sentence.
    pub message: String,
    /// Where in the command text.
    pub position: usize,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at position {})", self.message, self.position + 1)
    }
}

fn err(message: impl Into<String>, position: usize) -> ParseError {
    ParseError {
        message: message.into(),
        position,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Word(String),
    Quoted(String),
    Open,
    Close,
}

#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    pos: usize,
}

/// Splits a command into tokens: words (upper-cased), quoted strings, parentheses; blanks and
/// commas separate them.
fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let start = i;
        let tok = match c {
            '(' => {
                i += 1;
                Tok::Open
            }
            ')' => {
                i += 1;
                Tok::Close
            }
            '\'' | '"' => Tok::Quoted(lex_quoted(&chars, &mut i)?),
            _ => Tok::Word(lex_word(&chars, &mut i)),
        };
        out.push(Token { tok, pos: start });
    }
    Ok(out)
}

/// The quoted string starting at `*i` (its opening quote), with a doubled quote standing for
/// one; `*i` moves past the closing quote.
fn lex_quoted(chars: &[char], i: &mut usize) -> Result<String, ParseError> {
    let start = *i;
    let q = chars[start];
    *i += 1;
    let mut s = String::new();
    loop {
        match chars.get(*i) {
            None => return Err(err("a quoted string is not closed", start)),
            Some(&ch) if ch == q => {
                // A doubled quote stands for one.
                if chars.get(*i + 1) == Some(&q) {
                    s.push(q);
                    *i += 2;
                } else {
                    *i += 1;
                    return Ok(s);
                }
            }
            Some(&ch) => {
                s.push(ch);
                *i += 1;
            }
        }
    }
}

/// The word starting at `*i`, upper-cased; `*i` moves past it.
fn lex_word(chars: &[char], i: &mut usize) -> String {
    let mut s = String::new();
    while let Some(&ch) = chars.get(*i) {
        if ch.is_whitespace() || ch == '(' || ch == ')' || ch == ',' || ch == '\'' {
            break;
        }
        s.push(ch.to_ascii_uppercase());
        *i += 1;
    }
    s
}

/// Command verbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// DEFINE.
    Define,
    /// ALTER.
    Alter,
    /// DELETE.
    Delete,
    /// DISPLAY.
    Display,
    /// CLEAR.
    Clear,
    /// START.
    Start,
    /// STOP.
    Stop,
    /// DUMP: every object as a replayable script (MQ's dmpmqcfg).
    Dump,
    /// RESET (CHANNEL: its sequence number).
    Reset,
    /// RESOLVE (CHANNEL: a batch in doubt).
    Resolve,
    /// SET (AUTHREC).
    Set,
    /// REFRESH (SECURITY).
    Refresh,
}

/// Object types a command names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Object {
    /// QLOCAL.
    QLocal,
    /// QALIAS.
    QAlias,
    /// QREMOTE.
    QRemote,
    /// QMODEL.
    QModel,
    /// QUEUE: any queue type (DISPLAY only).
    Queue,
    /// QMGR.
    QMgr,
    /// CHANNEL.
    Channel,
    /// LISTENER.
    Listener,
    /// QSTATUS.
    QStatus,
    /// CONN.
    Conn,
    /// QMSTATUS.
    QmStatus,
    /// LSSTATUS.
    LsStatus,
    /// CHSTATUS.
    ChStatus,
    /// AUTHINFO.
    AuthInfo,
    /// AUTHREC: an authority record (named by PROFILE and OBJTYPE).
    AuthRec,
    /// ENTAUTH: what an entity may do to an object.
    EntAuth,
    /// SECURITY (REFRESH SECURITY).
    Security,
    /// CHLAUTH: channel authentication records of a channel profile.
    ChlAuth,
    /// SUB: a subscription (named by free text, not an object name).
    Sub,
    /// SBSTATUS: a subscription's status.
    SbStatus,
    /// TOPIC: an administrative topic object.
    Topic,
    /// TPSTATUS: the live topic tree (named by a topic string).
    TpStatus,
    /// TOPICSTR: a topic string (CLEAR TOPICSTR).
    TopicStr,
    /// QSTATS: a queue's statistics since they were last reset (RESET QSTATS).
    QStats,
    /// NAMELIST.
    Namelist,
    /// PROCESS: a process definition.
    Process,
    /// CMDSERV: the PCF command server (START / STOP CMDSERV).
    CmdServ,
}

impl Object {
    /// The keyword as written in commands and output.
    pub fn keyword(self) -> &'static str {
        match self {
            Object::QLocal => "QLOCAL",
            Object::QAlias => "QALIAS",
            Object::QRemote => "QREMOTE",
            Object::QModel => "QMODEL",
            Object::Queue => "QUEUE",
            Object::QMgr => "QMGR",
            Object::Channel => "CHANNEL",
            Object::Listener => "LISTENER",
            Object::QStatus => "QSTATUS",
            Object::Conn => "CONN",
            Object::QmStatus => "QMSTATUS",
            Object::LsStatus => "LSSTATUS",
            Object::ChStatus => "CHSTATUS",
            Object::AuthInfo => "AUTHINFO",
            Object::AuthRec => "AUTHREC",
            Object::EntAuth => "ENTAUTH",
            Object::Security => "SECURITY",
            Object::ChlAuth => "CHLAUTH",
            Object::Sub => "SUB",
            Object::SbStatus => "SBSTATUS",
            Object::Topic => "TOPIC",
            Object::TpStatus => "TPSTATUS",
            Object::TopicStr => "TOPICSTR",
            Object::QStats => "QSTATS",
            Object::Namelist => "NAMELIST",
            Object::Process => "PROCESS",
            Object::CmdServ => "CMDSERV",
        }
    }

    fn parse(w: &str) -> Option<Object> {
        Some(match w {
            "QLOCAL" | "QL" => Object::QLocal,
            "QALIAS" | "QA" => Object::QAlias,
            "QREMOTE" | "QR" => Object::QRemote,
            "QMODEL" | "QM" => Object::QModel,
            "QUEUE" | "Q" => Object::Queue,
            "QMGR" => Object::QMgr,
            "CHANNEL" | "CHL" => Object::Channel,
            "LISTENER" | "LSTR" => Object::Listener,
            "QSTATUS" | "QS" => Object::QStatus,
            "CONN" => Object::Conn,
            "QMSTATUS" => Object::QmStatus,
            "LSSTATUS" | "LS" => Object::LsStatus,
            "CHSTATUS" | "CHS" => Object::ChStatus,
            "AUTHINFO" => Object::AuthInfo,
            "AUTHREC" => Object::AuthRec,
            "ENTAUTH" => Object::EntAuth,
            "SECURITY" => Object::Security,
            "CHLAUTH" => Object::ChlAuth,
            "SUB" | "SUBSCRIPTION" => Object::Sub,
            "SBSTATUS" => Object::SbStatus,
            "TOPIC" | "TOP" => Object::Topic,
            "TPSTATUS" | "TPS" => Object::TpStatus,
            "TOPICSTR" => Object::TopicStr,
            "QSTATS" => Object::QStats,
            "NAMELIST" | "NL" => Object::Namelist,
            "PROCESS" | "PRO" => Object::Process,
            "CMDSERV" => Object::CmdServ,
            _ => return None,
        })
    }

    /// Whether the object is named in parentheses.
    fn named(self) -> bool {
        !matches!(
            self,
            Object::QMgr
                | Object::QmStatus
                | Object::AuthRec
                | Object::EntAuth
                | Object::Security
                | Object::CmdServ
        )
    }
}

/// A value in parentheses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Value {
    /// The text (upper case unless quoted).
    pub text: String,
    /// Whether it was quoted (case kept, may be blank).
    pub quoted: bool,
    /// Position of the value.
    pub pos: usize,
}

/// A WHERE filter's operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// EQ.
    Eq,
    /// NE.
    Ne,
    /// LT.
    Lt,
    /// GT.
    Gt,
    /// LE.
    Le,
    /// GE.
    Ge,
    /// LK: matches a generic value (trailing `*`).
    Like,
    /// NL: does not match a generic value.
    NotLike,
    /// CT: a list attribute holds the value (a single value: is it).
    Contains,
    /// EX: a list attribute does not hold the value.
    Excludes,
    /// CTG: a list attribute holds an item matching a generic value.
    ContainsGeneric,
    /// EXG: a list attribute holds no item matching a generic value.
    ExcludesGeneric,
}

/// `WHERE(attribute op value)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// The attribute.
    pub attribute: String,
    /// The operator.
    pub op: Op,
    /// The value.
    pub value: Value,
}

/// One `KEYWORD` or `KEYWORD(value)` after the object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    /// The keyword, upper case.
    pub key: String,
    /// Its value, if it has one.
    pub value: Option<Value>,
    /// Position of the keyword.
    pub pos: usize,
}

/// A parsed command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The text as given (one line, continuations joined).
    pub text: String,
    /// The verb.
    pub verb: Verb,
    /// The object type.
    pub object: Object,
    /// The object name or generic name (`APP.*`), when the object is named.
    pub name: Option<Value>,
    /// Keywords in order (WHERE excluded).
    pub params: Vec<Param>,
    /// The WHERE filter, if any.
    pub filter: Option<Filter>,
    /// Who issued it (`None`: the queue manager's owner, as on its own command line). Its
    /// authority decides what the command may do and which objects a DISPLAY shows.
    pub issuer: Option<std::sync::Arc<ferry_model::security::Principal>>,
}

impl Command {
    /// The value of `key`, if given.
    pub fn value(&self, key: &str) -> Option<&Value> {
        self.params
            .iter()
            .find(|p| p.key == key)
            .and_then(|p| p.value.as_ref())
    }

    /// Whether the keyword `key` was given (with or without a value).
    pub fn has(&self, key: &str) -> bool {
        self.params.iter().any(|p| p.key == key)
    }
}

fn verb(w: &str) -> Option<Verb> {
    Some(match w {
        "DEFINE" | "DEF" => Verb::Define,
        "ALTER" | "ALT" => Verb::Alter,
        "DELETE" | "DELE" => Verb::Delete,
        "DISPLAY" | "DIS" => Verb::Display,
        "CLEAR" => Verb::Clear,
        "START" | "STA" => Verb::Start,
        "STOP" => Verb::Stop,
        "DUMP" => Verb::Dump,
        "RESET" => Verb::Reset,
        "RESOLVE" => Verb::Resolve,
        "SET" => Verb::Set,
        "REFRESH" | "REF" => Verb::Refresh,
        _ => return None,
    })
}

/// Keywords whose value is a list (`AUTHADD(PUT, GET)`): its items are joined with commas.
const LIST_KEYS: &[&str] = &[
    "AUTHADD", "AUTHRMV", "ADDRLIST", "USERLIST", "NAMES", "PROTOCOL",
];

/// The further words of a list value, joined to `v` with commas; `*i` moves past them.
fn more_items(tokens: &[Token], i: &mut usize, v: &mut Value) {
    while let Some(Token {
        tok: Tok::Word(w) | Tok::Quoted(w),
        ..
    }) = tokens.get(*i)
    {
        v.text.push(',');
        v.text.push_str(w);
        *i += 1;
    }
}

fn value_of(
    tokens: &[Token],
    i: &mut usize,
    what: &str,
    open_pos: usize,
) -> Result<Value, ParseError> {
    let v = match tokens.get(*i) {
        Some(Token {
            tok: Tok::Word(w),
            pos,
        }) => Value {
            text: w.clone(),
            quoted: false,
            pos: *pos,
        },
        Some(Token {
            tok: Tok::Quoted(q),
            pos,
        }) => Value {
            text: q.clone(),
            quoted: true,
            pos: *pos,
        },
        Some(Token {
            tok: Tok::Close,
            pos,
        }) => Value {
            text: String::new(),
            quoted: false,
            pos: *pos,
        },
        Some(t) => return Err(err(format!("unexpected '(' in the value of {what}"), t.pos)),
        None => {
            return Err(err(
                format!("the value of {what} is not closed with ')'"),
                open_pos,
            ))
        }
    };
    let mut v = v;
    if !matches!(
        tokens.get(*i),
        Some(Token {
            tok: Tok::Close,
            ..
        })
    ) {
        *i += 1;
    }
    if LIST_KEYS.contains(&what) {
        more_items(tokens, i, &mut v);
    }
    match tokens.get(*i) {
        Some(Token {
            tok: Tok::Close, ..
        }) => {
            *i += 1;
            Ok(v)
        }
        Some(t) => Err(err(
            format!("{what} takes one value; found more before ')'"),
            t.pos,
        )),
        None => Err(err(
            format!("the value of {what} is not closed with ')'"),
            open_pos,
        )),
    }
}

fn parse_filter(tokens: &[Token], i: &mut usize, open_pos: usize) -> Result<Filter, ParseError> {
    let word = |i: usize, what: &str| -> Result<(String, usize), ParseError> {
        match tokens.get(i) {
            Some(Token {
                tok: Tok::Word(w),
                pos,
            }) => Ok((w.clone(), *pos)),
            Some(t) => Err(err(format!("WHERE needs {what} here"), t.pos)),
            None => Err(err(format!("WHERE is missing {what}"), open_pos)),
        }
    };
    let (attribute, _) = word(*i, "an attribute")?;
    let (op_word, op_pos) = word(
        *i + 1,
        "an operator (EQ, NE, LT, GT, LE, GE, LK, NL, CT, EX, CTG, EXG)",
    )?;
    let op = match op_word.as_str() {
        "EQ" => Op::Eq,
        "NE" => Op::Ne,
        "LT" => Op::Lt,
        "GT" => Op::Gt,
        "LE" => Op::Le,
        "GE" => Op::Ge,
        "LK" => Op::Like,
        "NL" => Op::NotLike,
        "CT" => Op::Contains,
        "EX" => Op::Excludes,
        "CTG" => Op::ContainsGeneric,
        "EXG" => Op::ExcludesGeneric,
        other => {
            return Err(err(
                format!("unknown WHERE operator '{other}'; use EQ, NE, LT, GT, LE, GE, LK, NL, CT, EX, CTG or EXG"),
                op_pos,
            ))
        }
    };
    *i += 2;
    let value = value_of(tokens, i, "WHERE", open_pos)?;
    Ok(Filter {
        attribute,
        op,
        value,
    })
}

/// Parses one command.
pub fn parse_command(text: &str) -> Result<Command, ParseError> {
    let tokens = lex(text)?;
    let v = parse_verb(&tokens)?;
    let (object, obj_pos) = parse_object(&tokens, text)?;
    let mut i = 2;
    let name = if object.named() {
        Some(parse_name(&tokens, &mut i, object, obj_pos, text)?)
    } else {
        None
    };
    let (params, filter) = parse_params(&tokens, i)?;
    Ok(Command {
        text: text.trim().to_owned(),
        verb: v,
        object,
        name,
        params,
        filter,
        issuer: None,
    })
}

/// The verb: the first token.
fn parse_verb(tokens: &[Token]) -> Result<Verb, ParseError> {
    let verb_tok = tokens.first().ok_or_else(|| err("empty command", 0))?;
    match &verb_tok.tok {
        Tok::Word(w) => verb(w).ok_or_else(|| {
            err(
                format!(
                    "unknown command '{w}'{}; use DEFINE, ALTER, DELETE, DISPLAY, CLEAR, START, STOP, RESET, RESOLVE, SET, REFRESH or DUMP",
                    crate::suggest::hint(w, crate::suggest::VERBS.iter().copied())
                ),
                verb_tok.pos,
            )
        }),
        _ => Err(err("a command starts with a verb such as DISPLAY", verb_tok.pos)),
    }
}

/// The object type (the second token) and where it is.
fn parse_object(tokens: &[Token], text: &str) -> Result<(Object, usize), ParseError> {
    let obj_tok = tokens.get(1).ok_or_else(|| {
        err(
            "the command needs an object type, such as QLOCAL or QMGR",
            text.len(),
        )
    })?;
    let object = match &obj_tok.tok {
        Tok::Word(w) => Object::parse(w).ok_or_else(|| {
            let hint = crate::suggest::hint(w, crate::suggest::OBJECTS.iter().copied());
            err(format!("unknown object type '{w}'{hint}"), obj_tok.pos)
        })?,
        _ => return Err(err("expected an object type such as QLOCAL", obj_tok.pos)),
    };
    Ok((object, obj_tok.pos))
}

/// The object's name in parentheses at `*i`, which must be there and not be empty; `*i`
/// moves past it.
fn parse_name(
    tokens: &[Token],
    i: &mut usize,
    object: Object,
    obj_pos: usize,
    text: &str,
) -> Result<Value, ParseError> {
    match tokens.get(*i) {
        Some(Token {
            tok: Tok::Open,
            pos,
        }) => {
            let open = *pos;
            *i += 1;
            let v = value_of(tokens, i, object.keyword(), open)?;
            if v.text.is_empty() {
                return Err(err(format!("{} needs a name", object.keyword()), v.pos));
            }
            Ok(v)
        }
        _ => Err(err(
            format!(
                "{} needs a name in parentheses, e.g. {}(APP.IN)",
                object.keyword(),
                object.keyword()
            ),
            obj_pos + object.keyword().len().min(text.len()),
        )),
    }
}

/// The keywords from token `i` on, in order, and the WHERE filter if one is given.
fn parse_params(
    tokens: &[Token],
    mut i: usize,
) -> Result<(Vec<Param>, Option<Filter>), ParseError> {
    let mut params = Vec::new();
    let mut filter = None;
    while let Some(t) = tokens.get(i) {
        let (key, pos) = match &t.tok {
            Tok::Word(w) => (w.clone(), t.pos),
            Tok::Quoted(_) => {
                return Err(err("a value must follow a keyword in parentheses", t.pos))
            }
            Tok::Open | Tok::Close => return Err(err("unexpected parenthesis", t.pos)),
        };
        i += 1;
        let has_value = matches!(tokens.get(i), Some(Token { tok: Tok::Open, .. }));
        if key == "WHERE" {
            let open = tokens.get(i).map_or(pos, |t| t.pos);
            if !has_value {
                return Err(err("WHERE needs (attribute operator value)", pos));
            }
            if filter.is_some() {
                return Err(err("only one WHERE is allowed", pos));
            }
            i += 1;
            filter = Some(parse_filter(tokens, &mut i, open)?);
            continue;
        }
        let value = if has_value {
            let open = tokens[i].pos;
            i += 1;
            Some(value_of(tokens, &mut i, &key, open)?)
        } else {
            None
        };
        if params.iter().any(|p: &Param| p.key == key) {
            return Err(err(format!("{key} is given twice"), pos));
        }
        params.push(Param { key, value, pos });
    }
    Ok((params, filter))
}

/// Splits `script` and parses each command, keeping nothing: what the fuzz target
/// `mqsc_parser` runs on outside text (and the test that replays its corpus).
pub fn parse_everything(script: &str) {
    for (_, text) in split_script(script) {
        let _ = parse_command(&text);
    }
}

/// Splits a script into command texts, with the line each starts on: comments dropped,
/// continuation lines joined, `;` separating commands; END (as in runmqsc) ends the script.
pub fn split_script(script: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut start_line = 0;
    let mut strip_next = false;
    for (n, raw) in script.lines().enumerate() {
        let mut line = raw.trim_end();
        if current.is_empty() {
            if line.trim_start().starts_with('*') || line.trim().is_empty() {
                continue;
            }
            start_line = n + 1;
        } else if strip_next {
            line = line.trim_start();
        }
        let (body, cont) = if let Some(b) = line.strip_suffix('+') {
            strip_next = true;
            (b, true)
        } else if let Some(b) = line.strip_suffix('-') {
            strip_next = false;
            (b, true)
        } else {
            (line, false)
        };
        current.push_str(body);
        if cont {
            continue;
        }
        for part in split_semicolons(&current) {
            // END ends the script, as in runmqsc: what follows is not run.
            if part.trim().eq_ignore_ascii_case("END") {
                return out;
            }
            if !part.trim().is_empty() {
                out.push((start_line, part.trim().to_owned()));
            }
        }
        current.clear();
    }
    if !current.trim().is_empty() {
        for part in split_semicolons(&current) {
            if !part.trim().is_empty() {
                out.push((start_line, part.trim().to_owned()));
            }
        }
    }
    out
}

/// Splits on `;` outside quotes.
fn split_semicolons(s: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                cur.push(c);
            }
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (None, ';') => parts.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    parts.push(cur);
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_define_parses_with_its_keywords_folded_and_quotes_kept() {
        let c = parse_command("def ql(app.in) maxdepth(5000) descr('Orders, in') noshare replace")
            .unwrap();
        assert_eq!(c.verb, Verb::Define);
        assert_eq!(c.object, Object::QLocal);
        assert_eq!(c.name.as_ref().unwrap().text, "APP.IN");
        assert_eq!(c.value("MAXDEPTH").unwrap().text, "5000");
        let d = c.value("DESCR").unwrap();
        assert_eq!((d.text.as_str(), d.quoted), ("Orders, in", true));
        assert!(c.has("NOSHARE") && c.has("REPLACE"));
    }

    #[test]
    fn display_with_generic_name_attributes_and_where() {
        let c = parse_command("DISPLAY QLOCAL(APP.*) CURDEPTH WHERE(CURDEPTH GT 10)").unwrap();
        assert_eq!(c.name.as_ref().unwrap().text, "APP.*");
        assert!(c.has("CURDEPTH"));
        let f = c.filter.unwrap();
        assert_eq!(
            (f.attribute.as_str(), f.op, f.value.text.as_str()),
            ("CURDEPTH", Op::Gt, "10")
        );
        let c = parse_command("DIS CONN(*) TYPE(ALL) WHERE(APPLTAG EQ 'my app')").unwrap();
        assert_eq!(c.object, Object::Conn);
        assert_eq!(c.filter.unwrap().value.text, "my app");
        let c = parse_command("DISPLAY QMGR ALL").unwrap();
        assert!(c.name.is_none() && c.has("ALL"));
    }

    #[test]
    fn errors_name_the_problem_and_its_position() {
        let e = parse_command("DISPLY QLOCAL(X)").unwrap_err();
        assert!(e.message.contains("DISPLY") && e.position == 0, "{e}");
        let e = parse_command("DEFINE QLOKAL(X)").unwrap_err();
        assert!(e.message.contains("QLOKAL") && e.position == 7, "{e}");
        let e = parse_command("DEFINE QLOCAL").unwrap_err();
        assert!(e.message.contains("needs a name"), "{e}");
        let e = parse_command("DEFINE QLOCAL(X) DESCR('open").unwrap_err();
        assert!(e.message.contains("not closed"), "{e}");
        let e = parse_command("DEFINE QLOCAL(X) MAXDEPTH(1 2)").unwrap_err();
        assert!(e.message.contains("one value"), "{e}");
        let e = parse_command("DEFINE QLOCAL(X) MAXDEPTH(1) MAXDEPTH(2)").unwrap_err();
        assert!(e.message.contains("twice") && e.position == 29, "{e}");
        let e = parse_command("DIS QL(*) WHERE(CURDEPTH ABOUT 3)").unwrap_err();
        assert!(e.message.contains("ABOUT"), "{e}");
        let e = parse_command("").unwrap_err();
        assert!(e.message.contains("empty"));
    }

    #[test]
    fn scripts_split_into_commands_with_continuations_and_comments() {
        let script = "* a comment\nDEFINE QLOCAL(A) +\n     MAXDEPTH(10)\n\nDEFINE QLOCAL(B) DESCR('x;y'); DISPLAY QLOCAL(*)\nALTER QLOCAL(A) -\n DESCR('z')\n";
        let cmds = split_script(script);
        let texts: Vec<&str> = cmds.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "DEFINE QLOCAL(A) MAXDEPTH(10)",
                "DEFINE QLOCAL(B) DESCR('x;y')",
                "DISPLAY QLOCAL(*)",
                "ALTER QLOCAL(A)  DESCR('z')",
            ]
        );
        assert_eq!(cmds[0].0, 2);
        assert_eq!(cmds[3].0, 6);
        let ended = split_script("DISPLAY QMGR\nend\nDELETE QLOCAL(A)\n");
        assert_eq!(ended.len(), 1, "END ends the script: {ended:?}");
    }

    /// Every command the executor runs parses to its verb and object, long and short forms.
    #[test]
    fn every_command_parses() {
        let cases: &[(&str, Verb, Object)] = &[
            (
                "DEFINE QLOCAL(A) LIKE(B) REPLACE",
                Verb::Define,
                Object::QLocal,
            ),
            ("DEF QA(A) TARGET(B)", Verb::Define, Object::QAlias),
            (
                "DEFINE QREMOTE(A) RNAME(B) RQMNAME(QM2) XMITQ(QM2)",
                Verb::Define,
                Object::QRemote,
            ),
            (
                "DEFINE QMODEL(A) DEFTYPE(PERMDYN)",
                Verb::Define,
                Object::QModel,
            ),
            (
                "DEFINE CHANNEL(C) CHLTYPE(SDR) CONNAME('h(1414)') XMITQ(QM2)",
                Verb::Define,
                Object::Channel,
            ),
            (
                "DEFINE LISTENER(L) TRPTYPE(TCP) PORT(1415) CONTROL(QMGR)",
                Verb::Define,
                Object::Listener,
            ),
            ("ALTER QMGR DEADQ(X)", Verb::Alter, Object::QMgr),
            ("ALTER QLOCAL(A) PUT(DISABLED)", Verb::Alter, Object::QLocal),
            ("ALTER QALIAS(A) GET(DISABLED)", Verb::Alter, Object::QAlias),
            ("ALTER QREMOTE(A) RNAME(C)", Verb::Alter, Object::QRemote),
            ("ALTER QMODEL(A) MAXDEPTH(5)", Verb::Alter, Object::QModel),
            (
                "ALTER CHANNEL(C) CHLTYPE(SDR) BATCHSZ(10)",
                Verb::Alter,
                Object::Channel,
            ),
            (
                "ALTER LISTENER(L) PORT(1416)",
                Verb::Alter,
                Object::Listener,
            ),
            ("DELETE QLOCAL(A) PURGE", Verb::Delete, Object::QLocal),
            ("DELETE QALIAS(A)", Verb::Delete, Object::QAlias),
            ("DELETE QREMOTE(A)", Verb::Delete, Object::QRemote),
            ("DELETE QMODEL(A)", Verb::Delete, Object::QModel),
            ("DELETE CHANNEL(C)", Verb::Delete, Object::Channel),
            ("DELETE LISTENER(L)", Verb::Delete, Object::Listener),
            ("CLEAR QLOCAL(A)", Verb::Clear, Object::QLocal),
            ("DISPLAY QMGR", Verb::Display, Object::QMgr),
            (
                "DISPLAY QUEUE(*) TYPE(QALIAS)",
                Verb::Display,
                Object::Queue,
            ),
            ("DIS QL(*) ALL", Verb::Display, Object::QLocal),
            (
                "DISPLAY QSTATUS(A) TYPE(HANDLE)",
                Verb::Display,
                Object::QStatus,
            ),
            ("DISPLAY CONN(*) TYPE(ALL)", Verb::Display, Object::Conn),
            ("DISPLAY QMSTATUS ALL", Verb::Display, Object::QmStatus),
            ("DISPLAY CHANNEL(*)", Verb::Display, Object::Channel),
            ("DISPLAY CHSTATUS(*)", Verb::Display, Object::ChStatus),
            ("DISPLAY LISTENER(*)", Verb::Display, Object::Listener),
            ("DISPLAY LSSTATUS(*)", Verb::Display, Object::LsStatus),
            ("START LISTENER(L)", Verb::Start, Object::Listener),
            ("STOP LISTENER(L)", Verb::Stop, Object::Listener),
            ("START CHANNEL(C)", Verb::Start, Object::Channel),
            ("STOP CHANNEL(C)", Verb::Stop, Object::Channel),
            ("DUMP QMGR", Verb::Dump, Object::QMgr),
            ("RESET CHANNEL(C) SEQNUM(5)", Verb::Reset, Object::Channel),
            ("RESET QSTATS(APP.*)", Verb::Reset, Object::QStats),
            (
                "RESOLVE CHANNEL(C) ACTION(COMMIT)",
                Verb::Resolve,
                Object::Channel,
            ),
        ];
        for (text, verb, object) in cases {
            let c = parse_command(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!((c.verb, c.object), (*verb, *object), "{text}");
        }
    }

    #[test]
    fn doubled_quotes_stand_for_one() {
        let c = parse_command("DEFINE QLOCAL(X) DESCR('it''s')").unwrap();
        assert_eq!(c.value("DESCR").unwrap().text, "it's");
    }
}
