//! Programmable command format (PCF) messages — commands and their responses, event and
//! statistics messages: an MQCFH header, then parameters (MQCFIN, MQCFST, MQCFIL, MQCFSL,
//! MQCFBS, MQCFIN64, MQCFIL64, MQCFIF, MQCFSF, MQCFGR). Encoded in this machine's byte order
//! (MQ's MQENC_NATIVE), strings padded with blanks to a multiple of four bytes; decoded in
//! either byte order, as the message's MQMD Encoding says.
//!
//! Layout of each structure (all fields 4-byte integers unless said): MQCFH Type, StrucLength
//! (36), Version, Command, MsgSeqNumber, Control, CompCode, Reason, ParameterCount. Every
//! parameter begins Type, StrucLength, Parameter; StrucLength is the whole structure with its
//! padding, a multiple of 4. A group (MQCFGR) is followed by its ParameterCount members, which
//! do not count in the MQCFH's ParameterCount.
//!
//! Decoding is bounded: a structure must lie inside the message, lengths must agree, groups
//! nest at most [`MAX_DEPTH`] deep; a failure names MQ's MQRCCF_* reason for it. Written from
//! MQ's public reference. Plain data, no I/O.

/// MQCFT_EVENT: the header of an event message.
pub const CFT_EVENT: i32 = 7;
/// MQCMD_Q_MGR_EVENT: authority and other queue manager events.
pub const CMD_Q_MGR_EVENT: i32 = 44;
/// MQCMD_PERFM_EVENT: a performance event (queue depth high, low, full).
pub const CMD_PERFM_EVENT: i32 = 45;
/// MQCMD_COMMAND_EVENT: a command event.
pub const CMD_COMMAND_EVENT: i32 = 99;
/// MQRC_COMMAND_MQSC: a command event for an MQSC command.
pub const RC_COMMAND_MQSC: i32 = 2412;
/// MQRC_COMMAND_PCF: a command event for a PCF command.
pub const RC_COMMAND_PCF: i32 = 2413;
/// MQGACF_COMMAND_CONTEXT: a command event's context group.
pub const GACF_COMMAND_CONTEXT: i32 = 8001;
/// MQGACF_COMMAND_DATA: a command event's data group.
pub const GACF_COMMAND_DATA: i32 = 8002;
/// MQCACF_EVENT_USER_ID.
pub const CACF_EVENT_USER_ID: i32 = 3045;
/// MQCACF_EVENT_Q_MGR.
pub const CACF_EVENT_Q_MGR: i32 = 3047;
/// MQCACF_EVENT_APPL_NAME.
pub const CACF_EVENT_APPL_NAME: i32 = 3050;
/// MQIACF_EVENT_APPL_TYPE.
pub const IACF_EVENT_APPL_TYPE: i32 = 1010;
/// MQIACF_EVENT_ORIGIN.
pub const IACF_EVENT_ORIGIN: i32 = 1011;
/// MQIACF_COMMAND: the MQCMD code of the command.
pub const IACF_COMMAND: i32 = 1021;
/// MQCACF_COMMAND_MQSC: a command's MQSC text.
pub const CACF_COMMAND_MQSC: i32 = 3075;
/// MQAT_QMGR: the queue manager's own application type.
pub const AT_QMGR: i32 = 7;
/// MQEVO_CONSOLE: a command entered at the console (MQSC).
pub const EVO_CONSOLE: i32 = 1;
/// MQEVO_MSG: a command message on the command queue (PCF).
pub const EVO_MSG: i32 = 3;
/// MQRC_Q_DEPTH_HIGH.
pub const RC_Q_DEPTH_HIGH: i32 = 2224;
/// MQRC_Q_DEPTH_LOW.
pub const RC_Q_DEPTH_LOW: i32 = 2225;
/// MQRC_Q_SERVICE_INTERVAL_HIGH.
pub const RC_Q_SERVICE_INTERVAL_HIGH: i32 = 2226;
/// MQRC_Q_SERVICE_INTERVAL_OK.
pub const RC_Q_SERVICE_INTERVAL_OK: i32 = 2227;
/// MQRC_Q_FULL.
pub const RC_Q_FULL: i32 = 2053;
/// MQCA_BASE_Q_NAME: the queue a performance event is about.
pub const CA_BASE_Q_NAME: i32 = 2002;
/// MQIA_TIME_SINCE_RESET: seconds since the queue's statistics were reset.
pub const IA_TIME_SINCE_RESET: i32 = 35;
/// MQIA_HIGH_Q_DEPTH: the deepest the queue was since then.
pub const IA_HIGH_Q_DEPTH: i32 = 36;
/// MQIA_MSG_ENQ_COUNT: messages put since then.
pub const IA_MSG_ENQ_COUNT: i32 = 37;
/// MQIA_MSG_DEQ_COUNT: messages got since then.
pub const IA_MSG_DEQ_COUNT: i32 = 38;
/// MQCMD_CHANNEL_EVENT: channel events.
pub const CMD_CHANNEL_EVENT: i32 = 46;
/// MQCA_Q_MGR_NAME.
pub const CA_Q_MGR_NAME: i32 = 2015;
/// MQCA_Q_NAME.
pub const CA_Q_NAME: i32 = 2016;
/// MQCACF_APPL_NAME.
pub const CACF_APPL_NAME: i32 = 3024;
/// MQCACF_USER_IDENTIFIER.
pub const CACF_USER_IDENTIFIER: i32 = 3025;
/// MQCACH_CHANNEL_NAME.
pub const CACH_CHANNEL_NAME: i32 = 3501;
/// MQCACH_CONNECTION_NAME.
pub const CACH_CONNECTION_NAME: i32 = 3506;
/// MQIACF_REASON_QUALIFIER.
pub const IACF_REASON_QUALIFIER: i32 = 1020;
/// MQIACF_OPEN_OPTIONS.
pub const IACF_OPEN_OPTIONS: i32 = 1022;
/// MQRQ_CONN_NOT_AUTHORIZED: a connect was refused.
pub const RQ_CONN_NOT_AUTHORIZED: i32 = 1;
/// MQRQ_OPEN_NOT_AUTHORIZED: an open (or MQPUT1) was refused.
pub const RQ_OPEN_NOT_AUTHORIZED: i32 = 2;
/// MQRQ_CMD_NOT_AUTHORIZED: a command was refused.
pub const RQ_CMD_NOT_AUTHORIZED: i32 = 4;
/// MQRC_CHANNEL_BLOCKED: a channel (or client connection) was refused.
pub const RC_CHANNEL_BLOCKED: i32 = 2577;
/// MQRQ_CHANNEL_BLOCKED_NOACCESS: refused, not for its address or user alone.
pub const RQ_CHANNEL_BLOCKED_NOACCESS: i32 = 12;

