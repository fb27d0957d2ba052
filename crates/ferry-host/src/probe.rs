//! The host's figures for the CPU and DISK monitoring classes (`ferry_core::qmgr::monitor`):
//! Linux's `/proc` (the machine's and this process's CPU time, load, memory) and `statvfs` of
//! the queue manager's and the log's directories. A figure that cannot be read is 0.

use std::path::{Path, PathBuf};

use ferry_core::qmgr::monitor::{HostProbe, HostSample};

/// The host probe of one queue manager.
#[derive(Debug, Clone)]
pub struct Probe {
    qm_dir: PathBuf,
    log_dir: PathBuf,
    log_max: u64,
}

impl Probe {
    /// For the queue manager in `qm_dir`, whose log is in `log_dir` and may take `log_max`
    /// bytes (0: no limit).
    pub fn new(qm_dir: &Path, log_dir: &Path, log_max: u64) -> Probe {
        Probe {
            qm_dir: qm_dir.to_owned(),
            log_dir: log_dir.to_owned(),
            log_max,
        }
    }
}

impl HostProbe for Probe {
    fn sample(&self) -> HostSample {
        let read = |p: &str| std::fs::read_to_string(p).unwrap_or_default();
        let (cpu_user, cpu_system, cpu_total) = machine_cpu(&read("/proc/stat"));
        let (proc_user, proc_system) = process_cpu(&read("/proc/self/stat"));
        let (ram_total, ram_available) = memory(&read("/proc/meminfo"));
        let (fs_total, fs_free) = file_system(&self.qm_dir);
        let (log_fs_total, log_fs_free) = file_system(&self.log_dir);
        HostSample {
            cpu_user,
            cpu_system,
            cpu_total,
            proc_user,
            proc_system,
            load: load(&read("/proc/loadavg")),
            ram_total,
            ram_available,
            proc_rss: resident(&read("/proc/self/status")),
            fs_total,
            fs_free,
            log_in_use: dir_bytes(&self.log_dir),
            log_max: self.log_max,
            log_fs_total,
            log_fs_free,
        }
    }
}

/// `/proc/stat`'s first line: (user + nice, system + irq + softirq, all) ticks.
fn machine_cpu(text: &str) -> (u64, u64, u64) {
    let Some(line) = text.lines().find(|l| l.starts_with("cpu ")) else {
        return (0, 0, 0);
    };
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .filter_map(|v| v.parse().ok())
        .collect();
    let at = |i: usize| f.get(i).copied().unwrap_or(0);
    // user nice system idle iowait irq softirq steal (guest time is inside user already)
    let total = (0..8).map(at).sum();
    (at(0) + at(1), at(2) + at(5) + at(6), total)
}

/// `/proc/self/stat`: (utime, stime) ticks — fields 14 and 15, counted after the command
/// name's closing parenthesis (the name may hold spaces).
fn process_cpu(text: &str) -> (u64, u64) {
    let Some(rest) = text.rsplit_once(')').map(|(_, r)| r) else {
        return (0, 0);
    };
    let f: Vec<&str> = rest.split_whitespace().collect();
    // After ")": field 3 (state) is f[0], so field n is f[n - 3].
    let at = |n: usize| f.get(n - 3).and_then(|v| v.parse().ok()).unwrap_or(0);
    (at(14), at(15))
}

/// `/proc/loadavg`: the 1, 5 and 15 minute averages.
fn load(text: &str) -> [f64; 3] {
    let mut it = text.split_whitespace().map(|v| v.parse().unwrap_or(0.0));
    [
        it.next().unwrap_or(0.0),
        it.next().unwrap_or(0.0),
        it.next().unwrap_or(0.0),
    ]
}

/// A `Name:   1234 kB` line of `/proc/meminfo` or `/proc/self/status`, in bytes.
fn kb_field(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// `/proc/meminfo`: (total, available) bytes.
fn memory(text: &str) -> (u64, u64) {
    (kb_field(text, "MemTotal"), kb_field(text, "MemAvailable"))
}

/// `/proc/self/status`: resident bytes.
fn resident(text: &str) -> u64 {
    kb_field(text, "VmRSS")
}

/// (size, free to unprivileged users) of the file system holding `dir`.
pub fn file_system(dir: &Path) -> (u64, u64) {
    match nix::sys::statvfs::statvfs(dir) {
        Ok(v) => (
            v.blocks() * v.fragment_size(),
            v.blocks_available() * v.fragment_size(),
        ),
        Err(_) => (0, 0),
    }
}

/// The bytes of the files directly in `dir`.
fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .filter_map(|e| e.metadata().ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_files_are_read_as_linux_writes_them() {
        let stat = "cpu  100 5 30 800 10 2 3 0 0 0\ncpu0 50 2 15 400 5 1 1 0 0 0\n";
        assert_eq!(machine_cpu(stat), (105, 35, 950));
        let me = "1234 (ferry qm (x)) S 1 2 3 4 5 6 7 8 9 10 77 33 0 0 20 0 9 0 100 200 300";
        assert_eq!(process_cpu(me), (77, 33));
        assert_eq!(load("0.52 1.50 2.00 1/200 999\n"), [0.52, 1.5, 2.0]);
        let mem = "MemTotal:       24000000 kB\nMemFree: 100 kB\nMemAvailable:   12000000 kB\n";
        assert_eq!(memory(mem), (24_000_000 * 1024, 12_000_000 * 1024));
        assert_eq!(resident("Name:\tferry\nVmRSS:\t  2048 kB\n"), 2048 * 1024);
        assert_eq!(machine_cpu(""), (0, 0, 0));
        assert_eq!(process_cpu("garbage"), (0, 0));
    }

    #[test]
    fn this_machine_gives_figures() {
        let dir = std::env::temp_dir();
        let s = Probe::new(&dir, &dir, 64 << 20).sample();
        assert!(
            s.cpu_total > 0 && s.cpu_total >= s.cpu_user + s.cpu_system,
            "{s:?}"
        );
        assert!(s.ram_total > 0 && s.ram_available <= s.ram_total, "{s:?}");
        assert!(s.proc_rss > 0, "{s:?}");
        assert!(s.fs_total > 0 && s.fs_free <= s.fs_total, "{s:?}");
        assert_eq!(s.log_max, 64 << 20);
    }
}
