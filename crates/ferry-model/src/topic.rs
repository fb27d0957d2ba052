//! Topic strings, and the filters subscriptions select them with, as MQ defines them.
//!
//! A topic string is any text of 1 to [`MAX_TOPIC_LEN`] bytes without NUL; `/` separates its
//! levels (empty levels are allowed, if unwise). A publication's topic is always literal.
//!
//! A subscription's filter follows one of two wildcard schemes ([`Wildcards`], MQ's
//! MQSO_WILDCARD_TOPIC and MQSO_WILDCARD_CHAR, WSCHEMA on DEFINE SUB):
//!
//! - **topic-based** (the default): a level that is exactly `#` matches zero or more whole
//!   levels, anywhere in the filter and any number of times (`#/Results`, `USA/#` matching
//!   `USA` itself); a level that is exactly `+` matches one level. `#` or `+` beside other
//!   characters in a level is literal (`Sport+` is the level `Sport+`).
//! - **character-based**: `*` matches any run of characters, `/` included; `?` matches one
//!   character; `%` escapes the next `*`, `?` or `%` (anything else after `%`, or `%` at the
//!   end, is a topic string error, 2425).
//!
//! In both, a filter whose first level (or, character-based, first character) is a wildcard
//! does not match a topic whose first level begins with `$`: the queue manager's own topics
//! (`$SYS/...`) are reached only by filters that name them, as MQ and MQTT both keep them.
//!
//! Matching never allocates: topic levels are walked with `split('/')` and the topic-based
//! matcher backtracks only to the last `#` (as a glob matcher does to its last `*`), so a
//! match costs O(levels × filter levels) at worst and O(levels) in the usual case.

use serde::{Deserialize, Serialize};

use crate::reason::{MqError, MqResult, Reason};

/// The longest topic string, in bytes (MQ's MQ_TOPIC_STR_LENGTH).
pub const MAX_TOPIC_LEN: usize = 10240;

/// Checks a topic string (a publication's, an object's TOPICSTR joined with an open's object
/// string, or a filter's text): 1 to [`MAX_TOPIC_LEN`] bytes, no NUL.
pub fn check_topic(topic: &str) -> MqResult<()> {
    let why = if topic.is_empty() {
        "it is empty"
    } else if topic.len() > MAX_TOPIC_LEN {
        "it is longer than 10,240 bytes"
    } else if topic.contains('\0') {
        "it contains a NUL character"
    } else {
        return Ok(());
    };
    Err(MqError::new(
        Reason::TopicStringError,
        format!("the topic string is not valid: {why}"),
    ))
}

/// The full topic string of an open or a subscription: the topic object's TOPICSTR and the
/// application's object string, joined by `/` when both are given.
pub fn join(object_topic: &str, object_string: &str) -> String {
    match (object_topic.is_empty(), object_string.is_empty()) {
        (true, _) => object_string.to_owned(),
        (false, true) => object_topic.to_owned(),
        (false, false) => format!("{object_topic}/{object_string}"),
    }
}

/// A wildcard scheme (WSCHEMA).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Wildcards {
    /// Topic-based: `#` and `+` as whole levels (MQSO_WILDCARD_TOPIC, WSCHEMA(TOPIC)).
    #[default]
    Topic,
    /// Character-based: `*`, `?` and `%` escapes (MQSO_WILDCARD_CHAR, WSCHEMA(CHAR)).
    Char,
}

/// One level of a topic-based filter.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Level {
    /// This level, exactly.
    Lit(Box<str>),
    /// `+`: any one level.
    One,
    /// `#`: zero or more levels.
    Any,
}

/// One token of a character-based filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok {
    Lit(char),
    /// `?`
    One,
    /// `*`
    Many,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Compiled {
    Levels(Vec<Level>),
    Chars(Vec<Tok>),
}

/// A subscription's topic filter, parsed once and matched against every publication's topic.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    text: String,
    schema: Wildcards,
    compiled: Compiled,
}

