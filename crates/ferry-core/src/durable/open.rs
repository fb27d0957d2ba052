//! Opening a queue manager from its recovery log: the newest good checkpoint is read, the log
//! records after it are replayed (units of work open at a crash are backed out), the queues are
//! rebuilt with their messages' entries (content stays in the log), and the log is opened for
//! appending with a background thread that takes checkpoints as it grows.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use ferry_model::clock::Clock;
use ferry_model::name::ObjectName;
use ferry_model::reason::{MqError, MqResult, Reason};
use ferry_model::status::RunState;

use crate::durable::checkpoint;
use crate::durable::persist::{Persist, PersistSettings, Progress};
use crate::durable::replay::{time_left, Recovery};
use crate::engine::SlotState;
use crate::qmgr::{QmConfig, QueueManager};

/// What a restart found in the recovery log.
#[derive(Debug, Clone)]
pub struct RecoveryReport {
    /// The checkpoint restart began from, if any.
    pub checkpoint: Option<String>,
    /// Newer checkpoints found damaged and passed over (a crash while one was written).
    pub skipped_checkpoints: Vec<String>,
    /// Log records replayed.
    pub records: usize,
    /// Persistent messages restored to their queues.
    pub messages: usize,
    /// Units of work open at the crash, backed out.
    pub uows_backed_out: usize,
    /// Messages that expired while the queue manager was down.
    pub expired: usize,
    /// A torn tail dropped (file, offset): records never acknowledged — unless `cut` says
    /// otherwise.
    pub torn_tail: Option<(String, u64)>,
    /// The log ended before the durable mark: acknowledged records are missing from its tail.
    pub cut: Option<CutTail>,
    /// What recovering to the last good record gave up, if that was asked for.
    pub lost: Option<ferry_log::Loss>,
    /// What the dropped records held, and the extents moved aside after the new tail.
    pub dropped: Option<super::dropped::Dropped>,
    /// How long the restart took.
    pub took: Duration,
}

/// Acknowledged records missing from the log's tail: the durable mark said every record up to
/// `mark_lsn` was on disk, and the log ends at `last_lsn`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CutTail {
    /// The LSN the durable mark vouched for.
    pub mark_lsn: u64,
    /// The last record the log holds.
    pub last_lsn: u64,
}

impl CutTail {
    /// How many acknowledged records are gone.
    pub fn records(&self) -> u64 {
        self.mark_lsn - self.last_lsn
    }
}

impl QueueManager {
    /// A queue manager whose persistent messages and definitions live in the recovery log on
    /// `storage`: the newest good checkpoint is read, the log records after it are replayed
    /// (units of work open at a crash are backed out), and the log is opened for appending. A
    /// background thread takes checkpoints as the log grows. Returns what the restart found.
    pub fn open_persistent(
        config: QmConfig,
        storage: Arc<dyn ferry_log::Storage>,
        settings: PersistSettings,
        mode: ferry_log::RecoveryMode,
    ) -> MqResult<(Self, RecoveryReport)> {
        let started = ferry_model::clock::monotonic_now();
        let (loaded, skipped) = checkpoint::load_newest(storage.as_ref())?;
        let (mut recovery, start, checkpoint) = match loaded {
            Some(l) => (l.recovery, Some(l.replay_from), Some(l.file)),
            None => (Recovery::default(), None, None),
        };
        if start.is_none() {
            check_log_starts_at_one(storage.as_ref(), &skipped)?;
        }
        let end = replay(storage.as_ref(), start, mode, &mut recovery)?;
        let (cut, mark) = judge_tail(storage.as_ref(), start, &end)?;
        let dropped = settle_loss(storage.as_ref(), &end)?;
        recovery.finish(config.clock.unix_ms());
        let clock = config.clock.clone();
        let qm = QueueManager::new(config)?;
        qm.shared
            .next_uow
            .store(recovery.max_uow + 1, Ordering::Relaxed);
        restore_definitions(&qm, &recovery)?;
        let messages = restore_messages(&qm, &mut recovery, &clock);
        let log = ferry_log::Log::open(storage.clone(), settings.log, end.tail).map_err(data)?;
        let progress = Progress {
            at_time: Some(ferry_model::clock::monotonic_now()),
            mark,
            ..Default::default()
        };
        let persist = Persist::new(log, storage, settings, clock, progress);
        qm.set_durability(persist.clone());
        start_checkpointer(&qm, &persist).map_err(|e| {
            MqError::new(
                Reason::UnexpectedError,
                format!("cannot start the checkpoint thread: {e}"),
            )
        })?;
        let report = RecoveryReport {
            checkpoint,
            skipped_checkpoints: skipped,
            records: recovery.records,
            messages,
            uows_backed_out: recovery.uows_backed_out,
            expired: recovery.expired,
            torn_tail: end.torn_tail,
            cut,
            lost: end.lost,
            dropped,
            took: started.elapsed(),
        };
        tracing::info!(
            checkpoint = report.checkpoint.as_deref().unwrap_or("none"),
            records = report.records,
            messages = report.messages,
            uows_backed_out = report.uows_backed_out,
            expired = report.expired,
            took_ms = report.took.as_millis() as u64,
            "recovery complete"
        );
        Ok((qm, report))
    }
}

