//! MQMHBUF and MQBUFMH: a message handle's properties into an MQRFH2 in a buffer, and a
//! buffer's MQRFH2 into a message handle (`rfh2` has the header's layout and the mapping).

use ferry_model::message::PropertyValue;

use crate::api::Outcome;
use crate::props::{charv, check_opts, failed, matches, with_handle, MQOPTS};
use crate::rfh2::{self, Next};
use crate::structs::{MQCHARV, MQHMSG, MQLONG, MQMD};

const RC_MHBO_ERROR: u32 = 2501;
const RC_BMHO_ERROR: u32 = 2489;
const RC_MD_ERROR: u32 = 2026;
const RC_DATA_LENGTH_ERROR: u32 = 2010;
const RC_BUFFER_ERROR: u32 = 2004;
const RC_BUFFER_LENGTH_ERROR: u32 = 2005;
const RC_TRUNCATED_MSG_FAILED: u32 = 2080;
const RC_RFH_ERROR: u32 = 2334;
const RC_PROPERTY_NAME_ERROR: u32 = 2442;
const MHBO_PROPERTIES_IN_MQRFH2: MQLONG = 1;
const MHBO_DELETE_PROPERTIES: MQLONG = 2;
const BMHO_DELETE_PROPERTIES: MQLONG = 1;
const ENC_NATIVE: MQLONG = 0x222;

/// The options of an MQMHBO or MQBMHO already checked by `check_opts`.
///
/// # Safety
/// `p` must point to a readable structure of at least MQOPTS's 12 bytes.
unsafe fn options(p: *const MQOPTS) -> MQLONG {
    // SAFETY: as this fn's contract says; the callers checked `p` with `check_opts`.
    unsafe { (*p).Options }
}

/// MQMHBUF: the properties of `hmsg` that `name` matches (`%` all), as an MQRFH2 at the start
/// of `buf` describing what `md` described; `md` then describes the MQRFH2.
///
/// # Safety
/// `mhbo` null or a readable MQMHBO; `name` as `charv` requires; `md` null or a readable and
/// writable MQMD; `buf` null or valid for `len` writable bytes; `data_len` null or valid for an
/// MQLONG write.
#[allow(clippy::too_many_arguments)]
pub unsafe fn mhbuf(
    hmsg: MQHMSG,
    mhbo: *const MQOPTS,
    name: *const MQCHARV,
    md: *mut MQMD,
    len: MQLONG,
    buf: *mut u8,
    data_len: *mut MQLONG,
) -> Outcome {
    // SAFETY: `mhbo` null or a readable MQMHBO (this fn's contract); `check_opts` checks null.
    unsafe { check_opts(mhbo, b"MHBO", RC_MHBO_ERROR) }?;
    // SAFETY: checked by `check_opts` just above.
    let o = unsafe { options(mhbo) };
    if o & !(MHBO_PROPERTIES_IN_MQRFH2 | MHBO_DELETE_PROPERTIES) != 0
        || o & MHBO_PROPERTIES_IN_MQRFH2 == 0
    {
        return Err(failed(RC_MHBO_ERROR));
    }
    check_buffer(md, len, buf, data_len)?;
    // SAFETY: `name` as `charv` requires (this fn's contract); it checks for null.
    let pattern = unsafe { charv(name) }?;
    let props: Vec<(String, PropertyValue)> = with_handle(hmsg, |h| {
        Ok(h.props
            .iter()
            .filter(|(n, _)| matches(&pattern, n))
            .map(|(n, v)| (n.to_owned(), v.clone()))
            .collect())
    })?;
    // SAFETY: `md` checked non-null by `check_buffer`; readable and writable (contract).
    let d = unsafe { &mut *md };
    let next = Next {
        encoding: d.Encoding,
        ccsid: d.CodedCharSetId,
        format: d.Format,
    };
    let bytes = rfh2::encode(&props, next);
    // SAFETY: `data_len` checked non-null by `check_buffer`; writable (contract).
    unsafe { *data_len = bytes.len() as MQLONG };
    if bytes.len() > len as usize {
        return Err(failed(RC_TRUNCATED_MSG_FAILED));
    }
    // SAFETY: `bytes.len() <= len`, and `buf` holds `len` writable bytes (contract; non-null
    // when `len` is positive, checked by `check_buffer`); our vector is disjoint from it.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), buf, bytes.len()) };
    (d.Format, d.Encoding, d.CodedCharSetId) = (rfh2::FORMAT, ENC_NATIVE, 1208);
    if o & MHBO_DELETE_PROPERTIES != 0 {
        with_handle(hmsg, |h| {
            props.iter().for_each(|(n, _)| {
                h.props.remove(n);
            });
            Ok(())
        })?;
    }
    Ok(None)
}

