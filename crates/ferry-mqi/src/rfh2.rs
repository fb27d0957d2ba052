//! MQRFH2 headers: message properties as the folders of a rules and formatting header, for
//! MQMHBUF (a message handle's properties into a buffer) and MQBUFMH (a buffer's MQRFH2 into a
//! handle). Written from MQ's published description of the header: a 36-byte fixed part
//! (StrucId "RFH ", Version 2, StrucLength, Encoding, CodedCharSetId and Format of what follows,
//! Flags, NameValueCCSID 1208), then folders, each a 4-byte length and XML-like text padded to a
//! multiple of 4 bytes.
//!
//! Mapping: a property with an unprefixed name, or `usr.`-prefixed, is an element of the `usr`
//! folder (`a.b` nested as `<a><b>`); names starting `jms.`, `mcd.`, `mqps.` or `mqext.` go
//! to that folder. A value's type is the element's `dt` attribute (`i1` `i2` `i4` `i8` `r4`
//! `r8` `boolean` `bin.hex`; none for a string); a null is `xsi:nil='true'`. Text is escaped
//! (`&lt;` `&gt;` `&amp;` `&quot;` `&apos;`) both ways.

use ferry_model::message::PropertyValue;

/// MQRFH2's fixed part.
pub const FIXED_LEN: usize = 36;
/// MQFMT_RF_HEADER_2.
pub const FORMAT: [u8; 8] = *b"MQHRF2  ";
/// Folders a property prefix names; every other property is in `usr`.
const FOLDERS: [&str; 4] = ["jms", "mcd", "mqps", "mqext"];

/// What follows a header: its encoding, character set and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Next {
    /// Encoding of what follows.
    pub encoding: i32,
    /// CodedCharSetId of what follows.
    pub ccsid: i32,
    /// Format of what follows.
    pub format: [u8; 8],
}

/// An MQRFH2 (native encoding) holding `props`, describing `next` as what follows it.
pub fn encode(props: &[(String, PropertyValue)], next: Next) -> Vec<u8> {
    let mut folders: Vec<(String, String)> = Vec::new();
    for (name, value) in props {
        let (folder, path) = split(name);
        let xml = element(&path, value);
        match folders.iter_mut().find(|(f, _)| *f == folder) {
            Some((_, body)) => body.push_str(&xml),
            None => folders.push((folder.to_owned(), xml)),
        }
    }
    let mut out = Vec::with_capacity(FIXED_LEN + 64 * folders.len());
    out.extend_from_slice(b"RFH ");
    for v in [2i32, 0, next.encoding, next.ccsid] {
        out.extend_from_slice(&v.to_ne_bytes());
    }
    out.extend_from_slice(&next.format);
    for v in [0i32, 1208] {
        out.extend_from_slice(&v.to_ne_bytes());
    }
    for (folder, body) in folders {
        let mut text = format!("<{folder}>{body}</{folder}>").into_bytes();
        text.resize(text.len().div_ceil(4) * 4, b' ');
        out.extend_from_slice(&(text.len() as i32).to_ne_bytes());
        out.extend_from_slice(&text);
    }
    let len = out.len() as i32;
    out[8..12].copy_from_slice(&len.to_ne_bytes());
    out
}

/// The folder a property name belongs to and its path inside it.
fn split(name: &str) -> (&str, Vec<&str>) {
    let mut parts: Vec<&str> = name.split('.').collect();
    match parts.first() {
        Some(&f) if parts.len() > 1 && (f == "usr" || FOLDERS.contains(&f)) => {
            parts.remove(0);
            (f, parts)
        }
        _ => ("usr", parts),
    }
}

