//! Password checks against this machine's accounts through PAM (AUTHINFO AUTHTYPE(IDPWOS)).
//!
//! PAM is loaded when first used (`libpam.so.0`, present on every Linux distribution with
//! logins), so building FerryMQ needs no PAM headers and a machine without PAM only loses
//! IDPWOS, with a sentence saying so. The service is `ferrymq`: without
//! `/etc/pam.d/ferrymq`, PAM uses its `other` policy (on Debian and Ubuntu: the system's
//! `common-auth` and `common-account`).
//!
//! Reading other users' password hashes takes privilege: run as root, `pam_unix` checks any
//! account; run as an ordinary user it checks only that user's own password (through
//! `unix_chkpwd`). A site with a directory (LDAP, SSSD) configures `/etc/pam.d/ferrymq`.
//!
//! A call blocks its thread for as long as the PAM modules take (pam_unix waits about two
//! seconds after a wrong password): callers run it on a blocking pool.

#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void, CString};
use std::sync::OnceLock;

/// The PAM service FerryMQ authenticates as.
pub const SERVICE: &str = "ferrymq";

#[repr(C)]
struct PamMessage {
    style: c_int,
    msg: *const c_char,
}

#[repr(C)]
struct PamResponse {
    resp: *mut c_char,
    retcode: c_int,
}

type ConvFn =
    extern "C" fn(c_int, *mut *const PamMessage, *mut *mut PamResponse, *mut c_void) -> c_int;

#[repr(C)]
struct PamConv {
    conv: ConvFn,
    appdata: *mut c_void,
}

type StartFn =
    unsafe extern "C" fn(*const c_char, *const c_char, *const PamConv, *mut *mut c_void) -> c_int;
type HandleFn = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;

const PAM_SUCCESS: c_int = 0;
const PAM_PROMPT_ECHO_OFF: c_int = 1;
const PAM_PROMPT_ECHO_ON: c_int = 2;
const PAM_CONV_ERR: c_int = 19;
const PAM_SILENT: c_int = 0x8000;
const PAM_DISALLOW_NULL_AUTHTOKEN: c_int = 0x0001;

/// The functions FerryMQ calls, from the loaded library.
struct Pam {
    start: StartFn,
    authenticate: HandleFn,
    acct_mgmt: HandleFn,
    end: HandleFn,
}

// SAFETY: the table holds plain function pointers into a library that is never unloaded.
unsafe impl Send for Pam {}
// SAFETY: as above; PAM's entry points may be called from any thread with distinct handles.
unsafe impl Sync for Pam {}

fn library() -> Result<&'static Pam, String> {
    static PAM: OnceLock<Result<Pam, String>> = OnceLock::new();
    PAM.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Pam, String> {
    let lib = c"libpam.so.0";
    // SAFETY: dlopen with a valid NUL-terminated name; the handle is kept for the process's
    // life (never dlclosed), so the symbols below stay valid.
    let handle = unsafe { libc::dlopen(lib.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        return Err("this machine has no PAM library (libpam.so.0), so AUTHTYPE(IDPWOS) cannot check passwords; install libpam0g or use AUTHTYPE(IDPWFILE)".into());
    }
    let sym = |name: &std::ffi::CStr| {
        // SAFETY: `handle` is a live library handle and `name` is NUL-terminated.
        let p = unsafe { libc::dlsym(handle, name.as_ptr()) };
        if p.is_null() {
            Err(format!("the PAM library lacks {}", name.to_string_lossy()))
        } else {
            Ok(p)
        }
    };
    let (s, a, m, e) = (
        sym(c"pam_start")?,
        sym(c"pam_authenticate")?,
        sym(c"pam_acct_mgmt")?,
        sym(c"pam_end")?,
    );
    // SAFETY: each symbol is the Linux-PAM function of that name, whose C signature is the
    // one the target type spells (pam_start(service, user, conv, handle*); the others
    // (handle, flags) -> status).
    unsafe {
        Ok(Pam {
            start: std::mem::transmute::<*mut c_void, StartFn>(s),
            authenticate: std::mem::transmute::<*mut c_void, HandleFn>(a),
            acct_mgmt: std::mem::transmute::<*mut c_void, HandleFn>(m),
            end: std::mem::transmute::<*mut c_void, HandleFn>(e),
        })
    }
}

/// Answers PAM's prompts: the password for every prompt, nothing for messages.
extern "C" fn converse(
    n: c_int,
    msgs: *mut *const PamMessage,
    out: *mut *mut PamResponse,
    appdata: *mut c_void,
) -> c_int {
    if n <= 0 || msgs.is_null() || out.is_null() || appdata.is_null() {
        return PAM_CONV_ERR;
    }
    let n = n as usize;
    // SAFETY: calloc of n zeroed responses; PAM takes ownership and frees them (and each
    // `resp`) with free().
    let resp = unsafe { libc::calloc(n, std::mem::size_of::<PamResponse>()) } as *mut PamResponse;
    if resp.is_null() {
        return PAM_CONV_ERR;
    }
    let password = appdata as *const c_char;
    for i in 0..n {
        // SAFETY: Linux-PAM passes an array of `n` pointers to messages, valid for this call.
        let m = unsafe { &**msgs.add(i) };
        if m.style == PAM_PROMPT_ECHO_OFF || m.style == PAM_PROMPT_ECHO_ON {
            // SAFETY: `password` is the NUL-terminated CString `authenticate` keeps alive for
            // the whole PAM transaction; strdup copies it into memory PAM frees.
            unsafe { (*resp.add(i)).resp = libc::strdup(password) };
        }
    }
    // SAFETY: `out` is PAM's out-pointer for the response array.
    unsafe { *out = resp };
    PAM_SUCCESS
}

/// Whether `password` is `user`'s password on this machine and the account may log in now.
/// `Err` when PAM itself is unavailable.
pub fn authenticate(user: &str, password: &str) -> Result<bool, String> {
    let pam = library()?;
    let (Ok(service), Ok(c_user), Ok(c_pw)) = (
        CString::new(SERVICE),
        CString::new(user),
        CString::new(password),
    ) else {
        return Ok(false);
    };
    let conv = PamConv {
        conv: converse,
        appdata: c_pw.as_ptr() as *mut c_void,
    };
    let mut handle: *mut c_void = std::ptr::null_mut();
    // SAFETY: valid NUL-terminated strings and a conversation that outlive the transaction,
    // which ends with pam_end below on every path.
    let status = unsafe { (pam.start)(service.as_ptr(), c_user.as_ptr(), &conv, &mut handle) };
    if status != PAM_SUCCESS || handle.is_null() {
        return Err(format!("PAM could not start (status {status})"));
    }
    let flags = PAM_SILENT | PAM_DISALLOW_NULL_AUTHTOKEN;
    // SAFETY: `handle` is the live handle pam_start returned.
    let mut r = unsafe { (pam.authenticate)(handle, flags) };
    if r == PAM_SUCCESS {
        // SAFETY: as above.
        r = unsafe { (pam.acct_mgmt)(handle, flags) };
    }
    // SAFETY: ends the transaction started above; the handle is not used again.
    unsafe { (pam.end)(handle, r) };
    drop(c_pw);
    Ok(r == PAM_SUCCESS)
}

#[cfg(test)]
mod tests {
    #[test]
    fn pam_loads_and_refuses_a_wrong_password() {
        match super::authenticate("no-such-user-ferrymq", "wrong") {
            Ok(ok) => assert!(!ok),
            Err(e) => assert!(e.contains("PAM"), "{e}"),
        }
    }
}
