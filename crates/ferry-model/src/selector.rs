//! Message selectors: the SQL-92 subset JMS defines and IBM MQ takes as the SelectionString of
//! MQOPEN and MQSUB, parsed once and evaluated against every candidate message.
//!
//! Grammar (keywords case-insensitive, identifiers case-sensitive), loosest binding first:
//!
//! ```text
//! selector   := or
//! or         := and { OR and }
//! and        := not { AND not }
//! not        := NOT not | predicate
//! predicate  := sum [ cmp sum
//!                   | [NOT] BETWEEN sum AND sum
//!                   | [NOT] IN '(' literal { ',' literal } ')'
//!                   | [NOT] LIKE 'pattern' [ ESCAPE 'c' ]
//!                   | IS [NOT] NULL ]
//! cmp        := '=' | '<>' | '<' | '>' | '<=' | '>='
//! sum        := product { ('+' | '-') product }
//! product    := unary { ('*' | '/') unary }
//! unary      := ('+' | '-') unary | primary
//! primary    := '(' or ')' | identifier | 'string' | number | TRUE | FALSE
//! ```
//!
//! Strings are in single quotes, `''` standing for one quote. Exact numbers are digits with an
//! optional `L`; approximate ones have a point or an exponent (`7E3`, `7.`, `.5`, `-57.9E2`) and
//! an optional `F` or `D`. An identifier starts with a letter, `_` or `$` and goes on with
//! letters, digits, `_`, `$` and `.`, so `Root.MQMD.Priority` and `order.total` are one name;
//! NOT, AND, OR, BETWEEN, LIKE, IN, IS, NULL, ESCAPE, TRUE and FALSE are never names.
//!
//! Names: `JMSPriority` (NULL when the priority is the queue's default), `JMSDeliveryMode`
//! (`'PERSISTENT'` / `'NON_PERSISTENT'`, NULL when the queue's default), `JMSCorrelationID` and
//! `JMSMessageID` (`'ID:'` and the id's 48 hex digits), `JMSTimestamp` (milliseconds since the
//! Unix epoch), and the MQMD fields `Root.MQMD.<field>` (Priority, Persistence, MsgType,
//! Feedback, Encoding, CodedCharSetId, Format, BackoutCount, ReplyToQ, ReplyToQMgr,
//! UserIdentifier, PutApplName, CorrelId and MsgId, the ids as bare hex; any other MQMD field is a
//! syntax error). Every other name is a user property, looked up by its exact name.
//!
//! Evaluation uses SQL's three-valued logic: a missing property (or an explicit null) is NULL;
//! comparison and arithmetic with NULL, type mismatches (a string against a number, `<` on
//! strings or booleans, a byte-string property against anything), integer overflow and division
//! by zero give UNKNOWN, and a message matches only when the whole selector is TRUE. Integers
//! compare and calculate exactly in `i64`; with a float on either side both become `f64`. Ids
//! compare with strings with their hex digits in either case.
//!
//! Invariants worth naming:
//! - `parse` refuses (MQRC_SELECTOR_SYNTAX_ERROR, 2459, with the character position) a text over
//!   [`MAX_SELECTOR_LEN`] bytes, a blank text (callers treat a blank selection string as no
//!   selector: see [`Selector::parse_optional`]), and anything nested more than [`MAX_DEPTH`]
//!   deep, so neither the parser nor the evaluator can be driven to overflow the stack. AND and
//!   OR chains are kept flat, so a long list of alternatives is not deep.
//! - What can be told from the text alone is refused there: a lone literal or number as the whole
//!   selector, arithmetic on a string or boolean, AND/OR/NOT on a value, a LIKE pattern or
//!   ESCAPE that is not a string literal (the escape exactly one character), an IN list that is
//!   not literals.
//! - `matches` never allocates: values borrow from the message and the selector, LIKE runs a
//!   backtracking glob over characters, and ids are hex-encoded on the fly as they are compared.

use std::cmp::Ordering;
use std::fmt;
use std::time::SystemTime;

use crate::message::{MessageDescriptor, Persistence, Priority, Properties, PropertyValue, ID_LEN};
use crate::reason::{MqError, MqResult, Reason};

/// The longest selector accepted, in bytes (MQ's selection string limit).
pub const MAX_SELECTOR_LEN: usize = 10_240;

/// The deepest nesting accepted: parentheses, NOTs, signs and operators inside one another.
pub const MAX_DEPTH: usize = 100;

/// A parsed message selector.
#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    /// The expression tree as an arena: children always come before their parents.
    nodes: Vec<Node>,
    /// The index of the whole expression in `nodes`.
    root: usize,
    /// The selector as given.
    text: String,
}

impl Selector {
    /// Parses `text`. MQRC_SELECTOR_SYNTAX_ERROR (2459) when it is not a valid selector, with a
    /// sentence naming the character position and what was expected there, e.g. "selector error
    /// at character 4: expected a value after '=', found the end of the selector". A blank text
    /// is an error here; callers treat a blank selection string as no selector.
    pub fn parse(text: &str) -> MqResult<Selector> {
        if text.len() > MAX_SELECTOR_LEN {
            let why = format!(
                "the selector is {} bytes long; the limit is {MAX_SELECTOR_LEN}",
                text.len()
            );
            return Err(syntax_error(text, 0, why));
        }
        if text.trim().is_empty() {
            return Err(syntax_error(text, 0, "the selector is empty"));
        }
        let mut parser = Parser::new(text, lex(text)?);
        let root = parser.parse_or()?;
        if !matches!(parser.peek(), Tok::End) {
            return Err(parser.expected("AND, OR or the end of the selector"));
        }
        let kind = parser.kind(root);
        if !matches!(kind, Kind::Bool | Kind::Any) {
            let why = format!("the selector is {}, not a condition", kind.noun());
            return Err(syntax_error(text, 0, why));
        }
        Ok(Selector {
            nodes: parser.nodes,
            root,
            text: text.to_owned(),
        })
    }

    /// Parses a selection string as MQOPEN and MQSUB take it: empty or all blanks is no selector
    /// (`None`, every message matches); anything else must be a valid selector.
    pub fn parse_optional(text: &str) -> MqResult<Option<Selector>> {
        if text.trim().is_empty() {
            Ok(None)
        } else {
            Selector::parse(text).map(Some)
        }
    }

    /// The selector as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the message matches: the whole selector is TRUE (FALSE and UNKNOWN do not
    /// match). Never allocates.
    pub fn matches(&self, md: &MessageDescriptor, props: &Properties) -> bool {
        let eval = Eval {
            nodes: &self.nodes,
            md,
            props,
        };
        matches!(eval.eval(self.root), Val::Bool(true))
    }
}

/// The 2459 error, naming the (1-based) character at byte offset `at` of `text`.
fn syntax_error(text: &str, at: usize, what: impl fmt::Display) -> MqError {
    let character = text.get(..at).map_or(0, |s| s.chars().count()) + 1;
    MqError::new(
        Reason::SelectorSyntaxError,
        format!("selector error at character {character}: {what}"),
    )
}

// ---------------------------------------------------------------------------------------------
// The tree.

/// One node of the expression arena; children are indexes into the same arena.
#[derive(Debug, Clone, PartialEq)]
enum Node {
    Lit(Lit),
    Field(Field),
    /// Unary `-` (`negate`) or `+` on something that is not a literal.
    Sign {
        negate: bool,
        value: usize,
    },
    Arith(Arith, usize, usize),
    Cmp(Cmp, usize, usize),
    Not(usize),
    And(Box<[usize]>),
    Or(Box<[usize]>),
    Between {
        value: usize,
        low: usize,
        high: usize,
        negated: bool,
    },
    In {
        value: usize,
        list: Box<[Lit]>,
        negated: bool,
    },
    Like {
        value: usize,
        pattern: Box<[Pat]>,
        negated: bool,
    },
    IsNull {
        value: usize,
        negated: bool,
    },
}

/// A literal value.
#[derive(Debug, Clone, PartialEq)]
enum Lit {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(Box<str>),
}

impl Lit {
    fn val(&self) -> Val<'_> {
        match self {
            Lit::Bool(b) => Val::Bool(*b),
            Lit::Int(n) => Val::Int(*n),
            Lit::Float(x) => Val::Float(*x),
            Lit::Str(s) => Val::Str(s),
        }
    }

    fn kind(&self) -> Kind {
        match self {
            Lit::Bool(_) => Kind::Bool,
            Lit::Int(_) | Lit::Float(_) => Kind::Num,
            Lit::Str(_) => Kind::Str,
        }
    }
}

