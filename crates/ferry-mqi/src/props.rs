//! Message handles and properties: MQCRTMH, MQDLTMH, MQSETMP, MQINQMP, MQDLTMP. A handle is a
//! process-wide list of typed properties (FerryMQ's own `Properties`); MQPUT and MQPUT1 carry
//! a handle's properties with the message (MQPMO v3 OriginalMsgHandle), MQGET fills a handle
//! from the message got (MQGMO v4 MsgHandle).

#![allow(non_snake_case)] // the MQI's field names, as in structs.rs

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{LazyLock, Mutex};

use bytes::Bytes;
use ferry_model::message::{Properties, PropertyValue};

use crate::api::{Outcome, Rc, CC_FAILED};
use crate::structs::{MQCHARV, MQHMSG, MQLONG, MQPD};

/// MQCMHO / MQDMHO / MQDMPO: options only.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQOPTS {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
}

/// MQSMPO.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQSMPO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub ValueEncoding: MQLONG,
    pub ValueCCSID: MQLONG,
}

/// MQIMPO.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQIMPO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub RequestedEncoding: MQLONG,
    pub RequestedCCSID: MQLONG,
    pub ReturnedEncoding: MQLONG,
    pub ReturnedCCSID: MQLONG,
    pub Reserved1: MQLONG,
    pub ReturnedName: MQCHARV,
    pub TypeString: [u8; 8],
}

const RC_PROPERTY_NAME_ERROR: u32 = 2442;
const RC_HMSG_ERROR: u32 = 2460;
const RC_CMHO_ERROR: u32 = 2461;
const RC_DMHO_ERROR: u32 = 2462;
const RC_SMPO_ERROR: u32 = 2463;
const RC_IMPO_ERROR: u32 = 2464;
const RC_PROPERTY_NAME_TOO_BIG: u32 = 2465;
const RC_PROPERTY_VALUE_TOO_BIG: u32 = 2469;
const RC_PROPERTY_NOT_AVAILABLE: u32 = 2471;
const RC_PROPERTY_TYPE_ERROR: u32 = 2473;
const RC_DMPO_ERROR: u32 = 2481;
const RC_PD_ERROR: u32 = 2482;
const RC_BUFFER_ERROR: u32 = 2004;
const RC_BUFFER_LENGTH_ERROR: u32 = 2005;

const TYPE_NULL: MQLONG = 2;
const TYPE_BOOLEAN: MQLONG = 4;
const TYPE_BYTE_STRING: MQLONG = 8;
const TYPE_INT8: MQLONG = 16;
const TYPE_INT16: MQLONG = 32;
const TYPE_INT32: MQLONG = 64;
const TYPE_INT64: MQLONG = 128;
const TYPE_FLOAT32: MQLONG = 256;
const TYPE_FLOAT64: MQLONG = 512;
const TYPE_STRING: MQLONG = 1024;
const VL_NULL_TERMINATED: MQLONG = -1;
const IMPO_CONVERT_TYPE: MQLONG = 0x2;
const IMPO_INQ_NEXT: MQLONG = 0x8;
const IMPO_INQ_PROP_UNDER_CURSOR: MQLONG = 0x10;
const HCONN_UNASSOCIATED: MQLONG = -3;
const HMSG_UNUSABLE: MQHMSG = -1;

/// A message handle: its properties and MQINQMP's cursor.
#[derive(Debug, Default)]
pub(crate) struct Handle {
    pub(crate) props: Properties,
    /// Index of the property the last MQINQMP returned.
    cursor: Option<usize>,
}

static HANDLES: LazyLock<Mutex<HashMap<MQHMSG, Handle>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
static NEXT_HMSG: AtomicI64 = AtomicI64::new(1);

pub(crate) fn failed(r: u32) -> Rc {
    Rc(CC_FAILED, r)
}