/// One parameter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Param {
    /// MQCFIN: (parameter, value).
    Int(i32, i32),
    /// MQCFST: (parameter, text; CCSID 1208). Trailing blanks are cut when decoded.
    Str(i32, String),
    /// MQCFIL.
    IntList(i32, Vec<i32>),
    /// MQCFSL: every string padded to the longest (rounded up to a multiple of 4).
    StrList(i32, Vec<String>),
    /// MQCFBS.
    Bytes(i32, Vec<u8>),
    /// MQCFIN64.
    Int64(i32, i64),
    /// MQCFIL64.
    Int64List(i32, Vec<i64>),
    /// MQCFIF: (parameter, operator, value).
    IntFilter(i32, i32, i32),
    /// MQCFSF: (parameter, operator, value).
    StrFilter(i32, i32, String),
    /// MQCFGR: a group of parameters.
    Group(i32, Vec<Param>),
}

impl Param {
    /// The parameter's identifier.
    pub fn id(&self) -> i32 {
        match self {
            Param::Int(id, _)
            | Param::Str(id, _)
            | Param::IntList(id, _)
            | Param::StrList(id, _)
            | Param::Bytes(id, _)
            | Param::Int64(id, _)
            | Param::Int64List(id, _)
            | Param::IntFilter(id, _, _)
            | Param::StrFilter(id, _, _)
            | Param::Group(id, _) => *id,
        }
    }
}

