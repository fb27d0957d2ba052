//! Private files: a queue manager's directory and everything in it belong to the user running it
//! (and, where it chooses, its group) — never to every user of the machine.
//!
//! Directories are made `0700`, files `0600`. A start checks the directory and warns, naming each
//! path and its mode, when something has been loosened so that other users can reach it (the
//! operator may have meant to share it with a group: `0770`/`0660` pass). Secrets are stricter: a
//! user file or a TLS key that other users can read is refused outright ([`refuse_if_public`]).

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Mode of directories FerryMQ makes.
pub const DIR_MODE: u32 = 0o700;
/// Mode of files FerryMQ writes.
pub const FILE_MODE: u32 = 0o600;

/// Creates `dir` and any missing parents; those it creates are `0700`.
pub fn create_dir(dir: &Path) -> std::io::Result<()> {
    fs::DirBuilder::new()
        .recursive(true)
        .mode(DIR_MODE)
        .create(dir)
}

/// Writes `bytes` to `path` atomically (a `0600` temporary file, synced, renamed over it).
pub fn write_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(FILE_MODE)
        .open(&tmp)?;
    // An existing temporary file keeps its old mode: make it private before it holds anything.
    f.set_permissions(fs::Permissions::from_mode(FILE_MODE))?;
    f.write_all(bytes)?;
    f.sync_all()?;
    fs::rename(&tmp, path)
}

/// Rewrites an existing private file in place (no new file, so on a full disk it reuses the
/// blocks it has): the bytes from offset 0, then cut to their length. Not atomic: for files
/// whose readers tolerate a torn write (the endpoints list), when [`write_file`] cannot.
pub fn overwrite_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::{Seek, SeekFrom};
    let mut f = OpenOptions::new().write(true).truncate(false).open(path)?;
    f.set_permissions(fs::Permissions::from_mode(FILE_MODE))?;
    f.seek(SeekFrom::Start(0))?;
    f.write_all(bytes)?;
    f.set_len(bytes.len() as u64)?;
    f.sync_all()
}

/// Opens (creating if missing, `0600`) a file for reading and writing.
pub fn open_file(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .open(path)
}

fn mode(path: &Path) -> Option<u32> {
    fs::symlink_metadata(path)
        .ok()
        .map(|m| m.permissions().mode() & 0o7777)
}

/// Refuses a secret (a user file, a TLS private key) that users other than its owner and group
/// can read or write, with the command that fixes it.
pub fn refuse_if_public(path: &Path, what: &str) -> Result<(), String> {
    match mode(path) {
        Some(m) if m & 0o007 != 0 => Err(format!(
            "the {what} {} can be read or changed by every user of this machine (mode {m:04o}); \
             restrict it with 'chmod 600 {}' (or 640 to share it with the group)",
            path.display(),
            path.display()
        )),
        _ => Ok(()),
    }
}

/// Every path under `dir` (itself included, one level of subdirectories deep) that other users
/// can reach: its path and mode. A queue manager's start logs a warning for each.
pub fn loosened(dir: &Path) -> Vec<(PathBuf, u32)> {
    let mut out = Vec::new();
    let mut check = |p: &Path| {
        if let Some(m) = mode(p) {
            if m & 0o007 != 0 {
                out.push((p.to_owned(), m));
            }
        }
    };
    check(dir);
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if e.file_type().is_ok_and(|t| t.is_socket() || t.is_symlink()) {
            continue;
        }
        check(&p);
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            for inner in fs::read_dir(&p).into_iter().flatten().flatten() {
                check(&inner.path());
            }
        }
    }
    out
}

use std::os::unix::fs::FileTypeExt;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_private_and_loosening_is_found() {
        let d = std::env::temp_dir().join(format!("ferry-private-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        create_dir(&d.join("log")).unwrap();
        write_file(&d.join("qm.toml"), b"x").unwrap();
        assert_eq!(mode(&d).unwrap(), 0o700);
        assert_eq!(mode(&d.join("log")).unwrap(), 0o700);
        assert_eq!(mode(&d.join("qm.toml")).unwrap(), 0o600);
        assert!(loosened(&d).is_empty());
        fs::set_permissions(d.join("qm.toml"), fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(loosened(&d), vec![(d.join("qm.toml"), 0o644)]);
        assert!(refuse_if_public(&d.join("qm.toml"), "user file")
            .unwrap_err()
            .contains("chmod 600"));
        fs::set_permissions(d.join("qm.toml"), fs::Permissions::from_mode(0o640)).unwrap();
        assert!(refuse_if_public(&d.join("qm.toml"), "user file").is_ok());
        let _ = fs::remove_dir_all(&d);
    }

    #[test]
    fn a_file_rewritten_in_place_holds_just_the_new_bytes_and_stays_private() {
        let d = std::env::temp_dir().join(format!("ferry-overwrite-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        let p = d.join("endpoints");
        write_file(&p, b"unix:/a/long/old/path\ntcp://127.0.0.1:1414\n").unwrap();
        overwrite_file(&p, b"tcp://127.0.0.1:9\n").unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"tcp://127.0.0.1:9\n");
        assert_eq!(mode(&p).unwrap(), 0o600);
        assert!(
            overwrite_file(&d.join("missing"), b"x").is_err(),
            "only an existing file"
        );
        let _ = fs::remove_dir_all(&d);
    }
}
