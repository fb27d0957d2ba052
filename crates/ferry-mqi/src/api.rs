//! The MQI calls over `ferry-client`: reading the caller's structures, mapping options to the
//! Rust API, writing the output fields and the completion and reason codes. Every entry point
//! checks its pointers and catches panics: a bad call gets a reason code, never a crash.
//!
//! Handles: an Hconn is a key into a process-wide table of connections (each behind its own
//! mutex, so a connection may be used from any thread, one call at a time — MQ's
//! MQCNO_HANDLE_SHARE_BLOCK behaviour); an Hobj is the connection's own handle number.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, SystemTime};

use ferry_client::{
    object_name, BrowseMode, ClientOptions, CloseOptions, Connection, CorrelId, GetOptions, Hobj,
    InputMode, Message, MessageType, MqError, MsgId, ObjectDescriptor, ObjectName, OpenOptions,
    Persistence, Priority, PutOptions, Reason, Selector,
};
use ferry_model::inquire::AttrValue;
use ferry_model::name::FormatName;
use ferry_model::options::PutContext;

use crate::structs::{MQCHARV, MQCNO, MQGMO, MQLONG, MQMD, MQOD, MQPMO, MQSD, MQSRO, MQSTS};

/// Which library this is: `libmqm_r` (local: the queue manager's Unix socket) or `libmqic_r`
/// (client: tcp, from MQSERVER).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// libmqm_r.
    Local,
    /// libmqic_r.
    Client,
}

pub(crate) const CC_OK: MQLONG = 0;
pub(crate) const CC_WARNING: MQLONG = 1;
pub const CC_FAILED: MQLONG = 2;
const HCONN_UNUSABLE: MQLONG = -1;
const HOBJ_UNUSABLE: MQLONG = -1;

// Reason codes the MQI layer itself reports (the rest come from the queue manager).
pub(crate) const RC_BUFFER_ERROR: u32 = 2004;
pub(crate) const RC_BUFFER_LENGTH_ERROR: u32 = 2005;
const RC_CHAR_ATTR_LENGTH_ERROR: u32 = 2006;
const RC_CHAR_ATTRS_TOO_SHORT: u32 = 2008;
const RC_DATA_LENGTH_ERROR: u32 = 2010;
const RC_HCONN_ERROR: u32 = 2018;
const RC_HOBJ_ERROR: u32 = 2019;
const RC_INT_ATTR_COUNT_ERROR: u32 = 2021;
const RC_INT_ATTR_COUNT_TOO_SMALL: u32 = 2022;
const RC_MD_ERROR: u32 = 2026;
const RC_OD_ERROR: u32 = 2044;
pub(crate) const RC_OPTIONS_ERROR: u32 = 2046;
const RC_PERSISTENCE_ERROR: u32 = 2047;
const RC_PRIORITY_ERROR: u32 = 2050;
const RC_Q_MGR_NAME_ERROR: u32 = 2058;
const RC_Q_MGR_NOT_AVAILABLE: u32 = 2059;
const RC_CLIENT_CHANNEL_CONFIG_ERROR: u32 = 2278;
const RC_SELECTOR_COUNT_ERROR: u32 = 2065;
const RC_SELECTOR_ERROR: u32 = 2067;
const RC_WAIT_INTERVAL_ERROR: u32 = 2090;
const RC_PMO_ERROR: u32 = 2173;
const RC_GMO_ERROR: u32 = 2186;
const RC_CNO_ERROR: u32 = 2139;
const RC_STS_ERROR: u32 = 2426;
const RC_UNEXPECTED_ERROR: u32 = 2195;
const RC_FUNCTION_NOT_SUPPORTED: u32 = 2298;
const RC_SELECTOR_INVALID_FOR_TYPE: u32 = 2516;
const RC_SELECTION_STRING_ERROR: u32 = 2519;

/// A failed (or warned) call: completion code and reason.
#[derive(Debug, Clone, Copy)]
pub struct Rc(pub MQLONG, pub u32);

impl Rc {
    pub(crate) fn failed(reason: u32) -> Rc {
        Rc(CC_FAILED, reason)
    }
}

impl From<MqError> for Rc {
    fn from(e: MqError) -> Rc {
        if std::env::var_os("FERRY_MQI_LOG").is_some() {
            eprintln!("ferry mqi: {e}");
        }
        let cc = match e.reason.completion() {
            ferry_model::CompletionCode::Warning => CC_WARNING,
            _ => CC_FAILED,
        };
        Rc(cc, e.reason.code())
    }
}

pub type Outcome = Result<Option<u32>, Rc>;

/// Stores the completion and reason codes (if the caller gave somewhere to store them).
///
/// # Safety
/// `cc` and `rc` must each be null or valid for a write.
pub unsafe fn report(cc: *mut MQLONG, rc: *mut MQLONG, out: Outcome) {
    let (c, r) = match out {
        Ok(None) => (CC_OK, 0),
        Ok(Some(warning)) => (CC_WARNING, warning),
        Err(Rc(c, r)) => (c, r),
    };
    if !cc.is_null() {
        // SAFETY: the caller passes `cc` as null or valid for an MQLONG write (this fn's
        // contract: the MQI call's CompCode output), checked non-null just above.
        unsafe { *cc = c };
    }
    if !rc.is_null() {
        // SAFETY: the caller passes `rc` as null or valid for an MQLONG write (this fn's
        // contract: the MQI call's Reason output), checked non-null just above.
        unsafe { *rc = r as MQLONG };
    }
}

/// Runs `f`, turning a panic into MQRC_UNEXPECTED_ERROR.
pub fn guarded(f: impl FnOnce() -> Outcome) -> Outcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or(Err(Rc::failed(RC_UNEXPECTED_ERROR)))
}

struct Conn {
    conn: Connection,
}

static CONNS: LazyLock<Mutex<HashMap<MQLONG, Arc<Mutex<Conn>>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));
static NEXT_HCONN: AtomicI32 = AtomicI32::new(1);

fn conn(hconn: MQLONG) -> Result<Arc<Mutex<Conn>>, Rc> {
    CONNS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&hconn)
        .cloned()
        .ok_or(Rc::failed(RC_HCONN_ERROR))
}

/// Fails with MQRC_HCONN_ERROR unless `hconn` is a live connection.
pub(crate) fn check_hconn(hconn: MQLONG) -> Result<(), Rc> {
    conn(hconn).map(|_| ())
}

pub(crate) fn with_conn<T>(
    hconn: MQLONG,
    f: impl FnOnce(&mut Connection) -> Result<T, Rc>,
) -> Result<T, Rc> {
    let c = conn(hconn)?;
    let mut g = c.lock().unwrap_or_else(|p| p.into_inner());
    f(&mut g.conn)
}

/// A fixed-length MQI character field as a string: up to the first NUL, trailing blanks cut.
pub fn text(b: &[u8]) -> String {
    let end = b.iter().position(|c| *c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).trim_end().to_owned()
}

/// Writes `s` into a fixed-length field, blank-padded (cut if longer).
pub fn put_text(dst: &mut [u8], s: &str) {
    dst.fill(b' ');
    let n = s.len().min(dst.len());
    dst[..n].copy_from_slice(&s.as_bytes()[..n]);
}

fn opt_name(b: &[u8]) -> Result<ObjectName, Rc> {
    let s = text(b);
    if s.is_empty() {
        Ok(ObjectName::EMPTY)
    } else {
        object_name(&s).map_err(Rc::from)
    }
}

// ----- connect ---------------------------------------------------------------------------

