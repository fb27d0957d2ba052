//! MQCB and MQCTL: asynchronous consumption as the MQI defines it. A connection's message
//! consumers (MQCB MQOP_REGISTER with an MQCBD naming the function, the object handle, and the
//! MQMD and MQGMO to get with) are called by a dispatcher with each message got: on a thread of
//! its own after MQCTL MQOP_START, or on the caller's thread with MQOP_START_WAIT, until MQCTL
//! MQOP_STOP (from any thread, a consumer included), the last consumer is deregistered, or the
//! connection ends. Consumers registered with MQCBDO_START_CALL / STOP_CALL / REGISTER_CALL /
//! DEREGISTER_CALL are also called at those moments; MQOP_SUSPEND and MQOP_RESUME pause one
//! consumer (MQCB, also together with MQOP_REGISTER) or the whole connection (MQCTL). Closing a
//! handle deregisters its consumer; MQOP_START_WAIT with every consumer suspended answers
//! MQRC_NO_CALLBACKS_ACTIVE.
//!
//! A consumer is called without the connection's lock held, so it may use the connection (put a
//! reply, commit, call MQCTL STOP). Each get waits at most [`POLL`], so a stop or suspend takes
//! effect within that. A consumer whose MQGMO asks to wait (MQGMO_WAIT with a WaitInterval) is
//! called with MQCBCT_EVENT_CALL and MQRC_NO_MSG_AVAILABLE each time that interval passes with
//! no message for it. Conditions of the whole connection — broken, or the queue manager
//! quiescing or stopping — go to the connection's event handler (MQCBT_EVENT_HANDLER), or to
//! every consumer when it has none, as MQCBCT_EVENT_CALL with the reason; then the dispatcher
//! ends. Not offered: CallbackName (functions by name: MQRC_CALLBACK_LINK_ERROR),
//! MQCTLO_THREAD_AFFINITY.

#![allow(non_snake_case)]

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::{Duration, Instant};

use ferry_client::Hobj;

use crate::api::{self, Outcome, Rc};
use crate::structs::{MQGMO, MQLONG, MQMD, MQPTR};

/// How long one get of the dispatcher waits.
const POLL: Duration = Duration::from_millis(100);

const OP_START: MQLONG = 0x1;
const OP_START_WAIT: MQLONG = 0x2;
const OP_STOP: MQLONG = 0x4;
const OP_REGISTER: MQLONG = 0x100;
const OP_DEREGISTER: MQLONG = 0x200;
const OP_SUSPEND: MQLONG = 0x10000;
const OP_RESUME: MQLONG = 0x20000;
const CBT_MESSAGE_CONSUMER: MQLONG = 1;
const CBT_EVENT_HANDLER: MQLONG = 2;
const CBDO_START_CALL: MQLONG = 0x1;
const CBDO_STOP_CALL: MQLONG = 0x4;
const CBDO_REGISTER_CALL: MQLONG = 0x100;
const CBDO_DEREGISTER_CALL: MQLONG = 0x200;
const CBCT_START_CALL: MQLONG = 1;
const CBCT_STOP_CALL: MQLONG = 2;
const CBCT_REGISTER_CALL: MQLONG = 3;
const CBCT_DEREGISTER_CALL: MQLONG = 4;
const CBCT_EVENT_CALL: MQLONG = 5;
const CBCT_MSG_REMOVED: MQLONG = 6;
const CBCT_MSG_NOT_REMOVED: MQLONG = 7;
const GMO_BROWSE_ANY: MQLONG = 0x10 | 0x20 | 0x800;
const GMO_WAIT: MQLONG = 0x1;
const RC_NO_MSG_AVAILABLE: u32 = 2033;
/// Reasons that concern the whole connection (MQRC_CONNECTION_BROKEN, Q_MGR_QUIESCING,
/// Q_MGR_STOPPING, CONNECTION_QUIESCING, CONNECTION_STOPPING): told to the event handler, and
/// the dispatcher ends.
const CONNECTION_EVENTS: [u32; 5] = [2009, 2161, 2162, 2202, 2203];
const RC_CBD_ERROR: u32 = 2444;
const RC_CTLO_ERROR: u32 = 2445;
const RC_NO_CALLBACKS_ACTIVE: u32 = 2446;
const RC_CALLBACK_NOT_REGISTERED: u32 = 2448;
const RC_CALLBACK_TYPE_ERROR: u32 = 2483;
const RC_CALLBACK_LINK_ERROR: u32 = 2487;
const RC_OPERATION_ERROR: u32 = 2488;
const RC_HCONN_ASYNC_ACTIVE: u32 = 2500;

