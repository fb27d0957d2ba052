//! MQINQMP's MQIMPO_CONVERT_TYPE: a property's value as the type the caller asks for, by MQ's
//! general rules — numbers convert where nothing is lost (INT8 → INT16 → INT32 → INT64, and
//! FLOAT32 → FLOAT64), any value becomes a string (a boolean `TRUE` / `FALSE`, a byte string
//! two hexadecimal characters a byte, numbers in decimal), and a string becomes any type it
//! spells (MQRC_PROP_NUMBER_FORMAT_ERROR, 2472, when it does not). Other pairs are
//! MQRC_PROP_CONV_NOT_SUPPORTED (2470); a Type that is no MQTYPE_* is MQRC_PROPERTY_TYPE_ERROR.

use ferry_model::message::PropertyValue as P;

/// Why a conversion was refused (its MQRC).
pub(crate) const RC_PROP_CONV_NOT_SUPPORTED: u32 = 2470;
pub(crate) const RC_PROP_NUMBER_FORMAT_ERROR: u32 = 2472;
pub(crate) const RC_PROPERTY_TYPE_ERROR: u32 = 2473;

/// The MQTYPE_* values, as MQINQMP's Type parameter holds them.
pub(crate) mod ty {
    pub const AS_SET: i32 = 0;
    pub const NULL: i32 = 2;
    pub const BOOLEAN: i32 = 4;
    pub const BYTE_STRING: i32 = 8;
    pub const INT8: i32 = 16;
    pub const INT16: i32 = 32;
    pub const INT32: i32 = 64;
    pub const INT64: i32 = 128;
    pub const FLOAT32: i32 = 256;
    pub const FLOAT64: i32 = 512;
    pub const STRING: i32 = 1024;
}

/// The MQTYPE of a value.
pub(crate) fn type_of(v: &P) -> i32 {
    match v {
        P::Null => ty::NULL,
        P::Bool(_) => ty::BOOLEAN,
        P::I8(_) => ty::INT8,
        P::I16(_) => ty::INT16,
        P::I32(_) => ty::INT32,
        P::I64(_) => ty::INT64,
        P::F32(_) => ty::FLOAT32,
        P::F64(_) => ty::FLOAT64,
        P::String(_) => ty::STRING,
        P::Bytes(_) => ty::BYTE_STRING,
    }
}

/// `v` as type `to` (see the module head), or the reason it cannot be.
pub(crate) fn convert(v: &P, to: i32) -> Result<P, u32> {
    let known = [
        ty::AS_SET,
        ty::NULL,
        ty::BOOLEAN,
        ty::BYTE_STRING,
        ty::INT8,
        ty::INT16,
        ty::INT32,
        ty::INT64,
        ty::FLOAT32,
        ty::FLOAT64,
        ty::STRING,
    ];
    if !known.contains(&to) {
        return Err(RC_PROPERTY_TYPE_ERROR);
    }
    if to == ty::AS_SET || to == type_of(v) {
        return Ok(v.clone());
    }
    if to == ty::STRING {
        return text(v).map(P::String);
    }
    if let P::String(s) = v {
        return parse(s.trim(), to);
    }
    widen(v, to).ok_or(RC_PROP_CONV_NOT_SUPPORTED)
}

/// A number as a wider type of its kind, when nothing is lost.
fn widen(v: &P, to: i32) -> Option<P> {
    let int = match *v {
        P::I8(x) => i64::from(x),
        P::I16(x) => i64::from(x),
        P::I32(x) => i64::from(x),
        P::F32(x) if to == ty::FLOAT64 => return Some(P::F64(f64::from(x))),
        _ => return None,
    };
    let from = type_of(v);
    if to <= from {
        return None;
    }
    match to {
        ty::INT16 => i16::try_from(int).ok().map(P::I16),
        ty::INT32 => i32::try_from(int).ok().map(P::I32),
        ty::INT64 => Some(P::I64(int)),
        _ => None,
    }
}

/// Any value as text.
fn text(v: &P) -> Result<String, u32> {
    Ok(match v {
        P::Null => return Err(RC_PROP_CONV_NOT_SUPPORTED),
        P::Bool(true) => "TRUE".to_owned(),
        P::Bool(false) => "FALSE".to_owned(),
        P::I8(x) => x.to_string(),
        P::I16(x) => x.to_string(),
        P::I32(x) => x.to_string(),
        P::I64(x) => x.to_string(),
        P::F32(x) => x.to_string(),
        P::F64(x) => x.to_string(),
        P::String(s) => s.clone(),
        P::Bytes(b) => b.iter().map(|x| format!("{x:02X}")).collect(),
    })
}