/// A name: a message field or a user property.
#[derive(Debug, Clone, PartialEq)]
enum Field {
    JmsPriority,
    JmsDeliveryMode,
    JmsCorrelationId,
    JmsMessageId,
    JmsTimestamp,
    Priority,
    Persistence,
    MsgType,
    Feedback,
    Encoding,
    CodedCharSetId,
    Format,
    BackoutCount,
    ReplyToQ,
    ReplyToQMgr,
    UserIdentifier,
    PutApplName,
    CorrelId,
    MsgId,
    Property(Box<str>),
}

impl Field {
    fn kind(&self) -> Kind {
        match self {
            Field::Property(_) => Kind::Any,
            Field::JmsDeliveryMode
            | Field::JmsCorrelationId
            | Field::JmsMessageId
            | Field::Format
            | Field::ReplyToQ
            | Field::ReplyToQMgr
            | Field::UserIdentifier
            | Field::PutApplName
            | Field::CorrelId
            | Field::MsgId => Kind::Str,
            _ => Kind::Num,
        }
    }
}

/// The field or property a name means; an error sentence for an unknown MQMD field.
fn resolve_field(name: &str) -> Result<Field, String> {
    if let Some(field) = name.strip_prefix("Root.MQMD.") {
        return mqmd_field(field).ok_or_else(|| format!("unknown MQMD field '{name}'"));
    }
    Ok(match name {
        "JMSPriority" => Field::JmsPriority,
        "JMSDeliveryMode" => Field::JmsDeliveryMode,
        "JMSCorrelationID" => Field::JmsCorrelationId,
        "JMSMessageID" => Field::JmsMessageId,
        "JMSTimestamp" => Field::JmsTimestamp,
        _ => Field::Property(name.into()),
    })
}

fn mqmd_field(name: &str) -> Option<Field> {
    Some(match name {
        "Priority" => Field::Priority,
        "Persistence" => Field::Persistence,
        "MsgType" => Field::MsgType,
        "Feedback" => Field::Feedback,
        "Encoding" => Field::Encoding,
        "CodedCharSetId" => Field::CodedCharSetId,
        "Format" => Field::Format,
        "BackoutCount" => Field::BackoutCount,
        "ReplyToQ" => Field::ReplyToQ,
        "ReplyToQMgr" => Field::ReplyToQMgr,
        "UserIdentifier" => Field::UserIdentifier,
        "PutApplName" => Field::PutApplName,
        "CorrelId" => Field::CorrelId,
        "MsgId" => Field::MsgId,
        _ => return None,
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Arith {
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
}

/// One element of a compiled LIKE pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pat {
    /// This character.
    Lit(char),
    /// `_`: any one character.
    One,
    /// `%`: any run of characters.
    Many,
}

/// What the text alone says an expression yields; `Any` for properties, known only per message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bool,
    Num,
    Str,
    Any,
}

impl Kind {
    fn noun(self) -> &'static str {
        match self {
            Kind::Bool => "a condition",
            Kind::Num => "a number",
            Kind::Str => "a string",
            Kind::Any => "a value",
        }
    }
}

fn node_kind(node: &Node) -> Kind {
    match node {
        Node::Lit(lit) => lit.kind(),
        Node::Field(field) => field.kind(),
        Node::Sign { .. } | Node::Arith(..) => Kind::Num,
        _ => Kind::Bool,
    }
}

/// Compiles a LIKE pattern: `%` any run, `_` any one character, `escape` making the next
/// character literal.
fn compile_like(pattern: &str, escape: Option<char>) -> Result<Box<[Pat]>, &'static str> {
    let mut out = Vec::with_capacity(pattern.len());
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            c if Some(c) == escape => match chars.next() {
                Some(literal) => Pat::Lit(literal),
                None => return Err("the LIKE pattern ends with its escape character"),
            },
            '%' => Pat::Many,
            '_' => Pat::One,
            c => Pat::Lit(c),
        });
    }
    Ok(out.into_boxed_slice())
}

// ---------------------------------------------------------------------------------------------
// The lexer.

#[derive(Debug, Clone, PartialEq)]
enum Tok<'t> {
    Ident(&'t str),
    Str(String),
    Int(i64),
    Float(f64),
    Kw(Kw),
    Sym(Sym),
    End,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kw {
    Not,
    And,
    Or,
    Between,
    Like,
    In,
    Is,
    Null,
    Escape,
    True,
    False,
}

const KEYWORDS: [(&str, Kw); 11] = [
    ("NOT", Kw::Not),
    ("AND", Kw::And),
    ("OR", Kw::Or),
    ("BETWEEN", Kw::Between),
    ("LIKE", Kw::Like),
    ("IN", Kw::In),
    ("IS", Kw::Is),
    ("NULL", Kw::Null),
    ("ESCAPE", Kw::Escape),
    ("TRUE", Kw::True),
    ("FALSE", Kw::False),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sym {
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    LParen,
    RParen,
    Comma,
}

/// A token and the bytes of the text it came from.
#[derive(Debug, Clone, PartialEq)]
struct Token<'t> {
    tok: Tok<'t>,
    start: usize,
    end: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$'
}

fn is_ident_part(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '.')
}

/// The tokens of `text`, ending with [`Tok::End`].
fn lex(text: &str) -> MqResult<Vec<Token<'_>>> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) {
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let (tok, len) = lex_one(text, i, c)?;
        out.push(Token {
            tok,
            start: i,
            end: i + len,
        });
        i += len;
    }
    out.push(Token {
        tok: Tok::End,
        start: text.len(),
        end: text.len(),
    });
    Ok(out)
}

fn sym<'t>(s: Sym, len: usize) -> MqResult<(Tok<'t>, usize)> {
    Ok((Tok::Sym(s), len))
}

/// The token starting with `c` at byte `i`, and its length in bytes.
fn lex_one(text: &str, i: usize, c: char) -> MqResult<(Tok<'_>, usize)> {
    let next = text.as_bytes().get(i + 1).copied();
    match c {
        '\'' => lex_string(text, i),
        '0'..='9' => lex_number(text, i),
        '.' if next.is_some_and(|b| b.is_ascii_digit()) => lex_number(text, i),
        c if is_ident_start(c) => Ok(lex_word(text, i)),
        '=' => sym(Sym::Eq, 1),
        '<' => match next {
            Some(b'>') => sym(Sym::Ne, 2),
            Some(b'=') => sym(Sym::Le, 2),
            _ => sym(Sym::Lt, 1),
        },
        '>' if next == Some(b'=') => sym(Sym::Ge, 2),
        '>' => sym(Sym::Gt, 1),
        '+' => sym(Sym::Plus, 1),
        '-' => sym(Sym::Minus, 1),
        '*' => sym(Sym::Star, 1),
        '/' => sym(Sym::Slash, 1),
        '(' => sym(Sym::LParen, 1),
        ')' => sym(Sym::RParen, 1),
        ',' => sym(Sym::Comma, 1),
        _ => Err(syntax_error(text, i, format!("unexpected character {c:?}"))),
    }
}

/// A string literal whose opening quote is at byte `i`.
fn lex_string(text: &str, i: usize) -> MqResult<(Tok<'_>, usize)> {
    let body = text.get(i + 1..).unwrap_or("");
    let mut value = String::new();
    let mut chars = body.char_indices();
    while let Some((k, c)) = chars.next() {
        if c != '\'' {
            value.push(c);
        } else if body.as_bytes().get(k + 1) == Some(&b'\'') {
            value.push('\'');
            chars.next();
        } else {
            return Ok((Tok::Str(value), k + 2));
        }
    }
    Err(syntax_error(
        text,
        i,
        "the string that starts here has no closing quote",
    ))
}