/// MQCFT_* structure types.
pub mod cft {
    /// MQCFT_COMMAND.
    pub const COMMAND: i32 = 1;
    /// MQCFT_RESPONSE.
    pub const RESPONSE: i32 = 2;
    /// MQCFT_INTEGER.
    pub const INTEGER: i32 = 3;
    /// MQCFT_STRING.
    pub const STRING: i32 = 4;
    /// MQCFT_INTEGER_LIST.
    pub const INTEGER_LIST: i32 = 5;
    /// MQCFT_STRING_LIST.
    pub const STRING_LIST: i32 = 6;
    /// MQCFT_BYTE_STRING.
    pub const BYTE_STRING: i32 = 9;
    /// MQCFT_INTEGER_FILTER.
    pub const INTEGER_FILTER: i32 = 13;
    /// MQCFT_STRING_FILTER.
    pub const STRING_FILTER: i32 = 14;
    /// MQCFT_COMMAND_XR.
    pub const COMMAND_XR: i32 = 16;
    /// MQCFT_GROUP.
    pub const GROUP: i32 = 20;
    /// MQCFT_INTEGER64.
    pub const INTEGER64: i32 = 23;
    /// MQCFT_INTEGER64_LIST.
    pub const INTEGER64_LIST: i32 = 25;
}

/// An MQCFH.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Type (MQCFT_*).
    pub kind: i32,
    /// Version (1–3).
    pub version: i32,
    /// Command (MQCMD_*).
    pub command: i32,
    /// MsgSeqNumber, from 1.
    pub seq: i32,
    /// Control: MQCFC_LAST (1) or MQCFC_NOT_LAST (0).
    pub control: i32,
    /// CompCode.
    pub comp_code: i32,
    /// Reason.
    pub reason: i32,
}

/// MQCFH's length.
pub const HEADER_LEN: usize = 36;

/// How deep groups may nest when decoded.
pub const MAX_DEPTH: usize = 4;

/// Why a PCF message could not be decoded: MQ's MQRCCF_* reason, the parameter concerned (0
/// when none) and a sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PcfError {
    /// The MQRCCF_* reason.
    pub reason: i32,
    /// The parameter it concerns, or 0.
    pub parameter: i32,
    /// What is wrong.
    pub text: String,
}

fn bad(reason: i32, parameter: i32, text: impl Into<String>) -> PcfError {
    PcfError {
        reason,
        parameter,
        text: text.into(),
    }
}

/// MQRCCF_CFH_TYPE_ERROR.
pub const RCCF_CFH_TYPE_ERROR: i32 = 3001;
/// MQRCCF_CFH_LENGTH_ERROR.
pub const RCCF_CFH_LENGTH_ERROR: i32 = 3002;
/// MQRCCF_CFH_VERSION_ERROR.
pub const RCCF_CFH_VERSION_ERROR: i32 = 3003;
/// MQRCCF_CFH_PARM_COUNT_ERROR.
pub const RCCF_CFH_PARM_COUNT_ERROR: i32 = 3006;
/// MQRCCF_STRUCTURE_TYPE_ERROR.
pub const RCCF_STRUCTURE_TYPE_ERROR: i32 = 3013;
/// MQRCCF_MSG_LENGTH_ERROR.
pub const RCCF_MSG_LENGTH_ERROR: i32 = 3016;
/// MQRCCF_CFST_LENGTH_ERROR: a structure's length is wrong.
pub const RCCF_CFST_LENGTH_ERROR: i32 = 3010;
/// MQRCCF_CFST_STRING_LENGTH_ERR.
pub const RCCF_CFST_STRING_LENGTH_ERR: i32 = 3011;

