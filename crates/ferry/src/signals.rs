//! Waiting for SIGINT/SIGTERM (an immediate stop) and SIGUSR1 (a controlled stop), and sending
//! them, or SIGKILL, to another process.
//!
//! The approach: block SIGINT and SIGTERM in the main thread before any other thread starts (so
//! every thread inherits the mask and none can be killed by them), then take them synchronously
//! with `sigwait`. No signal handler runs, so there is no async-signal-safety to worry about and
//! no polling. Blocked signals are also delivered to a process running as pid 1 (in a container),
//! where unhandled ones would be dropped.
//!
//! Why `unsafe` is allowed here (and only here): `pthread_sigmask`, `sigwait`, `sigemptyset`,
//! `sigaddset` and `kill` are libc calls with no safe std equivalent. Each call below only passes
//! pointers to locals or fields that outlive the call.
#![allow(unsafe_code)]

use std::io;
use std::mem::MaybeUninit;

/// SIGINT, SIGTERM and SIGUSR1, blocked in this thread (and in threads it starts afterwards).
pub struct ShutdownSignals {
    set: libc::sigset_t,
}

impl std::fmt::Debug for ShutdownSignals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShutdownSignals").finish_non_exhaustive()
    }
}

impl ShutdownSignals {
    /// Blocks SIGINT, SIGTERM and SIGUSR1. Call it before starting any thread: threads inherit
    /// the mask.
    pub fn block() -> io::Result<ShutdownSignals> {
        let mut set = MaybeUninit::<libc::sigset_t>::uninit();
        // SAFETY: sigemptyset initialises the set behind the pointer (it cannot fail for a valid
        // pointer), after which the value is initialised.
        let mut set = unsafe {
            libc::sigemptyset(set.as_mut_ptr());
            set.assume_init()
        };
        // SAFETY: `set` is an initialised sigset_t; SIGINT, SIGTERM and SIGUSR1 are valid.
        unsafe {
            libc::sigaddset(&mut set, libc::SIGINT);
            libc::sigaddset(&mut set, libc::SIGTERM);
            libc::sigaddset(&mut set, libc::SIGUSR1);
        }
        // SAFETY: `set` is initialised; a null old-set pointer is allowed.
        let rc = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
        if rc != 0 {
            return Err(io::Error::from_raw_os_error(rc));
        }
        Ok(ShutdownSignals { set })
    }

    /// Waits until SIGINT, SIGTERM or SIGUSR1 arrives; returns its number.
    pub fn wait(&self) -> io::Result<i32> {
        loop {
            let mut sig: libc::c_int = 0;
            // SAFETY: both pointers are to live, initialised values.
            let rc = unsafe { libc::sigwait(&self.set, &mut sig) };
            match rc {
                0 => return Ok(sig),
                libc::EINTR => continue,
                e => return Err(io::Error::from_raw_os_error(e)),
            }
        }
    }
}

/// A signal's conventional name.
pub fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGKILL => "SIGKILL",
        _ => "signal",
    }
}

/// The signal a controlled stop is asked with.
pub const CONTROLLED: i32 = libc::SIGUSR1;
/// The signal an immediate stop is asked with.
pub const IMMEDIATE: i32 = libc::SIGTERM;
/// The signal that kills (a preemptive stop).
pub const KILL: i32 = libc::SIGKILL;

/// Sends `sig` (one of the constants above) to process `pid`.
pub fn send(pid: u32, sig: i32) -> io::Result<()> {
    // 0 and negative pids address process groups: never send those.
    let pid = libc::pid_t::try_from(pid)
        .ok()
        .filter(|p| *p > 0)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{pid} is not a process id"),
            )
        })?;
    // SAFETY: kill takes plain integers.
    let rc = unsafe { libc::kill(pid, sig) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