pub(crate) fn with_handle<T>(
    h: MQHMSG,
    f: impl FnOnce(&mut Handle) -> Result<T, Rc>,
) -> Result<T, Rc> {
    let mut map = HANDLES.lock().unwrap_or_else(|p| p.into_inner());
    let handle = map.get_mut(&h).ok_or(failed(RC_HMSG_ERROR))?;
    f(handle)
}

/// The properties of handle `h` (MQHM_NONE: none).
pub(crate) fn properties_of(h: MQHMSG) -> Result<Option<Properties>, Rc> {
    if h == 0 {
        return Ok(None);
    }
    with_handle(h, |hd| Ok(Some(hd.props.clone())))
}

/// Replaces the properties of handle `h` with a got message's.
pub(crate) fn fill(h: MQHMSG, props: &Properties) -> Result<(), Rc> {
    if h == 0 {
        return Ok(());
    }
    with_handle(h, |hd| {
        hd.props = props.clone();
        hd.cursor = None;
        Ok(())
    })
}

/// Checks an options structure (MQCMHO, MQDMHO, MQDMPO): present, with StrucId `id` and a
/// version; `rc` otherwise.
///
/// # Safety
/// `p` must be null or point to a readable structure of at least the 12 bytes of [`MQOPTS`].
pub(crate) unsafe fn check_opts(p: *const MQOPTS, id: &[u8; 4], rc: u32) -> Result<(), Rc> {
    if p.is_null() {
        return Err(failed(rc));
    }
    // SAFETY: the caller passes `p` as a readable options structure of at least MQOPTS's 12
    // bytes (this fn's contract), checked non-null just above.
    let o = unsafe { &*p };
    if &o.StrucId != id || o.Version < 1 {
        return Err(failed(rc));
    }
    Ok(())
}

/// The string an MQCHARV holds (through VSPtr).
///
/// # Safety
/// `v` must be null or point to a readable MQCHARV whose VSPtr is null, or holds VSLength
/// readable bytes, or (VSLength MQVS_NULL_TERMINATED) points to a null-terminated string.
pub(crate) unsafe fn charv(v: *const MQCHARV) -> Result<String, Rc> {
    if v.is_null() {
        return Err(failed(RC_PROPERTY_NAME_ERROR));
    }
    // SAFETY: the caller passes `v` as a readable MQCHARV (MQI contract), checked non-null just
    // above.
    let v = unsafe { &*v };
    if v.VSPtr.is_null() {
        return Err(failed(RC_PROPERTY_NAME_ERROR));
    }
    let bytes = if v.VSLength == VL_NULL_TERMINATED {
        // SAFETY: with VSLength MQVS_NULL_TERMINATED the caller passes VSPtr as a
        // null-terminated string (MQCHARV contract); checked non-null above.
        unsafe { std::ffi::CStr::from_ptr(v.VSPtr as *const std::ffi::c_char) }.to_bytes()
    } else if v.VSLength >= 0 {
        // SAFETY: the caller passes VSPtr holding VSLength bytes (MQCHARV contract); VSLength
        // checked non-negative just above, VSPtr non-null above.
        unsafe { std::slice::from_raw_parts(v.VSPtr as *const u8, v.VSLength as usize) }
    } else {
        return Err(failed(RC_PROPERTY_NAME_ERROR));
    };
    String::from_utf8(bytes.to_vec()).map_err(|_| failed(RC_PROPERTY_NAME_ERROR))
}

/// MQCRTMH.
///
/// # Safety
/// `cmho` must be null or point to a readable MQCMHO; `hmsg` null or valid for an MQHMSG
/// write.
pub unsafe fn crtmh(hconn: MQLONG, cmho: *const MQOPTS, hmsg: *mut MQHMSG) -> Outcome {
    if hmsg.is_null() {
        return Err(failed(RC_HMSG_ERROR));
    }
    // SAFETY: the caller passes `hmsg` valid for an MQHMSG write (MQI contract), checked
    // non-null just above.
    unsafe { *hmsg = HMSG_UNUSABLE };
    // SAFETY: the caller passes `cmho` as null or a readable MQCMHO (MQI contract), as
    // `check_opts` requires; it checks for null.
    unsafe { check_opts(cmho, b"CMHO", RC_CMHO_ERROR) }?;
    if hconn != HCONN_UNASSOCIATED {
        crate::api::check_hconn(hconn)?;
    }
    let id = NEXT_HMSG.fetch_add(1, Ordering::Relaxed);
    HANDLES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(id, Handle::default());
    // SAFETY: `hmsg` is the caller's MQHMSG, valid for a write (MQI contract), checked
    // non-null at the top.
    unsafe { *hmsg = id };
    Ok(None)
}