fn put(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_ne_bytes());
}

fn put_padded(out: &mut Vec<u8>, b: &[u8], padded: usize) {
    out.extend_from_slice(b);
    out.resize(out.len() + padded - b.len(), b' ');
}

fn put_all(out: &mut Vec<u8>, words: &[i32]) {
    words.iter().for_each(|w| put(out, *w));
}

fn encode_param(p: &Param, out: &mut Vec<u8>) {
    match p {
        Param::Int(id, v) => put_all(out, &[cft::INTEGER, 16, *id, *v]),
        Param::IntList(id, vs) => {
            let n = vs.len();
            put_all(
                out,
                &[cft::INTEGER_LIST, (16 + 4 * n) as i32, *id, n as i32],
            );
            put_all(out, vs);
        }
        Param::Int64(id, v) => {
            put_all(out, &[cft::INTEGER64, 24, *id, 0]);
            out.extend_from_slice(&v.to_ne_bytes());
        }
        Param::Int64List(id, vs) => {
            let n = vs.len();
            put_all(
                out,
                &[cft::INTEGER64_LIST, (16 + 8 * n) as i32, *id, n as i32],
            );
            vs.iter()
                .for_each(|v| out.extend_from_slice(&v.to_ne_bytes()));
        }
        Param::IntFilter(id, op, v) => put_all(out, &[cft::INTEGER_FILTER, 20, *id, *op, *v]),
        Param::Group(id, members) => {
            put_all(out, &[cft::GROUP, 16, *id, members.len() as i32]);
            members.iter().for_each(|m| encode_param(m, out));
        }
        _ => encode_text_param(p, out),
    }
}

/// The parameters that carry strings or bytes.
fn encode_text_param(p: &Param, out: &mut Vec<u8>) {
    match p {
        Param::Str(id, text) => {
            let (n, padded) = (text.len(), text.len().div_ceil(4) * 4);
            put_all(
                out,
                &[cft::STRING, (20 + padded) as i32, *id, 1208, n as i32],
            );
            put_padded(out, text.as_bytes(), padded);
        }
        Param::StrList(id, ss) => {
            // Every string as long as the longest, rounded to whole words: readers take
            // StringLength × Count to fill the structure exactly.
            let len = ss.iter().map(String::len).max().unwrap_or(0).div_ceil(4) * 4;
            let padded = len * ss.len();
            let fixed = [cft::STRING_LIST, (24 + padded) as i32, *id, 1208];
            put_all(out, &fixed);
            put_all(out, &[ss.len() as i32, len as i32]);
            let start = out.len();
            ss.iter().for_each(|s| put_padded(out, s.as_bytes(), len));
            out.resize(start + padded, b' ');
        }
        Param::Bytes(id, b) => {
            let padded = b.len().div_ceil(4) * 4;
            put_all(
                out,
                &[cft::BYTE_STRING, (16 + padded) as i32, *id, b.len() as i32],
            );
            out.extend_from_slice(b);
            out.resize(out.len() + padded - b.len(), 0);
        }
        Param::StrFilter(id, op, text) => {
            let (n, padded) = (text.len(), text.len().div_ceil(4) * 4);
            let fixed = [cft::STRING_FILTER, (24 + padded) as i32, *id, *op, 1208];
            put_all(out, &fixed);
            put_all(out, &[n as i32]);
            put_padded(out, text.as_bytes(), padded);
        }
        _ => encode_param(p, out),
    }
}

/// A PCF message: `header` (its ParameterCount is `params.len()`), then `params`.
pub fn encode(header: &Header, params: &[Param]) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    let h = header;
    let words = [
        h.kind,
        HEADER_LEN as i32,
        h.version,
        h.command,
        h.seq,
        h.control,
    ];
    words.iter().for_each(|x| put(&mut out, *x));
    for v in [h.comp_code, h.reason, params.len() as i32] {
        put(&mut out, v);
    }
    params.iter().for_each(|p| encode_param(p, &mut out));
    out
}