/// A number starting at byte `i` (a digit, or a point before a digit).
fn lex_number(text: &str, i: usize) -> MqResult<(Tok<'_>, usize)> {
    let b = text.as_bytes();
    let digits = |mut j: usize| {
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
        j
    };
    let mut j = digits(i);
    let mut approx = false;
    if b.get(j) == Some(&b'.') {
        approx = true;
        j = digits(j + 1);
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        approx = true;
        j += 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let exponent = j;
        j = digits(j);
        if j == exponent {
            return Err(syntax_error(text, j, "expected the digits of an exponent"));
        }
    }
    let literal = text.get(i..j).unwrap_or("");
    let tok = if approx {
        match literal.parse::<f64>() {
            Ok(x) => Tok::Float(x),
            Err(_) => return Err(syntax_error(text, i, format!("{literal} is not a number"))),
        }
    } else {
        match literal.parse::<i64>() {
            Ok(n) => Tok::Int(n),
            Err(_) => {
                let why = format!("the integer {literal} is out of range");
                return Err(syntax_error(text, i, why));
            }
        }
    };
    let end = match (b.get(j), approx) {
        (Some(b'l' | b'L'), false) | (Some(b'f' | b'F' | b'd' | b'D'), true) => j + 1,
        _ => j,
    };
    if let Some(c) = text.get(end..).and_then(|rest| rest.chars().next()) {
        if is_ident_part(c) {
            let why = format!("unexpected {c:?} after the number {literal}");
            return Err(syntax_error(text, end, why));
        }
    }
    Ok((tok, end - i))
}

/// A keyword or identifier starting at byte `i`.
fn lex_word(text: &str, i: usize) -> (Tok<'_>, usize) {
    let rest = text.get(i..).unwrap_or("");
    let len = rest
        .char_indices()
        .find(|&(_, c)| !is_ident_part(c))
        .map_or(rest.len(), |(k, _)| k);
    let word = rest.get(..len).unwrap_or("");
    let tok = KEYWORDS
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(word))
        .map_or(Tok::Ident(word), |&(_, kw)| Tok::Kw(kw));
    (tok, len)
}

// ---------------------------------------------------------------------------------------------
// The parser: recursive descent, one function per precedence level.

#[derive(Debug)]
struct Parser<'t> {
    text: &'t str,
    toks: Vec<Token<'t>>,
    /// The current token; never past the final `End`.
    at: usize,
    /// How deeply the parse functions have recursed (parentheses, NOT, signs).
    depth: usize,
    nodes: Vec<Node>,
    /// Per node: its kind and the height of its subtree.
    info: Vec<(Kind, usize)>,
}

impl<'t> Parser<'t> {
    fn new(text: &'t str, toks: Vec<Token<'t>>) -> Self {
        Parser {
            text,
            toks,
            at: 0,
            depth: 0,
            nodes: Vec::new(),
            info: Vec::new(),
        }
    }