/// MQDLTMH.
///
/// # Safety
/// `hmsg` must be null or valid for an MQHMSG read and write; `dmho` null or point to a
/// readable MQDMHO.
pub unsafe fn dltmh(hmsg: *mut MQHMSG, dmho: *const MQOPTS) -> Outcome {
    if hmsg.is_null() {
        return Err(failed(RC_HMSG_ERROR));
    }
    // SAFETY: the caller passes `dmho` as null or a readable MQDMHO (MQI contract), as
    // `check_opts` requires; it checks for null.
    unsafe { check_opts(dmho, b"DMHO", RC_DMHO_ERROR) }?;
    // SAFETY: the caller passes `hmsg` valid for an MQHMSG read (MQI contract), checked
    // non-null at the top.
    let h = unsafe { *hmsg };
    let removed = HANDLES.lock().unwrap_or_else(|p| p.into_inner()).remove(&h);
    if removed.is_none() {
        return Err(failed(RC_HMSG_ERROR));
    }
    // SAFETY: `hmsg` is the caller's MQHMSG, valid for a write (MQI contract), checked
    // non-null at the top.
    unsafe { *hmsg = HMSG_UNUSABLE };
    Ok(None)
}

/// MQSETMP.
///
/// # Safety
/// `smpo` must be null or point to a readable MQSMPO; `pd` null or a readable MQPD; `name` as
/// [`charv`] requires; `value` null, or holding `len` readable bytes, or (an MQTYPE_STRING of
/// length MQVL_NULL_TERMINATED) a null-terminated string.
#[allow(clippy::too_many_arguments)]
pub unsafe fn setmp(
    hmsg: MQHMSG,
    smpo: *const MQSMPO,
    name: *const MQCHARV,
    pd: *const MQPD,
    kind: MQLONG,
    len: MQLONG,
    value: *const u8,
) -> Outcome {
    if smpo.is_null() {
        return Err(failed(RC_SMPO_ERROR));
    }
    // SAFETY: the caller passes `smpo` as a readable MQSMPO (MQI contract), checked non-null
    // just above.
    if unsafe { &(*smpo).StrucId } != b"SMPO" {
        return Err(failed(RC_SMPO_ERROR));
    }
    // SAFETY: the caller passes `pd` as null or a readable MQPD (MQI contract); it is read
    // only when non-null, checked first.
    if !pd.is_null() && unsafe { &(*pd).StrucId } != b"PD  " {
        return Err(failed(RC_PD_ERROR));
    }
    // SAFETY: the caller passes `name` as `charv` requires (this fn's contract); it checks the
    // MQCHARV and its VSPtr for null.
    let name = unsafe { charv(name) }?;
    if name.is_empty() || name.contains('%') {
        return Err(failed(RC_PROPERTY_NAME_ERROR));
    }
    // SAFETY: the caller passes `value` as null, `len` bytes or a null-terminated string as
    // `property_value` requires (this fn's contract); it checks for null.
    let v = unsafe { property_value(kind, len, value) }?;
    with_handle(hmsg, |h| {
        h.props
            .set(&name, v)
            .map_err(|_| failed(RC_PROPERTY_NAME_ERROR))?;
        Ok(None)
    })
}