/// The program's name, for the connection's application name.
fn program_name() -> String {
    std::env::args()
        .next()
        .and_then(|a| {
            std::path::Path::new(&a)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "mqi application".to_owned())
}

/// Where a connection goes: FERRY_CONNECT (any connection string) first; then, for the local
/// library, the named queue manager's Unix socket in the FerryMQ home; for the client
/// library, MQSERVER (`CHANNEL/TCP/host(port)`, or `CHANNEL/QUIC/host(port)` for QUIC).
fn endpoint(mode: Mode, qmgr: &str) -> Result<String, Rc> {
    if let Ok(ep) = std::env::var("FERRY_CONNECT") {
        if !ep.is_empty() {
            return Ok(ep);
        }
    }
    match mode {
        Mode::Local => {
            let home = ferry_host::home::default_home();
            let name = if qmgr.is_empty() {
                match std::env::var("FERRY_DEFAULT_QMGR") {
                    Ok(n) if !n.is_empty() => n,
                    _ => {
                        let all = ferry_host::home::list(&home);
                        match all.as_slice() {
                            [one] => one.clone(),
                            _ => return Err(Rc::failed(RC_Q_MGR_NAME_ERROR)),
                        }
                    }
                }
            } else {
                qmgr.to_owned()
            };
            let sock = ferry_host::home::qm_dir(&home, &name).join(ferry_server_socket());
            if !sock.exists() {
                return Err(Rc::failed(RC_Q_MGR_NOT_AVAILABLE));
            }
            Ok(format!("unix:{}", sock.display()))
        }
        Mode::Client => {
            let server =
                std::env::var("MQSERVER").map_err(|_| Rc::failed(RC_Q_MGR_NOT_AVAILABLE))?;
            // CHANNEL/TCP/host(port), or FerryMQ's CHANNEL/QUIC/host(port)
            let mut parts = server.splitn(3, '/');
            let (_channel, transport, conname) = (parts.next(), parts.next(), parts.next());
            let scheme = match transport.map(str::to_ascii_uppercase).as_deref() {
                Some("TCP") => "tcp",
                Some("QUIC") => "quic",
                _ => return Err(Rc::failed(RC_Q_MGR_NOT_AVAILABLE)),
            };
            let conname = conname.ok_or(Rc::failed(RC_Q_MGR_NOT_AVAILABLE))?;
            let (host, port) = match conname.split_once('(') {
                Some((h, p)) => (h.trim(), p.trim_end_matches(')').trim()),
                None => (conname.trim(), "1414"),
            };
            Ok(format!("{scheme}://{host}:{port}"))
        }
    }
}

/// Offsets in MQCD and MQSCO (cmqxc.h; samples/layout.c checks them against the documented
/// lengths).
mod layout {
    pub const CD_VERSION: usize = 20;
    pub const CD_CONNECTION_NAME: usize = 1024;
    pub const CD_CONNECTION_NAME_LEN: usize = 264;
    pub const CD_SSL_CIPHER_SPEC: usize = 1688;
    pub const CD_SSL_PEER_NAME_PTR: usize = 1720;
    pub const CD_SSL_PEER_NAME_LEN: usize = 1728;
    pub const SCO_KEY_REPOSITORY: usize = 8;
}

const RC_KEY_REPOSITORY_ERROR: u32 = 2381;

/// `len` bytes at `offset` into the caller's structure at `base` (a field of an MQCD or MQSCO,
/// whose layouts `layout` gives).
///
/// # Safety
/// `base` must point to a readable structure at least `offset + len` bytes long that stays
/// unchanged for `'a`.
unsafe fn field<'a>(base: *const u8, offset: usize, len: usize) -> &'a [u8] {
    // SAFETY: the caller guarantees `offset + len` readable bytes at `base`, so `base + offset`
    // stays inside that structure.
    let start = unsafe { base.add(offset) };
    // SAFETY: the caller guarantees `offset + len` readable bytes at `base`, so the `len` bytes
    // from `start` (`base + offset`, just above) are readable and unchanged for `'a`.
    unsafe { std::slice::from_raw_parts(start, len) }
}

/// The native-endian MQLONG at `offset` into the caller's structure at `base`.
///
/// # Safety
/// As [`field`], for `offset + 4` bytes.
unsafe fn long_at(base: *const u8, offset: usize) -> MQLONG {
    // SAFETY: the caller guarantees `offset + 4` readable bytes at `base` (this fn's contract).
    let b = unsafe { field(base, offset, 4) };
    MQLONG::from_ne_bytes(b.try_into().unwrap_or_default())
}

/// The CA file an MQSCO's KeyRepository names (`None` when it is blank): the path as given,
/// or with `.pem` added. Checked only when the connection asks for TLS.
///
/// # Safety
/// `sco` must point to a readable MQSCO of any version (KeyRepository is in version 1, whose
/// length, MQSCO_LENGTH_1, is 536 bytes).
unsafe fn key_repository(sco: *const u8) -> Result<Option<std::path::PathBuf>, Rc> {
    // SAFETY: the caller guarantees an MQSCO at `sco`, at least 536 bytes (MQSCO_LENGTH_1): its
    // StrucId is bytes 0..4.
    if unsafe { field(sco, 0, 4) } != b"SCO " {
        return Err(Rc::failed(RC_KEY_REPOSITORY_ERROR));
    }
    // SAFETY: the caller guarantees an MQSCO at `sco`, at least 536 bytes (MQSCO_LENGTH_1):
    // KeyRepository is bytes 8..264 of every version.
    let path = text(unsafe { field(sco, layout::SCO_KEY_REPOSITORY, 256) });
    Ok((!path.is_empty()).then(|| std::path::PathBuf::from(path)))
}

fn pem_file(path: &str) -> Result<std::path::PathBuf, Rc> {
    let p = std::path::PathBuf::from(path);
    if !path.is_empty() && p.is_file() {
        return Ok(p);
    }
    let with = std::path::PathBuf::from(format!("{path}.pem"));
    if !path.is_empty() && with.is_file() {
        return Ok(with);
    }
    Err(Rc::failed(RC_KEY_REPOSITORY_ERROR))
}

/// `host(port)` (port 1414 when none) from the first of a comma-separated ConnectionName list.
fn first_host_port(conname: &str) -> Result<(String, String), Rc> {
    let first = conname
        .split(',')
        .next()
        .unwrap_or_default()
        .trim()
        .to_owned();
    if first.is_empty() {
        return Err(Rc::failed(RC_Q_MGR_NOT_AVAILABLE));
    }
    Ok(match first.split_once('(') {
        Some((h, p)) => (
            h.trim().to_owned(),
            p.trim_end_matches(')').trim().to_owned(),
        ),
        None => (first.clone(), "1414".to_owned()),
    })
}

/// The server certificate's name an MQCD's SSLPeerName asks for (its CN), if it has one.
///
/// # Safety
/// `cd` must point to a readable MQCD of version 7 or later (SSLPeerNamePtr and
/// SSLPeerNameLength end at byte 1732; MQCD_LENGTH_7 is 1792), whose SSLPeerNamePtr is null or
/// points to SSLPeerNameLength readable bytes.
unsafe fn ssl_peer_name(cd: *const u8) -> Option<String> {
    // SAFETY: the caller guarantees a version-7+ MQCD at `cd`: SSLPeerNamePtr is the pointer at
    // bytes 1720..1728, inside it.
    let raw = unsafe { field(cd, layout::CD_SSL_PEER_NAME_PTR, size_of::<*const u8>()) };
    // SAFETY: `raw` is a pointer's worth of readable bytes (just above); read unaligned, as
    // nothing promises the byte pointer `cd` is aligned.
    let peer_ptr = unsafe { std::ptr::read_unaligned(raw.as_ptr() as *const *const u8) };
    // SAFETY: the caller guarantees a version-7+ MQCD at `cd` (at least 1792 bytes,
    // MQCD_LENGTH_7): SSLPeerNameLength is the MQLONG at bytes 1728..1732, inside it.
    let peer_len = unsafe { long_at(cd, layout::CD_SSL_PEER_NAME_LEN) };
    if peer_ptr.is_null() || peer_len <= 0 {
        return None;
    }
    // SAFETY: the caller guarantees SSLPeerNamePtr points to SSLPeerNameLength readable bytes
    // (MQCD contract); checked non-null and positive just above.
    let peer = unsafe { std::slice::from_raw_parts(peer_ptr, peer_len as usize) };
    ferry_model::objects::ssl_peer_name(&String::from_utf8_lossy(peer))
}

/// The endpoint a client channel definition (MQCD) names — its ConnectionName, `host(port)`
/// (the first of a comma-separated list) — and, when it has an SSLCipherSpec, the TLS settings
/// (CA from `key_repository`, else the MQSSLKEYR environment variable; the server's
/// certificate name from SSLPeerName's CN).
///
/// # Safety
/// `cd` must point to a readable MQCD at least as long as the version it declares
/// (MQCD_LENGTH_n), and its SSLPeerNamePtr (version 7+) be null or point to SSLPeerNameLength
/// readable bytes.
unsafe fn client_conn(
    cd: *const u8,
    key_repository: Option<std::path::PathBuf>,
) -> Result<(String, Option<ferry_client::TlsOptions>), Rc> {
    // SAFETY: the caller guarantees an MQCD at `cd`; Version is the MQLONG at bytes 20..24 of
    // every version (MQCD_LENGTH_1 is 984).
    let version = unsafe { long_at(cd, layout::CD_VERSION) };
    if version < 2 {
        // Version 1 has no ConnectionName.
        return Err(Rc::failed(RC_Q_MGR_NOT_AVAILABLE));
    }
    // SAFETY: version >= 2, checked above, so the caller's MQCD is at least MQCD_LENGTH_2 (1312)
    // bytes; ConnectionName is bytes 1024..1288.
    let conname = text(unsafe {
        field(
            cd,
            layout::CD_CONNECTION_NAME,
            layout::CD_CONNECTION_NAME_LEN,
        )
    });
    let (host, port) = first_host_port(&conname)?;
    let cipher = if version >= 7 {
        // SAFETY: version >= 7, checked just above, so the MQCD is at least MQCD_LENGTH_7 (1792)
        // bytes; SSLCipherSpec is bytes 1688..1720.
        text(unsafe { field(cd, layout::CD_SSL_CIPHER_SPEC, 32) })
    } else {
        String::new()
    };
    if cipher.is_empty() {
        return Ok((format!("tcp://{host}:{port}"), None));
    }
    // An MQSCO without a KeyRepository (pymqi always passes one) defers to MQSSLKEYR.
    let ca = match key_repository {
        Some(p) => pem_file(&p.to_string_lossy())?,
        None => pem_file(&std::env::var("MQSSLKEYR").unwrap_or_default())?,
    };
    // SAFETY: a non-empty cipher was read only from a version-7+ MQCD (above), and the caller
    // guarantees its SSLPeerNamePtr is null or holds SSLPeerNameLength bytes (this fn's contract).
    let server_name = unsafe { ssl_peer_name(cd) };
    Ok((
        format!("tls://{host}:{port}"),
        Some(ferry_client::TlsOptions {
            ca,
            server_name,
            client_cert: None,
        }),
    ))
}

/// The local socket's file name in a queue manager's directory.
const CNO_LOCAL_BINDING: MQLONG = 0x0400;
const CNO_CLIENT_BINDING: MQLONG = 0x0800;

/// MQ_CONNECT_TYPE (LOCAL or CLIENT), upper-cased.
fn connect_type() -> Option<String> {
    std::env::var("MQ_CONNECT_TYPE")
        .ok()
        .map(|t| t.trim().to_ascii_uppercase())
        .filter(|t| !t.is_empty())
}

/// Which way `libmqm_r` connects: as a client when MQCNO_CLIENT_BINDING or
/// MQ_CONNECT_TYPE=CLIENT asks, as MQ's server library does; `libmqic_r` always as a client.
fn binding(mode: Mode, cno_options: MQLONG) -> Mode {
    if mode == Mode::Local
        && (cno_options & CNO_CLIENT_BINDING != 0 || connect_type().as_deref() == Some("CLIENT"))
    {
        Mode::Client
    } else {
        mode
    }
}

fn ferry_server_socket() -> &'static str {
    "ferry.sock"
}

/// A string an MQCSP points to, if it has one.
///
/// # Safety
/// `p` must be null, or point to `len` readable bytes when `len` is positive.
unsafe fn csp_field(p: *mut std::ffi::c_void, len: MQLONG) -> Option<String> {
    if p.is_null() || len <= 0 {
        return None;
    }
    // SAFETY: the caller guarantees `p` holds `len` bytes (this fn's contract); checked
    // non-null and positive just above.
    let b = unsafe { std::slice::from_raw_parts(p as *const u8, len as usize) };
    Some(String::from_utf8_lossy(b).into_owned())
}

/// The channel MQSERVER names (`CHANNEL/TCP/host(port)`), if it is set.
fn mqserver_channel() -> Option<String> {
    let server = std::env::var("MQSERVER").ok()?;
    let channel = server.split('/').next()?.trim();
    (!channel.is_empty()).then(|| channel.to_owned())
}

/// A program that passes no MQCSP (most MQ samples and older programs) authenticates with
/// `FERRY_USER` and `FERRY_PASSWORD` from its environment, when they are set, so it runs
/// unchanged against a queue manager whose CHCKCLNT is REQUIRED. An MQCSP always wins.
fn credentials_from_env(opts: &mut ClientOptions) {
    if opts.user.is_none() && opts.password.is_none() {
        if let (Ok(u), Ok(p)) = (std::env::var("FERRY_USER"), std::env::var("FERRY_PASSWORD")) {
            opts.user = Some(u);
            opts.password = Some(p);
        }
    }
}

/// What an MQCNO asks of the connection: the client channel's endpoint (when it has an MQCD),
/// and the TLS settings, credentials and application name it carries, into `opts` and `app`.
///
/// # Safety
/// `c` must be the caller's MQCNO, whose pointers of the version it declares are each null or
/// valid: ClientConnPtr (v2+) an MQCD as [`client_conn`] requires, SSLConfigPtr (v4+) an MQSCO
/// as [`key_repository`] requires, SecurityParmsPtr (v5+) a readable MQCSP whose user and
/// password pointers are null or hold their lengths in bytes, CCDTUrlPtr (v6+) null or
/// CCDTUrlLength readable bytes. Returns the MQCD's endpoint and the CCDT URL, if given.
unsafe fn cno_settings(
    c: &MQCNO,
    opts: &mut ClientOptions,
    app: &mut String,
) -> Result<(Option<String>, Option<String>), Rc> {
    if &c.StrucId != b"CNO " || c.Version < 1 {
        return Err(Rc::failed(RC_CNO_ERROR));
    }
    let mut client_channel = None;
    if c.Version >= 2 && !c.ClientConnPtr.is_null() {
        let key_repository = if c.Version >= 4 && !c.SSLConfigPtr.is_null() {
            // SAFETY: SSLConfigPtr is in this version (4+) and non-null, both checked just above;
            // the caller guarantees it points to an MQSCO (this fn's contract).
            unsafe { key_repository(c.SSLConfigPtr as *const u8) }?
        } else {
            None
        };
        // SAFETY: ClientConnPtr is in this version (2+) and non-null, both checked above; the
        // caller guarantees it points to an MQCD as `client_conn` requires (this fn's contract).
        let (ep, tls) = unsafe { client_conn(c.ClientConnPtr as *const u8, key_repository) }?;
        client_channel = Some(ep);
        opts.tls = tls;
        // SAFETY: ClientConnPtr is non-null and points to an MQCD (this fn's contract), whose
        // first field is ChannelName, an MQCHAR20.
        let name = text(unsafe { std::slice::from_raw_parts(c.ClientConnPtr as *const u8, 20) });
        opts.svrconn = (!name.is_empty()).then_some(name);
    }
    if c.Version >= 5 && !c.SecurityParmsPtr.is_null() {
        // SAFETY: SecurityParmsPtr is in this version (5+) and non-null, both checked just above;
        // the caller guarantees it points to a readable MQCSP (this fn's contract).
        let csp = unsafe { &*c.SecurityParmsPtr };
        if csp.AuthenticationType == 1 {
            // SAFETY: the caller guarantees CSPUserIdPtr is null or holds CSPUserIdLength bytes
            // (this fn's contract); `csp_field` checks for null and a non-positive length.
            opts.user = unsafe { csp_field(csp.CSPUserIdPtr, csp.CSPUserIdLength) };
            // SAFETY: the caller guarantees CSPPasswordPtr is null or holds CSPPasswordLength
            // bytes (this fn's contract); `csp_field` checks for null and a non-positive length.
            opts.password = unsafe { csp_field(csp.CSPPasswordPtr, csp.CSPPasswordLength) };
        }
    }
    if c.Version >= 7 {
        let a = text(&c.ApplName);
        if !a.is_empty() {
            *app = a;
        }
    }
    let ccdt_url = if c.Version >= 6 {
        // SAFETY: CCDTUrlPtr is in this version (6+); the caller guarantees it is null or holds
        // CCDTUrlLength bytes (this fn's contract); `csp_field` checks null and the length.
        unsafe { csp_field(c.CCDTUrlPtr as *mut std::ffi::c_void, c.CCDTUrlLength) }
    } else {
        None
    };
    Ok((client_channel, ccdt_url))
}

