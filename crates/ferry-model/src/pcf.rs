//! Programmable command format (PCF) messages as MQ's event messages carry them: an MQCFH
//! header, then integer (MQCFIN) and string (MQCFST) parameters, in this machine's byte order
//! (MQ's MQENC_NATIVE), strings padded with blanks to a multiple of four bytes.
//!
//! Written from MQ's public reference (MQCFH, MQCFIN, MQCFST, "Event message format"); only
//! what event messages need. Plain data.

/// MQCFT_EVENT: the header of an event message.
pub const CFT_EVENT: i32 = 7;
/// MQCMD_Q_MGR_EVENT: authority and other queue manager events.
pub const CMD_Q_MGR_EVENT: i32 = 44;
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
    /// MQCFST: (parameter, text; CCSID 1208).
    Str(i32, String),
}

fn put(out: &mut Vec<u8>, v: i32) {
    out.extend_from_slice(&v.to_ne_bytes());
}

/// An event message's body: MQCFH (Type MQCFT_EVENT, version 1, CompCode MQCC_WARNING,
/// Control MQCFC_LAST) for `command` and `reason`, then `params`.
pub fn event(command: i32, reason: i32, params: &[Param]) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    for v in [
        CFT_EVENT,
        36,
        1,
        command,
        1,
        1,
        1,
        reason,
        params.len() as i32,
    ] {
        put(&mut out, v);
    }
    for p in params {
        match p {
            Param::Int(id, value) => {
                for v in [3, 16, *id, *value] {
                    put(&mut out, v);
                }
            }
            Param::Str(id, text) => {
                let len = text.len();
                let padded = len.div_ceil(4) * 4;
                for v in [4, (20 + padded) as i32, *id, 1208, len as i32] {
                    put(&mut out, v);
                }
                out.extend_from_slice(text.as_bytes());
                out.resize(out.len() + padded - len, b' ');
            }
        }
    }
    out
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
}
