//! The reason-code table in docs/semantics.md must list every reason with its number and name.

use ferry_model::Reason;

#[test]
fn semantics_doc_lists_every_reason_code() {
    let doc = include_str!("../../../docs/semantics.md");
    for r in Reason::ALL {
        let row = format!("| {} | `{}` |", r.code(), r.name());
        assert!(
            doc.contains(&row),
            "docs/semantics.md lacks the row for {r}"
        );
    }
}