impl Filter {
    /// Parses `text` in `schema`. TOPIC_STRING_ERROR when it is not a valid topic string or,
    /// character-based, has a bad `%` escape.
    pub fn parse(text: &str, schema: Wildcards) -> MqResult<Filter> {
        check_topic(text)?;
        let compiled = match schema {
            Wildcards::Topic => Compiled::Levels(
                text.split('/')
                    .map(|l| match l {
                        "#" => Level::Any,
                        "+" => Level::One,
                        l => Level::Lit(l.into()),
                    })
                    .collect(),
            ),
            Wildcards::Char => Compiled::Chars(char_tokens(text)?),
        };
        Ok(Filter {
            text: text.to_owned(),
            schema,
            compiled,
        })
    }

    /// The filter as given.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its wildcard scheme.
    pub fn schema(&self) -> Wildcards {
        self.schema
    }

    /// Its levels, when it is topic-based.
    pub fn levels(&self) -> Option<&[Level]> {
        match &self.compiled {
            Compiled::Levels(l) => Some(l),
            Compiled::Chars(_) => None,
        }
    }

    /// Whether it has a wildcard (otherwise it matches one topic: its text, unescaped).
    pub fn is_wildcard(&self) -> bool {
        match &self.compiled {
            Compiled::Levels(l) => l.iter().any(|l| !matches!(l, Level::Lit(_))),
            Compiled::Chars(t) => t.iter().any(|t| !matches!(t, Tok::Lit(_))),
        }
    }

    /// The level (0-based) in which the first wildcard stands, if there is one: a topic
    /// object with WILDCARD(BLOCK) hides its subtree from filters whose first wildcard stands
    /// at or above its own last level.
    pub fn first_wildcard_level(&self) -> Option<usize> {
        match &self.compiled {
            Compiled::Levels(l) => l.iter().position(|l| !matches!(l, Level::Lit(_))),
            Compiled::Chars(t) => {
                let at = t.iter().position(|t| !matches!(t, Tok::Lit(_)))?;
                Some(t[..at].iter().filter(|t| **t == Tok::Lit('/')).count())
            }
        }
    }

    /// Whether a publication on `topic` matches.
    pub fn matches(&self, topic: &str) -> bool {
        match &self.compiled {
            Compiled::Levels(levels) => {
                !(hides_system(topic) && matches!(levels.first(), Some(Level::One | Level::Any)))
                    && match_levels(levels, topic)
            }
            Compiled::Chars(toks) => {
                !(hides_system(topic) && matches!(toks.first(), Some(Tok::One | Tok::Many)))
                    && match_chars(toks, topic)
            }
        }
    }
}

/// Whether `topic` is one of the queue manager's own (`$...`), which leading wildcards skip.
pub fn hides_system(topic: &str) -> bool {
    topic.starts_with('$')
}

fn char_tokens(text: &str) -> MqResult<Vec<Tok>> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        out.push(match c {
            '*' => Tok::Many,
            '?' => Tok::One,
            '%' => match chars.next() {
                Some(e @ ('*' | '?' | '%')) => Tok::Lit(e),
                other => {
                    return Err(MqError::new(
                        Reason::TopicStringError,
                        format!(
                            "the character-based filter {text:?} has '%' followed by {}: '%' escapes only '*', '?' and '%'",
                            other.map_or("nothing".to_owned(), |c| format!("{c:?}"))
                        ),
                    ))
                }
            },
            c => Tok::Lit(c),
        });
    }
    Ok(out)
}