/// `<a><b dt='i4'>42</b></a>` for path a.b.
fn element(path: &[&str], value: &PropertyValue) -> String {
    let (dt, text) = match value {
        PropertyValue::Bool(b) => (Some("boolean"), if *b { "1" } else { "0" }.to_owned()),
        PropertyValue::I8(v) => (Some("i1"), v.to_string()),
        PropertyValue::I16(v) => (Some("i2"), v.to_string()),
        PropertyValue::I32(v) => (Some("i4"), v.to_string()),
        PropertyValue::I64(v) => (Some("i8"), v.to_string()),
        PropertyValue::F32(v) => (Some("r4"), v.to_string()),
        PropertyValue::F64(v) => (Some("r8"), v.to_string()),
        PropertyValue::Bytes(b) => (
            Some("bin.hex"),
            b.iter().map(|x| format!("{x:02X}")).collect(),
        ),
        PropertyValue::String(s) => (None, escape(s)),
        PropertyValue::Null => (None, String::new()),
    };
    let (last, outer) = path.split_last().unwrap_or((&"", &[]));
    let mut s: String = outer.iter().map(|p| format!("<{p}>")).collect();
    let attr = match (value, dt) {
        (PropertyValue::Null, _) => " xsi:nil='true'".to_owned(),
        (_, Some(dt)) => format!(" dt='{dt}'"),
        (_, None) => String::new(),
    };
    s.push_str(&format!("<{last}{attr}>{text}</{last}>"));
    s.extend(outer.iter().rev().map(|p| format!("</{p}>")));
    s
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Named property values, in order.
pub type Props = Vec<(String, PropertyValue)>;

/// An MQRFH2 at the start of `buf` (native encoding): its properties, its length and what
/// follows it; `None` when the header or a folder is not well formed.
pub fn decode(buf: &[u8]) -> Option<(Props, usize, Next)> {
    let word = |at: usize| -> Option<i32> {
        Some(i32::from_ne_bytes(buf.get(at..at + 4)?.try_into().ok()?))
    };
    if buf.get(..4)? != b"RFH " || word(4)? != 2 {
        return None;
    }
    let len = usize::try_from(word(8)?).ok()?;
    if len < FIXED_LEN || len > buf.len() {
        return None;
    }
    let next = Next {
        encoding: word(12)?,
        ccsid: word(16)?,
        format: buf[20..28].try_into().ok()?,
    };
    let mut props = Vec::new();
    let mut at = FIXED_LEN;
    while at < len {
        let n = usize::try_from(word(at)?).ok()?;
        let text = std::str::from_utf8(buf.get(at + 4..at + 4 + n)?).ok()?;
        folder(text.trim_end_matches([' ', '\0']), &mut props)?;
        at += 4 + n;
    }
    Some((props, len, next))
}

/// The properties of one folder's text, appended to `out`.
fn folder(text: &str, out: &mut Vec<(String, PropertyValue)>) -> Option<()> {
    let mut p = Parser { s: text, at: 0 };
    let (name, attrs) = p.open_tag()?;
    let prefix = if name == "usr" {
        String::new()
    } else {
        format!("{name}.")
    };
    p.children(&prefix, &attrs, out)?;
    p.close_tag(&name)
}

/// A small reader of the folders' XML: elements, `dt` and `xsi:nil` attributes, text.
struct Parser<'a> {
    s: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.s[self.at..]
    }

    fn open_tag(&mut self) -> Option<(String, Vec<(String, String)>)> {
        let s = self.s;
        let rest = &s[self.at..];
        let end = rest.find('>')?;
        let inner = rest.strip_prefix('<')?[..end - 1].trim();
        self.at += end + 1;
        let mut parts = inner.split_whitespace();
        let name = parts.next()?.to_owned();
        let attrs = parts
            .filter_map(|a| {
                let (k, v) = a.split_once('=')?;
                Some((k.to_owned(), v.trim_matches(['\'', '"']).to_owned()))
            })
            .collect();
        Some((name, attrs))
    }

    fn close_tag(&mut self, name: &str) -> Option<()> {
        let tag = format!("</{name}>");
        self.rest().starts_with(&tag).then(|| self.at += tag.len())
    }

    /// The content of an element whose open tag was read: text (a property named `path`)
    /// or child elements.
    fn children(
        &mut self,
        path: &str,
        attrs: &[(String, String)],
        out: &mut Vec<(String, PropertyValue)>,
    ) -> Option<()> {
        if !self.rest().starts_with('<') || self.rest().starts_with("</") {
            let end = self.rest().find('<')?;
            let text = unescape(&self.rest()[..end]);
            self.at += end;
            let name = path.trim_end_matches('.').to_owned();
            out.push((name, value(&text, attrs)?));
            return Some(());
        }
        while self.rest().starts_with('<') && !self.rest().starts_with("</") {
            let (name, attrs) = self.open_tag()?;
            self.children(&format!("{path}{name}."), &attrs, out)?;
            self.close_tag(&name)?;
        }
        Some(())
    }
}