/// An MQSETMP value of type `kind` from the caller's `len` bytes at `value`.
///
/// # Safety
/// `value` must be null, or hold `len` readable bytes, or (an MQTYPE_STRING of length
/// MQVL_NULL_TERMINATED) point to a null-terminated string.
unsafe fn property_value(kind: MQLONG, len: MQLONG, value: *const u8) -> Result<PropertyValue, Rc> {
    let bytes = |n: usize| -> Result<&[u8], Rc> {
        if n == 0 {
            return Ok(&[]);
        }
        if value.is_null() {
            return Err(failed(RC_BUFFER_ERROR));
        }
        // SAFETY: every `n` asked for is `len` itself (non-negative: checked by each caller
        // below), and the caller passes `value` holding `len` bytes (this fn's contract);
        // `n` positive and `value` non-null, checked just above.
        Ok(unsafe { std::slice::from_raw_parts(value, n) })
    };
    let fixed = |n: usize| -> Result<&[u8], Rc> {
        if len != n as MQLONG {
            return Err(failed(RC_BUFFER_LENGTH_ERROR));
        }
        bytes(n)
    };
    Ok(match kind {
        TYPE_NULL => PropertyValue::Null,
        TYPE_BOOLEAN => {
            PropertyValue::Bool(i32::from_ne_bytes(fixed(4)?.try_into().unwrap_or_default()) != 0)
        }
        TYPE_INT8 => PropertyValue::I8(fixed(1)?[0] as i8),
        TYPE_INT16 => {
            PropertyValue::I16(i16::from_ne_bytes(fixed(2)?.try_into().unwrap_or_default()))
        }
        TYPE_INT32 => {
            PropertyValue::I32(i32::from_ne_bytes(fixed(4)?.try_into().unwrap_or_default()))
        }
        TYPE_INT64 => {
            PropertyValue::I64(i64::from_ne_bytes(fixed(8)?.try_into().unwrap_or_default()))
        }
        TYPE_FLOAT32 => {
            PropertyValue::F32(f32::from_ne_bytes(fixed(4)?.try_into().unwrap_or_default()))
        }
        TYPE_FLOAT64 => {
            PropertyValue::F64(f64::from_ne_bytes(fixed(8)?.try_into().unwrap_or_default()))
        }
        TYPE_BYTE_STRING => {
            if len < 0 {
                return Err(failed(RC_BUFFER_LENGTH_ERROR));
            }
            PropertyValue::Bytes(Bytes::copy_from_slice(bytes(len as usize)?))
        }
        TYPE_STRING => {
            let b = if len == VL_NULL_TERMINATED {
                if value.is_null() {
                    return Err(failed(RC_BUFFER_ERROR));
                }
                // SAFETY: with MQVL_NULL_TERMINATED the caller passes `value` as a
                // null-terminated string (this fn's contract); checked non-null just above.
                unsafe { std::ffi::CStr::from_ptr(value as *const std::ffi::c_char) }.to_bytes()
            } else if len >= 0 {
                bytes(len as usize)?
            } else {
                return Err(failed(RC_BUFFER_LENGTH_ERROR));
            };
            PropertyValue::String(String::from_utf8_lossy(b).into_owned())
        }
        _ => return Err(failed(RC_PROPERTY_TYPE_ERROR)),
    })
}

/// A property's MQTYPE and its value as native bytes.
fn encode(v: &PropertyValue) -> (MQLONG, Vec<u8>) {
    match v {
        PropertyValue::Null => (TYPE_NULL, Vec::new()),
        PropertyValue::Bool(b) => (TYPE_BOOLEAN, i32::from(*b).to_ne_bytes().to_vec()),
        PropertyValue::I8(x) => (TYPE_INT8, x.to_ne_bytes().to_vec()),
        PropertyValue::I16(x) => (TYPE_INT16, x.to_ne_bytes().to_vec()),
        PropertyValue::I32(x) => (TYPE_INT32, x.to_ne_bytes().to_vec()),
        PropertyValue::I64(x) => (TYPE_INT64, x.to_ne_bytes().to_vec()),
        PropertyValue::F32(x) => (TYPE_FLOAT32, x.to_ne_bytes().to_vec()),
        PropertyValue::F64(x) => (TYPE_FLOAT64, x.to_ne_bytes().to_vec()),
        PropertyValue::String(s) => (TYPE_STRING, s.as_bytes().to_vec()),
        PropertyValue::Bytes(b) => (TYPE_BYTE_STRING, b.to_vec()),
    }
}