/// One place a connection may go: its endpoint, and (from a CCDT) the server-connection
/// channel and TLS settings it names, and the queue manager name it must answer with.
struct Target {
    ep: String,
    channel: Option<String>,
    tls: Option<ferry_client::TlsOptions>,
    expect_qmgr: Option<String>,
    /// Conversations a socket may carry (SHARECNV), from a CCDT; 1 otherwise.
    sharing: u32,
}

impl Target {
    fn plain(ep: String) -> Target {
        Target {
            ep,
            channel: None,
            tls: None,
            expect_qmgr: None,
            sharing: 1,
        }
    }
}

/// The connections the client channel definition table (`crate::ccdt`) offers for `qmgr`,
/// when one is named (by `url`, or MQCHLLIB/MQCHLTAB); `None` when none is.
fn ccdt_targets(url: Option<&str>, qmgr: &str) -> Result<Option<Vec<Target>>, Rc> {
    let config_error = |why: String| {
        eprintln!("ferry mqi: {why} (MQRC_CLIENT_CHANNEL_CONFIG_ERROR 2278)");
        Rc::failed(RC_CLIENT_CHANNEL_CONFIG_ERROR)
    };
    let Some(path) = crate::ccdt::location(url) else {
        return Ok(None);
    };
    let table = crate::ccdt::read(&path.map_err(config_error)?).map_err(config_error)?;
    let chosen = crate::ccdt::choose(&table, qmgr);
    if chosen.is_empty() {
        eprintln!("ferry mqi: no client channel in the CCDT is for queue manager {qmgr:?} (MQRC_Q_MGR_NAME_ERROR 2058)");
        return Err(Rc::failed(RC_Q_MGR_NAME_ERROR));
    }
    let expect = (!qmgr.is_empty() && !qmgr.starts_with('*')).then(|| qmgr.to_owned());
    let mut out = Vec::new();
    for c in chosen {
        let tls = match &c.cipher {
            Some(_) => Some(ferry_client::TlsOptions {
                ca: pem_file(&std::env::var("MQSSLKEYR").unwrap_or_default())?,
                server_name: None,
                client_cert: None,
            }),
            None => None,
        };
        for (host, port) in &c.connections {
            let scheme = if tls.is_some() { "tls" } else { "tcp" };
            out.push(Target {
                ep: format!("{scheme}://{host}:{port}"),
                channel: Some(c.name.clone()),
                tls: tls.clone(),
                expect_qmgr: expect.clone(),
                sharing: c.sharing,
            });
        }
    }
    Ok(Some(out))
}

/// Where a connection goes: the MQCD's endpoint; else the library's binding or MQSERVER
/// ([`endpoint_or_client`]); else, where a client connection may be made, the CCDT's.
fn targets(
    mode: Mode,
    cno_options: MQLONG,
    qmgr: &str,
    client_channel: Option<String>,
    ccdt_url: Option<&str>,
) -> Result<Vec<Target>, Rc> {
    if let Some(ep) = client_channel {
        return Ok(vec![Target::plain(ep)]);
    }
    match endpoint_or_client(mode, cno_options, qmgr) {
        Ok(ep) => Ok(vec![Target::plain(ep)]),
        Err(rc) => {
            let local_only =
                cno_options & CNO_LOCAL_BINDING != 0 || connect_type().as_deref() == Some("LOCAL");
            let may_be_client = binding(mode, cno_options) == Mode::Client
                || (!local_only && (rc.1 == RC_Q_MGR_NOT_AVAILABLE || rc.1 == RC_Q_MGR_NAME_ERROR));
            match may_be_client {
                true => ccdt_targets(ccdt_url, qmgr)?.ok_or(rc),
                false => Err(rc),
            }
        }
    }
}

/// Where a connection without a client channel definition goes: [`endpoint`] for the
/// library's binding, or — as MQ's server library does on a machine without that queue
/// manager: with no local one to bind to and an MQSERVER set (and no local binding demanded) —
/// as a client.
fn endpoint_or_client(mode: Mode, cno_options: MQLONG, qmgr: &str) -> Result<String, Rc> {
    endpoint(binding(mode, cno_options), qmgr).or_else(|rc| {
        let local_only =
            cno_options & CNO_LOCAL_BINDING != 0 || connect_type().as_deref() == Some("LOCAL");
        if mode == Mode::Local
            && !local_only
            && (rc.1 == RC_Q_MGR_NOT_AVAILABLE || (qmgr.is_empty() && rc.1 == RC_Q_MGR_NAME_ERROR))
            && std::env::var_os("MQSERVER").is_some()
        {
            endpoint(Mode::Client, qmgr)
        } else {
            Err(rc)
        }
    })
}

/// MQCONNX.
///
/// # Safety
/// `name` must be null or point to 48 readable bytes (an MQCHAR48); `cno` null or a readable
/// MQCNO of the version it declares, its pointers as [`cno_settings`] requires; `hconn` null or
/// valid for an MQLONG write.
pub unsafe fn connx(mode: Mode, name: *const u8, cno: *const MQCNO, hconn: *mut MQLONG) -> Outcome {
    if hconn.is_null() {
        return Err(Rc::failed(RC_HCONN_ERROR));
    }
    // SAFETY: the caller passes `hconn` valid for an MQLONG write (MQI contract), checked
    // non-null just above.
    unsafe { *hconn = HCONN_UNUSABLE };
    let qmgr = if name.is_null() {
        String::new()
    } else {
        // SAFETY: the caller passes `name` as null or an MQCHAR48, 48 readable bytes (MQI
        // contract); checked non-null just above.
        text(unsafe { std::slice::from_raw_parts(name, 48) })
    };
    let mut opts = ClientOptions::default();
    let mut app = program_name();
    let mut client_channel: Option<String> = None;
    let mut ccdt_url: Option<String> = None;
    let mut cno_options = 0;
    if !cno.is_null() {
        // SAFETY: the caller passes `cno` as null or a readable MQCNO (MQI contract), checked
        // non-null just above; no field past the version it declares is read.
        let c = unsafe { &*cno };
        // SAFETY: `c` is the caller's MQCNO, whose pointers the caller guarantees null or valid
        // as `cno_settings` requires (this fn's contract).
        (client_channel, ccdt_url) = unsafe { cno_settings(c, &mut opts, &mut app) }?;
        cno_options = c.Options;
    }
    let targets = targets(
        mode,
        cno_options,
        &qmgr,
        client_channel,
        ccdt_url.as_deref(),
    )?;
    credentials_from_env(&mut opts);
    let connection = connect_first(targets, &app, &opts, mode, &qmgr)?;
    let id = NEXT_HCONN.fetch_add(1, Ordering::Relaxed);
    CONNS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(id, Arc::new(Mutex::new(Conn { conn: connection })));
    // SAFETY: `hconn` is the caller's MQLONG, valid for a write (MQI contract), checked non-null
    // at the top.
    unsafe { *hconn = id };
    Ok(None)
}

/// Connects to the first of `targets` that answers (as the right queue manager, where that
/// is asked); the last failure when none does.
fn connect_first(
    targets: Vec<Target>,
    app: &str,
    opts: &ClientOptions,
    mode: Mode,
    qmgr: &str,
) -> Result<Connection, Rc> {
    let mut last = Rc::failed(RC_Q_MGR_NOT_AVAILABLE);
    for t in targets {
        let from_ccdt = t.channel.is_some();
        let mut o = opts.clone();
        if let Some(ch) = t.channel {
            o.svrconn = Some(ch);
        } else if o.svrconn.is_none() && (t.ep.starts_with("tcp://") || t.ep.starts_with("quic://"))
        {
            o.svrconn = mqserver_channel();
        }
        if t.tls.is_some() {
            o.tls = t.tls;
        }
        o.share_conversations = t.sharing;
        let connection = match Connection::connect_with(&t.ep, app, &o) {
            Ok(c) => c,
            // A queue manager that is not there is 2059, however the socket said it.
            Err(e) if e.reason == Reason::ConnectionBroken => {
                last = Rc::failed(RC_Q_MGR_NOT_AVAILABLE);
                continue;
            }
            Err(e) => {
                last = Rc::from(e);
                continue;
            }
        };
        let name = connection.queue_manager_name();
        let wrong = match &t.expect_qmgr {
            Some(q) => name.as_str() != q,
            None => !qmgr.is_empty() && name.as_str() != qmgr && mode == Mode::Local && !from_ccdt,
        };
        if wrong {
            last = Rc::failed(RC_Q_MGR_NAME_ERROR);
            continue;
        }
        return Ok(connection);
    }
    Err(last)
}

/// MQDISC.
///
/// # Safety
/// `hconn` must be null or valid for an MQLONG read and write.
pub unsafe fn disc(hconn: *mut MQLONG) -> Outcome {
    if hconn.is_null() {
        return Err(Rc::failed(RC_HCONN_ERROR));
    }
    // SAFETY: the caller passes `hconn` valid for an MQLONG read and write (MQI contract),
    // checked non-null just above.
    let h = unsafe { *hconn };
    let removed = CONNS.lock().unwrap_or_else(|p| p.into_inner()).remove(&h);
    let Some(c) = removed else {
        return Err(Rc::failed(RC_HCONN_ERROR));
    };
    // SAFETY: `hconn` is the caller's MQLONG, valid for a write (MQI contract), checked non-null
    // at the top.
    unsafe { *hconn = HCONN_UNUSABLE };
    // Another thread may still hold it for a call in progress; wait for that to end.
    let c = match Arc::try_unwrap(c) {
        Ok(m) => m.into_inner().unwrap_or_else(|p| p.into_inner()),
        Err(shared) => {
            let mut g = shared.lock().unwrap_or_else(|p| p.into_inner());
            // Disconnect what we can reach: backing out happens at the server when the
            // socket closes with the last reference.
            let _ = g.conn.backout();
            return Ok(None);
        }
    };
    c.conn.disconnect().map(|_| None).map_err(Rc::from)
}

// ----- open / close ----------------------------------------------------------------------

const OO_INPUT_AS_Q_DEF: MQLONG = 0x1;
const OO_INPUT_SHARED: MQLONG = 0x2;
const OO_INPUT_EXCLUSIVE: MQLONG = 0x4;
const OO_BROWSE: MQLONG = 0x8;
const OO_OUTPUT: MQLONG = 0x10;
const OO_INQUIRE: MQLONG = 0x20;
const OO_SET: MQLONG = 0x40;
const OO_SAVE_ALL_CONTEXT: MQLONG = 0x80;
const OO_PASS_IDENTITY_CONTEXT: MQLONG = 0x100;
const OO_PASS_ALL_CONTEXT: MQLONG = 0x200;
const OO_SET_IDENTITY_CONTEXT: MQLONG = 0x400;
const OO_SET_ALL_CONTEXT: MQLONG = 0x800;
const OO_FAIL_IF_QUIESCING: MQLONG = 0x2000;
const OO_ALTERNATE_USER_AUTHORITY: MQLONG = 0x1000;
const OO_NO_READ_AHEAD: MQLONG = 0x80000;
const OO_READ_AHEAD: MQLONG = 0x100000;
/// Options accepted; those about binding or co-operative browsing are not acted on (FerryMQ
/// binds on open). MQOO_ALTERNATE_USER_AUTHORITY is: the open is checked against MQOD
/// AlternateUserId's authority.
const OO_ACCEPTED: MQLONG = 0x7F
    | 0x80
    | 0x100
    | 0x200
    | 0x400
    | 0x800
    | 0x1000
    | 0x2000
    | 0x4000
    | 0x8000
    | 0x10000
    | 0x20000
    | 0x40000
    | 0x80000
    | 0x100000
    | 0x200000
    | 0x400000;