/// Compares the log's end with the durable mark: records it vouched for that the scan did not
/// find were acknowledged, and are gone (logged as an error with the count; after a recovery
/// to the last good record the dropped-records report says it instead). Then syncs the extents
/// replay read (a crashed process's last writes may be only in the page cache) and marks their
/// end, so the next restart is judged against what this one found.
fn judge_tail(
    storage: &dyn ferry_log::Storage,
    start: Option<ferry_log::Tail>,
    end: &ferry_log::ScanEnd,
) -> MqResult<(Option<CutTail>, ferry_log::Mark)> {
    let last_lsn = end.tail.next_lsn.saturating_sub(1);
    let old = ferry_log::read_mark(storage);
    let cut = old
        .filter(|m| m.lsn > last_lsn && end.lost.is_none())
        .map(|m| CutTail {
            mark_lsn: m.lsn,
            last_lsn,
        });
    if let Some(c) = cut {
        let (file, offset) = end.torn_tail.clone().unwrap_or_default();
        tracing::error!(records = c.records(), mark_lsn = c.mark_lsn, last_lsn, file = %file, offset,
            "AMQ7472E the recovery log ends at LSN {last_lsn}, but every record up to LSN {} had been written to disk and acknowledged: {} acknowledged records are missing from its tail (the disk lost writes it had confirmed, or the log was truncated); the persistent messages, gets and commits in them are lost",
            c.mark_lsn, c.records());
    }
    let first = start.map_or(1, |t| t.extent);
    for n in first..=end.tail.extent {
        match storage.sync(&ferry_log::format::extent_name(n)) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(MqError::new(
                    Reason::QMgrDataError,
                    format!("cannot sync the recovery log's extent {n}: {e}"),
                ))
            }
            _ => {}
        }
    }
    let mark = ferry_log::Mark {
        generation: old.map_or(0, |m| m.generation + 1),
        lsn: last_lsn,
    };
    ferry_log::write_mark(storage, mark).map_err(|e| {
        MqError::new(
            Reason::QMgrDataError,
            format!("cannot write the recovery log's durable mark: {e}"),
        )
    })?;
    Ok((cut, mark))
}

/// After a recovery to the last good record: what the dropped records held, and the extents
/// after the new tail moved aside, before the log opens there.
fn settle_loss(
    storage: &dyn ferry_log::Storage,
    end: &ferry_log::ScanEnd,
) -> MqResult<Option<super::dropped::Dropped>> {
    let Some(loss) = &end.lost else {
        return Ok(None);
    };
    let mut d = super::dropped::describe(storage, loss);
    d.retired = super::dropped::retire_after(storage, &end.tail).map_err(|e| {
        MqError::new(
            Reason::QMgrDataError,
            format!("cannot move aside the log extents after the last good record: {e}"),
        )
    })?;
    Ok(Some(d))
}

fn data(e: ferry_log::LogError) -> MqError {
    MqError::new(Reason::QMgrDataError, e.to_string())
}

/// Without a checkpoint the log must be whole from its first extent.
fn check_log_starts_at_one(storage: &dyn ferry_log::Storage, skipped: &[String]) -> MqResult<()> {
    let first = storage
        .list()
        .map_err(|e| MqError::new(Reason::QMgrDataError, e.to_string()))?
        .iter()
        .filter_map(|n| ferry_log::format::extent_number(n))
        .min();
    match first.filter(|f| *f != 1) {
        None => Ok(()),
        Some(first) => Err(MqError::new(
            Reason::QMgrDataError,
            format!(
                "the recovery log starts at extent {first} but no checkpoint can be read{}",
                if skipped.is_empty() {
                    String::new()
                } else {
                    format!(" (damaged: {})", skipped.join(", "))
                }
            ),
        )),
    }
}