/// Topic-based matching: a glob over levels, `#` as the star and `+` as the single-level
/// wildcard; backtracks to the last `#` only.
fn match_levels(filter: &[Level], topic: &str) -> bool {
    let mut t = topic.split('/');
    let mut cur = t.next();
    let mut fi = 0;
    // The last `#` seen: the filter index after it, and the topic position it has eaten to.
    let mut star: Option<(usize, std::str::Split<'_, char>, Option<&str>)> = None;
    loop {
        match (filter.get(fi), cur) {
            (Some(Level::Any), _) => {
                fi += 1;
                star = Some((fi, t.clone(), cur));
                continue;
            }
            (Some(Level::One), Some(_)) => {
                fi += 1;
                cur = t.next();
                continue;
            }
            (Some(Level::Lit(l)), Some(level)) if **l == *level => {
                fi += 1;
                cur = t.next();
                continue;
            }
            (None, None) => return true,
            _ => {}
        }
        // A mismatch (or one side ended): let the last `#` eat one more level and go on.
        match star.as_mut() {
            Some((after, rest, at)) if at.is_some() => {
                *at = rest.next();
                fi = *after;
                t = rest.clone();
                cur = *at;
            }
            _ => return false,
        }
    }
}

/// Character-based matching: a glob over characters, backtracking to the last `*`.
fn match_chars(toks: &[Tok], topic: &str) -> bool {
    let text: &[u8] = topic.as_bytes();
    let (mut ti, mut pi) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < text.len() || pi < toks.len() {
        let c = char_at(text, ti);
        match (toks.get(pi), c) {
            (Some(Tok::Many), _) => {
                pi += 1;
                star = Some((pi, ti));
                continue;
            }
            (Some(Tok::One), Some((_, n))) => {
                pi += 1;
                ti += n;
                continue;
            }
            (Some(Tok::Lit(l)), Some((ch, n))) if *l == ch => {
                pi += 1;
                ti += n;
                continue;
            }
            _ => {}
        }
        match star.as_mut() {
            Some((after, at)) if *at < text.len() => {
                *at += char_at(text, *at).map_or(1, |(_, n)| n);
                pi = *after;
                ti = *at;
            }
            _ => return false,
        }
    }
    true
}

/// The character at byte `i` of UTF-8 `text`, and its length in bytes.
fn char_at(text: &[u8], i: usize) -> Option<(char, usize)> {
    let rest = text.get(i..)?;
    let s = std::str::from_utf8(&rest[..rest.len().min(4)])
        .or_else(|e| std::str::from_utf8(&rest[..e.valid_up_to()]))
        .ok()?;
    let c = s.chars().next()?;
    Some((c, c.len_utf8()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t(f: &str) -> Filter {
        Filter::parse(f, Wildcards::Topic).unwrap()
    }
    fn c(f: &str) -> Filter {
        Filter::parse(f, Wildcards::Char).unwrap()
    }

    #[test]
    fn topic_based_wildcards_follow_mqs_examples() {
        assert!(t("IBM/+/Results").matches("IBM/Software/Results"));
        assert!(!t("IBM/+/Results").matches("IBM/Results"));
        assert!(t("USA/Alaska/#").matches("USA/Alaska"));
        assert!(t("USA/Alaska/#").matches("USA/Alaska/Juneau"));
        assert!(t("USA/#").matches("USA"));
        assert!(t("#/Results").matches("IBM/Software/Results"));
        assert!(t("#/Results").matches("Results"));
        assert!(t("a/#/c/#").matches("a/b/c/d/e"));
        assert!(t("#").matches("a/b"));
        assert!(
            !t("Sport+").matches("Sport1"),
            "mixed with other characters, + is literal"
        );
        assert!(t("Sport+").matches("Sport+"));
        assert!(t("a//b").matches("a//b"));
        assert!(t("+/+").matches("/x"));
        assert!(!t("a/b").matches("a/b/c"));
    }

    #[test]
    fn system_topics_are_reached_only_by_naming_them() {
        assert!(!t("#").matches("$SYS/MQ/INFO"));
        assert!(!t("+/MQ/#").matches("$SYS/MQ/INFO"));
        assert!(t("$SYS/#").matches("$SYS/MQ/INFO"));
        assert!(!c("*").matches("$SYS/MQ"));
        assert!(c("$SYS*").matches("$SYS/MQ"));
    }

    #[test]
    fn character_based_wildcards_and_escapes() {
        assert!(c("IBM/*ware/Results").matches("IBM/Software/Results"));
        assert!(
            c("IBM/*").matches("IBM/Software/Results"),
            "* crosses levels"
        );
        assert!(c("a?c").matches("abc"));
        assert!(c("a?c").matches("a/c"));
        assert!(!c("a?c").matches("ac"));
        assert!(c("100%%").matches("100%"));
        assert!(c("what%?").matches("what?"));
        assert!(!c("what%?").matches("whatX"));
        assert!(c("ä?ö*").matches("äüöxyz"), "characters, not bytes");
        for bad in ["50%", "a%b"] {
            let e = Filter::parse(bad, Wildcards::Char).unwrap_err();
            assert_eq!(e.reason, Reason::TopicStringError, "{bad}");
        }
    }

    #[test]
    fn topic_strings_are_checked_and_joined() {
        assert_eq!(
            check_topic("").unwrap_err().reason,
            Reason::TopicStringError
        );
        assert!(check_topic(&"x".repeat(MAX_TOPIC_LEN)).is_ok());
        assert!(check_topic(&"x".repeat(MAX_TOPIC_LEN + 1)).is_err());
        assert!(check_topic("a\0b").is_err());
        assert_eq!(join("Sport", "Football/Results"), "Sport/Football/Results");
        assert_eq!(join("", "a"), "a");
        assert_eq!(join("a", ""), "a");
    }

    /// The reference: a plain recursive matcher over levels.
    fn reference_levels(f: &[&str], t: &[&str]) -> bool {
        match f.split_first() {
            None => t.is_empty(),
            Some((&"#", rest)) => {
                reference_levels(rest, t) || (!t.is_empty() && reference_levels(f, &t[1..]))
            }
            Some((&"+", rest)) => !t.is_empty() && reference_levels(rest, &t[1..]),
            Some((l, rest)) => t.first() == Some(l) && reference_levels(rest, &t[1..]),
        }
    }

    /// The reference for character-based filters (no escapes in the generated ones).
    fn reference_chars(f: &[char], t: &[char]) -> bool {
        match f.split_first() {
            None => t.is_empty(),
            Some(('*', rest)) => {
                reference_chars(rest, t) || (!t.is_empty() && reference_chars(f, &t[1..]))
            }
            Some(('?', rest)) => !t.is_empty() && reference_chars(rest, &t[1..]),
            Some((c, rest)) => t.first() == Some(c) && reference_chars(rest, &t[1..]),
        }
    }

    fn level() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("a".to_owned()),
            Just("b".to_owned()),
            Just(String::new()),
            Just("$S".to_owned()),
            Just("a+".to_owned()),
        ]
    }

    fn filter_level() -> impl Strategy<Value = String> {
        prop_oneof![level(), Just("+".to_owned()), Just("#".to_owned())]
    }

    proptest! {
        #[test]
        fn topic_matching_agrees_with_the_reference(
            f in prop::collection::vec(filter_level(), 1..6),
            t in prop::collection::vec(level(), 1..7),
        ) {
            let (ftext, ttext) = (f.join("/"), t.join("/"));
            prop_assume!(!ftext.is_empty() && !ttext.is_empty());
            let fl: Vec<&str> = f.iter().map(|s| s.as_str()).collect();
            let tl: Vec<&str> = t.iter().map(|s| s.as_str()).collect();
            let hidden = ttext.starts_with('$') && (fl[0] == "#" || fl[0] == "+");
            let want = !hidden && reference_levels(&fl, &tl);
            prop_assert_eq!(t_parse(&ftext).matches(&ttext), want, "{} vs {}", ftext, ttext);
        }

        #[test]
        fn character_matching_agrees_with_the_reference(
            f in "[ab/*?é]{1,8}",
            t in "[ab/é$]{1,10}",
        ) {
            let fc: Vec<char> = f.chars().collect();
            let tc: Vec<char> = t.chars().collect();
            let hidden = t.starts_with('$') && (fc[0] == '*' || fc[0] == '?');
            let want = !hidden && reference_chars(&fc, &tc);
            prop_assert_eq!(c(&f).matches(&t), want, "{} vs {}", f, t);
        }
    }

    fn t_parse(f: &str) -> Filter {
        Filter::parse(f, Wildcards::Topic).unwrap()
    }
}