/// MQCBD (version 1).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQCBD {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub CallbackType: MQLONG,
    pub Options: MQLONG,
    pub CallbackArea: MQPTR,
    pub CallbackFunction: MQPTR,
    pub CallbackName: [u8; 128],
    pub MaxMsgLength: MQLONG,
}

/// MQCBC (version 2).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQCBC {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub CallType: MQLONG,
    pub Hobj: MQLONG,
    pub CallbackArea: MQPTR,
    pub ConnectionArea: MQPTR,
    pub CompCode: MQLONG,
    pub Reason: MQLONG,
    pub State: MQLONG,
    pub DataLength: MQLONG,
    pub BufferLength: MQLONG,
    pub Flags: MQLONG,
    pub ReconnectDelay: MQLONG,
}

/// MQCTLO (version 1).
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct MQCTLO {
    pub StrucId: [u8; 4],
    pub Version: MQLONG,
    pub Options: MQLONG,
    pub Reserved: MQLONG,
    pub ConnectionArea: MQPTR,
}

/// An MQCB_FUNCTION.
type Callback = unsafe extern "C" fn(MQLONG, *mut c_void, *mut c_void, *mut c_void, *mut MQCBC);

/// One registered consumer (pointers kept as addresses: the caller's, passed back as given).
#[derive(Clone, Copy)]
struct Consumer {
    hobj: MQLONG,
    function: usize,
    area: usize,
    options: MQLONG,
    max_len: MQLONG,
    md: MQMD,
    gmo: MQGMO,
    suspended: bool,
    /// Since when it has had no message (for its MQGMO WaitInterval).
    idle_since: Instant,
}

#[derive(Default)]
struct Dispatch {
    consumers: Vec<Consumer>,
    events: Option<(usize, usize)>,
    connection_area: usize,
    stop: Option<Arc<AtomicBool>>,
    suspended: bool,
    thread: Option<std::thread::JoinHandle<()>>,
}

static DISPATCH: LazyLock<Mutex<HashMap<MQLONG, Dispatch>>> = LazyLock::new(Default::default);

fn state<T>(f: impl FnOnce(&mut HashMap<MQLONG, Dispatch>) -> T) -> T {
    f(&mut DISPATCH.lock().unwrap_or_else(|p| p.into_inner()))
}

/// MQCB.
///
/// # Safety
/// `cbd`, `md` and `gmo` must each be null or point to a readable MQCBD / MQMD / MQGMO; the
/// function the MQCBD names must be an MQCB_FUNCTION.
pub unsafe fn cb(
    hconn: MQLONG,
    operation: MQLONG,
    cbd: *const MQCBD,
    hobj: MQLONG,
    md: *const MQMD,
    gmo: *const MQGMO,
) -> Outcome {
    api::check_hconn(hconn)?;
    let pause = operation & (OP_SUSPEND | OP_RESUME);
    match operation & !(0x2000 | OP_SUSPEND | OP_RESUME) {
        // MQOP_REGISTER may come with MQOP_SUSPEND or MQOP_RESUME.
        OP_REGISTER if pause != OP_SUSPEND | OP_RESUME => {
            // SAFETY: the caller passes each pointer null or valid (this fn's contract).
            let mut c = unsafe { consumer(cbd, hobj, md, gmo) }?;
            c.suspended = pause == OP_SUSPEND;
            register(hconn, c)
        }
        OP_DEREGISTER if pause == 0 => deregister(hconn, hobj),
        0 if pause == OP_SUSPEND || pause == OP_RESUME => {
            with_consumer(hconn, hobj, |c| c.suspended = pause == OP_SUSPEND)
        }
        _ => Err(Rc::failed(RC_OPERATION_ERROR)),
    }
}

