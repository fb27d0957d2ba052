//! Printing to standard output the way Unix tools do: when the reader has gone (`ferry status |
//! head -1`), the command ends quietly with status 0 instead of panicking in `println!`. The
//! process keeps SIGPIPE ignored (Rust's default), so a socket whose peer has gone is still an
//! error the caller sees; only standard output ends the process.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by [`defer_exit_on_close`].
static DEFER: AtomicBool = AtomicBool::new(false);
/// Standard output was found closed (only kept when [`DEFER`] is set).
static CLOSED: AtomicBool = AtomicBool::new(false);
/// Set by the SIGINT/SIGTERM handler [`catch_interrupts`] installs.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// For a command that must clean up before it ends (`ferry perf` removes the queue it made and
/// its temporary queue manager): a closed standard output no longer ends the process; what is
/// written afterwards is dropped, and [`closed`] says so, for the command to stop at its pace.
pub fn defer_exit_on_close() {
    DEFER.store(true, Ordering::Relaxed);
}

/// Whether standard output was found closed (after [`defer_exit_on_close`]).
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Whether SIGINT (Ctrl-C) or SIGTERM arrived since [`catch_interrupts`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::Relaxed)
}

/// Acts as if SIGINT had arrived (a command's own way to stop what waits on [`interrupted`]).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::Relaxed);
}

/// Makes the first SIGINT or SIGTERM set [`interrupted`] instead of ending the process, so a
/// command can stop and clean up; a second one ends the process at once (status 130).
#[allow(unsafe_code)]
pub fn catch_interrupts() {
    extern "C" fn on_signal(_: libc::c_int) {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            // SAFETY: _exit is async-signal-safe; a second Ctrl-C means "now".
            unsafe { libc::_exit(130) };
        }
    }
    let handler: extern "C" fn(libc::c_int) = on_signal;
    for sig in [libc::SIGINT, libc::SIGTERM] {
        // SAFETY: the handler only touches an atomic and calls _exit, both async-signal-safe.
        unsafe { libc::signal(sig, handler as libc::sighandler_t) };
    }
}

/// Writes `args` and a newline to standard output; exits the process (status 0) when standard
/// output is a closed pipe, and reports any other failure on standard error.
pub fn line(args: std::fmt::Arguments<'_>) {
    write(args, true);
}

/// As [`line`] without the newline.
pub fn text(args: std::fmt::Arguments<'_>) {
    write(args, false);
}

fn write(args: std::fmt::Arguments<'_>, newline: bool) {
    if closed() {
        return;
    }
    let mut out = std::io::stdout().lock();
    let r = out.write_fmt(args).and_then(|()| {
        if newline {
            out.write_all(b"\n")
        } else {
            Ok(())
        }
    });
    match r {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            if !DEFER.load(Ordering::Relaxed) {
                std::process::exit(0);
            }
            CLOSED.store(true, Ordering::Relaxed);
        }
        Err(e) => eprintln!("ferry: cannot write to standard output: {e}"),
    }
}

/// `println!` through [`line`].
#[macro_export]
macro_rules! outln {
    () => { $crate::stdout::line(format_args!("")) };
    ($($t:tt)*) => { $crate::stdout::line(format_args!($($t)*)) };
}

/// `print!` through [`text`].
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::stdout::text(format_args!($($t)*)) };
}