const OT_Q: MQLONG = 1;
const OT_NAMELIST: MQLONG = 2;
const OT_PROCESS: MQLONG = 3;
const OT_Q_MGR: MQLONG = 5;
const OT_TOPIC: MQLONG = 8;
const RC_OBJECT_STRING_ERROR: u32 = 2441;

fn object_of(od: &MQOD) -> Result<ObjectDescriptor, Rc> {
    if &od.StrucId != b"OD  " || !(1..=4).contains(&od.Version) {
        return Err(Rc::failed(RC_OD_ERROR));
    }
    match od.ObjectType {
        OT_Q_MGR => Ok(ObjectDescriptor::QueueManager),
        OT_NAMELIST => Ok(ObjectDescriptor::Namelist(opt_name(&od.ObjectName)?)),
        OT_PROCESS => Ok(ObjectDescriptor::Process(opt_name(&od.ObjectName)?)),
        OT_Q => {
            let name = opt_name(&od.ObjectName)?;
            let qmgr = opt_name(&od.ObjectQMgrName)?;
            if !qmgr.is_empty() {
                return Ok(ObjectDescriptor::QueueAt { name, qmgr });
            }
            let pattern = text(&od.DynamicQName);
            Ok(ObjectDescriptor::Queue {
                name,
                dynamic_name: (!pattern.is_empty()).then_some(pattern),
                selector: None,
            })
        }
        OT_TOPIC => {
            let object = opt_name(&od.ObjectName)?;
            Ok(ObjectDescriptor::Topic {
                object: (!object.is_empty()).then_some(object),
                string: object_string(od)?,
            })
        }
        _ => Err(Rc::failed(RC_FUNCTION_NOT_SUPPORTED)),
    }
}

/// MQOD's SelectionString (version 4 and later; empty before), or 2519 when its MQCHARV
/// cannot be read.
///
/// # Safety
/// `d` must be a readable MQOD of the version it declares, its SelectionString describing a
/// readable string as MQCHARV's contract says.
unsafe fn selection_string(d: &MQOD) -> Result<String, Rc> {
    if d.Version < 4 {
        return Ok(String::new());
    }
    // SAFETY: the caller's contract: a version 4 MQOD with a valid MQCHARV.
    unsafe {
        charv_text(
            d as *const MQOD as *const u8,
            &d.SelectionString,
            RC_SELECTION_STRING_ERROR,
        )
    }
}

const CO_KEEP_SUB: MQLONG = 0x4;
const CO_REMOVE_SUB: MQLONG = 0x8;
const CO_QUIESCE: MQLONG = 0x20;

// ----- subscribe -------------------------------------------------------------------------

const SO_ALTER: MQLONG = 0x1;
const SO_CREATE: MQLONG = 0x2;
const SO_RESUME: MQLONG = 0x4;
const SO_DURABLE: MQLONG = 0x8;
const SO_MANAGED: MQLONG = 0x20;
const SO_ANY_USERID: MQLONG = 0x200;
const SO_PUBLICATIONS_ON_REQUEST: MQLONG = 0x800;
const SO_NEW_PUBLICATIONS_ONLY: MQLONG = 0x1000;
const SO_FAIL_IF_QUIESCING: MQLONG = 0x2000;
const SO_WILDCARD_CHAR: MQLONG = 0x0010_0000;
const SO_WILDCARD_TOPIC: MQLONG = 0x0020_0000;
const SO_SET_CORREL_ID: MQLONG = 0x0040_0000;
const SO_SCOPE_QMGR: MQLONG = 0x0400_0000;
const SO_NO_READ_AHEAD: MQLONG = 0x0800_0000;
const SO_READ_AHEAD: MQLONG = 0x1000_0000;
/// What MQSUB acts on (MQSO_SCOPE_QMGR is accepted: topics are this queue manager's only).
const SO_ACCEPTED: MQLONG = SO_ALTER
    | SO_CREATE
    | SO_RESUME
    | SO_DURABLE
    | SO_MANAGED
    | SO_ANY_USERID
    | SO_PUBLICATIONS_ON_REQUEST
    | SO_NEW_PUBLICATIONS_ONLY
    | SO_FAIL_IF_QUIESCING
    | SO_WILDCARD_CHAR
    | SO_WILDCARD_TOPIC
    | SO_SET_CORREL_ID
    | SO_SCOPE_QMGR
    | SO_NO_READ_AHEAD
    | SO_READ_AHEAD;
const RC_SD_ERROR: u32 = 2424;
const RC_SUB_NAME_ERROR: u32 = 2440;

/// The text of an MQCHARV inside the structure at `base` (VSPtr, or VSOffset from `base` when
/// VSPtr is null); empty when it holds none. `rc` for a bad length or text that is not UTF-8.
///
/// # Safety
/// `v` must be a field of the caller's structure starting at `base`, and describe readable
/// bytes as MQCHARV's contract says.
unsafe fn charv_text(base: *const u8, v: &MQCHARV, rc: u32) -> Result<String, Rc> {
    let at = if !v.VSPtr.is_null() {
        v.VSPtr as *const u8
    } else if v.VSOffset > 0 && v.VSLength != 0 {
        // SAFETY: the caller's structure is followed by the string at VSOffset from its start,
        // as the MQCHARV contract says for an offset; this only forms the address.
        unsafe { base.add(v.VSOffset as usize) }
    } else {
        return Ok(String::new());
    };
    let bytes = match v.VSLength {
        // SAFETY: with MQVS_NULL_TERMINATED the caller passes a null-terminated string there.
        -1 => unsafe { std::ffi::CStr::from_ptr(at as *const std::ffi::c_char) }.to_bytes(),
        // SAFETY: the caller passes VSLength readable bytes there (MQCHARV contract).
        n if n >= 0 => unsafe { std::slice::from_raw_parts(at, n as usize) },
        _ => return Err(Rc::failed(rc)),
    };
    String::from_utf8(bytes.to_vec()).map_err(|_| Rc::failed(rc))
}