/// The consumer an MQCBD describes; an event handler answers with hobj -1.
///
/// # Safety
/// As [`cb`].
unsafe fn consumer(
    cbd: *const MQCBD,
    hobj: MQLONG,
    md: *const MQMD,
    gmo: *const MQGMO,
) -> Result<Consumer, Rc> {
    if cbd.is_null() {
        return Err(Rc::failed(RC_CBD_ERROR));
    }
    // SAFETY: the caller passes `cbd` as a readable MQCBD, checked non-null above.
    let d = unsafe { *cbd };
    if &d.StrucId != b"CBD " || d.Version != 1 {
        return Err(Rc::failed(RC_CBD_ERROR));
    }
    if d.CallbackFunction.is_null() {
        return Err(Rc::failed(RC_CALLBACK_LINK_ERROR));
    }
    let kind = d.CallbackType;
    if kind != CBT_MESSAGE_CONSUMER && kind != CBT_EVENT_HANDLER {
        return Err(Rc::failed(RC_CALLBACK_TYPE_ERROR));
    }
    let mut c = Consumer {
        hobj: if kind == CBT_EVENT_HANDLER { -1 } else { hobj },
        function: d.CallbackFunction as usize,
        area: d.CallbackArea as usize,
        options: d.Options,
        max_len: d.MaxMsgLength,
        md: api::default_md(),
        gmo: api::default_gmo(),
        suspended: false,
        idle_since: Instant::now(),
    };
    if !md.is_null() {
        // SAFETY: the caller passes `md` as a readable MQMD, checked non-null.
        c.md = unsafe { *md };
    }
    if !gmo.is_null() {
        // SAFETY: the caller passes `gmo` as a readable MQGMO, checked non-null.
        c.gmo = unsafe { *gmo };
    }
    Ok(c)
}

fn register(hconn: MQLONG, c: Consumer) -> Outcome {
    state(|s| {
        let d = s.entry(hconn).or_default();
        if c.hobj == -1 {
            d.events = Some((c.function, c.area));
            return;
        }
        d.consumers.retain(|x| x.hobj != c.hobj);
        d.consumers.push(c);
    });
    if c.hobj != -1 && c.options & CBDO_REGISTER_CALL != 0 {
        call(hconn, &c, CBCT_REGISTER_CALL, 0, 0);
    }
    Ok(None)
}

fn deregister(hconn: MQLONG, hobj: MQLONG) -> Outcome {
    let gone = state(|s| {
        let d = s.get_mut(&hconn)?;
        let i = d.consumers.iter().position(|c| c.hobj == hobj)?;
        Some(d.consumers.remove(i))
    });
    let c = gone.ok_or(Rc::failed(RC_CALLBACK_NOT_REGISTERED))?;
    if c.options & CBDO_DEREGISTER_CALL != 0 {
        call(hconn, &c, CBCT_DEREGISTER_CALL, 0, 0);
    }
    Ok(None)
}

fn with_consumer(hconn: MQLONG, hobj: MQLONG, f: impl FnOnce(&mut Consumer)) -> Outcome {
    state(|s| {
        let c = s
            .get_mut(&hconn)
            .and_then(|d| d.consumers.iter_mut().find(|c| c.hobj == hobj));
        c.map(f).ok_or(Rc::failed(RC_CALLBACK_NOT_REGISTERED))
    })?;
    Ok(None)
}

/// MQCTL.
///
/// # Safety
/// `ctlo` must be null or point to a readable MQCTLO.
pub unsafe fn ctl(hconn: MQLONG, operation: MQLONG, ctlo: *const MQCTLO) -> Outcome {
    api::check_hconn(hconn)?;
    let area = if ctlo.is_null() {
        0
    } else {
        // SAFETY: the caller passes `ctlo` as a readable MQCTLO, checked non-null.
        let o = unsafe { *ctlo };
        if &o.StrucId != b"CTLO" || o.Version != 1 {
            return Err(Rc::failed(RC_CTLO_ERROR));
        }
        o.ConnectionArea as usize
    };
    match operation {
        OP_START | OP_START_WAIT => start(hconn, area, operation == OP_START_WAIT),
        OP_STOP => stop(hconn),
        OP_SUSPEND | OP_RESUME => state(|s| {
            let d = s
                .get_mut(&hconn)
                .ok_or(Rc::failed(RC_CALLBACK_NOT_REGISTERED))?;
            d.suspended = operation == OP_SUSPEND;
            Ok(None)
        }),
        _ => Err(Rc::failed(RC_OPERATION_ERROR)),
    }
}