/// A property value from an element's text and its `dt` / `xsi:nil` attributes.
fn value(text: &str, attrs: &[(String, String)]) -> Option<PropertyValue> {
    let attr = |k: &str| attrs.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    if attr("xsi:nil") == Some("true") {
        return Some(PropertyValue::Null);
    }
    Some(match attr("dt") {
        None | Some("string") => PropertyValue::String(text.to_owned()),
        Some("boolean") => PropertyValue::Bool(text.trim() == "1" || text.trim() == "true"),
        Some("i1") => PropertyValue::I8(text.trim().parse().ok()?),
        Some("i2") => PropertyValue::I16(text.trim().parse().ok()?),
        Some("i4") | Some("int") => PropertyValue::I32(text.trim().parse().ok()?),
        Some("i8") => PropertyValue::I64(text.trim().parse().ok()?),
        Some("r4") => PropertyValue::F32(text.trim().parse().ok()?),
        Some("r8") => PropertyValue::F64(text.trim().parse().ok()?),
        Some("bin.hex") => PropertyValue::Bytes(
            (0..text.len() / 2)
                .map(|i| u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok())
                .collect::<Option<Vec<u8>>>()?
                .into(),
        ),
        Some(_) => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn properties_round_trip_through_folders() {
        let props = vec![
            (
                "colour".to_owned(),
                PropertyValue::String("blue & <green>".into()),
            ),
            ("count".to_owned(), PropertyValue::I32(42)),
            ("a.b".to_owned(), PropertyValue::Bool(true)),
            ("usr.big".to_owned(), PropertyValue::I64(-7)),
            (
                "jms.Dst".to_owned(),
                PropertyValue::String("queue:///Q".into()),
            ),
            (
                "raw".to_owned(),
                PropertyValue::Bytes(vec![0, 0xAB, 0xFF].into()),
            ),
            ("nothing".to_owned(), PropertyValue::Null),
        ];
        let next = Next {
            encoding: 546,
            ccsid: 1208,
            format: *b"MQSTR   ",
        };
        let buf = encode(&props, next);
        assert_eq!(&buf[..4], b"RFH ");
        assert_eq!(buf.len() % 4, 0);
        let (back, len, after) = decode(&buf).unwrap();
        assert_eq!((len, after), (buf.len(), next));
        // Each folder's properties together (usr first, as the first property was in it).
        let mut want: Vec<_> = props
            .iter()
            .map(|(n, v)| (n.strip_prefix("usr.").unwrap_or(n).to_owned(), v.clone()))
            .collect();
        want.sort_by_key(|(n, _)| n.starts_with("jms."));
        assert_eq!(back, want);
    }

    #[test]
    fn any_bytes_in_a_header_are_read_without_a_panic() {
        let next = Next {
            encoding: 546,
            ccsid: 1208,
            format: *b"MQSTR   ",
        };
        let props = vec![
            ("a.b".to_owned(), PropertyValue::I32(1)),
            ("s".to_owned(), PropertyValue::String("x".into())),
        ];
        let good = encode(&props, next);
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            let mut b = good.clone();
            for _ in 0..3 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let at = (seed as usize) % b.len();
                b[at] = (seed >> 32) as u8;
            }
            let _ = decode(&b);
            let _ = decode(&b[..(seed as usize) % b.len()]);
        }
    }

    #[test]
    fn malformed_headers_are_refused() {
        assert!(decode(b"RFH \x01\0\0\0").is_none());
        let mut buf = encode(
            &[],
            Next {
                encoding: 0,
                ccsid: 0,
                format: [b' '; 8],
            },
        );
        buf.extend_from_slice(&8i32.to_ne_bytes());
        buf.extend_from_slice(b"<usr><a>");
        let len = buf.len() as i32;
        buf[8..12].copy_from_slice(&len.to_ne_bytes());
        assert!(decode(&buf).is_none());
    }
}