/// An event message's body: MQCFH (Type MQCFT_EVENT, version 1, CompCode MQCC_WARNING,
/// Control MQCFC_LAST) for `command` and `reason`, then `params`.
pub fn event(command: i32, reason: i32, params: &[Param]) -> Vec<u8> {
    let header = Header {
        kind: CFT_EVENT,
        version: 1,
        command,
        seq: 1,
        control: 1,
        comp_code: 1,
        reason,
    };
    encode(&header, params)
}

/// Reads a PCF message in either byte order.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
    big: bool,
}

impl Reader<'_> {
    fn word_at(&self, at: usize) -> Option<i32> {
        let w: [u8; 4] = self.b.get(at..at + 4)?.try_into().ok()?;
        Some(if self.big {
            i32::from_be_bytes(w)
        } else {
            i32::from_le_bytes(w)
        })
    }

    fn long_at(&self, at: usize) -> Option<i64> {
        let w: [u8; 8] = self.b.get(at..at + 8)?.try_into().ok()?;
        Some(if self.big {
            i64::from_be_bytes(w)
        } else {
            i64::from_le_bytes(w)
        })
    }

    /// The words of the structure at the cursor, its first `n` ones.
    fn words<const N: usize>(&self, what: &str) -> Result<[i32; N], PcfError> {
        let mut w = [0; N];
        for (i, x) in w.iter_mut().enumerate() {
            *x = self.word_at(self.at + 4 * i).ok_or_else(|| {
                bad(
                    RCCF_MSG_LENGTH_ERROR,
                    0,
                    format!("the message ends inside {what}"),
                )
            })?;
        }
        Ok(w)
    }

    fn text(&self, at: usize, len: usize) -> String {
        let raw = &self.b[at..at + len];
        let cut = raw
            .iter()
            .rposition(|c| *c != b' ' && *c != 0)
            .map_or(0, |i| i + 1);
        String::from_utf8_lossy(&raw[..cut]).into_owned()
    }
}

/// Decodes a PCF message: its header and top-level parameters (groups hold their members).
/// `big_endian` as the MQMD's Encoding says (MQENC_INTEGER_NORMAL).
pub fn decode(b: &[u8], big_endian: bool) -> Result<(Header, Vec<Param>), PcfError> {
    let mut r = Reader {
        b,
        at: 0,
        big: big_endian,
    };
    let [kind, len, version, command, seq, control, comp_code, reason, count] =
        r.words::<9>("the MQCFH")?;
    if len != HEADER_LEN as i32 {
        return Err(bad(
            RCCF_CFH_LENGTH_ERROR,
            0,
            format!("MQCFH StrucLength {len} is not 36"),
        ));
    }
    if !(1..=3).contains(&version) {
        return Err(bad(
            RCCF_CFH_VERSION_ERROR,
            0,
            format!("MQCFH Version {version}"),
        ));
    }
    // Every parameter takes at least 16 bytes: a count beyond that cannot be honest.
    if count < 0 || count as usize > b.len() / 16 {
        return Err(bad(
            RCCF_CFH_PARM_COUNT_ERROR,
            0,
            format!("ParameterCount {count}"),
        ));
    }
    r.at = HEADER_LEN;
    let header = Header {
        kind,
        version,
        command,
        seq,
        control,
        comp_code,
        reason,
    };
    let params = (0..count)
        .map(|_| decode_param(&mut r, 0))
        .collect::<Result<_, _>>()?;
    Ok((header, params))
}

