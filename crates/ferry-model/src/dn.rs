//! Distinguished names and the patterns that match them, as SSLPEER (and CHLAUTH SSLPEERMAP)
//! use them.
//!
//! A name is a list of `ATTR=value` pairs, e.g. `CN=QM2,OU=Payments,O=Ferry,C=GB`. A pattern has
//! the same form; it matches a name when every attribute the pattern gives is present in the
//! name with a matching value (attributes the pattern does not mention are ignored, as in MQ).
//! Attribute names compare case-insensitively and through their aliases (`ST`/`SP`/`S`,
//! `E`/`MAIL`/`EMAIL`/`EMAILADDRESS`, `UID`/`USERID`); values compare case-insensitively, and
//! `*` in a pattern's value stands for any run of characters. A value may be quoted (`"a, b"`)
//! or carry escaped commas (`a\, b`). An attribute given more than once (two OUs) must match that
//! many distinct values of the name.

/// A distinguished name: (attribute, value) pairs, attributes in their canonical upper-case form.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DistinguishedName(pub Vec<(String, String)>);

impl DistinguishedName {
    /// The name from (attribute, value) pairs in any spelling of the attributes.
    pub fn from_pairs<I, A, V>(pairs: I) -> DistinguishedName
    where
        I: IntoIterator<Item = (A, V)>,
        A: AsRef<str>,
        V: Into<String>,
    {
        DistinguishedName(
            pairs
                .into_iter()
                .map(|(a, v)| (canonical_attr(a.as_ref()), v.into()))
                .collect(),
        )
    }

    /// Parses `CN=x,O=y` (the form SSLPEER values take).
    pub fn parse(s: &str) -> Result<DistinguishedName, String> {
        parse_pairs(s).map(DistinguishedName)
    }

    /// The first value of `attr` (any spelling).
    pub fn get(&self, attr: &str) -> Option<&str> {
        let a = canonical_attr(attr);
        self.0
            .iter()
            .find(|(k, _)| *k == a)
            .map(|(_, v)| v.as_str())
    }

    /// The common name (CN), if the name has one.
    pub fn common_name(&self) -> Option<&str> {
        self.get("CN")
    }

    /// Whether this name matches `pattern` (see the module head).
    pub fn matches(&self, pattern: &DistinguishedName) -> bool {
        let mut used = vec![false; self.0.len()];
        pattern.0.iter().all(|(pa, pv)| {
            let hit = self
                .0
                .iter()
                .enumerate()
                .find(|(i, (a, v))| !used[*i] && a == pa && wildcard_match(pv, v));
            match hit {
                Some((i, _)) => {
                    used[i] = true;
                    true
                }
                None => false,
            }
        })
    }
}

impl std::fmt::Display for DistinguishedName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, (a, v)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{a}={}", v.replace(',', "\\,"))?;
        }
        Ok(())
    }
}

/// The canonical (upper-case, alias-resolved) form of an attribute name.
pub fn canonical_attr(a: &str) -> String {
    let up = a.trim().to_ascii_uppercase();
    match up.as_str() {
        "SP" | "S" | "STATEORPROVINCENAME" => "ST".into(),
        "E" | "MAIL" | "EMAILADDRESS" => "EMAIL".into(),
        "USERID" => "UID".into(),
        "COMMONNAME" => "CN".into(),
        "ORGANIZATIONNAME" => "O".into(),
        "ORGANIZATIONALUNITNAME" => "OU".into(),
        "COUNTRYNAME" => "C".into(),
        "LOCALITYNAME" => "L".into(),
        "SERIALNUMBER" => "SERIALNUMBER".into(),
        _ => up,
    }
}

/// Splits `A=v,B="w, x",C=y\,z` into canonical pairs.
fn parse_pairs(s: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for part in split_unescaped(s) {
        let part = part.trim();
        if part.is_empty() {
            continue;
        }
        let Some((a, v)) = part.split_once('=') else {
            return Err(format!(
                "'{part}' in '{s}' is not ATTRIBUTE=value (for example CN=QM2,O=Example)"
            ));
        };
        let a = a.trim();
        if a.is_empty() || !a.chars().all(|c| c.is_ascii_alphanumeric() || c == '.') {
            return Err(format!("'{a}' in '{s}' is not an attribute name"));
        }
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .unwrap_or(v);
        out.push((canonical_attr(a), v.replace("\\,", ",")));
    }
    if out.is_empty() {
        return Err(format!("'{s}' names no attribute"));
    }
    Ok(out)
}

/// Splits at commas that are neither escaped (`\,`) nor inside double quotes.
fn split_unescaped(s: &str) -> Vec<&str> {
    let (mut parts, mut start, mut quoted, mut escaped) = (Vec::new(), 0, false, false);
    for (i, c) in s.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Case-insensitive match of `value` against `pattern`, where `*` matches any run.
pub fn wildcard_match(pattern: &str, value: &str) -> bool {
    let p: Vec<char> = pattern.chars().flat_map(char::to_lowercase).collect();
    let v: Vec<char> = value.chars().flat_map(char::to_lowercase).collect();
    // Iterative glob with backtracking to the last star: linear in practice, no recursion.
    let (mut pi, mut vi) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while vi < v.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, vi));
            pi += 1;
        } else if pi < p.len() && p[pi] == v[vi] {
            pi += 1;
            vi += 1;
        } else if let Some((sp, sv)) = star {
            pi = sp + 1;
            vi = sv + 1;
            star = Some((sp, sv + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dn(s: &str) -> DistinguishedName {
        DistinguishedName::parse(s).unwrap()
    }

    #[test]
    fn patterns_match_as_mq_describes() {
        let name = dn("CN=QM2,OU=Payments,OU=Europe,O=Ferry Ltd,L=Leeds,ST=Yorks,C=GB");
        assert!(name.matches(&dn("CN=QM2")));
        assert!(name.matches(&dn("cn=qm2, o=ferry ltd")));
        assert!(name.matches(&dn("CN=QM*,O=Ferry*")));
        assert!(name.matches(&dn("SP=Yorks")));
        assert!(name.matches(&dn("OU=Europe,OU=Payments")));
        assert!(!name.matches(&dn("OU=Payments,OU=Payments")));
        assert!(!name.matches(&dn("CN=QM1")));
        assert!(!name.matches(&dn("CN=QM2,O=Other")));
        assert!(!name.matches(&dn("CN=QM2,SERIALNUMBER=1")));
        assert!(!name.matches(&dn("CN=QM")));
        assert_eq!(name.common_name(), Some("QM2"));
    }

    #[test]
    fn quoting_escapes_and_errors() {
        let name = dn(r#"CN=QM2,O="Ferry, Ltd""#);
        assert_eq!(name.get("O"), Some("Ferry, Ltd"));
        assert!(name.matches(&dn(r"O=Ferry\, Ltd")));
        assert!(DistinguishedName::parse("").is_err());
        assert!(DistinguishedName::parse("CN").is_err());
        assert!(DistinguishedName::parse("C N=x").is_err());
        assert_eq!(dn(r"CN=a\,b").to_string(), r"CN=a\,b");
    }

    #[test]
    fn wildcards() {
        assert!(wildcard_match("*", ""));
        assert!(wildcard_match("a*c", "abbbc"));
        assert!(wildcard_match("*b*", "abc"));
        assert!(!wildcard_match("a*c", "abd"));
        assert!(wildcard_match("A*", "abc"));
        assert!(!wildcard_match("", "x"));
    }
}