    fn token(&self, i: usize) -> &Token<'t> {
        // `lex` always ends the list with `End`, so it is never empty.
        &self.toks[i.min(self.toks.len() - 1)]
    }

    fn peek(&self) -> &Tok<'t> {
        &self.token(self.at).tok
    }

    fn pos(&self) -> usize {
        self.token(self.at).start
    }

    fn bump(&mut self) {
        if self.at + 1 < self.toks.len() {
            self.at += 1;
        }
    }

    fn at_kw(&self, kw: Kw) -> bool {
        matches!(self.peek(), Tok::Kw(k) if *k == kw)
    }

    fn eat_kw(&mut self, kw: Kw) -> bool {
        let hit = self.at_kw(kw);
        if hit {
            self.bump();
        }
        hit
    }

    fn peek_sym(&self) -> Option<Sym> {
        match self.peek() {
            Tok::Sym(s) => Some(*s),
            _ => None,
        }
    }

    fn eat_sym(&mut self, s: Sym) -> bool {
        let hit = self.peek_sym() == Some(s);
        if hit {
            self.bump();
        }
        hit
    }

    fn expect_kw(&mut self, kw: Kw, what: &str) -> MqResult<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    fn expect_sym(&mut self, s: Sym, what: &str) -> MqResult<()> {
        if self.eat_sym(s) {
            Ok(())
        } else {
            Err(self.expected(what))
        }
    }

    /// Token `i` as an error sentence shows it.
    fn describe(&self, i: usize) -> String {
        let token = self.token(i);
        match token.tok {
            Tok::End => "the end of the selector".to_owned(),
            _ => format!("'{}'", self.text.get(token.start..token.end).unwrap_or("")),
        }
    }

    /// "expected X after 'previous', found 'current'" at the current token.
    fn expected(&self, what: &str) -> MqError {
        let found = self.describe(self.at);
        let why = match self.at.checked_sub(1) {
            Some(prev) => format!(
                "expected {what} after {}, found {found}",
                self.describe(prev)
            ),
            None => format!("expected {what}, found {found}"),
        };
        self.error_at(self.pos(), why)
    }

    fn error_at(&self, at: usize, what: impl fmt::Display) -> MqError {
        syntax_error(self.text, at, what)
    }

    fn too_deep(&self) -> MqError {
        let why = format!("the selector is nested more than {MAX_DEPTH} deep");
        self.error_at(self.pos(), why)
    }

    fn kind(&self, id: usize) -> Kind {
        self.info.get(id).map_or(Kind::Any, |info| info.0)
    }

    fn height(&self, id: usize) -> usize {
        self.info.get(id).map_or(0, |info| info.1)
    }

    /// Refuses node `id` unless it is (or may be, for properties) of kind `want`; `at` is where
    /// it starts in the text.
    fn require(&self, id: usize, want: Kind, at: usize) -> MqResult<()> {
        let have = self.kind(id);
        if have == want || have == Kind::Any {
            return Ok(());
        }
        let why = format!("expected {}, found {}", want.noun(), have.noun());
        Err(self.error_at(at, why))
    }

    fn enter(&mut self) -> MqResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.too_deep());
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// Adds a node (its children already added), refusing a tree deeper than [`MAX_DEPTH`].
    fn push(&mut self, node: Node) -> MqResult<usize> {
        let height = 1 + self.children_height(&node);
        if height > MAX_DEPTH {
            return Err(self.too_deep());
        }
        let kind = node_kind(&node);
        self.nodes.push(node);
        self.info.push((kind, height));
        Ok(self.nodes.len() - 1)
    }

    fn children_height(&self, node: &Node) -> usize {
        let h = |id: &usize| self.height(*id);
        match node {
            Node::Lit(_) | Node::Field(_) => 0,
            Node::Sign { value, .. }
            | Node::Not(value)
            | Node::In { value, .. }
            | Node::Like { value, .. }
            | Node::IsNull { value, .. } => h(value),
            Node::Arith(_, a, b) | Node::Cmp(_, a, b) => h(a).max(h(b)),
            Node::And(terms) | Node::Or(terms) => terms.iter().map(h).max().unwrap_or(0),
            Node::Between {
                value, low, high, ..
            } => h(value).max(h(low)).max(h(high)),
        }
    }

    fn parse_or(&mut self) -> MqResult<usize> {
        self.parse_chain(Kw::Or, Self::parse_and, Node::Or)
    }

    fn parse_and(&mut self) -> MqResult<usize> {
        self.parse_chain(Kw::And, Self::parse_not, Node::And)
    }

    /// `next { kw next }`, kept flat as one n-ary node.
    fn parse_chain(
        &mut self,
        kw: Kw,
        next: fn(&mut Self) -> MqResult<usize>,
        make: fn(Box<[usize]>) -> Node,
    ) -> MqResult<usize> {
        let start = self.pos();
        let first = next(self)?;
        if !self.at_kw(kw) {
            return Ok(first);
        }
        self.require(first, Kind::Bool, start)?;
        let mut terms = vec![first];
        while self.eat_kw(kw) {
            let at = self.pos();
            let term = next(self)?;
            self.require(term, Kind::Bool, at)?;
            terms.push(term);
        }
        self.push(make(terms.into_boxed_slice()))
    }

    fn parse_not(&mut self) -> MqResult<usize> {
        if !self.eat_kw(Kw::Not) {
            return self.parse_predicate();
        }
        let at = self.pos();
        self.enter()?;
        let inner = self.parse_not()?;
        self.leave();
        self.require(inner, Kind::Bool, at)?;
        self.push(Node::Not(inner))
    }

    fn peek_cmp(&self) -> Option<Cmp> {
        Some(match self.peek_sym()? {
            Sym::Eq => Cmp::Eq,
            Sym::Ne => Cmp::Ne,
            Sym::Lt => Cmp::Lt,
            Sym::Gt => Cmp::Gt,
            Sym::Le => Cmp::Le,
            Sym::Ge => Cmp::Ge,
            _ => return None,
        })
    }

    fn parse_predicate(&mut self) -> MqResult<usize> {
        let start = self.pos();
        let left = self.parse_sum()?;
        if let Some(op) = self.peek_cmp() {
            self.bump();
            let right = self.parse_sum()?;
            return self.push(Node::Cmp(op, left, right));
        }
        if self.eat_kw(Kw::Is) {
            return self.parse_is_null(left);
        }
        let negated = self.eat_kw(Kw::Not);
        let kw = match self.peek() {
            Tok::Kw(kw) => Some(*kw),
            _ => None,
        };
        match kw {
            Some(Kw::Between) => self.parse_between(left, start, negated),
            Some(Kw::In) => self.parse_in(left, start, negated),
            Some(Kw::Like) => self.parse_like(left, start, negated),
            _ if negated => Err(self.expected("BETWEEN, IN or LIKE")),
            _ => Ok(left),
        }
    }

    /// After IS.
    fn parse_is_null(&mut self, value: usize) -> MqResult<usize> {
        let negated = self.eat_kw(Kw::Not);
        self.expect_kw(Kw::Null, "NULL")?;
        self.push(Node::IsNull { value, negated })
    }

    /// At BETWEEN; `value` starts at byte `start`.
    fn parse_between(&mut self, value: usize, start: usize, negated: bool) -> MqResult<usize> {
        self.bump();
        self.require(value, Kind::Num, start)?;
        let at = self.pos();
        let low = self.parse_sum()?;
        self.require(low, Kind::Num, at)?;
        self.expect_kw(Kw::And, "AND")?;
        let at = self.pos();
        let high = self.parse_sum()?;
        self.require(high, Kind::Num, at)?;
        self.push(Node::Between {
            value,
            low,
            high,
            negated,
        })
    }

    /// At IN; `value` starts at byte `start`.
    fn parse_in(&mut self, value: usize, start: usize, negated: bool) -> MqResult<usize> {
        self.bump();
        if self.kind(value) == Kind::Bool {
            return Err(self.error_at(start, "IN compares a value, not a condition"));
        }
        self.expect_sym(Sym::LParen, "'(' to open the IN list")?;
        let mut list = Vec::new();
        loop {
            list.push(self.parse_list_literal()?);
            if !self.eat_sym(Sym::Comma) {
                break;
            }
        }
        self.expect_sym(Sym::RParen, "',' or ')' in the IN list")?;
        self.push(Node::In {
            value,
            list: list.into_boxed_slice(),
            negated,
        })
    }

    /// A string literal, or a number with an optional sign.
    fn parse_list_literal(&mut self) -> MqResult<Lit> {
        let sign = match self.peek_sym() {
            Some(Sym::Minus) => Some(true),
            Some(Sym::Plus) => Some(false),
            _ => None,
        };
        if sign.is_some() {
            self.bump();
        }
        let negate = sign == Some(true);
        let lit = match self.peek() {
            Tok::Str(s) if sign.is_none() => Lit::Str(s.as_str().into()),
            Tok::Int(n) => Lit::Int(if negate { -*n } else { *n }),
            Tok::Float(x) => Lit::Float(if negate { -*x } else { *x }),
            _ => return Err(self.expected("a string or number literal")),
        };
        self.bump();
        Ok(lit)
    }

    /// At LIKE; `value` starts at byte `start`.
    fn parse_like(&mut self, value: usize, start: usize, negated: bool) -> MqResult<usize> {
        self.bump();
        self.require(value, Kind::Str, start)?;
        let at = self.pos();
        let Tok::Str(pattern) = self.peek().clone() else {
            return Err(self.expected("a string literal pattern"));
        };
        self.bump();
        let escape = if self.eat_kw(Kw::Escape) {
            Some(self.parse_escape()?)
        } else {
            None
        };
        let pattern = compile_like(&pattern, escape).map_err(|why| self.error_at(at, why))?;
        self.push(Node::Like {
            value,
            pattern,
            negated,
        })
    }

    /// After ESCAPE: a string of exactly one character.
    fn parse_escape(&mut self) -> MqResult<char> {
        let at = self.pos();
        let Tok::Str(s) = self.peek() else {
            return Err(self.expected("a one-character string"));
        };
        let mut chars = s.chars();
        let (Some(c), None) = (chars.next(), chars.next()) else {
            let why = format!(
                "the ESCAPE string must be exactly one character, not {}",
                s.chars().count()
            );
            return Err(self.error_at(at, why));
        };
        self.bump();
        Ok(c)
    }

    fn parse_sum(&mut self) -> MqResult<usize> {
        self.parse_binary(Self::parse_product, |s: Sym| match s {
            Sym::Plus => Some(Arith::Add),
            Sym::Minus => Some(Arith::Sub),
            _ => None,
        })
    }

    fn parse_product(&mut self) -> MqResult<usize> {
        self.parse_binary(Self::parse_unary, |s: Sym| match s {
            Sym::Star => Some(Arith::Mul),
            Sym::Slash => Some(Arith::Div),
            _ => None,
        })
    }

    /// `next { op next }`, left-associative, both sides numbers.
    fn parse_binary(
        &mut self,
        next: fn(&mut Self) -> MqResult<usize>,
        op_of: fn(Sym) -> Option<Arith>,
    ) -> MqResult<usize> {
        let start = self.pos();
        let mut left = next(self)?;
        while let Some(op) = self.peek_sym().and_then(op_of) {
            self.bump();
            self.require(left, Kind::Num, start)?;
            let at = self.pos();
            let right = next(self)?;
            self.require(right, Kind::Num, at)?;
            left = self.push(Node::Arith(op, left, right))?;
        }
        Ok(left)
    }

    fn parse_unary(&mut self) -> MqResult<usize> {
        let negate = match self.peek_sym() {
            Some(Sym::Minus) => true,
            Some(Sym::Plus) => false,
            _ => return self.parse_primary(),
        };
        self.bump();
        let at = self.pos();
        self.enter()?;
        let inner = self.parse_unary()?;
        self.leave();
        self.require(inner, Kind::Num, at)?;
        // A signed literal is a literal (each node has one parent, so it can change in place).
        match self.nodes.get_mut(inner) {
            Some(Node::Lit(Lit::Int(n))) => {
                if !negate {
                    return Ok(inner);
                }
                if let Some(m) = n.checked_neg() {
                    *n = m;
                    return Ok(inner);
                }
            }
            Some(Node::Lit(Lit::Float(x))) => {
                if negate {
                    *x = -*x;
                }
                return Ok(inner);
            }
            _ => {}
        }
        self.push(Node::Sign {
            negate,
            value: inner,
        })
    }

    fn parse_primary(&mut self) -> MqResult<usize> {
        if self.eat_sym(Sym::LParen) {
            self.enter()?;
            let inner = self.parse_or()?;
            self.leave();
            self.expect_sym(Sym::RParen, "')'")?;
            return Ok(inner);
        }
        let at = self.pos();
        let node = match self.peek() {
            Tok::Int(n) => Node::Lit(Lit::Int(*n)),
            Tok::Float(x) => Node::Lit(Lit::Float(*x)),
            Tok::Str(s) => Node::Lit(Lit::Str(s.as_str().into())),
            Tok::Kw(Kw::True) => Node::Lit(Lit::Bool(true)),
            Tok::Kw(Kw::False) => Node::Lit(Lit::Bool(false)),
            Tok::Kw(Kw::Null) => {
                let why = "NULL can only be tested for, with IS NULL or IS NOT NULL";
                return Err(self.error_at(at, why));
            }
            Tok::Ident(name) => {
                Node::Field(resolve_field(name).map_err(|why| self.error_at(at, why))?)
            }
            _ => return Err(self.expected("a value")),
        };
        self.bump();
        self.push(node)
    }
}

// ---------------------------------------------------------------------------------------------
// Evaluation.

/// How an id reads as a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IdStyle {
    /// `ID:` and 48 hex digits (JMSMessageID, JMSCorrelationID).
    Jms,
    /// 48 hex digits (Root.MQMD.MsgId, Root.MQMD.CorrelId).
    Mqmd,
}

impl IdStyle {
    fn prefix(self) -> &'static str {
        match self {
            IdStyle::Jms => "ID:",
            IdStyle::Mqmd => "",
        }
    }
}

/// A value during evaluation, borrowing from the message and the selector. `Null` is SQL's
/// NULL, and also the UNKNOWN of a condition.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Val<'a> {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a str),
    Id(&'a [u8; ID_LEN], IdStyle),
    /// A byte-string property: not NULL, but equal to nothing.
    Opaque,
}