/// MQBUFMH: the MQRFH2 at the start of `buf` (when `md` says MQHRF2) into `hmsg`'s properties;
/// with MQBMHO_DELETE_PROPERTIES the header leaves the buffer (`data_len` shrinks and `md`
/// describes what followed it).
///
/// # Safety
/// As [`mhbuf`], with `bmho` null or a readable MQBMHO; `buf` holds `len` readable and writable
/// bytes.
pub unsafe fn bufmh(
    hmsg: MQHMSG,
    bmho: *const MQOPTS,
    md: *mut MQMD,
    len: MQLONG,
    buf: *mut u8,
    data_len: *mut MQLONG,
) -> Outcome {
    // SAFETY: `bmho` null or a readable MQBMHO (this fn's contract); `check_opts` checks null.
    unsafe { check_opts(bmho, b"BMHO", RC_BMHO_ERROR) }?;
    // SAFETY: checked by `check_opts` just above.
    let o = unsafe { options(bmho) };
    if o & !BMHO_DELETE_PROPERTIES != 0 {
        return Err(failed(RC_BMHO_ERROR));
    }
    check_buffer(md, len, buf, data_len)?;
    // SAFETY: `md` checked non-null by `check_buffer`; readable and writable (contract).
    let d = unsafe { &mut *md };
    // SAFETY: `data_len` checked non-null; writable (contract).
    unsafe { *data_len = len };
    if d.Format != rfh2::FORMAT || len == 0 {
        return Ok(None);
    }
    // SAFETY: `buf` holds `len` readable bytes (contract), non-null as `len` is positive.
    let bytes = unsafe { std::slice::from_raw_parts_mut(buf, len as usize) };
    let (props, header, next) = rfh2::decode(bytes).ok_or(failed(RC_RFH_ERROR))?;
    with_handle(hmsg, |h| {
        props.into_iter().try_for_each(|(n, v)| {
            h.props
                .set(&n, v)
                .map_err(|_| failed(RC_PROPERTY_NAME_ERROR))
        })
    })?;
    if o & BMHO_DELETE_PROPERTIES != 0 {
        bytes.copy_within(header.., 0);
        // SAFETY: as above.
        unsafe { *data_len = (bytes.len() - header) as MQLONG };
        (d.Format, d.Encoding, d.CodedCharSetId) = (next.format, next.encoding, next.ccsid);
    }
    Ok(None)
}

/// The checks both calls make of the descriptor, buffer and length.
fn check_buffer(md: *mut MQMD, len: MQLONG, buf: *mut u8, data_len: *mut MQLONG) -> Outcome {
    if md.is_null() {
        return Err(failed(RC_MD_ERROR));
    }
    if data_len.is_null() {
        return Err(failed(RC_DATA_LENGTH_ERROR));
    }
    if len < 0 {
        return Err(failed(RC_BUFFER_LENGTH_ERROR));
    }
    if buf.is_null() && len > 0 {
        return Err(failed(RC_BUFFER_ERROR));
    }
    Ok(None)
}
