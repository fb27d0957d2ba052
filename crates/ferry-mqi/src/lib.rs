//! FerryMQ's MQI-compatible C interface: `include/cmqc.h` (written from the public MQI
//! reference, docs/mqi.md) and the calls behind it, over `ferry-client`.
//!
//! Owns: the C structures in Rust (`structs`), the calls (`api`, `props`, and `bags` — the
//! MQAI data bags of `cmqbc.h`), and [`export_mqi!`], which
//! the two shared-library crates expand — `libmqm_r.so` (local: the queue manager's Unix
//! socket) and `libmqic_r.so` (client: tcp from MQSERVER) — so each library carries the
//! exported symbols itself.
//!
//! Unsafe code is allowed here and only here: the C calling convention hands us raw pointers.
//! Every entry point checks them for null, reads only what the structure's declared version
//! holds, and never lets a panic cross into the caller.

#![allow(unsafe_code)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod api;
pub mod bags;
pub mod props;
pub mod structs;

pub use api::Mode;

/// Expands the exported MQI entry points for library mode `$mode` (`Mode::Local` or
/// `Mode::Client`). Used once by each shared-library crate.
#[macro_export]
macro_rules! export_mqi {
    ($mode:expr) => {
        use std::ffi::c_void;
        use $crate::props::{MQIMPO, MQOPTS, MQSMPO};
        use $crate::structs::{
            MQCHARV, MQCNO, MQGMO, MQHMSG, MQLONG, MQMD, MQOD, MQPD, MQPMO, MQSTS,
        };

        /// MQCONN.
        ///
        /// # Safety
        /// The MQI contract: pointers valid as documented.
        #[no_mangle]
        pub unsafe extern "C" fn MQCONN(
            name: *const u8,
            hconn: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out =
                $crate::api::guarded(|| $crate::api::connx($mode, name, std::ptr::null(), hconn));
            $crate::api::report(cc, rc, out)
        }

        /// MQCONNX.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQCONNX(
            name: *const u8,
            cno: *const MQCNO,
            hconn: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::api::connx($mode, name, cno, hconn));
            $crate::api::report(cc, rc, out)
        }

        /// MQDISC.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQDISC(hconn: *mut MQLONG, cc: *mut MQLONG, rc: *mut MQLONG) {
            let out = $crate::api::guarded(|| $crate::api::disc(hconn));
            $crate::api::report(cc, rc, out)
        }

        /// MQOPEN.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQOPEN(
            hconn: MQLONG,
            od: *mut MQOD,
            options: MQLONG,
            hobj: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::api::open(hconn, od, options, hobj));
            $crate::api::report(cc, rc, out)
        }

        /// MQCLOSE.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQCLOSE(
            hconn: MQLONG,
            hobj: *mut MQLONG,
            options: MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::api::close(hconn, hobj, options));
            $crate::api::report(cc, rc, out)
        }

        /// MQPUT.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQPUT(
            hconn: MQLONG,
            hobj: MQLONG,
            md: *mut MQMD,
            pmo: *mut MQPMO,
            len: MQLONG,
            buf: *const c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::api::put(hconn, hobj, md, pmo, len, buf as *const u8)
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQPUT1.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQPUT1(
            hconn: MQLONG,
            od: *mut MQOD,
            md: *mut MQMD,
            pmo: *mut MQPMO,
            len: MQLONG,
            buf: *const c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::api::put1(hconn, od, md, pmo, len, buf as *const u8)
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQGET.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQGET(
            hconn: MQLONG,
            hobj: MQLONG,
            md: *mut MQMD,
            gmo: *mut MQGMO,
            len: MQLONG,
            buf: *mut c_void,
            data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::api::get(hconn, hobj, md, gmo, len, buf as *mut u8, data_len)
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQINQ.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQINQ(
            hconn: MQLONG,
            hobj: MQLONG,
            sel_count: MQLONG,
            sels: *const MQLONG,
            int_count: MQLONG,
            ints: *mut MQLONG,
            char_len: MQLONG,
            chars: *mut u8,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::api::inq(
                    hconn, hobj, sel_count, sels, int_count, ints, char_len, chars,
                )
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQSET.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQSET(
            hconn: MQLONG,
            hobj: MQLONG,
            sel_count: MQLONG,
            sels: *const MQLONG,
            int_count: MQLONG,
            ints: *const MQLONG,
            _char_len: MQLONG,
            _chars: *const u8,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::api::set(hconn, hobj, sel_count, sels, int_count, ints)
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQCMIT.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQCMIT(hconn: MQLONG, cc: *mut MQLONG, rc: *mut MQLONG) {
            let out = $crate::api::guarded(|| $crate::api::cmit(hconn));
            $crate::api::report(cc, rc, out)
        }

        /// MQBACK.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQBACK(hconn: MQLONG, cc: *mut MQLONG, rc: *mut MQLONG) {
            let out = $crate::api::guarded(|| $crate::api::back(hconn));
            $crate::api::report(cc, rc, out)
        }

        /// MQSTAT.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQSTAT(
            hconn: MQLONG,
            kind: MQLONG,
            sts: *mut MQSTS,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::api::stat(hconn, kind, sts));
            $crate::api::report(cc, rc, out)
        }

        /// MQCRTMH.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQCRTMH(
            hconn: MQLONG,
            opts: *const MQOPTS,
            hmsg: *mut MQHMSG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::props::crtmh(hconn, opts, hmsg));
            $crate::api::report(cc, rc, out)
        }

        /// MQDLTMH.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQDLTMH(
            _hconn: MQLONG,
            hmsg: *mut MQHMSG,
            opts: *const MQOPTS,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::props::dltmh(hmsg, opts));
            $crate::api::report(cc, rc, out)
        }

        /// MQSETMP.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQSETMP(
            _hconn: MQLONG,
            hmsg: MQHMSG,
            opts: *const MQSMPO,
            name: *const MQCHARV,
            pd: *const MQPD,
            kind: MQLONG,
            len: MQLONG,
            value: *const c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::props::setmp(hmsg, opts, name, pd, kind, len, value as *const u8)
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQINQMP.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQINQMP(
            _hconn: MQLONG,
            hmsg: MQHMSG,
            opts: *mut MQIMPO,
            name: *const MQCHARV,
            pd: *mut MQPD,
            kind: *mut MQLONG,
            len: MQLONG,
            value: *mut c_void,
            data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                $crate::props::inqmp(hmsg, opts, name, pd, kind, len, value as *mut u8, data_len)
            });
            $crate::api::report(cc, rc, out)
        }

        /// MQDLTMP.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQDLTMP(
            _hconn: MQLONG,
            hmsg: MQHMSG,
            opts: *const MQOPTS,
            name: *const MQCHARV,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| $crate::props::dltmp(hmsg, opts, name));
            $crate::api::report(cc, rc, out)
        }

        /// MQBUFMH: properties in an MQRFH2 buffer are not supported yet.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQBUFMH(
            _hconn: MQLONG,
            _hmsg: MQHMSG,
            _opts: *mut c_void,
            _md: *mut c_void,
            _len: MQLONG,
            _buf: *mut c_void,
            _data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }

        /// MQMHBUF: properties in an MQRFH2 buffer are not supported yet.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQMHBUF(
            _hconn: MQLONG,
            _hmsg: MQHMSG,
            _opts: *mut c_void,
            _name: *mut c_void,
            _md: *mut c_void,
            _len: MQLONG,
            _buf: *mut c_void,
            _data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }

        /// MQSUB: publish/subscribe is not there yet.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQSUB(
            _hconn: MQLONG,
            _sd: *mut c_void,
            _hobj: *mut MQLONG,
            _hsub: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }

        /// MQSUBRQ: publish/subscribe is not there yet.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQSUBRQ(
            _hconn: MQLONG,
            _hsub: MQLONG,
            _action: MQLONG,
            _opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }

        /// MQCB: asynchronous consumption is not there yet.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQCB(
            _hconn: MQLONG,
            _operation: MQLONG,
            _cbd: *mut c_void,
            _hobj: MQLONG,
            _md: *mut c_void,
            _gmo: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }

        /// MQCTL: asynchronous consumption is not there yet.
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQCTL(
            _hconn: MQLONG,
            _operation: MQLONG,
            _opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }

        /// MQBEGIN: global units of work are not offered (MQRC_FUNCTION_NOT_SUPPORTED).
        ///
        /// # Safety
        /// The MQI contract.
        #[no_mangle]
        pub unsafe extern "C" fn MQBEGIN(
            _hconn: MQLONG,
            _opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            $crate::api::report(cc, rc, $crate::api::not_supported())
        }


        // The MQAI calls (cmqbc.h): data bags (`bags`); the command calls answer 2298.
        $crate::export_mqai_call!(mqCreateBag(options: MQLONG, hbag: *mut MQLONG) => $crate::bags::create(options, hbag));
        $crate::export_mqai_call!(mqDeleteBag(hbag: *mut MQLONG) => $crate::bags::delete(hbag));
        $crate::export_mqai_call!(mqClearBag(hbag: MQLONG) => $crate::bags::clear(hbag));
        $crate::export_mqai_call!(mqTruncateBag(hbag: MQLONG, count: MQLONG) => $crate::bags::truncate(hbag, count));
        $crate::export_mqai_call!(mqCountItems(hbag: MQLONG, sel: MQLONG, count: *mut MQLONG) => $crate::bags::count(hbag, sel, count));
        $crate::export_mqai_call!(mqDeleteItem(hbag: MQLONG, sel: MQLONG, index: MQLONG) => $crate::bags::delete_item(hbag, sel, index));
        $crate::export_mqai_call!(mqAddInteger(hbag: MQLONG, sel: MQLONG, value: MQLONG) => $crate::bags::add(hbag, sel, $crate::bags::Item::Integer(value)));
        $crate::export_mqai_call!(mqAddInteger64(hbag: MQLONG, sel: MQLONG, value: i64) => $crate::bags::add(hbag, sel, $crate::bags::Item::Integer64(value)));
        $crate::export_mqai_call!(mqAddIntegerFilter(hbag: MQLONG, sel: MQLONG, value: MQLONG, op: MQLONG) => $crate::bags::add(hbag, sel, $crate::bags::Item::IntegerFilter(value, op)));
        $crate::export_mqai_call!(mqAddString(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8) => $crate::bags::add(hbag, sel, $crate::bags::Item::String(len, buf)));
        $crate::export_mqai_call!(mqAddStringFilter(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8, op: MQLONG) => $crate::bags::add(hbag, sel, $crate::bags::Item::StringFilter(len, buf, op)));
        $crate::export_mqai_call!(mqAddByteString(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8) => $crate::bags::add(hbag, sel, $crate::bags::Item::ByteString(len, buf)));
        $crate::export_mqai_call!(mqAddByteStringFilter(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8, op: MQLONG) => $crate::bags::add( hbag, sel, $crate::bags::Item::ByteStringFilter(len, buf, op), ));
        $crate::export_mqai_call!(mqAddBag(hbag: MQLONG, sel: MQLONG, item: MQLONG) => $crate::bags::add(hbag, sel, $crate::bags::Item::Bag(item)));
        $crate::export_mqai_call!(mqAddInquiry(hbag: MQLONG, sel: MQLONG) => $crate::bags::add_inquiry(hbag, sel));
        $crate::export_mqai_call!(mqSetInteger(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: MQLONG) => $crate::bags::set(hbag, sel, index, $crate::bags::Item::Integer(value)));
        $crate::export_mqai_call!(mqSetInteger64(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: i64) => $crate::bags::set(hbag, sel, index, $crate::bags::Item::Integer64(value)));
        $crate::export_mqai_call!(mqSetString(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *const u8) => $crate::bags::set(hbag, sel, index, $crate::bags::Item::String(len, buf)));
        $crate::export_mqai_call!(mqSetByteString(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *const u8) => $crate::bags::set(hbag, sel, index, $crate::bags::Item::ByteString(len, buf)));
        $crate::export_mqai_call!(mqInquireInteger(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut MQLONG) => $crate::bags::inquire(hbag, sel, index, $crate::bags::Query::Integer(value)));
        $crate::export_mqai_call!(mqInquireInteger64(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut i64) => $crate::bags::inquire(hbag, sel, index, $crate::bags::Query::Integer64(value)));
        $crate::export_mqai_call!(mqInquireIntegerFilter(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut MQLONG, op: *mut MQLONG) => $crate::bags::inquire( hbag, sel, index, $crate::bags::Query::IntegerFilter(value, op), ));
        $crate::export_mqai_call!(mqInquireString(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *mut u8, out_len: *mut MQLONG, ccsid: *mut MQLONG) => $crate::bags::inquire( hbag, sel, index, $crate::bags::Query::String(len, buf, out_len, ccsid), ));
        $crate::export_mqai_call!(mqInquireStringFilter(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *mut u8, out_len: *mut MQLONG, ccsid: *mut MQLONG, op: *mut MQLONG) => $crate::bags::inquire( hbag, sel, index, $crate::bags::Query::StringFilter(len, buf, out_len, ccsid, op), ));
        $crate::export_mqai_call!(mqInquireByteString(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *mut u8, out_len: *mut MQLONG) => $crate::bags::inquire( hbag, sel, index, $crate::bags::Query::ByteString(len, buf, out_len), ));
        $crate::export_mqai_call!(mqInquireByteStringFilter(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *mut u8, out_len: *mut MQLONG, op: *mut MQLONG) => $crate::bags::inquire( hbag, sel, index, $crate::bags::Query::ByteStringFilter(len, buf, out_len, op), ));
        $crate::export_mqai_call!(mqInquireBag(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut MQLONG) => $crate::bags::inquire(hbag, sel, index, $crate::bags::Query::Bag(value)));
        $crate::export_mqai_call!(mqInquireItemInfo(hbag: MQLONG, sel: MQLONG, index: MQLONG, out_sel: *mut MQLONG, item_type: *mut MQLONG) => $crate::bags::inquire( hbag, sel, index, $crate::bags::Query::ItemInfo(out_sel, item_type), ));
        $crate::export_mqai_call!(mqTrim(len: MQLONG, buf: *const u8, out: *mut u8) => $crate::bags::trim(len, buf, out));
        $crate::export_mqai_call!(mqPad(s: *const u8, len: MQLONG, buf: *mut u8) => $crate::bags::pad(s, len, buf));
        $crate::export_mqai_call!(mqExecute(_hconn: MQLONG, _command: MQLONG, _options_bag: MQLONG, _admin_bag: MQLONG, _response_bag: MQLONG, _admin_q: MQLONG, _response_q: MQLONG) => $crate::api::not_supported());
        $crate::export_mqai_call!(mqPutBag(_hconn: MQLONG, _hobj: MQLONG, _md: *mut c_void, _pmo: *mut c_void, _hbag: MQLONG) => $crate::api::not_supported());
        $crate::export_mqai_call!(mqGetBag(_hconn: MQLONG, _hobj: MQLONG, _md: *mut c_void, _gmo: *mut c_void, _hbag: MQLONG) => $crate::api::not_supported());
        $crate::export_mqai_call!(mqBagToBuffer(_options_bag: MQLONG, _data_bag: MQLONG, _len: MQLONG, _buf: *mut c_void, _data_len: *mut MQLONG) => $crate::api::not_supported());
        $crate::export_mqai_call!(mqBufferToBag(_options_bag: MQLONG, _len: MQLONG, _buf: *mut c_void, _data_bag: MQLONG) => $crate::api::not_supported());
    };
}

/// Expands one exported MQAI call (cmqbc.h): its arguments, then the completion and reason
/// codes every MQAI call ends with. Used by [`export_mqi!`].
#[doc(hidden)]
#[macro_export]
macro_rules! export_mqai_call {
    ($name:ident($($arg:ident: $ty:ty),*) => $body:expr) => {
        /// An MQAI call, as cmqbc.h declares it.
        ///
        /// # Safety
        /// The MQAI contract: pointers valid as documented.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            $($arg: $ty,)*
            cc: *mut $crate::structs::MQLONG,
            rc: *mut $crate::structs::MQLONG,
        ) {
            let out = $crate::api::guarded(|| $body);
            $crate::api::report(cc, rc, out)
        }
    };
}
