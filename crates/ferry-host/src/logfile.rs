//! A log file that rotates by size, as MQ's error logs do (AMQERR01 → 02 → 03): when `path`
//! reaches its limit it becomes `path.1`, `path.1` becomes `path.2`, and so on up to `keep`
//! files; the oldest goes. A queue manager started in the background writes here, so its log
//! never fills the disk. Private (0600) files.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The default size at which a log rotates.
pub const ROTATE_BYTES: u64 = 16 << 20;
/// The default number of older files kept.
pub const KEEP: usize = 3;

#[derive(Debug)]
struct Open {
    file: File,
    len: u64,
}

/// A size-rotated log file; clone the [`LogWriter`]s it hands out freely.
#[derive(Debug)]
pub struct RotatingLog {
    path: PathBuf,
    limit: u64,
    keep: usize,
    open: Mutex<Open>,
    /// Standard output and error were this file when it was opened (a queue manager started in
    /// the background): a rotation points them at the new file too, so a panic's message lands
    /// in the current log rather than an older one.
    streams: bool,
}

/// Whether standard error is the file `f`.
fn is_stderr(f: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata("/proc/self/fd/2"), f.metadata()) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Points standard output and error at `f`.
#[allow(unsafe_code)]
fn redirect_streams(f: &File) {
    use std::os::fd::AsRawFd;
    for target in [1, 2] {
        // SAFETY: `f` is an open file for the whole call; dup2 onto 1 and 2 replaces the
        // process's standard streams, which nothing holds as a borrowed descriptor.
        unsafe { libc::dup2(f.as_raw_fd(), target) };
    }
}

fn append(path: &Path) -> io::Result<Open> {
    use std::io::Seek;
    let mut file = crate::private::open_file(path)?;
    let len = file.seek(io::SeekFrom::End(0))?;
    Ok(Open { file, len })
}

impl RotatingLog {
    /// Appends to `path`, rotating at `limit` bytes and keeping `keep` older files.
    pub fn open(path: &Path, limit: u64, keep: usize) -> io::Result<Arc<RotatingLog>> {
        let open = append(path)?;
        Ok(Arc::new(RotatingLog {
            path: path.to_path_buf(),
            limit,
            keep,
            streams: is_stderr(&open.file),
            open: Mutex::new(open),
        }))
    }

    fn numbered(&self, n: usize) -> PathBuf {
        let mut p = self.path.clone().into_os_string();
        p.push(format!(".{n}"));
        PathBuf::from(p)
    }

    /// Moves the files along and starts an empty one.
    fn rotate(&self, open: &mut Open) -> io::Result<()> {
        let _ = std::fs::remove_file(self.numbered(self.keep));
        for n in (1..self.keep).rev() {
            let _ = std::fs::rename(self.numbered(n), self.numbered(n + 1));
        }
        std::fs::rename(&self.path, self.numbered(1))?;
        *open = append(&self.path)?;
        if self.streams {
            redirect_streams(&open.file);
        }
        Ok(())
    }

    fn write_all(&self, buf: &[u8]) -> io::Result<()> {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if open.len > 0 && open.len + buf.len() as u64 > self.limit && self.keep > 0 {
            self.rotate(&mut open)?;
        }
        open.file.write_all(buf)?;
        open.len += buf.len() as u64;
        Ok(())
    }
}

/// A handle that writes to a [`RotatingLog`] (what a tracing subscriber's writer factory makes).
#[derive(Debug, Clone)]
pub struct LogWriter(pub Arc<RotatingLog>);

impl Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_log_moves_along_and_the_oldest_goes() {
        let dir = std::env::temp_dir().join(format!("ferry-logfile-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("qm.log");
        let log = RotatingLog::open(&path, 100, 2).unwrap();
        let mut w = LogWriter(log.clone());
        for i in 0..10 {
            writeln!(w, "line {i} {}", "x".repeat(40)).unwrap();
        }
        let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
        assert!(size(&path) <= 100, "the live file stays under its limit");
        assert!(size(&log.numbered(1)) > 0 && size(&log.numbered(2)) > 0);
        assert!(!log.numbered(3).exists(), "only two older files are kept");
        let last = std::fs::read_to_string(&path).unwrap();
        assert!(last.contains("line 9"), "{last}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