/// Whether property `name` matches `pattern` (a name, or a prefix ending in `%`).
pub(crate) fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('%') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// The property MQINQMP asks for on handle `hmsg` — the first from the start, after the
/// cursor, or under it, as `options` says, whose name matches `pattern` — with the handle's
/// cursor moved to it: its name and its value.
fn find_property(
    hmsg: MQHMSG,
    options: MQLONG,
    pattern: &str,
) -> Result<(String, PropertyValue), Rc> {
    with_handle(hmsg, |h| {
        let start = if options & IMPO_INQ_PROP_UNDER_CURSOR != 0 {
            h.cursor.ok_or(failed(RC_PROPERTY_NOT_AVAILABLE))?
        } else if options & IMPO_INQ_NEXT != 0 {
            h.cursor.map_or(0, |c| c + 1)
        } else {
            0
        };
        let found = h
            .props
            .iter()
            .enumerate()
            .skip(start)
            .find(|(_, (n, _))| matches(pattern, n));
        let Some((i, (n, v))) = found else {
            return Err(failed(RC_PROPERTY_NOT_AVAILABLE));
        };
        h.cursor = Some(i);
        Ok((n.to_owned(), v.clone()))
    })
}

/// Puts a property's name in MQIMPO's ReturnedName: its length in VSLength, and the name at
/// VSPtr if the caller gave a buffer (MQRC_PROPERTY_NAME_TOO_BIG if it is too small).
///
/// # Safety
/// `rn.VSPtr` must be null or valid for `rn.VSBufSize` (non-negative) writable bytes.
unsafe fn return_name(rn: &mut MQCHARV, name: &str) -> Result<(), Rc> {
    rn.VSLength = name.len() as MQLONG;
    if !rn.VSPtr.is_null() {
        if (rn.VSBufSize as usize) < name.len() {
            return Err(failed(RC_PROPERTY_NAME_TOO_BIG));
        }
        // SAFETY: the caller passes VSPtr holding VSBufSize writable bytes (this fn's contract,
        // VSBufSize non-negative); the name's length is at most VSBufSize and VSPtr non-null,
        // both checked just above; the name is our own memory, disjoint from the caller's.
        unsafe { std::ptr::copy_nonoverlapping(name.as_ptr(), rn.VSPtr as *mut u8, name.len()) };
    }
    Ok(())
}