fn decode_param(r: &mut Reader, depth: usize) -> Result<Param, PcfError> {
    let [kind, len, id] = r.words::<3>("a parameter")?;
    let len = usize::try_from(len).unwrap_or(0);
    let fixed = match kind {
        cft::INTEGER | cft::INTEGER_LIST | cft::BYTE_STRING | cft::GROUP => 16,
        cft::STRING | cft::INTEGER_FILTER => 20,
        cft::STRING_LIST | cft::STRING_FILTER | cft::INTEGER64 => 24,
        cft::INTEGER64_LIST => 16,
        _ => {
            return Err(bad(
                RCCF_STRUCTURE_TYPE_ERROR,
                id,
                format!("structure type {kind}"),
            ))
        }
    };
    if len < fixed || len % 4 != 0 || r.at + len > r.b.len() {
        let what = format!("parameter {id}: StrucLength {len} (type {kind})");
        return Err(bad(RCCF_CFST_LENGTH_ERROR, id, what));
    }
    let start = r.at;
    let p = decode_body(r, kind, id, len, depth)?;
    if kind != cft::GROUP {
        r.at = start + len;
    }
    Ok(p)
}

/// The parameter whose fixed part is at the cursor, `len` bytes long.
fn decode_body(
    r: &mut Reader,
    kind: i32,
    id: i32,
    len: usize,
    depth: usize,
) -> Result<Param, PcfError> {
    let w = |i: usize| r.word_at(r.at + 4 * i).unwrap_or(0);
    let n = |i: usize| usize::try_from(w(i)).unwrap_or(usize::MAX);
    if needs(kind, n) > len {
        let what = format!("parameter {id}: its data overruns its {len} bytes");
        return Err(bad(RCCF_CFST_STRING_LENGTH_ERR, id, what));
    }
    let at = r.at;
    Ok(match kind {
        cft::INTEGER => Param::Int(id, w(3)),
        cft::STRING => Param::Str(id, r.text(at + 20, n(4))),
        cft::INTEGER_LIST => Param::IntList(id, (0..n(3)).map(|i| w(4 + i)).collect()),
        cft::STRING_LIST => {
            let (count, each) = (n(4), n(5));
            let strings = (0..count).map(|i| r.text(at + 24 + i * each, each));
            Param::StrList(id, strings.collect())
        }
        cft::BYTE_STRING => Param::Bytes(id, r.b[at + 16..at + 16 + n(3)].to_vec()),
        cft::INTEGER64 => Param::Int64(id, r.long_at(at + 16).unwrap_or(0)),
        cft::INTEGER64_LIST => {
            let values = (0..n(3)).map(|i| r.long_at(at + 16 + 8 * i).unwrap_or(0));
            Param::Int64List(id, values.collect())
        }
        cft::INTEGER_FILTER => Param::IntFilter(id, w(3), w(4)),
        cft::STRING_FILTER => Param::StrFilter(id, w(3), r.text(at + 24, n(5))),
        _ => return decode_group(r, id, n(3), depth),
    })
}

/// How many bytes a parameter's structure needs for its data, from its counts (`n(i)`: its
/// i-th word as a count).
fn needs(kind: i32, n: impl Fn(usize) -> usize) -> usize {
    let (fixed, data) = match kind {
        cft::STRING => (20, n(4)),
        cft::INTEGER_LIST => (16, n(3).saturating_mul(4)),
        cft::STRING_LIST => (24, n(4).saturating_mul(n(5))),
        cft::BYTE_STRING => (16, n(3)),
        cft::INTEGER64_LIST => (16, n(3).saturating_mul(8)),
        cft::STRING_FILTER => (24, n(5)),
        _ => (0, 0),
    };
    data.saturating_add(fixed)
}

