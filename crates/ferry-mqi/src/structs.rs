//! The MQI structures in Rust, `#[repr(C)]` and field for field as `include/cmqc.h` declares
//! them (64-bit layouts). Tests check sizes and offsets against the documented lengths.

#![allow(non_snake_case)] // the MQI's field names, so C and Rust read the same

use std::ffi::c_void;

/// MQLONG.
pub type MQLONG = i32;
/// MQHMSG.
pub type MQHMSG = i64;
/// MQPTR.
pub type MQPTR = *mut c_void;

/// MQCHARV: a variable-length string.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQCHARV {
    pub VSPtr: MQPTR,
    pub VSOffset: MQLONG,
    pub VSBufSize: MQLONG,
    pub VSLength: MQLONG,
    pub VSCCSID: MQLONG,
}

/// MQMD: the message descriptor (version 2 layout; version 1 is its first 324 bytes).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQMD {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Report: MQLONG,
    pub MsgType: MQLONG,
    pub Expiry: MQLONG,
    pub Feedback: MQLONG,
    pub Encoding: MQLONG,
    pub CodedCharSetId: MQLONG,
    pub Format: [u8; 8],
    pub Priority: MQLONG,
    pub Persistence: MQLONG,
    pub MsgId: [u8; 24],
    pub CorrelId: [u8; 24],
    pub BackoutCount: MQLONG,
    pub ReplyToQ: [u8; 48],
    pub ReplyToQMgr: [u8; 48],
    pub UserIdentifier: [u8; 12],
    pub AccountingToken: [u8; 32],
    pub ApplIdentityData: [u8; 32],
    pub PutApplType: MQLONG,
    pub PutApplName: [u8; 28],
    pub PutDate: [u8; 8],
    pub PutTime: [u8; 8],
    pub ApplOriginData: [u8; 4],
    pub GroupId: [u8; 24],
    pub MsgSeqNumber: MQLONG,
    pub Offset: MQLONG,
    pub MsgFlags: MQLONG,
    pub OriginalLength: MQLONG,
}

/// MQSD: the subscription descriptor (version 1).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQSD {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub ObjectName: [u8; 48],
    pub AlternateUserId: [u8; 12],
    pub AlternateSecurityId: [u8; 40],
    pub SubExpiry: MQLONG,
    pub ObjectString: MQCHARV,
    pub SubName: MQCHARV,
    pub SubUserData: MQCHARV,
    pub SubCorrelId: [u8; 24],
    pub PubPriority: MQLONG,
    pub PubAccountingToken: [u8; 32],
    pub PubApplIdentityData: [u8; 32],
    pub SelectionString: MQCHARV,
    pub SubLevel: MQLONG,
    pub ResObjectString: MQCHARV,
}

// The header's MQSD_LENGTH_1 (its layout is checked from C by samples/layout.c).
const _: () = assert!(std::mem::size_of::<MQSD>() == 344);

/// MQSRO: subscription request options (version 1).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQSRO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub NumPubs: MQLONG,
}

// The header's MQSRO_LENGTH_1.
const _: () = assert!(std::mem::size_of::<MQSRO>() == 16);

/// MQOD: the object descriptor (version 4 layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQOD {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub ObjectType: MQLONG,
    pub ObjectName: [u8; 48],
    pub ObjectQMgrName: [u8; 48],
    pub DynamicQName: [u8; 48],
    pub AlternateUserId: [u8; 12],
    pub RecsPresent: MQLONG,
    pub KnownDestCount: MQLONG,
    pub UnknownDestCount: MQLONG,
    pub InvalidDestCount: MQLONG,
    pub ObjectRecOffset: MQLONG,
    pub ResponseRecOffset: MQLONG,
    pub ObjectRecPtr: MQPTR,
    pub ResponseRecPtr: MQPTR,
    pub AlternateSecurityId: [u8; 40],
    pub ResolvedQName: [u8; 48],
    pub ResolvedQMgrName: [u8; 48],
    pub ObjectString: MQCHARV,
    pub SelectionString: MQCHARV,
    pub ResObjectString: MQCHARV,
    pub ResolvedType: MQLONG,
}

/// MQPMO: put-message options (version 3 layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQPMO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub Timeout: MQLONG,
    pub Context: MQLONG,
    pub KnownDestCount: MQLONG,
    pub UnknownDestCount: MQLONG,
    pub InvalidDestCount: MQLONG,
    pub ResolvedQName: [u8; 48],
    pub ResolvedQMgrName: [u8; 48],
    pub RecsPresent: MQLONG,
    pub PutMsgRecFields: MQLONG,
    pub PutMsgRecOffset: MQLONG,
    pub ResponseRecOffset: MQLONG,
    pub PutMsgRecPtr: MQPTR,
    pub ResponseRecPtr: MQPTR,
    pub OriginalMsgHandle: MQHMSG,
    pub NewMsgHandle: MQHMSG,
    pub Action: MQLONG,
    pub PubLevel: MQLONG,
}

/// MQGMO: get-message options (version 4 layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQGMO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub WaitInterval: MQLONG,
    pub Signal1: MQLONG,
    pub Signal2: MQLONG,
    pub ResolvedQName: [u8; 48],
    pub MatchOptions: MQLONG,
    pub GroupStatus: u8,
    pub SegmentStatus: u8,
    pub Segmentation: u8,
    pub Reserved1: u8,
    pub MsgToken: [u8; 16],
    pub ReturnedLength: MQLONG,
    pub Reserved2: MQLONG,
    pub MsgHandle: MQHMSG,
}

