//! The C headers agree with the engine and with themselves: every reason FerryMQ reports is
//! defined in cmqc.h with the same number, and cmqstrc.h names every reason cmqc.h defines
//! (regenerate it with gen-cmqstrc.py).

use std::collections::BTreeMap;

fn defines(header: &str, prefix: &str) -> BTreeMap<String, i64> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("include")
            .join(header),
    )
    .unwrap();
    text.lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            if parts.next()? != "#define" {
                return None;
            }
            let name = parts.next()?;
            let value = parts.next()?.trim_matches(|c| c == '(' || c == ')');
            if !name.starts_with(prefix) {
                return None;
            }
            let v = match value.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16).ok()?,
                None => value.parse().ok()?,
            };
            Some((name.to_owned(), v))
        })
        .collect()
}

#[test]
fn every_reason_ferrymq_reports_is_in_cmqc_h_with_its_number() {
    let rc = defines("cmqc.h", "MQRC_");
    for r in ferry_model::Reason::ALL {
        let name = r.name();
        if !name.starts_with("MQRC_") {
            continue; // FerryMQ's own (FERRY_RC_*) and PCF (MQRCCF_*) reasons
        }
        assert_eq!(
            rc.get(name).copied(),
            Some(r.code() as i64),
            "cmqc.h must define {name} as {}",
            r.code()
        );
    }
}

#[test]
fn cmqstrc_h_names_every_reason_cmqc_h_defines() {
    let strc = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("include/cmqstrc.h"),
    )
    .unwrap();
    for (name, value) in defines("cmqc.h", "MQRC_") {
        assert!(
            strc.contains(&format!("case {value}:")),
            "cmqstrc.h has no name for {name} ({value}); run crates/ferry-mqi/gen-cmqstrc.py"
        );
    }
}

/// Every `#define` of every header: name → value text (comments and parentheses stripped).
fn all_defines() -> BTreeMap<String, String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("include");
    let mut out = BTreeMap::new();
    for h in [
        "cmqc.h", "cmqxc.h", "cmqcfc.h", "cmqbc.h", "cmqpsc.h", "cmqzc.h",
    ] {
        let text = std::fs::read_to_string(dir.join(h)).unwrap();
        for l in text.lines() {
            let Some(rest) = l.trim_start().strip_prefix("#define ") else {
                continue;
            };
            let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let value = value.split("/*").next().unwrap_or("").trim();
            out.insert(name.to_owned(), value.to_owned());
        }
    }
    out
}

/// An integer macro's value: a number (decimal, hex, negative, cast to MQLONG) or another
/// macro's name.
fn c_int(defined: &BTreeMap<String, String>, v: &str) -> Option<i64> {
    let v = v.trim().replace("(MQLONG)", "");
    let v = v.trim_start_matches('(').trim_end_matches(')').trim();
    let v = v.trim_end_matches(['L', 'l', 'U', 'u']);
    if v.starts_with("MQ") {
        return defined.get(v).and_then(|w| c_int(defined, w));
    }
    match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(h) => i64::from_str_radix(h, 16).ok().map(|n| n as i32 as i64),
        None => v.parse().ok(),
    }
}

/// The header coverage test: every constant of the MQI's published headers at command level
/// 940 (reference/mqi-constants.tsv, derived from the published list) is defined by one of
/// FerryMQ's headers, with the reference's value. A missing or wrong constant names itself.
#[test]
fn every_constant_of_the_reference_is_defined_with_its_value() {
    let tsv = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("reference/mqi-constants.tsv"),
    )
    .unwrap();
    let defined = all_defines();
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    let mut checked = 0;
    for line in tsv.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let mut cols = line.split('\t');
        let (name, kind, value) = (
            cols.next().unwrap(),
            cols.next().unwrap(),
            cols.next().unwrap_or(""),
        );
        checked += 1;
        let Some(ours) = defined.get(name) else {
            missing.push(name.to_owned());
            continue;
        };
        let same = match kind {
            "int" => c_int(&defined, ours) == value.parse().ok(),
            "char" => ours.trim_matches(['(', ')']) == format!("'{value}'"),
            _ => ours.trim_matches('"').trim_end() == value,
        };
        if !same {
            wrong.push(format!("{name}: ours {ours}, the reference's {value}"));
        }
    }
    assert!(checked > 5000, "the reference lists {checked} constants");
    assert!(
        missing.is_empty(),
        "{} constants missing (regenerate with gen-constants.py): {:?}",
        missing.len(),
        &missing[..missing.len().min(20)]
    );
    assert!(wrong.is_empty(), "constants with another value: {wrong:#?}");
}

/// The command level the headers declare is the one the queue manager reports.
#[test]
fn the_headers_command_level_is_the_queue_managers() {
    let defined = all_defines();
    assert_eq!(
        c_int(&defined, &defined["MQCMDL_CURRENT_LEVEL"]),
        Some(ferry_model::inquire::COMMAND_LEVEL)
    );
}