/// A condition's truth: `None` is UNKNOWN.
fn truth(v: Val<'_>) -> Option<bool> {
    match v {
        Val::Bool(b) => Some(b),
        _ => None,
    }
}

fn tri<'a>(t: Option<bool>) -> Val<'a> {
    t.map_or(Val::Null, Val::Bool)
}

/// `t`, negated when `negated` (UNKNOWN stays UNKNOWN).
fn flip(t: Option<bool>, negated: bool) -> Option<bool> {
    t.map(|b| b != negated)
}

#[derive(Debug, Clone, Copy)]
struct Eval<'a> {
    nodes: &'a [Node],
    md: &'a MessageDescriptor,
    props: &'a Properties,
}

impl<'a> Eval<'a> {
    /// The value of node `id`; recursion is bounded by the tree's height, checked at parse.
    fn eval(&self, id: usize) -> Val<'a> {
        let nodes: &'a [Node] = self.nodes;
        let Some(node) = nodes.get(id) else {
            return Val::Null;
        };
        match node {
            Node::Lit(lit) => lit.val(),
            Node::Field(field) => self.field(field),
            Node::Sign { negate, value } => sign(*negate, self.eval(*value)),
            Node::Arith(op, a, b) => arith(*op, self.eval(*a), self.eval(*b)),
            Node::Cmp(op, a, b) => tri(compare(*op, self.eval(*a), self.eval(*b))),
            Node::Not(a) => tri(flip(truth(self.eval(*a)), true)),
            Node::And(terms) => tri(self.all(terms)),
            Node::Or(terms) => tri(self.any(terms)),
            Node::Between {
                value,
                low,
                high,
                negated,
            } => tri(flip(self.between(*value, *low, *high), *negated)),
            Node::In {
                value,
                list,
                negated,
            } => tri(flip(self.within(*value, list), *negated)),
            Node::Like {
                value,
                pattern,
                negated,
            } => tri(flip(self.like(*value, pattern), *negated)),
            Node::IsNull { value, negated } => {
                Val::Bool(matches!(self.eval(*value), Val::Null) != *negated)
            }
        }
    }

    /// AND: FALSE if any is FALSE, else UNKNOWN if any is UNKNOWN, else TRUE.
    fn all(&self, terms: &[usize]) -> Option<bool> {
        let mut out = Some(true);
        for &term in terms {
            match truth(self.eval(term)) {
                Some(false) => return Some(false),
                None => out = None,
                Some(true) => {}
            }
        }
        out
    }

    /// OR: TRUE if any is TRUE, else UNKNOWN if any is UNKNOWN, else FALSE.
    fn any(&self, terms: &[usize]) -> Option<bool> {
        let mut out = Some(false);
        for &term in terms {
            match truth(self.eval(term)) {
                Some(true) => return Some(true),
                None => out = None,
                Some(false) => {}
            }
        }
        out
    }

    /// `low <= value AND value <= high`, with `value` evaluated once.
    fn between(&self, value: usize, low: usize, high: usize) -> Option<bool> {
        let v = self.eval(value);
        let above = compare(Cmp::Ge, v, self.eval(low));
        let below = compare(Cmp::Le, v, self.eval(high));
        match (above, below) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        }
    }

    /// `value = l1 OR value = l2 OR ...`.
    fn within(&self, value: usize, list: &[Lit]) -> Option<bool> {
        let v = self.eval(value);
        let mut out = Some(false);
        for lit in list {
            match equal(v, lit.val()) {
                Some(true) => return Some(true),
                None => out = None,
                Some(false) => {}
            }
        }
        out
    }

    fn like(&self, value: usize, pattern: &[Pat]) -> Option<bool> {
        match self.eval(value) {
            Val::Str(s) => Some(like_match(pattern, s)),
            Val::Id(id, style) => Some(like_match(pattern, &IdText { id, style })),
            _ => None,
        }
    }

    /// The value of a message field or user property.
    fn field(&self, field: &'a Field) -> Val<'a> {
        let (md, props) = (self.md, self.props);
        let int = |n: u32| Val::Int(i64::from(n));
        match field {
            Field::Property(name) => props.get(name).map_or(Val::Null, property),
            Field::JmsPriority => match md.priority {
                Priority::Value(p) => Val::Int(i64::from(p)),
                Priority::AsQueueDef => Val::Null,
            },
            Field::Priority => match md.priority {
                Priority::Value(p) => Val::Int(i64::from(p)),
                Priority::AsQueueDef => Val::Int(-1),
            },
            Field::JmsDeliveryMode => match md.persistence {
                Persistence::Persistent => Val::Str("PERSISTENT"),
                Persistence::NotPersistent => Val::Str("NON_PERSISTENT"),
                Persistence::AsQueueDef => Val::Null,
            },
            Field::Persistence => Val::Int(match md.persistence {
                Persistence::NotPersistent => 0,
                Persistence::Persistent => 1,
                Persistence::AsQueueDef => 2,
            }),
            Field::JmsCorrelationId => Val::Id(&md.correl_id.0, IdStyle::Jms),
            Field::JmsMessageId => Val::Id(&md.msg_id.0, IdStyle::Jms),
            Field::CorrelId => Val::Id(&md.correl_id.0, IdStyle::Mqmd),
            Field::MsgId => Val::Id(&md.msg_id.0, IdStyle::Mqmd),
            Field::JmsTimestamp => timestamp(md.put_time),
            Field::MsgType => Val::Int(i64::from(md.message_type.mq_value())),
            Field::Feedback => int(md.feedback),
            Field::Encoding => int(md.encoding),
            Field::CodedCharSetId => int(md.ccsid),
            Field::BackoutCount => int(md.backout_count),
            Field::Format => blank_trimmed(md.format.as_str()),
            Field::ReplyToQ => blank_trimmed(md.reply_to_queue.as_str()),
            Field::ReplyToQMgr => blank_trimmed(md.reply_to_qmgr.as_str()),
            Field::UserIdentifier => blank_trimmed(md.user_id.as_str()),
            Field::PutApplName => blank_trimmed(md.put_appl_name.as_str()),
        }
    }
}

fn blank_trimmed(s: &str) -> Val<'_> {
    Val::Str(s.trim_end_matches(' '))
}

/// Milliseconds since the Unix epoch; NULL before it or beyond `i64`.
fn timestamp<'a>(t: SystemTime) -> Val<'a> {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .ok()
        .and_then(|d| i64::try_from(d.as_millis()).ok())
        .map_or(Val::Null, Val::Int)
}

fn property(value: &PropertyValue) -> Val<'_> {
    match value {
        PropertyValue::Bool(b) => Val::Bool(*b),
        PropertyValue::I8(n) => Val::Int(i64::from(*n)),
        PropertyValue::I16(n) => Val::Int(i64::from(*n)),
        PropertyValue::I32(n) => Val::Int(i64::from(*n)),
        PropertyValue::I64(n) => Val::Int(*n),
        PropertyValue::F32(x) => Val::Float(f64::from(*x)),
        PropertyValue::F64(x) => Val::Float(*x),
        PropertyValue::String(s) => Val::Str(s.as_str()),
        PropertyValue::Bytes(_) => Val::Opaque,
        PropertyValue::Null => Val::Null,
    }
}

#[allow(clippy::cast_precision_loss)] // JMS compares an integer with a float as floats
fn number(v: Val<'_>) -> Option<f64> {
    match v {
        Val::Int(n) => Some(n as f64),
        Val::Float(x) => Some(x),
        _ => None,
    }
}

/// Numeric order: exact for two integers, in `f64` otherwise; `None` for anything else or NaN.
fn order(a: Val<'_>, b: Val<'_>) -> Option<Ordering> {
    match (a, b) {
        (Val::Int(x), Val::Int(y)) => Some(x.cmp(&y)),
        _ => number(a)?.partial_cmp(&number(b)?),
    }
}

/// Equality where JMS defines it (numbers, strings, booleans, ids with strings); `None` (UNKNOWN)
/// for NULL and mismatched types.
fn equal(a: Val<'_>, b: Val<'_>) -> Option<bool> {
    if let Some(o) = order(a, b) {
        return Some(o.is_eq());
    }
    match (a, b) {
        (Val::Str(x), Val::Str(y)) => Some(x == y),
        (Val::Bool(x), Val::Bool(y)) => Some(x == y),
        (Val::Id(id, style), Val::Str(s)) | (Val::Str(s), Val::Id(id, style)) => {
            Some(id_equals(id, style, s))
        }
        (Val::Id(x, sx), Val::Id(y, sy)) => Some(x == y && sx == sy),
        _ => None,
    }
}