fn start(hconn: MQLONG, area: usize, wait: bool) -> Outcome {
    let stop = Arc::new(AtomicBool::new(false));
    let consumers = state(|s| {
        let d = s.entry(hconn).or_default();
        if d.stop.is_some() {
            return Err(Rc::failed(RC_HCONN_ASYNC_ACTIVE));
        }
        if d.consumers.is_empty() {
            return Err(Rc::failed(RC_CALLBACK_NOT_REGISTERED));
        }
        if wait && d.consumers.iter().all(|c| c.suspended) {
            return Err(Rc::failed(RC_NO_CALLBACKS_ACTIVE));
        }
        (d.stop, d.connection_area, d.suspended) = (Some(stop.clone()), area, false);
        for c in &mut d.consumers {
            c.idle_since = Instant::now();
        }
        Ok(d.consumers.clone())
    })?;
    for c in consumers
        .iter()
        .filter(|c| c.options & CBDO_START_CALL != 0)
    {
        call(hconn, c, CBCT_START_CALL, 0, 0);
    }
    if wait {
        dispatch(hconn, &stop);
        return Ok(None);
    }
    let thread = std::thread::Builder::new()
        .name("ferry-mqcb".into())
        .spawn(move || dispatch(hconn, &stop))
        .map_err(|_| Rc::failed(api::RC_RESOURCE_PROBLEM))?;
    state(|s| s.entry(hconn).or_default().thread = Some(thread));
    Ok(None)
}

fn stop(hconn: MQLONG) -> Outcome {
    let (flag, thread) = state(|s| {
        let d = s
            .get_mut(&hconn)
            .ok_or(Rc::failed(RC_CALLBACK_NOT_REGISTERED))?;
        Ok::<_, Rc>((d.stop.take(), d.thread.take()))
    })?;
    let Some(flag) = flag else {
        return Ok(None);
    };
    flag.store(true, Ordering::Release);
    // A consumer stopping its own dispatcher does not wait for itself.
    if let Some(t) = thread.filter(|t| t.thread().id() != std::thread::current().id()) {
        let _ = t.join();
    }
    Ok(None)
}

/// The dispatcher: gets for each consumer in turn and calls it, until stopped.
fn dispatch(hconn: MQLONG, stop: &AtomicBool) {
    while !stop.load(Ordering::Acquire) {
        let Some((consumers, paused)) =
            state(|s| s.get(&hconn).map(|d| (d.consumers.clone(), d.suspended)))
        else {
            break;
        };
        if consumers.is_empty() || api::check_hconn(hconn).is_err() {
            break;
        }
        let active: Vec<&Consumer> = consumers
            .iter()
            .filter(|c| !c.suspended && !paused)
            .collect();
        if active.is_empty() {
            std::thread::sleep(POLL);
            continue;
        }
        let mut connection_ended = false;
        for c in active {
            if stop.load(Ordering::Acquire) || connection_ended {
                break;
            }
            connection_ended = !deliver(hconn, c, consumers.len());
        }
        if connection_ended {
            break;
        }
    }
    let finished = state(|s| {
        s.get(&hconn)
            .map(|d| d.consumers.clone())
            .unwrap_or_default()
    });
    for c in finished.iter().filter(|c| c.options & CBDO_STOP_CALL != 0) {
        call(hconn, c, CBCT_STOP_CALL, 0, 0);
    }
    state(|s| {
        if let Some(d) = s.get_mut(&hconn) {
            d.stop = None;
        }
    });
}

/// One get for consumer `c` (waiting [`POLL`] split among `n` consumers), and its call. False
/// when the connection has ended (its event told).
fn deliver(hconn: MQLONG, c: &Consumer, n: usize) -> bool {
    let (mut md, mut gmo) = (c.md, c.gmo);
    let len = if c.max_len < 0 { 100 << 20 } else { c.max_len };
    let Ok(mut opts) = api::get_options(&gmo, &md, len) else {
        return true;
    };
    opts = opts.wait(POLL / n.max(1) as u32);
    let got = api::with_conn(hconn, |conn| Ok(conn.get(Hobj(c.hobj as u32), &opts)));
    match got {
        Ok(Ok(g)) => {
            api::get_output(&mut md, &g.message);
            let call_type = if gmo.Options & GMO_BROWSE_ANY != 0 {
                CBCT_MSG_NOT_REMOVED
            } else {
                CBCT_MSG_REMOVED
            };
            let warning = g.warning.map_or(0, |w| w.code());
            let mut body = g.message.body.to_vec();
            let data = g.data_length as MQLONG;
            let _ = with_consumer(hconn, c.hobj, |c| c.idle_since = Instant::now());
            call_with(
                hconn,
                c,
                call_type,
                (warning, data),
                (&mut md, &mut gmo, &mut body),
            );
        }
        Ok(Err(e)) if e.reason == ferry_client::Reason::NoMsgAvailable => idle(hconn, c),
        // MQCLOSE of the handle deregisters its consumer, as in MQ.
        Ok(Err(e)) if e.reason == ferry_client::Reason::HobjError => {
            let _ = deregister(hconn, c.hobj);
        }
        Ok(Err(e)) if CONNECTION_EVENTS.contains(&e.reason.code()) => {
            connection_event(hconn, e.reason.code());
            return false;
        }
        Ok(Err(e)) => call(hconn, c, CBCT_MSG_NOT_REMOVED, e.reason.code(), 0),
        Err(_) => {}
    }
    true
}