/// The subscription MQSD describes.
fn sub_descriptor(sd: &MQSD) -> Result<ferry_client::SubDescriptor, Rc> {
    if &sd.StrucId != b"SD  " || sd.Version != 1 {
        return Err(Rc::failed(RC_SD_ERROR));
    }
    let o = sd.Options;
    if o & !SO_ACCEPTED != 0
        || (o & SO_WILDCARD_CHAR != 0 && o & SO_WILDCARD_TOPIC != 0)
        || (o & SO_READ_AHEAD != 0 && o & SO_NO_READ_AHEAD != 0)
    {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let base = sd as *const MQSD as *const u8;
    // SAFETY: the fields are the caller's MQSD's own (MQI contract: a readable MQSD whose
    // MQCHARVs describe readable strings).
    let (topic, name, user_data, selection) = unsafe {
        (
            charv_text(base, &sd.ObjectString, RC_OBJECT_STRING_ERROR)?,
            charv_text(base, &sd.SubName, RC_SUB_NAME_ERROR)?,
            charv_text(base, &sd.SubUserData, RC_SD_ERROR)?,
            charv_text(base, &sd.SelectionString, RC_SELECTION_STRING_ERROR)?,
        )
    };
    let object = opt_name(&sd.ObjectName)?;
    Ok(ferry_client::SubDescriptor {
        topic_object: (!object.is_empty()).then_some(object),
        topic,
        name: (!name.is_empty()).then_some(name),
        user_data: (!user_data.is_empty()).then_some(user_data),
        correl_id: (o & SO_SET_CORREL_ID != 0)
            .then(|| ferry_client::CorrelId::from_slice(&sd.SubCorrelId)),
        action: match (o & SO_CREATE != 0, o & SO_RESUME != 0) {
            _ if o & SO_ALTER != 0 => ferry_client::SubAction::Alter,
            (true, true) => ferry_client::SubAction::CreateOrResume,
            (false, true) => ferry_client::SubAction::Resume,
            _ => ferry_client::SubAction::Create,
        },
        durable: o & SO_DURABLE != 0,
        managed: o & SO_MANAGED != 0,
        char_wildcards: o & SO_WILDCARD_CHAR != 0,
        any_user: o & SO_ANY_USERID != 0,
        new_publications_only: o & SO_NEW_PUBLICATIONS_ONLY != 0,
        on_request: o & SO_PUBLICATIONS_ON_REQUEST != 0,
        read_ahead: if o & SO_READ_AHEAD != 0 {
            Some(true)
        } else if o & SO_NO_READ_AHEAD != 0 {
            Some(false)
        } else {
            None
        },
        selector: (!selection.trim().is_empty()).then_some(selection),
        sub_level: Some(level(sd.SubLevel, RC_SD_ERROR)?),
    })
}

/// A SubLevel or PubLevel (0 to 9), or `rc`.
fn level(value: MQLONG, rc: u32) -> Result<u8, Rc> {
    match u8::try_from(value) {
        Ok(l) if l <= ferry_model::options::MAX_LEVEL => Ok(l),
        _ => Err(Rc::failed(rc)),
    }
}

/// MQSUB.
///
/// # Safety
/// `sd` must be null or a readable MQSD (its MQCHARVs describing readable strings); `hobj`
/// null or valid for an MQLONG read and write; `hsub` null or valid for an MQLONG write.
pub unsafe fn subscribe(
    hconn: MQLONG,
    sd: *mut MQSD,
    hobj: *mut MQLONG,
    hsub: *mut MQLONG,
) -> Outcome {
    if hsub.is_null() || hobj.is_null() {
        return Err(Rc::failed(RC_HOBJ_ERROR));
    }
    if sd.is_null() {
        return Err(Rc::failed(RC_SD_ERROR));
    }
    // SAFETY: checked non-null above; the caller passes a readable MQSD (MQI contract).
    let desc = sub_descriptor(unsafe { &*sd })?;
    // SAFETY: `hobj` is the caller's MQLONG, valid for a read (MQI contract), checked above.
    let given = unsafe { *hobj };
    let queue =
        (!desc.managed && given != HOBJ_UNUSABLE && given != 0).then_some(Hobj(given as u32));
    let (q, s) = with_conn(hconn, |c| c.subscribe(&desc, queue).map_err(Rc::from))?;
    // SAFETY: `hobj` and `hsub` are the caller's MQLONGs, valid for a write (MQI contract),
    // checked non-null above.
    unsafe {
        *hobj = q.0 as MQLONG;
        *hsub = s.0 as MQLONG;
    }
    Ok(None)
}

const SR_ACTION_PUBLISH: MQLONG = 1;
const SRO_FAIL_IF_QUIESCING: MQLONG = 0x2000;
const RC_SRO_ERROR: u32 = 2438;

/// MQSUBRQ with MQSR_ACTION_PUBLISH: the retained publications the subscription matches are
/// sent again; MQSRO's NumPubs says how many.
///
/// # Safety
/// `sro` must be null or a readable and writable MQSRO.
pub unsafe fn sub_request(hconn: MQLONG, hsub: MQLONG, action: MQLONG, sro: *mut MQSRO) -> Outcome {
    if action != SR_ACTION_PUBLISH {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    if !sro.is_null() {
        // SAFETY: checked non-null; the caller passes a readable MQSRO (MQI contract).
        let o = unsafe { &*sro };
        if &o.StrucId != b"SRO " || o.Version != 1 || o.Options & !SRO_FAIL_IF_QUIESCING != 0 {
            return Err(Rc::failed(RC_SRO_ERROR));
        }
    }
    let n = with_conn(hconn, |c| {
        c.sub_request(Hobj(hsub as u32)).map_err(Rc::from)
    })?;
    if !sro.is_null() {
        // SAFETY: checked non-null; the caller passes a writable MQSRO (MQI contract).
        unsafe { (*sro).NumPubs = n as MQLONG };
    }
    Ok(None)
}

/// MQOD's ObjectString (version 4 and later; empty before): the bytes at VSPtr, or at VSOffset
/// from the start of the MQOD when VSPtr is null. MQRC_OBJECT_STRING_ERROR for a negative
/// length other than MQVS_NULL_TERMINATED, or text that is not UTF-8.
fn object_string(od: &MQOD) -> Result<String, Rc> {
    if od.Version < 4 {
        return Ok(String::new());
    }
    let base = od as *const MQOD as *const u8;
    // SAFETY: ObjectString is the caller's MQOD's own (version 4), describing a readable string
    // as MQCHARV's contract says.
    unsafe { charv_text(base, &od.ObjectString, RC_OBJECT_STRING_ERROR) }
}

/// The open options MQOPEN's `options` ask for; MQRC_OPTIONS_ERROR for an unknown or
/// contradictory set.
fn open_options(options: MQLONG) -> Result<OpenOptions, Rc> {
    if options & !OO_ACCEPTED != 0 {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let inputs = [OO_INPUT_AS_Q_DEF, OO_INPUT_SHARED, OO_INPUT_EXCLUSIVE]
        .iter()
        .filter(|o| options & **o != 0)
        .count();
    if inputs > 1 || (options & OO_READ_AHEAD != 0 && options & OO_NO_READ_AHEAD != 0) {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    Ok(OpenOptions {
        input: if options & OO_INPUT_EXCLUSIVE != 0 {
            InputMode::Exclusive
        } else if options & OO_INPUT_SHARED != 0 {
            InputMode::Shared
        } else if options & OO_INPUT_AS_Q_DEF != 0 {
            InputMode::AsQueueDef
        } else {
            InputMode::None
        },
        output: options & OO_OUTPUT != 0,
        browse: options & OO_BROWSE != 0,
        inquire: options & OO_INQUIRE != 0,
        set: options & OO_SET != 0,
        read_ahead: if options & OO_READ_AHEAD != 0 {
            Some(true)
        } else if options & OO_NO_READ_AHEAD != 0 {
            Some(false)
        } else {
            None
        },
        fail_if_quiescing: options & OO_FAIL_IF_QUIESCING != 0,
        set_identity_context: options & OO_SET_IDENTITY_CONTEXT != 0,
        set_all_context: options & OO_SET_ALL_CONTEXT != 0,
        pass_identity_context: options & OO_PASS_IDENTITY_CONTEXT != 0,
        pass_all_context: options & OO_PASS_ALL_CONTEXT != 0,
        save_all_context: options & OO_SAVE_ALL_CONTEXT != 0,
        // MQOO_ALTERNATE_USER_AUTHORITY's user comes from the MQOD (see `open`).
        alternate_user: None,
    })
}

/// MQOPEN.
///
/// # Safety
/// `od` must be null or point to a readable and writable MQOD of the version it declares;
/// `hobj` null or valid for an MQLONG write.
pub unsafe fn open(hconn: MQLONG, od: *mut MQOD, options: MQLONG, hobj: *mut MQLONG) -> Outcome {
    if hobj.is_null() {
        return Err(Rc::failed(RC_HOBJ_ERROR));
    }
    // SAFETY: the caller passes `hobj` valid for an MQLONG write (MQI contract), checked
    // non-null just above.
    unsafe { *hobj = HOBJ_UNUSABLE };
    if od.is_null() {
        return Err(Rc::failed(RC_OD_ERROR));
    }
    // SAFETY: the caller passes `od` as a readable and writable MQOD (MQI contract), checked
    // non-null just above; fields past its declared version (ResolvedQName, v3) are not touched.
    let d = unsafe { &mut *od };
    let mut object = object_of(d)?;
    // SAFETY: `d` is the caller's MQOD, readable up to the version it declares.
    let selection = unsafe { selection_string(d) }?;
    if !selection.is_empty() {
        // A selection string selects what gets and browses of a queue see (MQOD v4); the
        // queue manager checks it (2459, 2516 without input or browse).
        match &mut object {
            ObjectDescriptor::Queue { selector, .. } => *selector = Some(selection),
            _ => return Err(Rc::failed(RC_SELECTOR_INVALID_FOR_TYPE)),
        }
    }
    let mut opts = open_options(options)?;
    if options & OO_ALTERNATE_USER_AUTHORITY != 0 {
        opts.alternate_user = Some(ferry_model::name::UserId::truncating(&text(
            &d.AlternateUserId,
        )));
    }
    let version = d.Version;
    let (h, resolved, qmgr) = with_conn(hconn, |c| {
        let h = c.open(&object, opts).map_err(Rc::from)?;
        let resolved = match &object {
            ObjectDescriptor::QueueManager
            | ObjectDescriptor::Namelist(_)
            | ObjectDescriptor::Process(_) => String::new(),
            _ => c.queue_name(h).map(|n| n.to_string()).unwrap_or_default(),
        };
        Ok((h, resolved, c.queue_manager_name().to_string()))
    })?;
    if let ObjectDescriptor::Queue { .. } = object {
        // A model queue's handle names the dynamic queue it made.
        if !resolved.is_empty() && text(&d.ObjectName) != resolved {
            put_text(&mut d.ObjectName, &resolved);
        }
    }
    if version >= 3 {
        put_text(&mut d.ResolvedQName, &resolved);
        put_text(&mut d.ResolvedQMgrName, &qmgr);
    }
    // SAFETY: `hobj` is the caller's MQLONG, valid for a write (MQI contract), checked non-null
    // at the top.
    unsafe { *hobj = h.0 as MQLONG };
    Ok(None)
}

/// MQCLOSE.
///
/// # Safety
/// `hobj` must be null or valid for an MQLONG read and write.
pub unsafe fn close(hconn: MQLONG, hobj: *mut MQLONG, options: MQLONG) -> Outcome {
    if hobj.is_null() {
        return Err(Rc::failed(RC_HOBJ_ERROR));
    }
    let opts = match options {
        0 | CO_KEEP_SUB => CloseOptions::None,
        1 => CloseOptions::Delete,
        2 => CloseOptions::DeletePurge,
        CO_REMOVE_SUB => CloseOptions::RemoveSub,
        CO_QUIESCE => CloseOptions::Quiesce,
        _ => return Err(Rc::failed(RC_OPTIONS_ERROR)),
    };
    // SAFETY: the caller passes `hobj` valid for an MQLONG read and write (MQI contract),
    // checked non-null at the top.
    let h = Hobj(unsafe { *hobj } as u32);
    with_conn(hconn, |c| c.close(h, opts).map_err(Rc::from))?;
    // SAFETY: `hobj` is the caller's MQLONG, valid for a write (MQI contract), checked non-null
    // at the top.
    unsafe { *hobj = HOBJ_UNUSABLE };
    Ok(None)
}

// ----- put -------------------------------------------------------------------------------

const PMO_SYNCPOINT: MQLONG = 0x2;
const PMO_NO_SYNCPOINT: MQLONG = 0x4;
const PMO_DEFAULT_CONTEXT: MQLONG = 0x20;
const PMO_NEW_MSG_ID: MQLONG = 0x40;
const PMO_NEW_CORREL_ID: MQLONG = 0x80;
const PMO_FAIL_IF_QUIESCING: MQLONG = 0x2000;
const PMO_NO_CONTEXT: MQLONG = 0x4000;
const PMO_SET_IDENTITY_CONTEXT: MQLONG = 0x400;
const PMO_SET_ALL_CONTEXT: MQLONG = 0x800;
const PMO_PASS_IDENTITY_CONTEXT: MQLONG = 0x100;
const PMO_PASS_ALL_CONTEXT: MQLONG = 0x200;
const PMO_ALTERNATE_USER_AUTHORITY: MQLONG = 0x1000;
const PMO_ASYNC_RESPONSE: MQLONG = 0x10000;
const PMO_SYNC_RESPONSE: MQLONG = 0x20000;
const PMO_RETAIN: MQLONG = 0x0020_0000;
const PMO_NOT_OWN_SUBS: MQLONG = 0x1000_0000;
const PMO_ACCEPTED: MQLONG = PMO_SYNCPOINT
    | PMO_RETAIN
    | PMO_NOT_OWN_SUBS
    | PMO_NO_SYNCPOINT
    | PMO_DEFAULT_CONTEXT
    | PMO_NEW_MSG_ID
    | PMO_NEW_CORREL_ID
    | PMO_FAIL_IF_QUIESCING
    | PMO_NO_CONTEXT
    | PMO_SET_IDENTITY_CONTEXT
    | PMO_SET_ALL_CONTEXT
    | PMO_PASS_IDENTITY_CONTEXT
    | PMO_PASS_ALL_CONTEXT
    | PMO_ALTERNATE_USER_AUTHORITY
    | PMO_ASYNC_RESPONSE
    | PMO_SYNC_RESPONSE;

fn check_md(md: &MQMD) -> Result<(), Rc> {
    if &md.StrucId != b"MD  " || !(1..=2).contains(&md.Version) {
        return Err(Rc::failed(RC_MD_ERROR));
    }
    Ok(())
}

fn put_options(pmo: &MQPMO) -> Result<PutOptions, Rc> {
    if &pmo.StrucId != b"PMO " || !(1..=3).contains(&pmo.Version) {
        return Err(Rc::failed(RC_PMO_ERROR));
    }
    let o = pmo.Options;
    if o & !PMO_ACCEPTED != 0
        || (o & PMO_SYNCPOINT != 0 && o & PMO_NO_SYNCPOINT != 0)
        || (o & PMO_ASYNC_RESPONSE != 0 && o & PMO_SYNC_RESPONSE != 0)
    {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let contexts = [
        PMO_DEFAULT_CONTEXT,
        PMO_NO_CONTEXT,
        PMO_SET_IDENTITY_CONTEXT,
        PMO_SET_ALL_CONTEXT,
        PMO_PASS_IDENTITY_CONTEXT,
        PMO_PASS_ALL_CONTEXT,
    ]
    .iter()
    .filter(|c| o & **c != 0)
    .count();
    if contexts > 1 {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let mut p = PutOptions {
        context: if o & PMO_PASS_ALL_CONTEXT != 0 {
            PutContext::PassAll(Hobj(pmo.Context as u32))
        } else if o & PMO_PASS_IDENTITY_CONTEXT != 0 {
            PutContext::PassIdentity(Hobj(pmo.Context as u32))
        } else if o & PMO_SET_ALL_CONTEXT != 0 {
            PutContext::SetAll
        } else if o & PMO_SET_IDENTITY_CONTEXT != 0 {
            PutContext::SetIdentity
        } else if o & PMO_NO_CONTEXT != 0 {
            PutContext::None
        } else {
            PutContext::Default
        },
        syncpoint: o & PMO_SYNCPOINT != 0,
        new_msg_id: o & PMO_NEW_MSG_ID != 0,
        new_correl_id: o & PMO_NEW_CORREL_ID != 0,
        fail_if_quiescing: o & PMO_FAIL_IF_QUIESCING != 0,
        retain: o & PMO_RETAIN != 0,
        not_own_subs: o & PMO_NOT_OWN_SUBS != 0,
        // PubLevel is a version 3 field; before it, MQ's initial value (9).
        pub_level: match pmo.Version >= 3 {
            true => Some(level(pmo.PubLevel, RC_PMO_ERROR)?),
            false => None,
        },
        ..PutOptions::default()
    };
    if o & PMO_ASYNC_RESPONSE != 0 {
        p = p.with_async();
    } else if o & PMO_SYNC_RESPONSE != 0 {
        p.response = ferry_model::options::PutResponseMode::Sync;
    }
    Ok(p)
}

/// The message a put sends, from the caller's descriptor and buffer.
fn message_of(md: &MQMD, body: &[u8]) -> Result<Message, Rc> {
    let mut m = Message::new(body.to_vec());
    let d = &mut m.descriptor;
    if md.MsgId != [0; 24] {
        d.msg_id = MsgId(md.MsgId);
    }
    d.correl_id = CorrelId(md.CorrelId);
    d.persistence = match md.Persistence {
        0 => Persistence::NotPersistent,
        1 => Persistence::Persistent,
        2 => Persistence::AsQueueDef,
        _ => return Err(Rc::failed(RC_PERSISTENCE_ERROR)),
    };
    d.priority = match md.Priority {
        -1 => Priority::AsQueueDef,
        p if (0..=255).contains(&p) => Priority::Value(p as u8),
        _ => return Err(Rc::failed(RC_PRIORITY_ERROR)),
    };
    d.expiry = match md.Expiry {
        -1 => None,
        t if t > 0 => Some(Duration::from_millis(t as u64 * 100)),
        _ => {
            return Err(Rc::from(MqError::new(
                Reason::ExpiryError,
                "MQMD Expiry must be positive or MQEI_UNLIMITED",
            )))
        }
    };
    d.message_type = match md.MsgType {
        1 => MessageType::Request,
        2 => MessageType::Reply,
        4 => MessageType::Report,
        _ => MessageType::Datagram,
    };
    d.feedback = md.Feedback.max(0) as u32;
    d.report = md.Report as u32;
    d.format = FormatName::truncating(&text(&md.Format));
    d.ccsid = md.CodedCharSetId.max(0) as u32;
    d.encoding = md.Encoding.max(0) as u32;
    d.reply_to_queue = opt_name(&md.ReplyToQ)?;
    d.reply_to_qmgr = opt_name(&md.ReplyToQMgr)?;
    // Context, used when the put sets it (ignored otherwise).
    d.user_id = ferry_model::name::UserId::truncating(&text(&md.UserIdentifier));
    d.put_appl_name = ferry_model::name::ApplName::truncating(&text(&md.PutApplName));
    if let Some(t) = parse_put_date_time(&md.PutDate, &md.PutTime) {
        d.put_time = t;
    }
    Ok(m)
}

/// MQ's PutDate (YYYYMMDD) and PutTime (HHMMSSTH), UTC, as a time; `None` if blank or wrong.
fn parse_put_date_time(date: &[u8; 8], time: &[u8; 8]) -> Option<SystemTime> {
    let date = std::str::from_utf8(date).ok()?;
    let time = std::str::from_utf8(time).ok()?;
    let num = |s: &str| s.parse::<i64>().ok();
    let (y, m, d) = (num(&date[..4])?, num(&date[4..6])?, num(&date[6..8])?);
    let (hh, mm, ss, th) = (
        num(&time[..2])?,
        num(&time[2..4])?,
        num(&time[4..6])?,
        num(&time[6..8])?,
    );
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // Days from the civil date (Howard Hinnant's algorithm), then seconds.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + hh * 3600 + mm * 60 + ss;
    let secs = u64::try_from(secs).ok()?;
    Some(SystemTime::UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(th as u64 * 10))
}

/// MQ's PutDate (YYYYMMDD) and PutTime (HHMMSSTH), in UTC.
fn put_date_time(t: SystemTime) -> ([u8; 8], [u8; 8]) {
    let (date, time) = ferry_model::clock::date_time(t);
    let hundredths = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_millis() / 10);
    let mut d = [b' '; 8];
    let mut tm = [b' '; 8];
    put_text(&mut d, &date.replace('-', ""));
    put_text(
        &mut tm,
        &format!("{}{hundredths:02}", time.replace('.', "")),
    );
    (d, tm)
}

/// Fills the descriptor fields a put outputs (the context ones only when the queue manager
/// made them: not when the caller set or passed all context).
fn put_output(md: &mut MQMD, out: &ferry_client::PutOutcome, context: PutContext, app: &str) {
    md.MsgId = out.msg_id.0;
    md.CorrelId = out.correl_id.0;
    if matches!(context, PutContext::SetAll | PutContext::PassAll(_)) {
        return;
    }
    let (d, t) = put_date_time(out.put_time);
    md.PutDate = d;
    md.PutTime = t;
    md.PutApplType = 6; // MQAT_UNIX
    put_text(
        &mut md.PutApplName,
        if context == PutContext::None { "" } else { app },
    );
}

/// MQPUT / MQPUT1 shared part: the message and the put options, from the caller's MQMD, MQPMO
/// and buffer, each checked (null, structure id and version, lengths) first.
///
/// # Safety
/// `md` and `pmo` must each be null or point to a readable MQMD / MQPMO of the version it
/// declares; `buf` null or valid for `len` readable bytes.
unsafe fn put_common(
    md: *mut MQMD,
    pmo: *mut MQPMO,
    len: MQLONG,
    buf: *const u8,
) -> Result<(Message, PutOptions), Rc> {
    if md.is_null() {
        return Err(Rc::failed(RC_MD_ERROR));
    }
    if pmo.is_null() {
        return Err(Rc::failed(RC_PMO_ERROR));
    }
    if len < 0 {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if buf.is_null() && len > 0 {
        return Err(Rc::failed(RC_BUFFER_ERROR));
    }
    // SAFETY: the caller passes `md` as a readable MQMD (MQI contract), checked non-null above.
    let md = unsafe { &*md };
    // SAFETY: the caller passes `pmo` as a readable MQPMO (MQI contract), checked non-null above.
    let p = unsafe { &*pmo };
    check_md(md)?;
    let opts = put_options(p)?;
    let body = if len == 0 {
        &[][..]
    } else {
        // SAFETY: the caller passes `buf` holding `len` readable bytes (MQI contract); `len` is
        // positive here (checked non-negative above, and not 0), so `buf` was checked non-null.
        unsafe { std::slice::from_raw_parts(buf, len as usize) }
    };
    let mut msg = message_of(md, body)?;
    if p.Version >= 3 {
        if let Some(props) = crate::props::properties_of(p.OriginalMsgHandle)? {
            msg.properties = props;
        }
    }
    Ok((msg, opts))
}

/// MQPUT.
///
/// # Safety
/// `md` and `pmo` must each be null or point to a readable and writable MQMD / MQPMO of the
/// version it declares; `buf` null or valid for `len` readable bytes.
pub unsafe fn put(
    hconn: MQLONG,
    hobj: MQLONG,
    md: *mut MQMD,
    pmo: *mut MQPMO,
    len: MQLONG,
    buf: *const u8,
) -> Outcome {
    // SAFETY: the caller passes `md`, `pmo` and `buf` as `put_common` requires (this fn's
    // contract); it checks each for null.
    let (msg, opts) = unsafe { put_common(md, pmo, len, buf) }?;
    // SAFETY: `put_common` returned Ok, so `pmo` is the caller's non-null, readable MQPMO.
    if unsafe { (*pmo).Options } & PMO_ALTERNATE_USER_AUTHORITY != 0 {
        // Valid only on MQPUT1; an MQPUT takes the authority its handle was opened with.
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let app = program_name();
    let (out, qmgr, resolved) = with_conn(hconn, |c| {
        let h = Hobj(hobj as u32);
        let out = c.put(h, msg, &opts).map_err(|e| {
            if e.reason == Reason::HobjError {
                Rc::failed(RC_HOBJ_ERROR)
            } else {
                Rc::from(e)
            }
        })?;
        let resolved = c.queue_name(h).map(|n| n.to_string()).unwrap_or_default();
        Ok((out, c.queue_manager_name().to_string(), resolved))
    })?;
    // SAFETY: the caller passes `md` as a writable MQMD (MQI contract); non-null, as
    // `put_common` returned Ok (it fails with MQRC_MD_ERROR on a null one).
    put_output(unsafe { &mut *md }, &out, opts.context, &app);
    // SAFETY: the caller passes `pmo` as a writable MQPMO (MQI contract); non-null, as
    // `put_common` returned Ok (it fails with MQRC_PMO_ERROR on a null one).
    let p = unsafe { &mut *pmo };
    put_text(&mut p.ResolvedQName, &resolved);
    put_text(&mut p.ResolvedQMgrName, &qmgr);
    Ok(out.warning.map(|w| w.code()))
}

/// MQPUT1.
///
/// # Safety
/// As [`put`], and `od` must be null or point to a readable MQOD of the version it declares.
pub unsafe fn put1(
    hconn: MQLONG,
    od: *mut MQOD,
    md: *mut MQMD,
    pmo: *mut MQPMO,
    len: MQLONG,
    buf: *const u8,
) -> Outcome {
    if od.is_null() {
        return Err(Rc::failed(RC_OD_ERROR));
    }
    // SAFETY: the caller passes `od` as a readable MQOD (MQI contract), checked non-null just
    // above.
    let od = unsafe { &*od };
    let object = object_of(od)?;
    // SAFETY: `od` is the caller's MQOD, readable up to the version it declares.
    if !unsafe { selection_string(od) }?.is_empty() {
        return Err(Rc::failed(RC_SELECTOR_INVALID_FOR_TYPE)); // MQPUT1 only puts
    }
    // SAFETY: the caller passes `md`, `pmo` and `buf` as `put_common` requires (this fn's
    // contract); it checks each for null.
    let (msg, mut opts) = unsafe { put_common(md, pmo, len, buf) }?;
    // SAFETY: `put_common` returned Ok, so `pmo` is the caller's non-null, readable MQPMO.
    if unsafe { (*pmo).Options } & PMO_ALTERNATE_USER_AUTHORITY != 0 {
        opts.alternate_user = Some(ferry_model::name::UserId::truncating(&text(
            &od.AlternateUserId,
        )));
    }
    let app = program_name();
    let (out, qmgr) = with_conn(hconn, |c| {
        let out = c.put1_to(&object, msg, &opts).map_err(Rc::from)?;
        Ok((out, c.queue_manager_name().to_string()))
    })?;
    // SAFETY: the caller passes `md` as a writable MQMD (MQI contract); non-null, as
    // `put_common` returned Ok (it fails with MQRC_MD_ERROR on a null one).
    put_output(unsafe { &mut *md }, &out, opts.context, &app);
    // SAFETY: the caller passes `pmo` as a writable MQPMO (MQI contract); non-null, as
    // `put_common` returned Ok (it fails with MQRC_PMO_ERROR on a null one).
    let p = unsafe { &mut *pmo };
    put_text(&mut p.ResolvedQName, &text(&od.ObjectName));
    put_text(&mut p.ResolvedQMgrName, &qmgr);
    Ok(out.warning.map(|w| w.code()))
}

// ----- get -------------------------------------------------------------------------------

const GMO_WAIT: MQLONG = 0x1;
const GMO_SYNCPOINT: MQLONG = 0x2;
const GMO_NO_SYNCPOINT: MQLONG = 0x4;
const GMO_BROWSE_FIRST: MQLONG = 0x10;
const GMO_BROWSE_NEXT: MQLONG = 0x20;
const GMO_ACCEPT_TRUNCATED_MSG: MQLONG = 0x40;
const GMO_MSG_UNDER_CURSOR: MQLONG = 0x100;
const GMO_BROWSE_MSG_UNDER_CURSOR: MQLONG = 0x800;
const GMO_FAIL_IF_QUIESCING: MQLONG = 0x2000;
const GMO_CONVERT: MQLONG = 0x4000;
const GMO_ACCEPTED: MQLONG = GMO_WAIT
    | GMO_SYNCPOINT
    | GMO_NO_SYNCPOINT
    | GMO_BROWSE_FIRST
    | GMO_BROWSE_NEXT
    | GMO_ACCEPT_TRUNCATED_MSG
    | GMO_MSG_UNDER_CURSOR
    | GMO_BROWSE_MSG_UNDER_CURSOR
    | GMO_FAIL_IF_QUIESCING
    | GMO_CONVERT
    // Property handling options: properties stay with the message (none are returned yet).
    | 0x0200_0000
    | 0x0400_0000
    | 0x0800_0000
    | 0x1000_0000;
const MO_MATCH_MSG_ID: MQLONG = 0x1;
const MO_MATCH_CORREL_ID: MQLONG = 0x2;

pub(crate) fn get_options(gmo: &MQGMO, md: &MQMD, len: MQLONG) -> Result<GetOptions, Rc> {
    if &gmo.StrucId != b"GMO " || !(1..=4).contains(&gmo.Version) {
        return Err(Rc::failed(RC_GMO_ERROR));
    }
    let o = gmo.Options;
    let browses = [
        GMO_BROWSE_FIRST,
        GMO_BROWSE_NEXT,
        GMO_MSG_UNDER_CURSOR,
        GMO_BROWSE_MSG_UNDER_CURSOR,
    ]
    .iter()
    .filter(|b| o & **b != 0)
    .count();
    if o & !GMO_ACCEPTED != 0
        || browses > 1
        || (o & GMO_SYNCPOINT != 0 && o & GMO_NO_SYNCPOINT != 0)
    {
        return Err(Rc::failed(RC_OPTIONS_ERROR));
    }
    let mut g = GetOptions::new();
    if o & GMO_WAIT != 0 {
        g = match gmo.WaitInterval {
            -1 => g.wait_unlimited(),
            w if w >= 0 => g.wait(Duration::from_millis(w as u64)),
            _ => return Err(Rc::failed(RC_WAIT_INTERVAL_ERROR)),
        };
    }
    if o & GMO_SYNCPOINT != 0 {
        g = g.syncpoint();
    }
    g = g.browse(if o & GMO_BROWSE_FIRST != 0 {
        BrowseMode::First
    } else if o & GMO_BROWSE_NEXT != 0 {
        BrowseMode::Next
    } else if o & GMO_BROWSE_MSG_UNDER_CURSOR != 0 {
        BrowseMode::UnderCursor
    } else if o & GMO_MSG_UNDER_CURSOR != 0 {
        BrowseMode::GetUnderCursor
    } else {
        BrowseMode::None
    });
    g.fail_if_quiescing = o & GMO_FAIL_IF_QUIESCING != 0;
    let match_options = if gmo.Version >= 2 {
        gmo.MatchOptions
    } else {
        MO_MATCH_MSG_ID | MO_MATCH_CORREL_ID
    };
    if match_options & !(MO_MATCH_MSG_ID | MO_MATCH_CORREL_ID) != 0 {
        // Groups, segments and message tokens are not there yet.
        return Err(Rc::failed(RC_FUNCTION_NOT_SUPPORTED));
    }
    if match_options & MO_MATCH_MSG_ID != 0 && md.MsgId != [0; 24] {
        g = g.msg_id(MsgId(md.MsgId));
    }
    if match_options & MO_MATCH_CORREL_ID != 0 && md.CorrelId != [0; 24] {
        g = g.correl_id(CorrelId(md.CorrelId));
    }
    Ok(g.max_len(len as usize, o & GMO_ACCEPT_TRUNCATED_MSG != 0))
}

/// Fills the caller's descriptor from a got message.
pub(crate) fn get_output(md: &mut MQMD, m: &Message) {
    let d = &m.descriptor;
    md.MsgId = d.msg_id.0;
    md.CorrelId = d.correl_id.0;
    md.Persistence = match d.persistence {
        Persistence::Persistent => 1,
        _ => 0,
    };
    md.Priority = match d.priority {
        Priority::Value(p) => p as MQLONG,
        Priority::AsQueueDef => 0,
    };
    md.Expiry = d
        .expiry
        .map_or(-1, |e| ((e.as_millis() / 100) as MQLONG).max(1));
    md.MsgType = d.message_type.mq_value();
    md.Feedback = d.feedback as MQLONG;
    md.Report = d.report as MQLONG;
    put_text(&mut md.Format, d.format.as_str());
    md.CodedCharSetId = d.ccsid as MQLONG;
    md.Encoding = d.encoding as MQLONG;
    md.BackoutCount = d.backout_count as MQLONG;
    put_text(&mut md.ReplyToQ, d.reply_to_queue.as_str());
    put_text(&mut md.ReplyToQMgr, d.reply_to_qmgr.as_str());
    put_text(&mut md.UserIdentifier, d.user_id.as_str());
    put_text(&mut md.PutApplName, d.put_appl_name.as_str());
    md.PutApplType = 6;
    let (date, time) = put_date_time(d.put_time);
    md.PutDate = date;
    md.PutTime = time;
    if md.Version >= 2 {
        md.GroupId = [0; 24];
        md.MsgSeqNumber = 1;
        md.Offset = 0;
        md.MsgFlags = 0;
        md.OriginalLength = -1;
    }
}

/// MQGET's outputs for a message got: its body (up to `len` bytes) into `buf`, its length,
/// the descriptor, MQGMO v3 ReturnedLength and the v4 message handle's properties.
///
/// # Safety
/// `md`, `gmo` and `data_len` must be non-null and valid as [`get`] requires; `buf` valid for
/// `len` writable bytes, and non-null if `len` is positive.
unsafe fn get_outputs(
    got: ferry_client::Got,
    md: *mut MQMD,
    gmo: *mut MQGMO,
    len: MQLONG,
    buf: *mut u8,
    data_len: *mut MQLONG,
) -> Outcome {
    let n = got.message.body.len().min(len as usize);
    if n > 0 {
        // SAFETY: `n <= len` and `n > 0`, so `len` is positive and the caller guarantees `buf`
        // non-null and valid for `len` writable bytes; the body is our own memory, disjoint
        // from the caller's buffer.
        unsafe { std::ptr::copy_nonoverlapping(got.message.body.as_ptr(), buf, n) };
    }
    // SAFETY: the caller guarantees `data_len` non-null and valid for an MQLONG write.
    unsafe { *data_len = got.data_length as MQLONG };
    // SAFETY: the caller guarantees `md` non-null and a writable MQMD; `get_output` touches
    // version-2 fields only when Version says 2.
    get_output(unsafe { &mut *md }, &got.message);
    // SAFETY: the caller guarantees `gmo` non-null and a writable MQGMO; the v3 and v4 fields
    // are touched only when Version says so, just below.
    let gm = unsafe { &mut *gmo };
    if gm.Version >= 3 {
        gm.ReturnedLength = n as MQLONG;
    }
    if gm.Version >= 4 {
        crate::props::fill(gm.MsgHandle, &got.message.properties)?;
    }
    Ok(got.warning.map(|w| w.code()))
}

/// MQGET.
///
/// # Safety
/// `md` and `gmo` must each be null or point to a readable and writable MQMD / MQGMO of the
/// version it declares; `buf` null or valid for `len` writable bytes; `data_len` null or valid
/// for an MQLONG write.
#[allow(clippy::too_many_arguments)]
pub unsafe fn get(
    hconn: MQLONG,
    hobj: MQLONG,
    md: *mut MQMD,
    gmo: *mut MQGMO,
    len: MQLONG,
    buf: *mut u8,
    data_len: *mut MQLONG,
) -> Outcome {
    if md.is_null() {
        return Err(Rc::failed(RC_MD_ERROR));
    }
    if gmo.is_null() {
        return Err(Rc::failed(RC_GMO_ERROR));
    }
    if data_len.is_null() {
        return Err(Rc::failed(RC_DATA_LENGTH_ERROR));
    }
    if len < 0 {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if buf.is_null() && len > 0 {
        return Err(Rc::failed(RC_BUFFER_ERROR));
    }
    // SAFETY: the caller passes `md` as a readable MQMD (MQI contract), checked non-null above.
    let d = unsafe { &*md };
    // SAFETY: the caller passes `gmo` as a readable MQGMO (MQI contract), checked non-null above.
    let gm = unsafe { &*gmo };
    check_md(d)?;
    let opts = get_options(gm, d, len)?;
    let got = with_conn(hconn, |c| Ok(c.get(Hobj(hobj as u32), &opts)))?;
    match got {
        // SAFETY: `md`, `gmo` and `data_len` are the caller's, valid (MQI contract) and checked
        // non-null above; `buf` holds `len` bytes, `len` checked non-negative and `buf`
        // non-null when it is positive.
        Ok(g) => unsafe { get_outputs(g, md, gmo, len, buf, data_len) },
        Err(e) => {
            if e.reason == Reason::TruncatedMsgFailed {
                // SAFETY: the caller passes `data_len` valid for an MQLONG write (MQI
                // contract), checked non-null above.
                unsafe { *data_len = e.data_length as MQLONG };
            }
            if e.reason == Reason::HobjError {
                return Err(Rc::failed(RC_HOBJ_ERROR));
            }
            Err(Rc::from(e))
        }
    }
}

// ----- units of work ---------------------------------------------------------------------

/// MQCMIT.
pub fn cmit(hconn: MQLONG) -> Outcome {
    with_conn(hconn, |c| c.commit().map(|_| None).map_err(Rc::from))
}

/// MQBACK.
pub fn back(hconn: MQLONG) -> Outcome {
    with_conn(hconn, |c| c.backout().map(|_| None).map_err(Rc::from))
}

// ----- inquire / set ---------------------------------------------------------------------

/// Length of a character attribute in MQINQ's buffer.
/// The caller's array of `count` MQLONGs at `p` (empty when `count` is not positive, whatever
/// `p` is).
///
/// # Safety
/// When `count` is positive, `p` must be non-null and valid for `count` readable MQLONGs,
/// unchanged for `'a`.
unsafe fn mqlongs<'a>(p: *const MQLONG, count: MQLONG) -> &'a [MQLONG] {
    if count <= 0 {
        return &[];
    }
    // SAFETY: `count` is positive, checked just above, so the caller guarantees `p` non-null
    // and holding `count` readable MQLONGs.
    unsafe { std::slice::from_raw_parts(p, count as usize) }
}

/// MQINQ.
///
/// # Safety
/// `sels` must be null or hold `sel_count` readable MQLONGs; `ints` null or hold `int_count`
/// writable MQLONGs; `chars` null or hold `char_len_total` writable bytes.
#[allow(clippy::too_many_arguments)]
pub unsafe fn inq(
    hconn: MQLONG,
    hobj: MQLONG,
    sel_count: MQLONG,
    sels: *const MQLONG,
    int_count: MQLONG,
    ints: *mut MQLONG,
    char_len_total: MQLONG,
    chars: *mut u8,
) -> Outcome {
    if sel_count < 0 || (sel_count > 0 && sels.is_null()) {
        return Err(Rc::failed(RC_SELECTOR_COUNT_ERROR));
    }
    if int_count < 0 {
        return Err(Rc::failed(RC_INT_ATTR_COUNT_ERROR));
    }
    if char_len_total < 0 {
        return Err(Rc::failed(RC_CHAR_ATTR_LENGTH_ERROR));
    }
    // SAFETY: the caller passes `sels` holding `sel_count` MQLONGs (MQI contract); `sel_count`
    // checked non-negative and `sels` non-null when it is positive, above.
    let codes = unsafe { mqlongs(sels, sel_count) };
    let selectors = codes
        .iter()
        .map(|c| Selector::from_code(*c).ok_or(Rc::failed(RC_SELECTOR_ERROR)))
        .collect::<Result<Vec<_>, _>>()?;
    let values = with_conn(hconn, |c| {
        c.inquire(Hobj(hobj as u32), &selectors).map_err(Rc::from)
    })?;
    let (mut ni, mut nc) = (0usize, 0usize);
    let mut warning = None;
    for (s, v) in selectors.iter().zip(values) {
        match v {
            AttrValue::Int(i) => {
                if ni < int_count as usize && !ints.is_null() {
                    // SAFETY: the caller passes `ints` holding `int_count` MQLONGs (MQI
                    // contract); `ni < int_count` and `ints` non-null, checked just above.
                    let slot = unsafe { ints.add(ni) };
                    // SAFETY: `slot` is the `ni`th of the caller's `int_count` MQLONGs (just
                    // above), valid for a write (MQI contract).
                    unsafe { *slot = i as MQLONG };
                } else {
                    warning = Some(RC_INT_ATTR_COUNT_TOO_SMALL);
                }
                ni += 1;
            }
            AttrValue::Str(text_value) => {
                // MQCA_NAMES is 48 characters for each name the namelist holds.
                let l = match s {
                    Selector::Names => text_value.len(),
                    _ => s.char_length(),
                };
                if nc + l <= char_len_total as usize && !chars.is_null() {
                    // SAFETY: the caller passes `chars` holding `char_len_total` bytes (MQI
                    // contract; checked non-negative above); `nc + l` is within it and
                    // `chars` non-null, both checked just above.
                    let start = unsafe { chars.add(nc) };
                    // SAFETY: the `l` bytes from `start` (`chars + nc`, just above) end within
                    // the caller's `char_len_total` writable bytes (`nc + l` checked above).
                    let field = unsafe { std::slice::from_raw_parts_mut(start, l) };
                    put_text(field, &text_value);
                } else {
                    warning = Some(RC_CHAR_ATTRS_TOO_SHORT);
                }
                nc += l;
            }
        }
    }
    Ok(warning)
}

/// MQSET: integer values from `ints` in the order of the integer selectors, character values
/// from `chars` one after another at each attribute's full length (trailing blanks dropped).
///
/// # Safety
/// `sels` must be null or hold `sel_count` readable MQLONGs; `ints` null or hold `int_count`
/// readable MQLONGs; `chars` null or hold `char_len` readable bytes.
#[allow(clippy::too_many_arguments)]
pub unsafe fn set(
    hconn: MQLONG,
    hobj: MQLONG,
    sel_count: MQLONG,
    sels: *const MQLONG,
    int_count: MQLONG,
    ints: *const MQLONG,
    char_len: MQLONG,
    chars: *const u8,
) -> Outcome {
    if sel_count < 0 || (sel_count > 0 && sels.is_null()) {
        return Err(Rc::failed(RC_SELECTOR_COUNT_ERROR));
    }
    if int_count < 0 || (int_count > 0 && ints.is_null()) {
        return Err(Rc::failed(RC_INT_ATTR_COUNT_ERROR));
    }
    if char_len < 0 || (char_len > 0 && chars.is_null()) {
        return Err(Rc::failed(RC_CHAR_ATTR_LENGTH_ERROR));
    }
    // SAFETY: the caller passes `sels` holding `sel_count` MQLONGs and `ints` holding
    // `int_count` (MQI contract); each count checked non-negative and its pointer non-null
    // when it is positive, above.
    let (codes, ints) = unsafe { (mqlongs(sels, sel_count), mqlongs(ints, int_count)) };
    let chars: &[u8] = if char_len > 0 {
        // SAFETY: the caller passes `chars` holding `char_len` bytes (MQI contract); checked
        // positive and non-null above.
        unsafe { std::slice::from_raw_parts(chars, char_len as usize) }
    } else {
        &[]
    };
    let values = set_values(codes, ints, chars)?;
    with_conn(hconn, |c| {
        c.set(Hobj(hobj as u32), &values)
            .map(|_| None)
            .map_err(Rc::from)
    })
}

/// Pairs MQSET's selectors with their values: the integers in turn, the characters one
/// attribute's length after another.
fn set_values(
    codes: &[MQLONG],
    ints: &[MQLONG],
    chars: &[u8],
) -> Result<Vec<(Selector, AttrValue)>, Rc> {
    let (mut ni, mut at) = (0, 0);
    let mut values = Vec::with_capacity(codes.len());
    for c in codes {
        let s = Selector::from_code(*c).ok_or(Rc::failed(RC_SELECTOR_ERROR))?;
        if s.is_string() {
            let len = s.char_length();
            let text = chars
                .get(at..at + len)
                .ok_or(Rc::failed(RC_CHAR_ATTR_LENGTH_ERROR))?;
            at += len;
            let end = text
                .iter()
                .rposition(|b| *b != b' ' && *b != 0)
                .map_or(0, |p| p + 1);
            let text = String::from_utf8_lossy(&text[..end]).into_owned();
            values.push((s, AttrValue::Str(text)));
        } else {
            let v = *ints.get(ni).ok_or(Rc::failed(RC_INT_ATTR_COUNT_ERROR))?;
            ni += 1;
            values.push((s, AttrValue::Int(i64::from(v))));
        }
    }
    Ok(values)
}

/// MQSTAT (MQSTAT_TYPE_ASYNC_ERROR).
///
/// # Safety
/// `sts` must be null or point to a readable and writable MQSTS of the version it declares.
pub unsafe fn stat(hconn: MQLONG, kind: MQLONG, sts: *mut MQSTS) -> Outcome {
    if sts.is_null() {
        return Err(Rc::failed(RC_STS_ERROR));
    }
    // SAFETY: the caller passes `sts` as a readable and writable MQSTS (MQI contract), checked
    // non-null just above; only version-1 fields are touched.
    let s = unsafe { &mut *sts };
    if &s.StrucId != b"STAT" || !(1..=2).contains(&s.Version) {
        return Err(Rc::failed(RC_STS_ERROR));
    }
    if kind != 0 {
        return Err(Rc::failed(RC_FUNCTION_NOT_SUPPORTED));
    }
    let status = with_conn(hconn, |c| c.async_put_status().map_err(Rc::from))?;
    s.PutSuccessCount = status.succeeded as MQLONG;
    s.PutWarningCount = status.warned as MQLONG;
    s.PutFailureCount = status.failed as MQLONG;
    match &status.first_failure {
        Some(e) => {
            let rc = Rc::from(e.clone());
            s.CompCode = rc.0;
            s.Reason = rc.1 as MQLONG;
        }
        None => {
            s.CompCode = CC_OK;
            s.Reason = 0;
        }
    }
    Ok(None)
}

/// Calls FerryMQ does not offer yet.
/// MQRC_RESOURCE_PROBLEM.
pub(crate) const RC_RESOURCE_PROBLEM: u32 = 2102;

/// MQMD_DEFAULT (version 1).
pub(crate) fn default_md() -> MQMD {
    MQMD {
        StrucId: *b"MD  ",
        Version: 1,
        Report: 0,
        MsgType: 8,
        Expiry: -1,
        Feedback: 0,
        Encoding: 546,
        CodedCharSetId: 0,
        Format: *b"        ",
        Priority: -1,
        Persistence: 2,
        MsgId: [0; 24],
        CorrelId: [0; 24],
        BackoutCount: 0,
        ReplyToQ: [b' '; 48],
        ReplyToQMgr: [b' '; 48],
        UserIdentifier: [b' '; 12],
        AccountingToken: [0; 32],
        ApplIdentityData: [b' '; 32],
        PutApplType: 0,
        PutApplName: [b' '; 28],
        PutDate: [b' '; 8],
        PutTime: [b' '; 8],
        ApplOriginData: [b' '; 4],
        GroupId: [0; 24],
        MsgSeqNumber: 1,
        Offset: 0,
        MsgFlags: 0,
        OriginalLength: -1,
    }
}

/// MQGMO_DEFAULT (version 1), with MQGMO_NO_SYNCPOINT as a consumer's default.
pub(crate) fn default_gmo() -> MQGMO {
    MQGMO {
        StrucId: *b"GMO ",
        Version: 1,
        Options: GMO_NO_SYNCPOINT,
        WaitInterval: 0,
        Signal1: 0,
        Signal2: 0,
        ResolvedQName: [b' '; 48],
        MatchOptions: 0,
        GroupStatus: b' ',
        SegmentStatus: b' ',
        Segmentation: b' ',
        Reserved1: b' ',
        MsgToken: [0; 16],
        ReturnedLength: -1,
        Reserved2: 0,
        MsgHandle: 0,
    }
}

/// An entry point FerryMQ cannot honour: MQRC_FUNCTION_NOT_SUPPORTED, and a line on standard
/// error naming it (once per call per process, so a loop does not flood the log).
pub fn not_supported(call: &'static str) -> Outcome {
    static SEEN: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|p| p.into_inner());
    if !seen.contains(&call) {
        seen.push(call);
        eprintln!("ferry mqi: {call} is not offered by FerryMQ (MQRC_FUNCTION_NOT_SUPPORTED 2298)");
    }
    Err(Rc::failed(RC_FUNCTION_NOT_SUPPORTED))
}

const RC_CONVERTED_STRING_TRUNCATED: u32 = 2190;

/// MQXCNVC: characters already in the target's CCSID are copied (truncated with 2190 when the
/// target is too short); anything else is a conversion FerryMQ does not offer (2298, logged).
///
/// # Safety
/// `src` must be null or hold `src_len` readable bytes; `dst` null or hold `dst_len` writable
/// bytes; `data_len` null or valid for an MQLONG write.
pub unsafe fn convert_chars(
    (src_ccsid, src_len, src): (MQLONG, MQLONG, *const u8),
    (dst_ccsid, dst_len, dst): (MQLONG, MQLONG, *mut u8),
    data_len: *mut MQLONG,
) -> Outcome {
    if src_len < 0
        || dst_len < 0
        || (src_len > 0 && src.is_null())
        || (dst_len > 0 && dst.is_null())
    {
        return Err(Rc::failed(RC_BUFFER_LENGTH_ERROR));
    }
    if src_ccsid != dst_ccsid {
        return not_supported("MQXCNVC between different CCSIDs");
    }
    let n = src_len.min(dst_len);
    if n > 0 {
        // SAFETY: `src` holds `src_len` readable bytes and `dst` `dst_len` writable ones (this
        // fn's contract; both non-null when their length is positive, checked above); `n` is
        // within both, and the caller's buffers are distinct objects.
        unsafe { std::ptr::copy(src, dst, n as usize) };
    }
    if !data_len.is_null() {
        // SAFETY: `data_len` is non-null (just checked) and valid for an MQLONG write (this fn's
        // contract).
        unsafe { *data_len = n };
    }
    Ok((n < src_len).then_some(RC_CONVERTED_STRING_TRUNCATED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_fields_read_and_write_as_mq_does() {
        let mut f = [0u8; 8];
        put_text(&mut f, "MQSTR");
        assert_eq!(&f, b"MQSTR   ");
        assert_eq!(text(&f), "MQSTR");
        assert_eq!(text(b"Q1\0garbage"), "Q1");
        let (d, t) =
            put_date_time(SystemTime::UNIX_EPOCH + Duration::from_millis(86_400_000 + 3_723_450));
        assert_eq!(&d, b"19700102");
        assert_eq!(&t, b"01020345");
        let back = parse_put_date_time(&d, &t).unwrap();
        assert_eq!(
            back,
            SystemTime::UNIX_EPOCH + Duration::from_millis(86_400_000 + 3_723_450)
        );
        assert!(parse_put_date_time(b"        ", b"        ").is_none());
    }

    #[test]
    fn mqserver_names_a_tcp_endpoint() {
        std::env::remove_var("FERRY_CONNECT");
        std::env::set_var("MQSERVER", "DEV.APP.SVRCONN/TCP/127.0.0.1(1415)");
        assert_eq!(endpoint(Mode::Client, "").unwrap(), "tcp://127.0.0.1:1415");
        std::env::set_var("MQSERVER", "DEV.APP.SVRCONN/QUIC/qm.example.com(1414)");
        assert_eq!(
            endpoint(Mode::Client, "").unwrap(),
            "quic://qm.example.com:1414"
        );
        std::env::set_var("MQSERVER", "X/LU62/host");
        assert!(endpoint(Mode::Client, "").is_err());
        std::env::remove_var("MQSERVER");
    }
}