fn compare(op: Cmp, a: Val<'_>, b: Val<'_>) -> Option<bool> {
    match op {
        Cmp::Eq => equal(a, b),
        Cmp::Ne => equal(a, b).map(|e| !e),
        Cmp::Lt => order(a, b).map(Ordering::is_lt),
        Cmp::Gt => order(a, b).map(Ordering::is_gt),
        Cmp::Le => order(a, b).map(Ordering::is_le),
        Cmp::Ge => order(a, b).map(Ordering::is_ge),
    }
}

/// Arithmetic: checked in `i64` for two integers, `f64` otherwise; NULL on overflow, division by
/// zero or a non-number.
fn arith<'a>(op: Arith, a: Val<'a>, b: Val<'a>) -> Val<'a> {
    if let (Val::Int(x), Val::Int(y)) = (a, b) {
        let r = match op {
            Arith::Add => x.checked_add(y),
            Arith::Sub => x.checked_sub(y),
            Arith::Mul => x.checked_mul(y),
            Arith::Div => x.checked_div(y),
        };
        return r.map_or(Val::Null, Val::Int);
    }
    let (Some(x), Some(y)) = (number(a), number(b)) else {
        return Val::Null;
    };
    Val::Float(match op {
        Arith::Add => x + y,
        Arith::Sub => x - y,
        Arith::Mul => x * y,
        Arith::Div if y == 0.0 => return Val::Null,
        Arith::Div => x / y,
    })
}

fn sign(negate: bool, v: Val<'_>) -> Val<'_> {
    match (v, negate) {
        (Val::Int(n), true) => n.checked_neg().map_or(Val::Null, Val::Int),
        (Val::Float(x), true) => Val::Float(-x),
        (Val::Int(_) | Val::Float(_), false) => v,
        _ => Val::Null,
    }
}

/// Whether `text` is the id written in `style`, hex digits in either case, without building
/// the string.
fn id_equals(id: &[u8; ID_LEN], style: IdStyle, text: &str) -> bool {
    let Some(hex) = text.strip_prefix(style.prefix()) else {
        return false;
    };
    hex.len() == ID_LEN * 2
        && id
            .iter()
            .zip(hex.as_bytes().chunks_exact(2))
            .all(|(&b, pair)| hex_byte(pair) == Some(b))
}

fn hex_byte(pair: &[u8]) -> Option<u8> {
    let digit = |c: u8| char::from(c).to_digit(16);
    let hi = digit(*pair.first()?)?;
    let lo = digit(*pair.get(1)?)?;
    u8::try_from(hi * 16 + lo).ok()
}

/// Text a LIKE pattern runs over, read a character at a time from an opaque position.
trait Chars {
    /// The character at `pos` and the position after it; `None` at the end.
    fn char_at(&self, pos: usize) -> Option<(char, usize)>;
}

impl Chars for str {
    fn char_at(&self, pos: usize) -> Option<(char, usize)> {
        let c = self.get(pos..)?.chars().next()?;
        Some((c, pos + c.len_utf8()))
    }
}

/// An id as the string it reads as, hex-encoded on the fly (lower case, as `to_hex` writes).
#[derive(Debug, Clone, Copy)]
struct IdText<'a> {
    id: &'a [u8; ID_LEN],
    style: IdStyle,
}

impl Chars for IdText<'_> {
    fn char_at(&self, pos: usize) -> Option<(char, usize)> {
        let prefix = self.style.prefix();
        if let Some(&b) = prefix.as_bytes().get(pos) {
            return Some((char::from(b), pos + 1));
        }
        let k = pos - prefix.len();
        let byte = self.id.get(k / 2)?;
        let nibble = if k.is_multiple_of(2) {
            byte >> 4
        } else {
            byte & 0x0f
        };
        Some((char::from_digit(u32::from(nibble), 16)?, pos + 1))
    }
}

