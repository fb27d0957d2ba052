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
