//! What the harness reads about the machine and its processes, from Linux's `/proc`: CPU time
//! and resident memory of a process, the CPU model, core count and memory, and the git commit
//! the binary was built from.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// Clock ticks per second for `/proc/PID/stat` times (the Linux default; `getconf CLK_TCK`).
const TICKS: f64 = 100.0;

/// CPU time (user + system) a process has used so far.
pub fn cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name is in parentheses and may hold spaces: fields follow the last ')'.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_secs_f64((utime + stime) / TICKS))
}

/// Resident memory of a process, bytes.
pub fn rss_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: u64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Samples a process's CPU use as a percentage of one core between calls.
#[derive(Debug)]
pub struct CpuMeter {
    pid: u32,
    last: Option<(Instant, Duration)>,
}

impl CpuMeter {
    /// A meter for `pid`.
    pub fn new(pid: u32) -> Self {
        let mut m = CpuMeter { pid, last: None };
        m.sample();
        m
    }

    /// CPU % (100 = one core busy) since the last sample; `None` if the process is gone.
    pub fn sample(&mut self) -> Option<f64> {
        let now = Instant::now();
        let cpu = cpu_time(self.pid)?;
        let pct = self.last.map(|(t, c)| {
            let wall = now.duration_since(t).as_secs_f64();
            if wall <= 0.0 {
                0.0
            } else {
                100.0 * cpu.saturating_sub(c).as_secs_f64() / wall
            }
        });
        self.last = Some((now, cpu));
        pct
    }

    /// The process.
    pub fn pid(&self) -> u32 {
        self.pid
    }
}

/// The machine a run was made on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Hardware {
    /// CPU model name.
    pub cpu_model: String,
    /// Logical CPUs available to this process.
    pub cores: usize,
    /// Physical memory, bytes.
    pub memory_bytes: u64,
    /// Kernel release.
    pub kernel: String,
}

impl Hardware {
    /// Reads the machine's description.
    pub fn detect() -> Hardware {
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let cpu_model = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map(|s| s.trim().to_owned())
            .unwrap_or_else(|| "unknown".into());
        let memory_bytes = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| {
                m.lines()
                    .find(|l| l.starts_with("MemTotal:"))?
                    .split_whitespace()
                    .nth(1)?
                    .parse::<u64>()
                    .ok()
            })
            .map_or(0, |kb| kb * 1024);
        Hardware {
            cpu_model,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            memory_bytes,
            kernel: std::fs::read_to_string("/proc/sys/kernel/osrelease")
                .map(|s| s.trim().to_owned())
                .unwrap_or_default(),
        }
    }
}

/// The git commit the harness was built from (empty when built outside a repository).
pub fn git_commit() -> &'static str {
    option_env!("FERRY_GIT_COMMIT").unwrap_or("")
}

/// Whether standard error is a terminal (progress display) or a pipe (plain lines).
pub fn stderr_is_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_cpu_time_and_memory() {
        let pid = std::process::id();
        // Burn a little CPU so the figure is not zero.
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        assert!(x != 1);
        assert!(cpu_time(pid).is_some());
        assert!(rss_bytes(pid).unwrap() > 1 << 20);
        let hw = Hardware::detect();
        assert!(hw.cores >= 1 && hw.memory_bytes > 0, "{hw:?}");
    }
}