/// LIKE: a glob over characters that backtracks only to the last `%`, so it costs
/// O(pattern × text) at worst and never allocates.
fn like_match<T: Chars + ?Sized>(pattern: &[Pat], text: &T) -> bool {
    let (mut pi, mut ti) = (0usize, 0usize);
    // The last `%` seen: the pattern index after it, and how far into the text it has eaten.
    let mut star: Option<(usize, usize)> = None;
    loop {
        match (pattern.get(pi), text.char_at(ti)) {
            (Some(Pat::Many), _) => {
                pi += 1;
                star = Some((pi, ti));
                continue;
            }
            (Some(Pat::One), Some((_, next))) => {
                pi += 1;
                ti = next;
                continue;
            }
            (Some(Pat::Lit(want)), Some((c, next))) if *want == c => {
                pi += 1;
                ti = next;
                continue;
            }
            (None, None) => return true,
            _ => {}
        }
        // A mismatch (or one side ended): let the last `%` eat one more character and go on.
        let Some((after, at)) = star else {
            return false;
        };
        let Some((_, next)) = text.char_at(at) else {
            return false;
        };
        star = Some((after, next));
        pi = after;
        ti = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{CorrelId, MessageType, MsgId};
    use crate::name::{ApplName, FormatName, ObjectName, UserId};
    use bytes::Bytes;
    use proptest::prelude::*;
    use std::time::Duration;

    fn descriptor() -> MessageDescriptor {
        let mut correl = [0u8; ID_LEN];
        for (i, b) in correl.iter_mut().enumerate() {
            *b = u8::try_from(i + 1).unwrap();
        }
        MessageDescriptor {
            correl_id: CorrelId(correl),
            msg_id: MsgId([0xab; ID_LEN]),
            priority: Priority::Value(4),
            persistence: Persistence::Persistent,
            message_type: MessageType::Request,
            format: FormatName::truncating("MQSTR"),
            reply_to_queue: ObjectName::truncating("REPLY.Q"),
            user_id: UserId::truncating("alice"),
            put_appl_name: ApplName::truncating("app   "),
            put_time: SystemTime::UNIX_EPOCH + Duration::from_millis(1_234_567),
            backout_count: 2,
            ..MessageDescriptor::default()
        }
    }

    fn properties() -> Properties {
        let mut p = Properties::new();
        let all = [
            ("s", PropertyValue::String("hello".into())),
            ("q", PropertyValue::String("it's".into())),
            ("name", PropertyValue::String("50%_off".into())),
            ("uni", PropertyValue::String("äüöxyz".into())),
            ("i", PropertyValue::I32(5)),
            ("big", PropertyValue::I64(10_000_000_000)),
            ("small", PropertyValue::I8(-3)),
            ("f", PropertyValue::F64(2.5)),
            ("g", PropertyValue::F32(0.5)),
            ("flag", PropertyValue::Bool(true)),
            ("off", PropertyValue::Bool(false)),
            ("nul", PropertyValue::Null),
            ("raw", PropertyValue::Bytes(Bytes::from_static(b"x"))),
            ("a.b", PropertyValue::I16(7)),
        ];
        for (name, value) in all {
            p.set(name, value).unwrap();
        }
        p
    }

    fn check(md: &MessageDescriptor, props: &Properties, text: &str, want: bool) {
        let sel = Selector::parse(text).unwrap_or_else(|e| panic!("{text:?}: {}", e.detail));
        assert_eq!(sel.matches(md, props), want, "{text:?}");
    }

    const CASES: &[(&str, bool)] = &[
        // Comparisons.
        ("i = 5", true),
        ("i <> 5", false),
        ("i < 6", true),
        ("i > 4", true),
        ("i <= 5", true),
        ("i >= 6", false),
        ("i = 5.0", true),
        ("f > 2", true),
        ("f < 2.6", true),
        ("f = 2.5", true),
        ("g = 0.5", true),
        ("big > 9999999999", true),
        ("small < 0", true),
        ("small = -3", true),
        ("a.b = 7", true),
        ("  i\n=\t5 ", true),
        // Strings and booleans: = and <> only.
        ("s = 'hello'", true),
        ("s <> 'world'", true),
        ("s = 'Hello'", false),
        ("s > 'a'", false),
        ("NOT (s > 'a')", false),
        ("q = 'it''s'", true),
        ("flag", true),
        ("off", false),
        ("NOT off", true),
        ("flag = TRUE", true),
        ("flag = true", true),
        ("off = FALSE", true),
        ("flag <> off", true),
        ("flag > off", false),
        ("NOT (flag > off)", false),
        // Mismatched types are UNKNOWN.
        ("s = 5", false),
        ("NOT (s = 5)", false),
        ("i = '5'", false),
        ("flag = 1", false),
        ("s + 1 = 1", false),
        // Arithmetic.
        ("i + 1 = 6", true),
        ("i - 10 = -5", true),
        ("i * 2 = 10", true),
        ("i / 2 = 2", true),
        ("f * 2 = 5", true),
        ("i / 2.0 = 2.5", true),
        ("-i = -5", true),
        ("+i = 5", true),
        ("- -i = 5", true),
        ("2 + 3 * 4 = 14", true),
        ("(2 + 3) * 4 = 20", true),
        ("10 - 4 - 3 = 3", true),
        ("12 / 3 / 2 = 2", true),
        ("i / 0 = 1", false),
        ("NOT (i / 0 = 1)", false),
        ("(i / 0) IS NULL", true),
        ("i / 0 IS NULL", true),
        ("f / 0 > 1", false),
        ("big * big > 0", false),
        ("NOT (big * big > 0)", false),
        // Literals.
        ("7E3 = 7000", true),
        ("-57.9E2 = -5790", true),
        ("7. = 7", true),
        (".5 = 0.5", true),
        ("1.5 > 1", true),
        ("57L = 57", true),
        ("1e-1 < 0.2", true),
        ("2.5d = f", true),
        ("TRUE", true),
        ("FALSE", false),
        // NULL.
        ("missing > 1 OR TRUE", true),
        ("missing > 1 OR FALSE", false),
        ("NOT (missing > 1 OR FALSE)", false),
        ("missing > 1 AND FALSE", false),
        ("NOT (missing > 1 AND FALSE)", true),
        ("NOT (missing > 1)", false),
        ("missing = missing", false),
        ("missing", false),
        ("NOT missing", false),
        ("nul = 1", false),
        ("nul IS NULL", true),
        ("missing IS NULL", true),
        ("missing IS NOT NULL", false),
        ("i IS NULL", false),
        ("i IS NOT NULL", true),
        ("raw IS NULL", false),
        ("raw IS NOT NULL", true),
        ("raw = 'x'", false),
        ("NOT (raw = 'x')", false),
        ("jmspriority = 4", false),
        ("S = 'hello'", false),
        // BETWEEN.
        ("i BETWEEN 1 AND 5", true),
        ("i BETWEEN 5 AND 5", true),
        ("i BETWEEN 6 AND 9", false),
        ("i NOT BETWEEN 6 AND 9", true),
        ("i NOT BETWEEN 1 AND 5", false),
        ("f BETWEEN 2 AND 3", true),
        ("i BETWEEN 1 AND 5 AND flag", true),
        ("i BETWEEN 1 + 1 AND 2 * 3", true),
        ("missing BETWEEN 1 AND 5", false),
        ("missing NOT BETWEEN 1 AND 5", false),
        ("s BETWEEN 1 AND 9", false),
        ("i between 1 and 5 or not flag", true),
        // IN.
        ("s IN ('a', 'hello')", true),
        ("s IN ('a','b')", false),
        ("s NOT IN ('a','b')", true),
        ("s NOT IN ('hello')", false),
        ("missing IN ('a')", false),
        ("missing NOT IN ('a')", false),
        ("i IN (1, 5, 9)", true),
        ("i IN (5.0)", true),
        ("i NOT IN (-5, 6)", true),
        ("i in (4)", false),
        ("small IN (-3)", true),
        // LIKE.
        ("s LIKE 'hel%'", true),
        ("s LIKE 'h_llo'", true),
        ("s LIKE 'h_lo'", false),
        ("s LIKE '%'", true),
        ("s LIKE '%l%o'", true),
        ("s LIKE '%l'", false),
        ("s NOT LIKE 'x%'", true),
        ("s NOT LIKE 'h%'", false),
        ("s LIKE 'HELLO'", false),
        ("name LIKE '50\\%%' ESCAPE '\\'", true),
        ("name LIKE '50!%!_off' ESCAPE '!'", true),
        ("name LIKE '50!_%' ESCAPE '!'", false),
        ("name LIKE '50%' escape '!'", true),
        ("uni LIKE 'ä_ö%'", true),
        ("missing LIKE '%'", false),
        ("missing NOT LIKE '%'", false),
        ("i LIKE '5'", false),
        // Message fields.
        ("JMSPriority = 4", true),
        ("JMSPriority > 3 AND JMSPriority < 5", true),
        ("JMSPriority BETWEEN 0 AND 9", true),
        ("Root.MQMD.Priority = 4", true),
        ("JMSDeliveryMode = 'PERSISTENT'", true),
        ("JMSDeliveryMode = 'NON_PERSISTENT'", false),
        ("JMSDeliveryMode IN ('PERSISTENT')", true),
        ("Root.MQMD.Persistence = 1", true),
        ("Root.MQMD.MsgType = 1", true),
        ("Root.MQMD.Feedback = 0", true),
        ("Root.MQMD.Encoding = 546", true),
        ("Root.MQMD.CodedCharSetId = 1208", true),
        ("Root.MQMD.BackoutCount = 2", true),
        ("Root.MQMD.Format = 'MQSTR'", true),
        ("Root.MQMD.ReplyToQ = 'REPLY.Q'", true),
        ("Root.MQMD.ReplyToQMgr = ''", true),
        ("Root.MQMD.UserIdentifier = 'alice'", true),
        ("Root.MQMD.PutApplName = 'app'", true),
        ("Root.MQMD.PutApplName LIKE '%p'", true),
        ("JMSTimestamp = 1234567", true),
        ("JMSTimestamp > 1000", true),
    ];

    #[test]
    fn selectors_evaluate_as_the_table_says() {
        let (md, props) = (descriptor(), properties());
        for &(text, want) in CASES {
            check(&md, &props, text, want);
        }
    }

    #[test]
    fn three_valued_logic_follows_the_sql_truth_tables() {
        let (md, props) = (descriptor(), properties());
        let values = [
            ("TRUE", Some(true)),
            ("FALSE", Some(false)),
            ("(missing > 1)", None),
        ];
        // TRUE matches the selector; FALSE matches its negation; UNKNOWN matches neither.
        let truth_is = |text: &str, want: Option<bool>| {
            check(&md, &props, text, want == Some(true));
            check(&md, &props, &format!("NOT ({text})"), want == Some(false));
        };
        for (a, x) in values {
            truth_is(a, x);
            truth_is(&format!("NOT {a}"), x.map(|b| !b));
            for (b, y) in values {
                let and = match (x, y) {
                    (Some(false), _) | (_, Some(false)) => Some(false),
                    (Some(true), Some(true)) => Some(true),
                    _ => None,
                };
                let or = match (x, y) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                };
                truth_is(&format!("{a} AND {b}"), and);
                truth_is(&format!("{a} OR {b}"), or);
            }
        }
    }

    #[test]
    fn ids_compare_as_hex_without_building_strings() {
        let (md, props) = (descriptor(), properties());
        let hex = md.correl_id.to_hex();
        let msg = "ab".repeat(ID_LEN);
        let yes = [
            format!("JMSCorrelationID = 'ID:{hex}'"),
            format!("JMSCorrelationID = 'ID:{}'", hex.to_uppercase()),
            format!("'ID:{hex}' = JMSCorrelationID"),
            format!("Root.MQMD.CorrelId = '{hex}'"),
            format!("JMSMessageID = 'ID:{msg}'"),
            format!("Root.MQMD.MsgId = '{msg}'"),
            format!("Root.MQMD.MsgId <> '{hex}'"),
            format!("JMSCorrelationID IN ('x', 'ID:{hex}')"),
            "JMSCorrelationID LIKE 'ID:0102%18'".to_owned(),
            "Root.MQMD.CorrelId LIKE '____03%'".to_owned(),
            "JMSCorrelationID <> JMSMessageID".to_owned(),
            "JMSCorrelationID = JMSCorrelationID".to_owned(),
        ];
        let no = [
            format!("JMSCorrelationID = '{hex}'"),
            format!("Root.MQMD.CorrelId = 'ID:{hex}'"),
            format!("JMSCorrelationID = 'ID:{}'", &hex[..46]),
            format!("JMSCorrelationID = 'id:{hex}'"),
            "JMSCorrelationID = 'ID:'".to_owned(),
            "JMSCorrelationID LIKE '0102%'".to_owned(),
            "JMSCorrelationID = 5".to_owned(),
            "JMSCorrelationID = Root.MQMD.CorrelId".to_owned(),
        ];
        for text in &yes {
            check(&md, &props, text, true);
        }
        for text in &no {
            check(&md, &props, text, false);
        }
    }

    #[test]
    fn queue_defaults_read_as_null_or_mq_values() {
        let (md, props) = (MessageDescriptor::default(), Properties::new());
        let zeros = "0".repeat(ID_LEN * 2);
        for text in [
            "JMSPriority IS NULL",
            "JMSDeliveryMode IS NULL",
            "Root.MQMD.Priority = -1",
            "Root.MQMD.Persistence = 2",
            "Root.MQMD.MsgType = 8",
            "Root.MQMD.Format = ''",
            "JMSTimestamp = 0",
        ] {
            check(&md, &props, text, true);
        }
        check(
            &md,
            &props,
            &format!("Root.MQMD.CorrelId = '{zeros}'"),
            true,
        );
        for text in [
            "JMSPriority = 0",
            "NOT (JMSPriority = 0)",
            "JMSDeliveryMode = 'PERSISTENT'",
        ] {
            check(&md, &props, text, false);
        }
        let md = MessageDescriptor {
            persistence: Persistence::NotPersistent,
            ..MessageDescriptor::default()
        };
        check(&md, &props, "JMSDeliveryMode = 'NON_PERSISTENT'", true);
        check(&md, &props, "Root.MQMD.Persistence = 0", true);
    }

    const BAD: &[&str] = &[
        "",
        "   ",
        "i =",
        "= 5",
        "()",
        "(i = 5",
        "i = 5)",
        "i = 'abc",
        "'abc'",
        "5",
        "-5",
        "JMSPriority",
        "i + 1",
        "i = 5 5",
        "i = 5 AND",
        "i = 5 OR",
        "AND",
        "NOT",
        "NOT 5",
        "i == 5",
        "i != 5",
        "i # 1",
        "i = NULL",
        "NULL IS NULL",
        "i IS 5",
        "i NOT 5",
        "a NOT IS NULL",
        "s LIKE 'a' ESCAPE 'ab'",
        "s LIKE 'a' ESCAPE ''",
        "s LIKE 'a' ESCAPE",
        "s LIKE 'a!' ESCAPE '!'",
        "s LIKE t",
        "s LIKE 5",
        "5 LIKE 'a'",
        "i IN (a, b)",
        "i IN ()",
        "i IN (1,)",
        "i IN ('a' 'b')",
        "i IN (-'a')",
        "i IN 'a'",
        "(a = 1) IN (1)",
        "i BETWEEN 1",
        "i BETWEEN 1 OR 2",
        "i BETWEEN 'a' AND 'b'",
        "TRUE BETWEEN 1 AND 2",
        "'a' + 1 = 2",
        "-'a' = 1",
        "TRUE * 2 = 2",
        "'a' AND TRUE",
        "s LIKE 'x' AND 'y'",
        "Root.MQMD.Nonsense = 1",
        "Root.MQMD.priority = 1",
        "5E = 1",
        "1.2.3 = 1",
        "5abc = 1",
        "99999999999999999999 = 1",
    ];

    #[test]
    fn bad_selectors_are_syntax_errors() {
        let long = "x".repeat(MAX_SELECTOR_LEN + 1);
        let mut all: Vec<&str> = BAD.to_vec();
        all.push(&long);
        for text in all {
            match Selector::parse(text) {
                Ok(sel) => panic!("{text:?} parsed as {sel:?}"),
                Err(e) => {
                    assert_eq!(e.reason, Reason::SelectorSyntaxError, "{text:?}");
                    assert!(
                        e.detail.starts_with("selector error at character "),
                        "{text:?}: {}",
                        e.detail
                    );
                }
            }
        }
    }

    #[test]
    fn errors_name_the_position_and_what_was_expected() {
        let e = Selector::parse("i =").unwrap_err();
        assert_eq!(
            e.detail,
            "selector error at character 4: expected a value after '=', found the end of the selector"
        );
        let e = Selector::parse("Root.MQMD.Bogus = 1").unwrap_err();
        assert!(e.detail.contains("unknown MQMD field"), "{}", e.detail);
        let e = Selector::parse("s LIKE 'a' ESCAPE 'xy'").unwrap_err();
        assert!(e.detail.contains("exactly one character"), "{}", e.detail);
        let e = Selector::parse("ä = 'x").unwrap_err();
        assert!(
            e.detail.starts_with("selector error at character 5:"),
            "{}",
            e.detail
        );
    }

    #[test]
    fn blank_is_no_selector_and_text_is_kept() {
        assert!(Selector::parse_optional("  ").unwrap().is_none());
        let sel = Selector::parse_optional(" i = 5 ").unwrap().unwrap();
        assert_eq!(sel.text(), " i = 5 ");
    }

    #[test]
    fn deep_nesting_is_refused_without_overflowing_the_stack() {
        let (md, props) = (descriptor(), properties());
        for text in [
            "(".repeat(10_000),
            format!("{}flag", "(".repeat(10_000)),
            format!("{}1 = 1", "-".repeat(10_000)),
            format!("{}flag", "NOT ".repeat(2_000)),
            format!("i{} = 1", " + i".repeat(200)),
            format!(
                "{}flag{}",
                "(".repeat(MAX_DEPTH + 1),
                ")".repeat(MAX_DEPTH + 1)
            ),
        ] {
            let e = Selector::parse(&text).unwrap_err();
            assert_eq!(e.reason, Reason::SelectorSyntaxError);
        }
        let at_limit = format!("{}flag{}", "(".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        check(&md, &props, &at_limit, true);
        // AND and OR chains stay flat, however long.
        let chain = format!("{}i = 5", "i = 1 OR ".repeat(500));
        check(&md, &props, &chain, true);
        let chain = format!("{}i = 5", "flag AND ".repeat(500));
        check(&md, &props, &chain, true);
    }

    /// The reference: a plain recursive LIKE matcher.
    fn reference_like(p: &[char], t: &[char]) -> bool {
        match p.split_first() {
            None => t.is_empty(),
            Some(('%', rest)) => {
                reference_like(rest, t) || (!t.is_empty() && reference_like(p, &t[1..]))
            }
            Some(('_', rest)) => !t.is_empty() && reference_like(rest, &t[1..]),
            Some((c, rest)) => t.first() == Some(c) && reference_like(rest, &t[1..]),
        }
    }

    const VOCAB: &[&str] = &[
        "a",
        "s",
        "i",
        "flag",
        "JMSPriority",
        "JMSCorrelationID",
        "'x'",
        "'ID:01'",
        "5",
        "1.5",
        "-",
        "+",
        "*",
        "/",
        "(",
        ")",
        ",",
        "=",
        "<>",
        "<",
        ">=",
        "AND",
        "OR",
        "NOT",
        "BETWEEN",
        "IN",
        "LIKE",
        "ESCAPE",
        "IS",
        "NULL",
        "TRUE",
        "'%'",
        "'!'",
        "0",
    ];

    proptest! {
        #[test]
        fn like_agrees_with_the_reference(pattern in "[ab%_]{0,8}", text in "[ab]{0,10}") {
            let sel = Selector::parse(&format!("s LIKE '{pattern}'")).unwrap();
            let mut props = Properties::new();
            props.set("s", PropertyValue::String(text.clone())).unwrap();
            let p: Vec<char> = pattern.chars().collect();
            let t: Vec<char> = text.chars().collect();
            let want = reference_like(&p, &t);
            prop_assert_eq!(
                sel.matches(&MessageDescriptor::default(), &props), want,
                "{} LIKE {}", text, pattern
            );
        }

        #[test]
        fn parse_never_panics_on_arbitrary_text(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
            let text = String::from_utf8_lossy(&bytes);
            if let Ok(sel) = Selector::parse(&text) {
                let _ = sel.matches(&descriptor(), &properties());
            }
        }

        #[test]
        fn parse_and_match_never_panic_on_token_soup(
            words in prop::collection::vec(prop::sample::select(VOCAB.to_vec()), 1..24),
        ) {
            let text = words.join(" ");
            if let Ok(sel) = Selector::parse(&text) {
                let _ = sel.matches(&descriptor(), &properties());
                let _ = sel.matches(&MessageDescriptor::default(), &Properties::new());
            }
        }
    }
}
