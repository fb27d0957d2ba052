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
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod api;
pub mod bags;
pub mod buffers;
pub mod ccdt;
pub mod consume;
mod propconv;
pub mod props;
pub mod rfh2;
pub mod structs;

pub use api::Mode;

/// Expands the exported MQI entry points for library mode `$mode` (`Mode::Local` or
/// `Mode::Client`). Used once by each shared-library crate.
///
/// Each entry point catches panics (`api::guarded`) and stores the completion and reason
/// codes (`api::report`); its `# Safety` section is the MQI's contract for its pointers, and
/// the calls behind it check each pointer for null before using it.
#[macro_export]
macro_rules! export_mqi {
    ($mode:expr) => {
        use std::ffi::c_void;
        use $crate::props::{MQIMPO, MQOPTS, MQSMPO};
        use $crate::structs::{
            MQCHARV, MQCNO, MQGMO, MQHMSG, MQLONG, MQMD, MQOD, MQPD, MQPMO, MQSTS,
        };

        /// MQCONN: connects to queue manager `name`.
        ///
        /// # Safety
        /// `name` must be null or point to 48 readable bytes (an MQCHAR48); `hconn` null or valid
        /// for an MQLONG write; `cc` and `rc` null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQCONN(
            name: *const u8,
            hconn: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let mode: $crate::Mode = $mode;
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `name` null or 48 readable bytes and `hconn` null or
                // valid for a write (this fn's `# Safety`), as `connx` requires; no MQCNO is
                // passed.
                unsafe { $crate::api::connx(mode, name, std::ptr::null(), hconn) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQCONNX: connects to queue manager `name` with connect options `cno`.
        ///
        /// # Safety
        /// `name` must be null or point to 48 readable bytes (an MQCHAR48); `cno` null or a
        /// readable MQCNO of the version it declares, whose ClientConnPtr (v2+) is null or an MQCD
        /// of the version it declares (its SSLPeerNamePtr null or holding SSLPeerNameLength bytes),
        /// SSLConfigPtr (v4+) null or an MQSCO, SecurityParmsPtr (v5+) null or an MQCSP whose user
        /// id and password pointers are null or hold their lengths in bytes; `hconn` null or valid
        /// for an MQLONG write; `cc` and `rc` null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQCONNX(
            name: *const u8,
            cno: *const MQCNO,
            hconn: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let mode: $crate::Mode = $mode;
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `name`, `cno` (and the structures it points to) and
                // `hconn` as `connx` requires (this fn's `# Safety`); `connx` checks each for null.
                unsafe { $crate::api::connx(mode, name, cno, hconn) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQDISC: disconnects `hconn`, setting it to MQHC_UNUSABLE_HCONN.
        ///
        /// # Safety
        /// `hconn` must be null or valid for an MQLONG read and write; `cc` and `rc` null or valid
        /// for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQDISC(hconn: *mut MQLONG, cc: *mut MQLONG, rc: *mut MQLONG) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `hconn` null or valid for an MQLONG read and write
                // (this fn's `# Safety`), as `disc` requires; `disc` checks it for null.
                unsafe { $crate::api::disc(hconn) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQOPEN: opens the object `od` describes.
        ///
        /// # Safety
        /// `od` must be null or point to a readable and writable MQOD of the version it declares;
        /// `hobj` null or valid for an MQLONG write; `cc` and `rc` null or valid for an MQLONG
        /// write.
        #[no_mangle]
        pub unsafe extern "C" fn MQOPEN(
            hconn: MQLONG,
            od: *mut MQOD,
            options: MQLONG,
            hobj: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `od` null or a readable and writable MQOD and `hobj`
                // null or valid for a write (this fn's `# Safety`), as `open` requires; `open`
                // checks both for null.
                unsafe { $crate::api::open(hconn, od, options, hobj) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQCLOSE: closes `hobj`, setting it to MQHO_UNUSABLE_HOBJ.
        ///
        /// # Safety
        /// `hobj` must be null or valid for an MQLONG read and write; `cc` and `rc` null or valid
        /// for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQCLOSE(
            hconn: MQLONG,
            hobj: *mut MQLONG,
            options: MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `hobj` null or valid for an MQLONG read and write (this
                // fn's `# Safety`), as `close` requires; `close` checks it for null.
                unsafe { $crate::api::close(hconn, hobj, options) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQPUT: puts the `len` bytes at `buf` on `hobj`.
        ///
        /// # Safety
        /// `md` and `pmo` must each be null or point to a readable and writable MQMD / MQPMO of the
        /// version it declares; `buf` null or valid for `len` readable bytes; `cc` and `rc` null or
        /// valid for an MQLONG write.
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
                // SAFETY: the caller passes `md`, `pmo` and `buf` (`len` bytes) as `put` requires
                // (this fn's `# Safety`); `put` checks each for null and `len` for range.
                unsafe { $crate::api::put(hconn, hobj, md, pmo, len, buf as *const u8) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQPUT1: puts the `len` bytes at `buf` on the object `od` describes, opening and closing
        /// it.
        ///
        /// # Safety
        /// `od` must be null or point to a readable MQOD of the version it declares; `md` and `pmo`
        /// each null or point to a readable and writable MQMD / MQPMO of the version it declares;
        /// `buf` null or valid for `len` readable bytes; `cc` and `rc` null or valid for an MQLONG
        /// write.
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
                // SAFETY: the caller passes `od`, `md`, `pmo` and `buf` (`len` bytes) as `put1`
                // requires (this fn's `# Safety`); `put1` checks each for null and `len` for range.
                unsafe { $crate::api::put1(hconn, od, md, pmo, len, buf as *const u8) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQGET: gets a message from `hobj` into the `len` bytes at `buf`.
        ///
        /// # Safety
        /// `md` and `gmo` must each be null or point to a readable and writable MQMD / MQGMO of the
        /// version it declares; `buf` null or valid for `len` writable bytes; `data_len` null or
        /// valid for an MQLONG write; `cc` and `rc` null or valid for an MQLONG write.
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
                // SAFETY: the caller passes `md`, `gmo`, `buf` (`len` bytes) and `data_len` as
                // `get` requires (this fn's `# Safety`); `get` checks each for null and `len` for
                // range.
                unsafe { $crate::api::get(hconn, hobj, md, gmo, len, buf as *mut u8, data_len) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQINQ: inquires the attributes `sels` names of `hobj`.
        ///
        /// # Safety
        /// `sels` must be null or hold `sel_count` readable MQLONGs; `ints` null or hold
        /// `int_count` writable MQLONGs; `chars` null or hold `char_len` writable bytes; `cc` and
        /// `rc` null or valid for an MQLONG write.
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
                // SAFETY: the caller passes `sels`, `ints` and `chars` holding their counts (this
                // fn's `# Safety`), as `inq` requires; `inq` checks the counts and each pointer for
                // null.
                unsafe {
                    $crate::api::inq(hconn, hobj, sel_count, sels, int_count, ints, char_len, chars)
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQSET: sets the integer attributes `sels` names of `hobj` (character ones answer 2298).
        ///
        /// # Safety
        /// `sels` must be null or hold `sel_count` readable MQLONGs; `ints` null or hold
        /// `int_count` readable MQLONGs; `chars` null or hold `char_len` readable bytes; `cc` and
        /// `rc` null or valid for an MQLONG write.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQSET(
            hconn: MQLONG,
            hobj: MQLONG,
            sel_count: MQLONG,
            sels: *const MQLONG,
            int_count: MQLONG,
            ints: *const MQLONG,
            char_len: MQLONG,
            chars: *const u8,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `sels`, `ints` and `chars` holding their counts
                // (this fn's `# Safety`), as `set` requires; `set` checks the counts and each
                // pointer for null.
                unsafe {
                    $crate::api::set(
                        hconn, hobj, sel_count, sels, int_count, ints, char_len, chars,
                    )
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQCMIT: commits the connection's unit of work.
        ///
        /// # Safety
        /// `cc` and `rc` must each be null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQCMIT(hconn: MQLONG, cc: *mut MQLONG, rc: *mut MQLONG) {
            let out = $crate::api::guarded(|| $crate::api::cmit(hconn));
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQBACK: backs out the connection's unit of work.
        ///
        /// # Safety
        /// `cc` and `rc` must each be null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQBACK(hconn: MQLONG, cc: *mut MQLONG, rc: *mut MQLONG) {
            let out = $crate::api::guarded(|| $crate::api::back(hconn));
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQSTAT: the connection's asynchronous put status, into `sts`.
        ///
        /// # Safety
        /// `sts` must be null or point to a readable and writable MQSTS of the version it declares;
        /// `cc` and `rc` null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQSTAT(
            hconn: MQLONG,
            kind: MQLONG,
            sts: *mut MQSTS,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `sts` null or a readable and writable MQSTS (this fn's
                // `# Safety`), as `stat` requires; `stat` checks it for null.
                unsafe { $crate::api::stat(hconn, kind, sts) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQCRTMH: creates a message handle, into `hmsg`.
        ///
        /// # Safety
        /// `opts` must be null or point to a readable MQCMHO; `hmsg` null or valid for an MQHMSG
        /// write; `cc` and `rc` null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQCRTMH(
            hconn: MQLONG,
            opts: *const MQOPTS,
            hmsg: *mut MQHMSG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `opts` null or a readable MQCMHO and `hmsg` null or
                // valid for a write (this fn's `# Safety`), as `crtmh` requires; `crtmh` checks
                // both for null.
                unsafe { $crate::props::crtmh(hconn, opts, hmsg) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQDLTMH: deletes message handle `hmsg`, setting it to MQHM_UNUSABLE_HMSG.
        ///
        /// # Safety
        /// `hmsg` must be null or valid for an MQHMSG read and write; `opts` null or point to a
        /// readable MQDMHO; `cc` and `rc` null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQDLTMH(
            _hconn: MQLONG,
            hmsg: *mut MQHMSG,
            opts: *const MQOPTS,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `hmsg` null or valid for a read and write and `opts`
                // null or a readable MQDMHO (this fn's `# Safety`), as `dltmh` requires; `dltmh`
                // checks both for null.
                unsafe { $crate::props::dltmh(hmsg, opts) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQSETMP: sets property `name` of message handle `hmsg` to the `len` bytes at `value`.
        ///
        /// # Safety
        /// `opts` must be null or point to a readable MQSMPO; `name` null or point to a readable
        /// MQCHARV whose VSPtr is null, or holds VSLength bytes, or (VSLength MQVS_NULL_TERMINATED)
        /// is a null-terminated string; `pd` null or a readable MQPD; `value` null, or holding
        /// `len` readable bytes, or (MQTYPE_STRING, `len` MQVL_NULL_TERMINATED) a null-terminated
        /// string; `cc` and `rc` null or valid for an MQLONG write.
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
                // SAFETY: the caller passes `opts`, `name`, `pd` and `value` (`len` bytes) as
                // `setmp` requires (this fn's `# Safety`); `setmp` checks each for null and `len`
                // for range.
                unsafe { $crate::props::setmp(hmsg, opts, name, pd, kind, len, value as *const u8) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQINQMP: inquires the property of message handle `hmsg` that `name` matches.
        ///
        /// # Safety
        /// `opts` must be null or point to a readable and writable MQIMPO whose ReturnedName.VSPtr
        /// is null or holds ReturnedName.VSBufSize (non-negative) writable bytes; `name` null or
        /// point to a readable MQCHARV whose VSPtr is null, or holds VSLength bytes, or (VSLength
        /// MQVS_NULL_TERMINATED) is a null-terminated string; `pd` null or a readable MQPD; `kind`
        /// null or valid for an MQLONG read and write; `value` null or valid for `len` writable
        /// bytes; `data_len` null or valid for an MQLONG write; `cc` and `rc` null or valid for an
        /// MQLONG write.
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
                // SAFETY: the caller passes `opts`, `name`, `pd`, `kind`, `value` (`len` bytes) and
                // `data_len` as `inqmp` requires (this fn's `# Safety`); `inqmp` checks each for
                // null and `len` for range.
                unsafe {
                    $crate::props::inqmp(
                        hmsg,
                        opts,
                        name,
                        pd,
                        kind,
                        len,
                        value as *mut u8,
                        data_len,
                    )
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQDLTMP: deletes property `name` of message handle `hmsg`.
        ///
        /// # Safety
        /// `opts` must be null or point to a readable MQDMPO; `name` null or point to a readable
        /// MQCHARV whose VSPtr is null, or holds VSLength bytes, or (VSLength MQVS_NULL_TERMINATED)
        /// is a null-terminated string; `cc` and `rc` null or valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQDLTMP(
            _hconn: MQLONG,
            hmsg: MQHMSG,
            opts: *const MQOPTS,
            name: *const MQCHARV,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `opts` and `name` as `dltmp` requires (this fn's
                // `# Safety`); `dltmp` checks both for null.
                unsafe { $crate::props::dltmp(hmsg, opts, name) }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQBUFMH: the MQRFH2 at the start of a buffer into a message handle's properties.
        ///
        /// # Safety
        /// `opts` null or a readable MQBMHO; `md` null or a readable and writable MQMD; `buf`
        /// null or valid for `len` readable and writable bytes; `data_len`, `cc` and `rc` each
        /// null or valid for an MQLONG write.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQBUFMH(
            _hconn: MQLONG,
            hmsg: MQHMSG,
            opts: *mut c_void,
            md: *mut c_void,
            len: MQLONG,
            buf: *mut c_void,
            data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes the arguments as `bufmh` requires (this fn's
                // `# Safety`); it checks each pointer for null.
                unsafe {
                    $crate::buffers::bufmh(
                        hmsg,
                        opts as *const MQOPTS,
                        md as *mut $crate::structs::MQMD,
                        len,
                        buf as *mut u8,
                        data_len,
                    )
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQMHBUF: a message handle's properties into an MQRFH2 at the start of a buffer.
        ///
        /// # Safety
        /// `opts` null or a readable MQMHBO; `name` null or a readable MQCHARV (as MQINQMP's);
        /// `md` null or a readable and writable MQMD; `buf` null or valid for `len` writable
        /// bytes; `data_len`, `cc` and `rc` each null or valid for an MQLONG write.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQMHBUF(
            _hconn: MQLONG,
            hmsg: MQHMSG,
            opts: *mut c_void,
            name: *mut c_void,
            md: *mut c_void,
            len: MQLONG,
            buf: *mut c_void,
            data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes the arguments as `mhbuf` requires (this fn's
                // `# Safety`); it checks each pointer for null.
                unsafe {
                    $crate::buffers::mhbuf(
                        hmsg,
                        opts as *const MQOPTS,
                        name as *const MQCHARV,
                        md as *mut $crate::structs::MQMD,
                        len,
                        buf as *mut u8,
                        data_len,
                    )
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQSUB: subscribes; the queue handle in `hobj` (given for a provided subscription,
        /// returned for a managed one) and the subscription handle in `hsub`.
        ///
        /// # Safety
        /// `sd` must be null or a readable MQSD whose MQCHARVs describe readable strings;
        /// `hobj` null or valid for an MQLONG read and write; `hsub`, `cc` and `rc` each null or
        /// valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQSUB(
            hconn: MQLONG,
            sd: *mut c_void,
            hobj: *mut MQLONG,
            hsub: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            // SAFETY: the caller passes `sd`, `hobj` and `hsub` as this fn's `# Safety` says;
            // `subscribe` checks each pointer for null.
            let out = unsafe {
                $crate::api::subscribe(hconn, sd as *mut $crate::structs::MQSD, hobj, hsub)
            };
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQSUBRQ: with MQSR_ACTION_PUBLISH, sends the subscription the retained publications
        /// it matches (NumPubs of the MQSRO, when given, says how many).
        ///
        /// # Safety
        /// `opts` must be null or a readable and writable MQSRO; `cc` and `rc` each null or
        /// valid for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQSUBRQ(
            hconn: MQLONG,
            hsub: MQLONG,
            action: MQLONG,
            opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            // SAFETY: the caller passes `opts` as this fn's `# Safety` says; `sub_request`
            // checks it for null.
            let out = unsafe {
                $crate::api::sub_request(hconn, hsub, action, opts as *mut $crate::structs::MQSRO)
            };
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQCB: registers, deregisters, suspends or resumes a message consumer or event
        /// handler (asynchronous consumption, `consume.rs`).
        ///
        /// # Safety
        /// `cbd`, `md` and `gmo` must each be null or point to a readable MQCBD / MQMD /
        /// MQGMO, the MQCBD's function an MQCB_FUNCTION; `cc` and `rc` each null or valid for
        /// an MQLONG write.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQCB(
            hconn: MQLONG,
            operation: MQLONG,
            cbd: *mut c_void,
            hobj: MQLONG,
            md: *mut c_void,
            gmo: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `cbd`, `md` and `gmo` as this fn's `# Safety`
                // says; `cb` checks each for null.
                unsafe {
                    $crate::consume::cb(
                        hconn,
                        operation,
                        cbd as *const $crate::consume::MQCBD,
                        hobj,
                        md as *const $crate::structs::MQMD,
                        gmo as *const $crate::structs::MQGMO,
                    )
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQCTL: starts (on a thread of its own, or on the caller's with MQOP_START_WAIT),
        /// stops, suspends or resumes a connection's message consumers.
        ///
        /// # Safety
        /// `opts` must be null or point to a readable MQCTLO; `cc` and `rc` each null or valid
        /// for an MQLONG write.
        #[no_mangle]
        pub unsafe extern "C" fn MQCTL(
            hconn: MQLONG,
            operation: MQLONG,
            opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            let out = $crate::api::guarded(|| {
                // SAFETY: the caller passes `opts` null or a readable MQCTLO (this fn's
                // `# Safety`); `ctl` checks it for null.
                unsafe {
                    $crate::consume::ctl(hconn, operation, opts as *const $crate::consume::MQCTLO)
                }
            });
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQBEGIN: global units of work are not offered (MQRC_FUNCTION_NOT_SUPPORTED).
        ///
        /// # Safety
        /// `cc` and `rc` must each be null or valid for an MQLONG write; the other arguments are
        /// not read.
        #[no_mangle]
        pub unsafe extern "C" fn MQBEGIN(
            _hconn: MQLONG,
            _opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, $crate::api::not_supported("MQBEGIN")) }
        }

        /// MQXCNVC: converts characters between two coded character sets. Data already in the
        /// target's CCSID is copied (MQRC_CONVERTED_STRING_TRUNCATED when it does not fit);
        /// other conversions are not offered (2298, logged).
        ///
        /// # Safety
        /// `src` must be null or hold `src_len` readable bytes; `dst` null or hold `dst_len`
        /// writable bytes; `data_len`, `cc` and `rc` each null or valid for an MQLONG write.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn MQXCNVC(
            _hconn: MQLONG,
            _options: MQLONG,
            src_ccsid: MQLONG,
            src_len: MQLONG,
            src: *const u8,
            dst_ccsid: MQLONG,
            dst_len: MQLONG,
            dst: *mut u8,
            data_len: *mut MQLONG,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            // SAFETY: the caller passes the buffers and `data_len` as this fn's `# Safety` says,
            // which is what `convert_chars` requires.
            let out = unsafe {
                $crate::api::convert_chars((src_ccsid, src_len, src), (dst_ccsid, dst_len, dst), data_len)
            };
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }

        /// MQXEP: registers an API exit's entry point. FerryMQ does not load exits: 2298, logged.
        ///
        /// # Safety
        /// `cc` and `rc` must each be null or valid for an MQLONG write; the other arguments are
        /// not read.
        #[no_mangle]
        pub unsafe extern "C" fn MQXEP(
            _hconfig: *mut c_void,
            _exit_reason: MQLONG,
            _function: MQLONG,
            _entry: *mut c_void,
            _opts: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, $crate::api::not_supported("MQXEP")) }
        }

        /// MQXCLWLN: navigates a cluster workload exit's records. FerryMQ has no clusters:
        /// 2298, logged.
        ///
        /// # Safety
        /// `cc` and `rc` must each be null or valid for an MQLONG write; the other arguments are
        /// not read.
        #[no_mangle]
        pub unsafe extern "C" fn MQXCLWLN(
            _parms: *mut c_void,
            _current: *mut c_void,
            _next_offset: MQLONG,
            _next: *mut c_void,
            cc: *mut MQLONG,
            rc: *mut MQLONG,
        ) {
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for an
            // MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, $crate::api::not_supported("MQXCLWLN")) }
        }

        // The MQAI calls (cmqbc.h): data bags (`bags`); the command calls answer 2298.
        $crate::export_mqai_call!(
            /// mqCreateBag: creates a bag, its handle into `hbag`.
            ///
            /// # Safety
            /// `hbag` must be null or valid for an MQLONG write;
            mqCreateBag(options: MQLONG, hbag: *mut MQLONG) =>
            // SAFETY: the caller passes `hbag` null or valid for an MQLONG write (this call's
            // `# Safety`), as `bags::create` requires; it checks for null.
            unsafe { $crate::bags::create(options, hbag) }
        );
        $crate::export_mqai_call!(
            /// mqDeleteBag: deletes bag `*hbag`, setting the handle to MQHB_UNUSABLE_HBAG.
            ///
            /// # Safety
            /// `hbag` must be null or valid for an MQLONG read and write;
            mqDeleteBag(hbag: *mut MQLONG) =>
            // SAFETY: the caller passes `hbag` null or valid for an MQLONG read and write (this
            // call's `# Safety`), as `bags::delete` requires; it checks for null.
            unsafe { $crate::bags::delete(hbag) }
        );
        $crate::export_mqai_call!(
            /// mqClearBag: deletes every user item of bag `hbag`.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqClearBag(hbag: MQLONG) =>
            $crate::bags::clear(hbag)
        );
        $crate::export_mqai_call!(
            /// mqTruncateBag: keeps the first `count` user items of bag `hbag`.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqTruncateBag(hbag: MQLONG, count: MQLONG) =>
            $crate::bags::truncate(hbag, count)
        );
        $crate::export_mqai_call!(
            /// mqCountItems: the number of items `sel` picks out, into `count`.
            ///
            /// # Safety
            /// `count` must be null or valid for an MQLONG write;
            mqCountItems(hbag: MQLONG, sel: MQLONG, count: *mut MQLONG) =>
            // SAFETY: the caller passes `count` null or valid for an MQLONG write (this call's
            // `# Safety`), as `bags::count` requires; it checks for null.
            unsafe { $crate::bags::count(hbag, sel, count) }
        );
        $crate::export_mqai_call!(
            /// mqDeleteItem: deletes item (`sel`, `index`).
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqDeleteItem(hbag: MQLONG, sel: MQLONG, index: MQLONG) =>
            $crate::bags::delete_item(hbag, sel, index)
        );
        $crate::export_mqai_call!(
            /// mqAddInteger.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqAddInteger(hbag: MQLONG, sel: MQLONG, value: MQLONG) =>
            // SAFETY: an integer (or bag-handle) item carries no pointer, so `bags::add` reads no
            // caller memory.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::Integer(value)) }
        );
        $crate::export_mqai_call!(
            /// mqAddInteger64.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqAddInteger64(hbag: MQLONG, sel: MQLONG, value: i64) =>
            // SAFETY: an integer (or bag-handle) item carries no pointer, so `bags::add` reads no
            // caller memory.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::Integer64(value)) }
        );
        $crate::export_mqai_call!(
            /// mqAddIntegerFilter.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqAddIntegerFilter(hbag: MQLONG, sel: MQLONG, value: MQLONG, op: MQLONG) =>
            // SAFETY: an integer (or bag-handle) item carries no pointer, so `bags::add` reads no
            // caller memory.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::IntegerFilter(value, op)) }
        );
        $crate::export_mqai_call!(
            /// mqAddString.
            ///
            /// # Safety
            /// `buf` must be null, or hold `len` readable bytes, or (`len` MQBL_NULL_TERMINATED) be
            /// a null-terminated string;
            mqAddString(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8) =>
            // SAFETY: the caller passes `buf` null, `len` bytes or a null-terminated string (this
            // call's `# Safety`), as `bags::add` requires; it checks `buf` for null and `len` for
            // range.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::String(len, buf)) }
        );
        $crate::export_mqai_call!(
            /// mqAddStringFilter.
            ///
            /// # Safety
            /// `buf` must be null, or hold `len` readable bytes, or (`len` MQBL_NULL_TERMINATED) be
            /// a null-terminated string;
            mqAddStringFilter(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8, op: MQLONG) =>
            // SAFETY: the caller passes `buf` null, `len` bytes or a null-terminated string (this
            // call's `# Safety`), as `bags::add` requires; it checks `buf` for null and `len` for
            // range.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::StringFilter(len, buf, op)) }
        );
        $crate::export_mqai_call!(
            /// mqAddByteString.
            ///
            /// # Safety
            /// `buf` must be null or hold `len` readable bytes;
            mqAddByteString(hbag: MQLONG, sel: MQLONG, len: MQLONG, buf: *const u8) =>
            // SAFETY: the caller passes `buf` null or holding `len` bytes (this call's `# Safety`),
            // as `bags::add` requires; it checks `buf` for null and `len` for range.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::ByteString(len, buf)) }
        );
        $crate::export_mqai_call!(
            /// mqAddByteStringFilter.
            ///
            /// # Safety
            /// `buf` must be null or hold `len` readable bytes;
            mqAddByteStringFilter(
                hbag: MQLONG,
                sel: MQLONG,
                len: MQLONG,
                buf: *const u8,
                op: MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` bytes (this call's `# Safety`),
            // as `bags::add` requires; it checks `buf` for null and `len` for range.
            unsafe {
                $crate::bags::add(hbag, sel, $crate::bags::Item::ByteStringFilter(len, buf, op))
            }
        );
        $crate::export_mqai_call!(
            /// mqAddBag: nests group bag `item`.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqAddBag(hbag: MQLONG, sel: MQLONG, item: MQLONG) =>
            // SAFETY: an integer (or bag-handle) item carries no pointer, so `bags::add` reads no
            // caller memory.
            unsafe { $crate::bags::add(hbag, sel, $crate::bags::Item::Bag(item)) }
        );
        $crate::export_mqai_call!(
            /// mqAddInquiry.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqAddInquiry(hbag: MQLONG, sel: MQLONG) =>
            $crate::bags::add_inquiry(hbag, sel)
        );
        $crate::export_mqai_call!(
            /// mqSetInteger.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqSetInteger(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: MQLONG) =>
            // SAFETY: an integer item carries no pointer, so `bags::set` reads no caller memory.
            unsafe { $crate::bags::set(hbag, sel, index, $crate::bags::Item::Integer(value)) }
        );
        $crate::export_mqai_call!(
            /// mqSetInteger64.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqSetInteger64(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: i64) =>
            // SAFETY: an integer item carries no pointer, so `bags::set` reads no caller memory.
            unsafe { $crate::bags::set(hbag, sel, index, $crate::bags::Item::Integer64(value)) }
        );
        $crate::export_mqai_call!(
            /// mqSetString.
            ///
            /// # Safety
            /// `buf` must be null, or hold `len` readable bytes, or (`len` MQBL_NULL_TERMINATED) be
            /// a null-terminated string;
            mqSetString(hbag: MQLONG, sel: MQLONG, index: MQLONG, len: MQLONG, buf: *const u8) =>
            // SAFETY: the caller passes `buf` null, `len` bytes or a null-terminated string (this
            // call's `# Safety`), as `bags::set` requires; it checks `buf` for null and `len` for
            // range.
            unsafe { $crate::bags::set(hbag, sel, index, $crate::bags::Item::String(len, buf)) }
        );
        $crate::export_mqai_call!(
            /// mqSetByteString.
            ///
            /// # Safety
            /// `buf` must be null or hold `len` readable bytes;
            mqSetByteString(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *const u8,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` bytes (this call's `# Safety`),
            // as `bags::set` requires; it checks `buf` for null and `len` for range.
            unsafe { $crate::bags::set(hbag, sel, index, $crate::bags::Item::ByteString(len, buf)) }
        );
        $crate::export_mqai_call!(
            /// mqSetIntegerFilter.
            ///
            /// # Safety
            /// The call's only pointers are its completion and reason codes:
            mqSetIntegerFilter(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: MQLONG, op: MQLONG) =>
            // SAFETY: an integer filter item carries no pointer, so `bags::set` reads no caller
            // memory.
            unsafe { $crate::bags::set(hbag, sel, index, $crate::bags::Item::IntegerFilter(value, op)) }
        );
        $crate::export_mqai_call!(
            /// mqSetStringFilter.
            ///
            /// # Safety
            /// `buf` must be null, or hold `len` readable bytes, or (`len` MQBL_NULL_TERMINATED) be
            /// a null-terminated string;
            mqSetStringFilter(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *const u8,
                op: MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null, `len` bytes or a null-terminated string (this
            // call's `# Safety`), as `bags::set` requires; it checks `buf` for null and `len` for
            // range.
            unsafe { $crate::bags::set(hbag, sel, index, $crate::bags::Item::StringFilter(len, buf, op)) }
        );
        $crate::export_mqai_call!(
            /// mqSetByteStringFilter.
            ///
            /// # Safety
            /// `buf` must be null or hold `len` readable bytes;
            mqSetByteStringFilter(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *const u8,
                op: MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` bytes (this call's `# Safety`),
            // as `bags::set` requires; it checks `buf` for null and `len` for range.
            unsafe {
                $crate::bags::set(hbag, sel, index, $crate::bags::Item::ByteStringFilter(len, buf, op))
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireInteger.
            ///
            /// # Safety
            /// `value` must be null or valid for an MQLONG write;
            mqInquireInteger(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut MQLONG) =>
            // SAFETY: the caller passes `value` null or valid for an MQLONG write (this call's
            // `# Safety`), as `bags::inquire` requires; it checks each for null.
            unsafe { $crate::bags::inquire(hbag, sel, index, $crate::bags::Query::Integer(value)) }
        );
        $crate::export_mqai_call!(
            /// mqInquireInteger64.
            ///
            /// # Safety
            /// `value` must be null or valid for an i64 (MQINT64) write;
            mqInquireInteger64(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut i64) =>
            // SAFETY: the caller passes `value` null or valid for an i64 write (this call's
            // `# Safety`), as `bags::inquire` requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(hbag, sel, index, $crate::bags::Query::Integer64(value))
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireIntegerFilter.
            ///
            /// # Safety
            /// `value` and `op` must each be null or valid for an MQLONG write;
            mqInquireIntegerFilter(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                value: *mut MQLONG,
                op: *mut MQLONG,
            ) =>
            // SAFETY: the caller passes `value` and `op` each null or valid for an MQLONG write
            // (this call's `# Safety`), as `bags::inquire` requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(
                    hbag,
                    sel,
                    index,
                    $crate::bags::Query::IntegerFilter(value, op),
                )
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireString.
            ///
            /// # Safety
            /// `buf` must be null or valid for `len` writable bytes; `out_len` and `ccsid` each
            /// null or valid for an MQLONG write;
            mqInquireString(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *mut u8,
                out_len: *mut MQLONG,
                ccsid: *mut MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes, `out_len` and
            // `ccsid` each null or valid for an MQLONG write (this call's `# Safety`), as
            // `bags::inquire` requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(
                    hbag,
                    sel,
                    index,
                    $crate::bags::Query::String(len, buf, out_len, ccsid),
                )
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireStringFilter.
            ///
            /// # Safety
            /// `buf` must be null or valid for `len` writable bytes; `out_len`, `ccsid` and `op`
            /// each null or valid for an MQLONG write;
            mqInquireStringFilter(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *mut u8,
                out_len: *mut MQLONG,
                ccsid: *mut MQLONG,
                op: *mut MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes, `out_len`,
            // `ccsid` and `op` each null or valid for an MQLONG write (this call's `# Safety`), as
            // `bags::inquire` requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(
                    hbag,
                    sel,
                    index,
                    $crate::bags::Query::StringFilter(len, buf, out_len, ccsid, op),
                )
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireByteString.
            ///
            /// # Safety
            /// `buf` must be null or valid for `len` writable bytes; `out_len` null or valid for an
            /// MQLONG write;
            mqInquireByteString(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *mut u8,
                out_len: *mut MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes and `out_len`
            // null or valid for an MQLONG write (this call's `# Safety`), as `bags::inquire`
            // requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(
                    hbag,
                    sel,
                    index,
                    $crate::bags::Query::ByteString(len, buf, out_len),
                )
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireByteStringFilter.
            ///
            /// # Safety
            /// `buf` must be null or valid for `len` writable bytes; `out_len` and `op` each null
            /// or valid for an MQLONG write;
            mqInquireByteStringFilter(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                len: MQLONG,
                buf: *mut u8,
                out_len: *mut MQLONG,
                op: *mut MQLONG,
            ) =>
            // SAFETY: the caller passes `buf` null or holding `len` writable bytes, `out_len` and
            // `op` each null or valid for an MQLONG write (this call's `# Safety`), as
            // `bags::inquire` requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(
                    hbag,
                    sel,
                    index,
                    $crate::bags::Query::ByteStringFilter(len, buf, out_len, op),
                )
            }
        );
        $crate::export_mqai_call!(
            /// mqInquireBag.
            ///
            /// # Safety
            /// `value` must be null or valid for an MQLONG write;
            mqInquireBag(hbag: MQLONG, sel: MQLONG, index: MQLONG, value: *mut MQLONG) =>
            // SAFETY: the caller passes `value` null or valid for an MQLONG write (this call's
            // `# Safety`), as `bags::inquire` requires; it checks each for null.
            unsafe { $crate::bags::inquire(hbag, sel, index, $crate::bags::Query::Bag(value)) }
        );
        $crate::export_mqai_call!(
            /// mqInquireItemInfo.
            ///
            /// # Safety
            /// `out_sel` and `item_type` must each be null or valid for an MQLONG write;
            mqInquireItemInfo(
                hbag: MQLONG,
                sel: MQLONG,
                index: MQLONG,
                out_sel: *mut MQLONG,
                item_type: *mut MQLONG,
            ) =>
            // SAFETY: the caller passes `out_sel` and `item_type` each null or valid for an MQLONG
            // write (this call's `# Safety`), as `bags::inquire` requires; it checks each for null.
            unsafe {
                $crate::bags::inquire(
                    hbag,
                    sel,
                    index,
                    $crate::bags::Query::ItemInfo(out_sel, item_type),
                )
            }
        );
        $crate::export_mqai_call!(
            /// mqTrim: the blank-padded field at `buf` without its trailing blanks,
            /// null-terminated, into `out`.
            ///
            /// # Safety
            /// `buf` must be null or valid for `len` readable bytes; `out` null or valid for `len +
            /// 1` writable bytes;
            mqTrim(len: MQLONG, buf: *const u8, out: *mut u8) =>
            // SAFETY: the caller passes `buf` null or holding `len` bytes and `out` null or holding
            // `len + 1` (this call's `# Safety`), as `bags::trim` requires; it checks both for null
            // and `len` for range.
            unsafe { $crate::bags::trim(len, buf, out) }
        );
        $crate::export_mqai_call!(
            /// mqPad: the null-terminated string `s`, blank-padded to `len` bytes, into `buf`.
            ///
            /// # Safety
            /// `s` must be null or a null-terminated string; `buf` null or valid for `len` writable
            /// bytes;
            mqPad(s: *const u8, len: MQLONG, buf: *mut u8) =>
            // SAFETY: the caller passes `s` null or a null-terminated string and `buf` null or
            // holding `len` bytes (this call's `# Safety`), as `bags::pad` requires; it checks both
            // for null and `len` for range.
            unsafe { $crate::bags::pad(s, len, buf) }
        );
        $crate::export_mqai_call!(
            /// mqExecute: not offered by this library (MQRC_FUNCTION_NOT_SUPPORTED, logged); send PCF
            /// to SYSTEM.ADMIN.COMMAND.QUEUE, whose command server answers it.
            ///
            /// # Safety
            /// No argument is read but the completion and reason codes:
            mqExecute(
                _hconn: MQLONG,
                _command: MQLONG,
                _options_bag: MQLONG,
                _admin_bag: MQLONG,
                _response_bag: MQLONG,
                _admin_q: MQLONG,
                _response_q: MQLONG,
            ) =>
            $crate::api::not_supported("mqExecute")
        );
        $crate::export_mqai_call!(
            /// mqPutBag: not supported yet.
            ///
            /// # Safety
            /// No argument is read but the completion and reason codes:
            mqPutBag(
                _hconn: MQLONG,
                _hobj: MQLONG,
                _md: *mut c_void,
                _pmo: *mut c_void,
                _hbag: MQLONG,
            ) =>
            $crate::api::not_supported("mqPutBag")
        );
        $crate::export_mqai_call!(
            /// mqGetBag: not supported yet.
            ///
            /// # Safety
            /// No argument is read but the completion and reason codes:
            mqGetBag(
                _hconn: MQLONG,
                _hobj: MQLONG,
                _md: *mut c_void,
                _gmo: *mut c_void,
                _hbag: MQLONG,
            ) =>
            $crate::api::not_supported("mqGetBag")
        );
        $crate::export_mqai_call!(
            /// mqBagToBuffer: not supported yet.
            ///
            /// # Safety
            /// No argument is read but the completion and reason codes:
            mqBagToBuffer(
                _options_bag: MQLONG,
                _data_bag: MQLONG,
                _len: MQLONG,
                _buf: *mut c_void,
                _data_len: *mut MQLONG,
            ) =>
            $crate::api::not_supported("mqBagToBuffer")
        );
        $crate::export_mqai_call!(
            /// mqBufferToBag: not supported yet.
            ///
            /// # Safety
            /// No argument is read but the completion and reason codes:
            mqBufferToBag(
                _options_bag: MQLONG,
                _len: MQLONG,
                _buf: *mut c_void,
                _data_bag: MQLONG,
            ) =>
            $crate::api::not_supported("mqBufferToBag")
        );
    };
}

/// Expands one exported MQAI call (cmqbc.h): its doc (ending in its `# Safety` section, which
/// this completes with the completion and reason codes), its arguments, then the completion and
/// reason codes every MQAI call ends with. Used by [`export_mqi!`].
#[doc(hidden)]
#[macro_export]
macro_rules! export_mqai_call {
    ($(#[$attr:meta])* $name:ident($($arg:ident: $ty:ty),* $(,)?) => $body:expr) => {
        $(#[$attr])*
        /// `cc` and `rc` must each be null or valid for an MQLONG write.
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "C" fn $name(
            $($arg: $ty,)*
            cc: *mut $crate::structs::MQLONG,
            rc: *mut $crate::structs::MQLONG,
        ) {
            let out = $crate::api::guarded(|| $body);
            // SAFETY: the caller passes `cc` and `rc` (CompCode, Reason) each null or valid for
            // an MQLONG write (this fn's `# Safety`); `report` checks each for null.
            unsafe { $crate::api::report(cc, rc, out) }
        }
    };
}

#[cfg(test)]
mod exported {
    //! The entry points, expanded here as well: the library crates expand [`export_mqi!`] from
    //! another crate, where this crate's lints (`unsafe_op_in_unsafe_fn` among them) do not
    //! reach the code it generates; here they check it.

    crate::export_mqi!(crate::Mode::Local);
}