/// MQINQMP.
///
/// # Safety
/// `impo` must be null or point to a readable and writable MQIMPO, whose ReturnedName.VSPtr
/// is null or holds ReturnedName.VSBufSize (non-negative) writable bytes; `name` as [`charv`]
/// requires; `pd` null or a readable MQPD; `kind` null or valid for an MQLONG read and write;
/// `value` null or valid for `len` writable bytes; `data_len` null or valid for an MQLONG
/// write.
#[allow(clippy::too_many_arguments)]
pub unsafe fn inqmp(
    hmsg: MQHMSG,
    impo: *mut MQIMPO,
    name: *const MQCHARV,
    pd: *mut MQPD,
    kind: *mut MQLONG,
    len: MQLONG,
    value: *mut u8,
    data_len: *mut MQLONG,
) -> Outcome {
    if impo.is_null() {
        return Err(failed(RC_IMPO_ERROR));
    }
    // SAFETY: the caller passes `impo` as a readable MQIMPO (MQI contract), checked non-null
    // just above.
    let im = unsafe { &*impo };
    if &im.StrucId != b"IMPO" {
        return Err(failed(RC_IMPO_ERROR));
    }
    // SAFETY: the caller passes `pd` as null or a readable MQPD (MQI contract); it is read
    // only when non-null, checked first.
    if !pd.is_null() && unsafe { &(*pd).StrucId } != b"PD  " {
        return Err(failed(RC_PD_ERROR));
    }
    if kind.is_null() || len < 0 || (len > 0 && value.is_null()) {
        return Err(failed(RC_BUFFER_ERROR));
    }
    // SAFETY: the caller passes `name` as `charv` requires (this fn's contract); it checks the
    // MQCHARV and its VSPtr for null.
    let pattern = unsafe { charv(name) }?;
    let options = im.Options;
    // SAFETY: the caller passes `kind` valid for an MQLONG read (MQI contract), checked
    // non-null above.
    let requested = unsafe { *kind };
    let (prop_name, found) = find_property(hmsg, options, &pattern)?;
    // Type is read only with MQIMPO_CONVERT_TYPE; otherwise the value comes as it was set.
    let returned = if options & IMPO_CONVERT_TYPE != 0 {
        crate::propconv::convert(&found, requested).map_err(failed)?
    } else {
        found
    };
    let (prop_kind, value_bytes) = encode(&returned);
    // SAFETY: the caller passes `kind` valid for an MQLONG write (MQI contract), checked
    // non-null above.
    unsafe { *kind = prop_kind };
    if !data_len.is_null() {
        // SAFETY: the caller passes `data_len` as null or valid for an MQLONG write (MQI
        // contract), checked non-null just above.
        unsafe { *data_len = value_bytes.len() as MQLONG };
    }
    // SAFETY: the caller passes `impo` as a writable MQIMPO (MQI contract), checked non-null at
    // the top; `im` is not used after this.
    let rn = unsafe { &mut (*impo).ReturnedName };
    // SAFETY: the caller passes ReturnedName's VSPtr null or holding VSBufSize (non-negative)
    // writable bytes (this fn's contract), as `return_name` requires; it checks for null.
    unsafe { return_name(rn, &prop_name) }?;
    if value_bytes.len() > len as usize {
        return Err(failed(RC_PROPERTY_VALUE_TOO_BIG));
    }
    if !value_bytes.is_empty() {
        // SAFETY: the caller passes `value` holding `len` writable bytes (MQI contract); the
        // value's length is at most `len` (checked just above) and positive, so `len` is too
        // and `value` was checked non-null above; our own bytes, disjoint from the caller's.
        unsafe { std::ptr::copy_nonoverlapping(value_bytes.as_ptr(), value, value_bytes.len()) };
    }
    Ok(None)
}

/// MQDLTMP.
///
/// # Safety
/// `dmpo` must be null or point to a readable MQDMPO; `name` as [`charv`] requires.
pub unsafe fn dltmp(hmsg: MQHMSG, dmpo: *const MQOPTS, name: *const MQCHARV) -> Outcome {
    // SAFETY: the caller passes `dmpo` as null or a readable MQDMPO (MQI contract), as
    // `check_opts` requires; it checks for null.
    unsafe { check_opts(dmpo, b"DMPO", RC_DMPO_ERROR) }?;
    // SAFETY: the caller passes `name` as `charv` requires (this fn's contract); it checks the
    // MQCHARV and its VSPtr for null.
    let name = unsafe { charv(name) }?;
    with_handle(hmsg, |h| match h.props.remove(&name) {
        Some(_) => Ok(None),
        None => Err(failed(RC_PROPERTY_NOT_AVAILABLE)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    #[test]
    fn property_structures_have_the_documented_lengths() {
        assert_eq!(size_of::<MQOPTS>(), 12);
        assert_eq!(size_of::<MQSMPO>(), 20);
        assert_eq!(size_of::<MQIMPO>(), 64);
        assert_eq!(size_of::<MQPD>(), 24);
    }

    #[test]
    fn wildcards_match_prefixes() {
        assert!(matches("%", "a.b"));
        assert!(matches("app.%", "app.colour"));
        assert!(!matches("app.%", "other"));
        assert!(matches("exact", "exact"));
        assert!(!matches("exact", "exactly"));
    }
}
