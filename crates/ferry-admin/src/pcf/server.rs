//! The command server's thread: takes each request from SYSTEM.ADMIN.COMMAND.QUEUE, runs it
//! with the authority of the user that put it (the request's MQMD UserIdentifier, which the
//! queue manager set from the putter's identity unless the putter may set identity context),
//! and puts the responses on the request's reply-to queue: MsgType MQMT_REPLY, Format
//! MQADMIN, CorrelId the request's MsgId, the request's persistence and priority. A request
//! that is not a PCF message (Format not MQADMIN) is answered with MQRCCF_MD_FORMAT_ERROR; a
//! request without a reply-to queue is run and its answer dropped, logged.
//!
//! Bounded: one request at a time, its body no larger than the queue's MAXMSGL; it stops when
//! asked (within the get wait) or when the queue manager quiesces.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use ferry_core::{MqError, QueueManager, Reason};
use ferry_model::message::{Message, MessageType};
use ferry_model::name::FormatName;
use ferry_model::options::{GetOptions, ObjectDescriptor, OpenOptions, PutOptions};
use ferry_model::system::ADMIN_COMMAND_QUEUE;

/// How long a get waits before the stop flag is looked at again.
const POLL: Duration = Duration::from_millis(250);

/// MQ's MQFMT_ADMIN.
const FORMAT_ADMIN: &str = "MQADMIN";

/// A running command server; [`CommandServer::stop`] ends it.
#[derive(Debug)]
pub struct CommandServer {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl CommandServer {
    /// Asks the thread to end and waits for it.
    pub fn stop(mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// Whether the thread is still serving.
    pub fn running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

/// Starts the command server of `qm` on its own thread.
pub fn start(qm: QueueManager) -> std::io::Result<CommandServer> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thread = std::thread::Builder::new()
        .name("ferry-cmdsrv".into())
        .spawn(move || serve(&qm, &flag))?;
    Ok(CommandServer {
        stop,
        thread: Some(thread),
    })
}

fn serve(qm: &QueueManager, stop: &AtomicBool) {
    let mut s = qm.service_session("ferry command server");
    let od = match ferry_model::options::queue(ADMIN_COMMAND_QUEUE) {
        Ok(od) => od,
        Err(e) => return tracing::error!(error = %e, "command server: no command queue name"),
    };
    let mut opts = GetOptions::new().wait(POLL);
    opts.fail_if_quiescing = true;
    let mut open: Option<ferry_core::Hobj> = None;
    while !stop.load(Ordering::Acquire) {
        // SCMDSERV, START CMDSERV and STOP CMDSERV say whether to serve; between requests the
        // server follows within one poll (a request it has begun, it finishes).
        let Some(h) = follow_wanted(qm, &mut s, &od, &mut open) else {
            std::thread::sleep(POLL);
            continue;
        };
        match s.get(h, &opts) {
            Ok(got) => answer(qm, &mut s, got.message),
            Err(e) if e.reason == Reason::NoMsgAvailable => {}
            Err(e) if matches!(e.reason, Reason::QMgrQuiescing | Reason::QMgrStopping) => break,
            Err(e) => {
                tracing::warn!(error = %e, "command server: get failed");
                std::thread::sleep(POLL);
            }
        }
    }
    qm.set_command_server_running(false);
    tracing::info!("command server stopped");
}

/// Opens the command queue when the server should serve and closes it when it should not; the
/// handle to get from, if serving.
fn follow_wanted(
    qm: &QueueManager,
    s: &mut ferry_core::Session,
    od: &ObjectDescriptor,
    open: &mut Option<ferry_core::Hobj>,
) -> Option<ferry_core::Hobj> {
    match (qm.command_server_wanted(), *open) {
        (true, Some(h)) => Some(h),
        (true, None) => match s.open(od, OpenOptions::input()) {
            Ok(h) => {
                tracing::info!(queue = ADMIN_COMMAND_QUEUE, "command server started");
                qm.set_command_server_running(true);
                *open = Some(h);
                Some(h)
            }
            Err(e) => {
                tracing::error!(error = %e, queue = ADMIN_COMMAND_QUEUE, "command server cannot open its queue; PCF commands will not be answered");
                qm.set_command_server_wanted(false);
                None
            }
        },
        (false, Some(h)) => {
            let _ = s.close(h, Default::default());
            *open = None;
            qm.set_command_server_running(false);
            tracing::info!("command server stopped (STOP CMDSERV); requests wait on the queue");
            None
        }
        (false, None) => None,
    }
}

/// Runs one request and sends its responses.
fn answer(qm: &QueueManager, s: &mut ferry_core::Session, request: Message) {
    let d = &request.descriptor;
    let user = d.user_id.as_str().trim().to_owned();
    let bodies = if d.format.as_str().trim() != FORMAT_ADMIN {
        super::not_pcf()
    } else {
        let who = Arc::new(qm.resolve_principal(&user));
        // MQENC_INTEGER_NORMAL (1) in the integer bits: big-endian.
        let big = d.encoding & 0x0f == 1;
        super::execute(qm, Some(&who), &request.body, big)
    };
    if d.reply_to_queue.as_str().trim().is_empty() {
        return tracing::info!(%user, "command server: a request named no reply-to queue; its answer is dropped");
    }
    for body in bodies {
        if let Err(e) = reply(s, &request, body) {
            tracing::warn!(error = %e, queue = %d.reply_to_queue, %user, "command server cannot put a response");
            return;
        }
    }
}

fn reply(s: &mut ferry_core::Session, request: &Message, body: Vec<u8>) -> Result<(), MqError> {
    let d = &request.descriptor;
    let mut m = Message::new(body);
    m.descriptor.format = FormatName::truncating(FORMAT_ADMIN);
    m.descriptor.message_type = MessageType::Reply;
    m.descriptor.correl_id = ferry_model::message::CorrelId(d.msg_id.0);
    m.descriptor.persistence = d.persistence;
    m.descriptor.priority = d.priority;
    let od = if d.reply_to_qmgr.as_str().trim().is_empty() {
        ObjectDescriptor::queue(d.reply_to_queue)
    } else {
        ObjectDescriptor::QueueAt {
            name: d.reply_to_queue,
            qmgr: d.reply_to_qmgr,
        }
    };
    s.put1(&od, m, &PutOptions::default())?;
    Ok(())
}