/// Applies every record from `start` (the log's beginning if `None`) to `recovery`.
fn replay(
    storage: &dyn ferry_log::Storage,
    start: Option<ferry_log::Tail>,
    mode: ferry_log::RecoveryMode,
    recovery: &mut Recovery,
) -> MqResult<ferry_log::ScanEnd> {
    let mut failed = None;
    let end = ferry_log::scan_from(storage, start, mode, &mut |r| {
        recovery.apply(r).map_err(|e| {
            let text = e.detail.clone();
            failed = Some(e);
            ferry_log::LogError::Io(text)
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    end.map_err(data)
}

/// Brings the definitions to what the log says. A checkpoint holds the complete set, so
/// default queues missing from it were deleted (system queues are always kept).
fn restore_definitions(qm: &QueueManager, recovery: &Recovery) -> MqResult<()> {
    let defined = &recovery.definitions;
    let mut gone: Vec<ObjectName> = recovery
        .deleted
        .iter()
        .filter(|n| !defined.contains(n))
        .copied()
        .collect();
    if recovery.definitions_complete {
        gone.extend(
            qm.queue_names()
                .into_iter()
                .map(|(n, _)| n)
                .filter(|n| !defined.contains(n) && !n.as_str().starts_with("SYSTEM.")),
        );
    }
    for name in gone {
        if qm.lookup(&name).is_some() {
            qm.delete_queue(name.as_str(), true)?;
        }
    }
    for (name, def) in recovery.definitions.iter() {
        qm.define_in_memory(*name, def.clone(), true)?;
    }
    for ((kind, name), text) in &recovery.objects {
        qm.restore_object(*kind, *name, text)?;
    }
    Ok(())
}

/// Puts every recovered message back on its queue as an entry (its content stays in the log)
/// and resumes each queue's numbering. Returns how many were restored.
fn restore_messages(qm: &QueueManager, recovery: &mut Recovery, clock: &Clock) -> usize {
    let mut messages = 0;
    let now_ms = clock.unix_ms();
    for (name, msgs) in std::mem::take(&mut recovery.messages) {
        let Ok(q) = qm.local_queue(&name) else {
            continue;
        };
        let mut st = q.lock();
        for (seq, l) in msgs {
            let expires_at = time_left(l.expiry_ms, now_ms).map_or(0, |d| clock.deadline(d));
            if l.expiry_ms != 0 && expires_at == 0 {
                continue;
            }
            st.store
                .insert_on_disk(seq, l.entry, expires_at, SlotState::Available);
            messages += 1;
        }
    }
    for (name, max) in &recovery.max_seq {
        if let Ok(q) = qm.local_queue(name) {
            q.lock().store.resume_after(*max);
        }
    }
    messages
}

/// Starts the thread that takes a checkpoint whenever enough log has been written since the
/// last one; it ends when the queue manager is dropped or stops.
fn start_checkpointer(qm: &QueueManager, persist: &Arc<Persist>) -> std::io::Result<()> {
    let weak = Arc::downgrade(&qm.shared);
    let persist = Arc::downgrade(persist);
    std::thread::Builder::new()
        .name("ferry-checkpoint".into())
        .spawn(move || {
            ferry_log::run_in_background();
            let mut watch = Watch::default();
            loop {
                std::thread::sleep(Duration::from_millis(50));
                let Some(shared) = weak.upgrade() else { return };
                let qm = QueueManager { shared };
                if qm.run_state() == RunState::Stopping {
                    return;
                }
                let Some(p) = persist.upgrade() else { return };
                // No checkpoint while the disk is full: it could not be written, and its log
                // record would wait in the reserve that gets and commits need.
                if watch.disk(p.log().disk_full()) {
                    continue;
                }
                if let Err(e) = checkpoint::keep_mark(&p) {
                    watch.checkpoint_failed(&e);
                }
                if checkpoint::due(&p) && watch.may_checkpoint() {
                    if let Err(e) = checkpoint::take(&qm, &p) {
                        watch.checkpoint_failed(&e);
                    }
                }
            }
        })
        .map(|_| ())
}

/// What the checkpointer says about trouble: a full disk once when it fills and once when
/// space is back; failed checkpoints once, then at most once a minute with how many failed
/// meanwhile, tried again at most once a second.
#[derive(Default)]
struct Watch {
    full: bool,
    failures: u64,
    last_failure: Option<std::time::Instant>,
    last_said: Option<std::time::Instant>,
}

impl Watch {
    /// Says when the disk fills or has room again; whether it is full now.
    fn disk(&mut self, why: Option<String>) -> bool {
        match (why, self.full) {
            (Some(why), false) => {
                tracing::error!(reason = %why, "AMQ7463E the disk holding the recovery log is full: persistent puts are refused (2102) until space is freed; gets, commits and backouts go on");
                self.full = true;
            }
            (None, true) => {
                tracing::warn!("AMQ7464I the disk holding the recovery log has space again: persistent puts resume");
                self.full = false;
            }
            _ => {}
        }
        self.full
    }

    fn may_checkpoint(&self) -> bool {
        self.last_failure
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(1))
    }

    fn checkpoint_failed(&mut self, e: &ferry_model::reason::MqError) {
        let now = ferry_model::clock::monotonic_now();
        self.failures += 1;
        self.last_failure = Some(now);
        if self
            .last_said
            .is_none_or(|t| t.elapsed() >= Duration::from_secs(60))
        {
            tracing::warn!(error = %e, failures = self.failures, "checkpoint failed; trying again every second");
            self.last_said = Some(now);
            self.failures = 0;
        }
    }
}
