//! Printing to standard output the way Unix tools do: when the reader has gone (`ferry status |
//! head -1`), the command ends quietly with status 0 instead of panicking in `println!`. The
//! process keeps SIGPIPE ignored (Rust's default), so a socket whose peer has gone is still an
//! error the caller sees; only standard output ends the process.

use std::io::Write;

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
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
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
