//! docs/config.md must document every key of qm.toml with the default `ferry qm create` writes.

#[test]
fn every_key_is_documented_with_its_default() {
    let doc = include_str!("../../../docs/config.md");
    let file = ferry_host::home::QmFile::new("QM1");
    let table: toml::Table = toml::Value::try_from(&file).unwrap().try_into().unwrap();
    for (section, keys) in &table {
        assert!(
            doc.contains(&format!("## `[{section}]`")),
            "docs/config.md has no heading for [{section}]"
        );
        for (key, value) in keys.as_table().unwrap() {
            if section == "qmgr" && key == "name" {
                continue;
            }
            let row = format!("| `{key}` | `{value}` |");
            assert!(
                doc.contains(&row),
                "docs/config.md lacks the row for [{section}] {key} with its default: {row}"
            );
        }
    }
}