/// MQCSP: security parameters.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQCSP {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub AuthenticationType: MQLONG,
    pub Reserved1: [u8; 4],
    pub CSPUserIdPtr: MQPTR,
    pub CSPUserIdOffset: MQLONG,
    pub CSPUserIdLength: MQLONG,
    pub Reserved2: [u8; 8],
    pub CSPPasswordPtr: MQPTR,
    pub CSPPasswordOffset: MQLONG,
    pub CSPPasswordLength: MQLONG,
}

/// MQCNO: connect options (version 8 layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQCNO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub ClientConnOffset: MQLONG,
    pub ClientConnPtr: MQPTR,
    pub ConnTag: [u8; 128],
    pub SSLConfigPtr: MQPTR,
    pub SSLConfigOffset: MQLONG,
    pub ConnectionId: [u8; 24],
    pub SecurityParmsOffset: MQLONG,
    pub SecurityParmsPtr: *mut MQCSP,
    pub CCDTUrlPtr: *mut u8,
    pub CCDTUrlOffset: MQLONG,
    pub CCDTUrlLength: MQLONG,
    pub Reserved: [u8; 8],
    pub ApplName: [u8; 28],
    pub Reserved2: [u8; 4],
    pub BalanceParmsPtr: MQPTR,
    pub BalanceParmsOffset: MQLONG,
    pub Reserved3: [u8; 4],
}

/// MQSTS: asynchronous put status (version 2 layout).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQSTS {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub CompCode: MQLONG,
    pub Reason: MQLONG,
    pub PutSuccessCount: MQLONG,
    pub PutWarningCount: MQLONG,
    pub PutFailureCount: MQLONG,
    pub ObjectType: MQLONG,
    pub ObjectName: [u8; 48],
    pub ObjectQMgrName: [u8; 48],
    pub ResolvedObjectName: [u8; 48],
    pub ResolvedQMgrName: [u8; 48],
    pub ObjectString: MQCHARV,
    pub SubName: MQCHARV,
    pub OpenOptions: MQLONG,
    pub SubOptions: MQLONG,
}

/// MQPD: property descriptor.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQPD {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub Support: MQLONG,
    pub Context: MQLONG,
    pub CopyOptions: MQLONG,
}

/// Documented structure lengths (64-bit), per version.
pub mod lengths {
    pub const MQMD: [usize; 2] = [324, 364];
    pub const MQOD: [usize; 4] = [168, 208, 344, 424];
    pub const MQPMO: [usize; 3] = [128, 160, 184];
    pub const MQGMO: [usize; 4] = [72, 80, 100, 112];
    pub const MQCNO: [usize; 8] = [12, 24, 152, 168, 200, 224, 256, 272];
    pub const MQCSP: [usize; 1] = [56];
    pub const MQSTS: [usize; 2] = [224, 280];
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn sizes_are_the_documented_current_lengths() {
        assert_eq!(size_of::<MQMD>(), lengths::MQMD[1]);
        assert_eq!(size_of::<MQOD>(), lengths::MQOD[3]);
        assert_eq!(size_of::<MQPMO>(), lengths::MQPMO[2]);
        assert_eq!(size_of::<MQGMO>(), lengths::MQGMO[3]);
        assert_eq!(size_of::<MQCNO>(), lengths::MQCNO[7]);
        assert_eq!(size_of::<MQCSP>(), lengths::MQCSP[0]);
        assert_eq!(size_of::<MQSTS>(), lengths::MQSTS[1]);
        assert_eq!(size_of::<MQCHARV>(), 24);
    }

    #[test]
    fn each_version_ends_where_the_documented_length_says() {
        assert_eq!(offset_of!(MQMD, GroupId), lengths::MQMD[0]);
        assert_eq!(offset_of!(MQOD, RecsPresent), lengths::MQOD[0]);
        assert_eq!(offset_of!(MQOD, AlternateSecurityId), lengths::MQOD[1]);
        assert_eq!(offset_of!(MQOD, ObjectString), lengths::MQOD[2]);
        assert_eq!(offset_of!(MQPMO, RecsPresent), lengths::MQPMO[0]);
        assert_eq!(offset_of!(MQPMO, OriginalMsgHandle), lengths::MQPMO[1]);
        assert_eq!(offset_of!(MQGMO, MatchOptions), lengths::MQGMO[0]);
        assert_eq!(offset_of!(MQGMO, MsgToken), lengths::MQGMO[1]);
        assert_eq!(offset_of!(MQGMO, Reserved2), lengths::MQGMO[2]);
        assert_eq!(offset_of!(MQCNO, ClientConnOffset), lengths::MQCNO[0]);
        assert_eq!(offset_of!(MQCNO, ConnTag), lengths::MQCNO[1]);
        assert_eq!(offset_of!(MQCNO, SSLConfigPtr), lengths::MQCNO[2]);
        assert_eq!(offset_of!(MQCNO, ConnectionId), 164); // v4 is 168 with its padding
        assert_eq!(offset_of!(MQCNO, CCDTUrlPtr), lengths::MQCNO[4]);
        assert_eq!(offset_of!(MQCNO, ApplName), lengths::MQCNO[5]);
        assert_eq!(offset_of!(MQCNO, BalanceParmsPtr), lengths::MQCNO[6]);
        assert_eq!(offset_of!(MQSTS, ObjectString), lengths::MQSTS[0]);
    }
}