fn decode_group(r: &mut Reader, id: i32, count: usize, depth: usize) -> Result<Param, PcfError> {
    if depth >= MAX_DEPTH || count > r.b.len() / 16 {
        return Err(bad(
            RCCF_CFH_PARM_COUNT_ERROR,
            id,
            format!("group {id}: {count} members, nested {depth} deep"),
        ));
    }
    r.at += 16;
    let members = (0..count)
        .map(|_| decode_param(r, depth + 1))
        .collect::<Result<_, _>>()?;
    Ok(Param::Group(id, members))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_a_header_then_its_parameters() {
        let b = event(
            CMD_Q_MGR_EVENT,
            2035,
            &[
                Param::Int(IACF_REASON_QUALIFIER, 2),
                Param::Str(CA_Q_NAME, "APP.IN".into()),
            ],
        );
        let word = |i: usize| i32::from_ne_bytes(b[i * 4..i * 4 + 4].try_into().unwrap());
        assert_eq!(
            (word(0), word(1), word(3), word(7), word(8)),
            (7, 36, 44, 2035, 2)
        );
        assert_eq!((word(9), word(10), word(11), word(12)), (3, 16, 1020, 2));
        assert_eq!(
            (word(13), word(14), word(15), word(16), word(17)),
            (4, 28, 2016, 1208, 6)
        );
        assert_eq!(&b[72..80], b"APP.IN  ");
        assert_eq!(b.len(), 80);
    }

    /// A one-message MQCFT_COMMAND header.
    fn command(command: i32) -> Header {
        Header {
            kind: cft::COMMAND,
            version: 1,
            command,
            seq: 1,
            control: 1,
            comp_code: 0,
            reason: 0,
        }
    }

    fn every_kind() -> Vec<Param> {
        vec![
            Param::Int(3, -7),
            Param::Str(2016, "APP.Q".into()),
            Param::IntList(1002, vec![1009, 3]),
            Param::StrList(3011, vec!["A".into(), "LONGER.NAME".into()]),
            Param::Bytes(7001, vec![1, 2, 3, 0, 5]),
            Param::Int64(9, -1 << 40),
            Param::Int64List(10, vec![1, 2]),
            Param::IntFilter(3, 4, 100),
            Param::StrFilter(2013, 18, "desc*".into()),
            Param::Group(
                8,
                vec![
                    Param::Int(1, 2),
                    Param::Group(9, vec![Param::Str(5, "x".into())]),
                ],
            ),
        ]
    }

    #[test]
    fn every_parameter_kind_decodes_to_what_was_encoded() {
        let h = Header {
            kind: cft::RESPONSE,
            version: 3,
            command: 13,
            seq: 2,
            control: 0,
            comp_code: 0,
            reason: 0,
        };
        let b = encode(&h, &every_kind());
        assert_eq!(b.len() % 4, 0);
        let (back, params) = decode(&b, cfg!(target_endian = "big")).unwrap();
        assert_eq!(back, h);
        assert_eq!(params, every_kind());
    }

    #[test]
    fn a_big_endian_message_decodes_as_its_encoding_says() {
        let mut b = Vec::new();
        for w in [1, 36, 1, 40, 1, 1, 0, 0, 1, 3, 16, 1009, 5] {
            b.extend_from_slice(&i32::to_be_bytes(w));
        }
        let (h, p) = decode(&b, true).unwrap();
        assert_eq!((h.kind, h.command), (1, 40));
        assert_eq!(p, vec![Param::Int(1009, 5)]);
    }

    #[test]
    fn every_truncation_and_every_corrupted_word_is_an_error_or_a_value_never_a_panic() {
        let h = command(13);
        let b = encode(&h, &every_kind());
        for cut in 0..b.len() {
            assert!(decode(&b[..cut], false).is_err() || cut == b.len());
        }
        for i in (0..b.len()).step_by(4) {
            for v in [-1i32, 0, 1, 3, 17, 0x7fff_ffff, i32::MIN] {
                let mut m = b.clone();
                m[i..i + 4].copy_from_slice(&v.to_ne_bytes());
                let _ = decode(&m, cfg!(target_endian = "big"));
            }
        }
    }

    #[test]
    fn groups_nest_only_so_deep() {
        let mut p = Param::Int(1, 1);
        for _ in 0..=MAX_DEPTH {
            p = Param::Group(2, vec![p]);
        }
        let h = command(13);
        let e = decode(&encode(&h, &[p]), cfg!(target_endian = "big")).unwrap_err();
        assert_eq!(e.reason, RCCF_CFH_PARM_COUNT_ERROR);
    }
}