/// No message for `c` this time: once its MQGMO WaitInterval has passed without one (when it
/// asked to wait), it is told so (MQCBCT_EVENT_CALL, MQRC_NO_MSG_AVAILABLE) and waits anew.
fn idle(hconn: MQLONG, c: &Consumer) {
    if c.gmo.Options & GMO_WAIT == 0 || c.gmo.WaitInterval < 0 {
        return;
    }
    let interval = Duration::from_millis(c.gmo.WaitInterval as u64);
    if c.idle_since.elapsed() >= interval {
        let _ = with_consumer(hconn, c.hobj, |c| c.idle_since = Instant::now());
        call(hconn, c, CBCT_EVENT_CALL, RC_NO_MSG_AVAILABLE, 0);
    }
}

/// A condition of the whole connection (`reason`): to its event handler, or to every
/// consumer when it has none.
fn connection_event(hconn: MQLONG, reason: u32) {
    let (handler, consumers) = state(|s| {
        s.get(&hconn)
            .map(|d| (d.events, d.consumers.clone()))
            .unwrap_or_default()
    });
    match handler {
        Some((function, area)) => {
            let h = Consumer {
                hobj: 0,
                function,
                area,
                options: 0,
                max_len: 0,
                md: api::default_md(),
                gmo: api::default_gmo(),
                suspended: false,
                idle_since: Instant::now(),
            };
            call(hconn, &h, CBCT_EVENT_CALL, reason, 0);
        }
        None => {
            for c in &consumers {
                call(hconn, c, CBCT_EVENT_CALL, reason, 0);
            }
        }
    }
}

/// Calls `c` with no message.
fn call(hconn: MQLONG, c: &Consumer, call_type: MQLONG, reason: u32, data: MQLONG) {
    let (mut md, mut gmo) = (c.md, c.gmo);
    call_with(
        hconn,
        c,
        call_type,
        (reason, data),
        (&mut md, &mut gmo, &mut Vec::new()),
    );
}

/// Calls consumer `c` with an MQCBC for `call_type`, `reason` and the message's `data` length,
/// passing the descriptor, options and buffer.
fn call_with(
    hconn: MQLONG,
    c: &Consumer,
    call_type: MQLONG,
    (reason, data): (u32, MQLONG),
    (md, gmo, body): (&mut MQMD, &mut MQGMO, &mut Vec<u8>),
) {
    let area = state(|s| s.get(&hconn).map_or(0, |d| d.connection_area));
    let comp = match (reason, call_type) {
        (0, _) => 0,
        (2079, _) => 1,
        _ => 2,
    };
    let mut cbc = MQCBC {
        StrucId: *b"CBC ",
        Version: 2,
        CallType: call_type,
        Hobj: c.hobj,
        CallbackArea: c.area as MQPTR,
        ConnectionArea: area as MQPTR,
        CompCode: comp,
        Reason: reason as MQLONG,
        State: 0,
        DataLength: data,
        BufferLength: body.len() as MQLONG,
        Flags: 0,
        ReconnectDelay: 0,
    };
    // SAFETY: `function` is the MQCB_FUNCTION the application registered in its MQCBD (MQCB's
    // contract: a function with MQCB_FUNCTION's signature); it is called with pointers to live
    // locals, valid for the call.
    unsafe {
        let f: Callback = std::mem::transmute::<usize, Callback>(c.function);
        f(
            hconn,
            md as *mut MQMD as *mut c_void,
            gmo as *mut MQGMO as *mut c_void,
            body.as_mut_ptr() as *mut c_void,
            &mut cbc,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_structures_have_the_documented_lengths() {
        assert_eq!(std::mem::size_of::<MQCBD>(), 168, "MQCBD_LENGTH_1");
        assert_eq!(std::mem::size_of::<MQCBC>(), 64, "MQCBC_LENGTH_2");
        assert_eq!(std::mem::size_of::<MQCTLO>(), 24, "MQCTLO_LENGTH_1");
    }
}