/// A string as type `to`, if it spells one.
fn parse(s: &str, to: i32) -> Result<P, u32> {
    let bad = RC_PROP_NUMBER_FORMAT_ERROR;
    let int = |s: &str| {
        s.strip_prefix('+')
            .unwrap_or(s)
            .parse::<i64>()
            .map_err(|_| bad)
    };
    Ok(match to {
        ty::BOOLEAN => match s.to_ascii_uppercase().as_str() {
            "TRUE" | "1" => P::Bool(true),
            "FALSE" | "0" => P::Bool(false),
            _ => return Err(bad),
        },
        ty::INT8 => P::I8(i8::try_from(int(s)?).map_err(|_| bad)?),
        ty::INT16 => P::I16(i16::try_from(int(s)?).map_err(|_| bad)?),
        ty::INT32 => P::I32(i32::try_from(int(s)?).map_err(|_| bad)?),
        ty::INT64 => P::I64(int(s)?),
        ty::FLOAT32 => P::F32(s.parse().map_err(|_| bad)?),
        ty::FLOAT64 => P::F64(s.parse().map_err(|_| bad)?),
        ty::BYTE_STRING => P::Bytes(ferry_model::message::bytes_from_hex(s).ok_or(bad)?.into()),
        _ => return Err(RC_PROP_CONV_NOT_SUPPORTED),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_widen_without_loss_and_never_narrow() {
        assert_eq!(convert(&P::I8(-5), ty::INT64), Ok(P::I64(-5)));
        assert_eq!(convert(&P::I16(300), ty::INT32), Ok(P::I32(300)));
        assert_eq!(convert(&P::F32(1.5), ty::FLOAT64), Ok(P::F64(1.5)));
        assert_eq!(
            convert(&P::I32(1), ty::INT16),
            Err(RC_PROP_CONV_NOT_SUPPORTED)
        );
        assert_eq!(
            convert(&P::I64(1), ty::FLOAT64),
            Err(RC_PROP_CONV_NOT_SUPPORTED)
        );
        assert_eq!(
            convert(&P::Bool(true), ty::INT32),
            Err(RC_PROP_CONV_NOT_SUPPORTED)
        );
    }

    #[test]
    fn anything_becomes_a_string_and_a_string_what_it_spells() {
        assert_eq!(
            convert(&P::Bool(true), ty::STRING),
            Ok(P::String("TRUE".into()))
        );
        assert_eq!(
            convert(&P::I32(-42), ty::STRING),
            Ok(P::String("-42".into()))
        );
        let bytes = P::Bytes(vec![0x0a, 0xff].into());
        assert_eq!(convert(&bytes, ty::STRING), Ok(P::String("0AFF".into())));
        let s = |t: &str| P::String(t.into());
        assert_eq!(convert(&s(" 123 "), ty::INT32), Ok(P::I32(123)));
        assert_eq!(convert(&s("+7"), ty::INT8), Ok(P::I8(7)));
        assert_eq!(
            convert(&s("300"), ty::INT8),
            Err(RC_PROP_NUMBER_FORMAT_ERROR)
        );
        assert_eq!(
            convert(&s("x1"), ty::INT64),
            Err(RC_PROP_NUMBER_FORMAT_ERROR)
        );
        assert_eq!(convert(&s("true"), ty::BOOLEAN), Ok(P::Bool(true)));
        assert_eq!(convert(&s("2.5"), ty::FLOAT64), Ok(P::F64(2.5)));
        assert_eq!(convert(&s("0aff"), ty::BYTE_STRING), Ok(bytes));
        assert_eq!(
            convert(&s("abc"), ty::BYTE_STRING),
            Err(RC_PROP_NUMBER_FORMAT_ERROR)
        );
        assert_eq!(convert(&s("a"), 3), Err(RC_PROPERTY_TYPE_ERROR));
        assert_eq!(
            convert(&P::Null, ty::STRING),
            Err(RC_PROP_CONV_NOT_SUPPORTED)
        );
    }
}
