//! MQTT topic names and filters against the queue manager's topic strings.
//!
//! An MQTT topic name is an MQ topic string as it stands (`/`-separated levels), and an MQTT
//! filter an MQ topic-based wildcard filter (`+` one level, `#` the rest, MQSO_WILDCARD_TOPIC),
//! so MQI publishers and subscribers meet MQTT clients on the same topics, as MQ's telemetry
//! service does. The MQTT rules are checked here, before the queue manager sees the string:
//! names carry no wildcard, `+` and `#` stand alone in their level and `#` only last, nothing is
//! empty or holds NUL, and clients publish to no `$` topic (those are the queue manager's, as
//! `$SYS/...`). A shared subscription's filter (`$share/{group}/{filter}`) is split by
//! [`shared`]: the group name is one non-empty level without wildcards, the filter as any.

use crate::wire::code;

/// The longest topic string the queue manager takes (MQ's MQ_TOPIC_STR_LENGTH limit for a
/// resolved topic string is 10,240).
pub const MAX_TOPIC_LEN: usize = 10_240;

/// Why a topic name or filter is refused: the MQTT 5 reason code and a sentence.
pub type Refusal = (u8, String);

/// Checks a PUBLISH's topic name.
pub fn check_name(name: &str) -> Result<(), Refusal> {
    let bad = |why: &str| {
        Err((
            code::TOPIC_NAME_INVALID,
            format!("topic name {name:?} {why}"),
        ))
    };
    if name.is_empty() {
        return bad("is empty");
    }
    if name.len() > MAX_TOPIC_LEN {
        return bad("is longer than the 10,240 bytes a topic string may be");
    }
    if name.contains(['+', '#']) {
        return bad("holds a wildcard (+ or #), which only filters may");
    }
    if name.contains('\0') {
        return bad("holds a NUL character");
    }
    if name.starts_with('$') {
        return bad("starts with $: those topics are the queue manager's own");
    }
    Ok(())
}

/// A shared subscription's filter split into its group and topic filter, checked; `None` for
/// a filter that is not shared.
pub fn shared(filter: &str) -> Option<Result<(&str, &str), Refusal>> {
    let rest = filter.strip_prefix("$share/")?;
    let bad = |why: &str| {
        Some(Err((
            code::TOPIC_FILTER_INVALID,
            format!("shared subscription {filter:?} {why}"),
        )))
    };
    let Some((group, topic)) = rest.split_once('/') else {
        return bad("has no topic filter after its group name");
    };
    if group.is_empty() || group.contains(['+', '#']) {
        return bad("needs a group name of one level without + or #");
    }
    if topic.starts_with("$share/") {
        return bad("shares a shared subscription");
    }
    Some(check_filter(topic).map(|()| (group, topic)))
}

/// Checks a SUBSCRIBE or UNSUBSCRIBE filter.
pub fn check_filter(filter: &str) -> Result<(), Refusal> {
    let bad = |c: u8, why: &str| Err((c, format!("topic filter {filter:?} {why}")));
    if let Some(parts) = shared(filter) {
        return parts.map(|_| ());
    }
    if filter.is_empty() {
        return bad(code::TOPIC_FILTER_INVALID, "is empty");
    }
    if filter.len() > MAX_TOPIC_LEN {
        return bad(code::TOPIC_FILTER_INVALID, "is longer than 10,240 bytes");
    }
    if filter.contains('\0') {
        return bad(code::TOPIC_FILTER_INVALID, "holds a NUL character");
    }
    let levels: Vec<&str> = filter.split('/').collect();
    for (i, level) in levels.iter().enumerate() {
        let wild = level.contains(['+', '#']);
        if wild && level.len() > 1 {
            return bad(
                code::TOPIC_FILTER_INVALID,
                "has + or # beside other characters in a level",
            );
        }
        if *level == "#" && i + 1 != levels.len() {
            return bad(code::TOPIC_FILTER_INVALID, "has # before its last level");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_filters_follow_the_mqtt_rules() {
        for ok in ["a", "a/b", "/a", "a/", "sport/tennis/player1", "a b/c"] {
            assert!(check_name(ok).is_ok(), "{ok}");
            assert!(check_filter(ok).is_ok(), "{ok}");
        }
        for ok in ["#", "+", "a/+/c", "a/#", "+/+", "/#", "a/+"] {
            assert!(check_filter(ok).is_ok(), "{ok}");
            assert_eq!(check_name(ok).unwrap_err().0, code::TOPIC_NAME_INVALID);
        }
        for bad in ["a/#/c", "a+", "a/b#", "##", ""] {
            assert_eq!(
                check_filter(bad).unwrap_err().0,
                code::TOPIC_FILTER_INVALID,
                "{bad}"
            );
        }
        assert_eq!(
            check_name("$SYS/x").unwrap_err().0,
            code::TOPIC_NAME_INVALID
        );
        assert!(check_filter("$SYS/#").is_ok());
        assert_eq!(shared("$share/g/a/+").unwrap().unwrap(), ("g", "a/+"));
        assert!(shared("a/b").is_none());
        for bad in [
            "$share/g",
            "$share//a",
            "$share/g+/a",
            "$share/g/a#",
            "$share/g/$share/h/a",
        ] {
            assert_eq!(
                check_filter(bad).unwrap_err().0,
                code::TOPIC_FILTER_INVALID,
                "{bad}"
            );
        }
        assert!(check_name(&"a".repeat(MAX_TOPIC_LEN + 1)).is_err());
    }
}
