//! Resource limits applied to a bot in the child, before `exec`, with `setrlimit`: each holds
//! for each process of the bot (its children get their own), except the processes limit,
//! which counts the user's every process.
//!
//! Contest organisers run code they did not write: a bot must not be able to eat the machine's
//! memory, fill its disk or exhaust its file descriptors. Exceeding a limit is a verdict of its
//! own where the kernel tells it apart (SIGXCPU, SIGXFSZ); memory is judged from the bot's peak
//! resident size, because an allocation failure shows up in as many ways as there are
//! languages (MemoryError, std::bad_alloc, a Rust abort, a segfault). Where the referee can
//! make cgroups, the memory and processes limits also hold for the bot as a whole (see the
//! crate-internal `cgroup` module), and the sandbox sizes its tmpfs mounts after them.

use nix::sys::resource::{setrlimit, Resource};
use nix::sys::signal::Signal;
use referee_rules::verdict::ResourceLimit;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Limits for one bot. `None` leaves the limit as the referee has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Address space of each process, in MiB (RLIMIT_AS); with a memory cgroup, also all the
    /// bot's memory together.
    pub memory_mb: Option<u64>,
    /// CPU time of the process, in seconds (RLIMIT_CPU): SIGXCPU past it.
    pub cpu_seconds: Option<u64>,
    /// Processes and threads of the bot at once: a pids cgroup where one can be made, otherwise
    /// RLIMIT_NPROC (which counts the whole user's processes and is not enforced for root).
    pub processes: Option<u64>,
    /// Largest file the bot may write, in MiB (RLIMIT_FSIZE): SIGXFSZ past it. Also the size
    /// of the sandbox's `/tmp` and `/dev/shm`.
    pub file_size_mb: Option<u64>,
    /// Open file descriptors of each process (RLIMIT_NOFILE).
    pub open_files: Option<u64>,
}

impl Default for Limits {
    /// Generous enough for any honest bot in a board-game contest (a JVM included), tight
    /// enough that a runaway bot cannot take the machine down.
    fn default() -> Self {
        Limits {
            memory_mb: Some(4096),
            cpu_seconds: None,
            processes: None,
            file_size_mb: Some(64),
            open_files: Some(1024),
        }
    }
}

/// Below these, no bot can start (the dynamic loader and libc map more memory, and open more
/// files, than that), so a match would only score crashes: such limits are refused.
pub const MIN_MEMORY_MB: u64 = 16;
/// The fewest open files a bot may be limited to (see [`MIN_MEMORY_MB`]).
pub const MIN_OPEN_FILES: u64 = 16;

/// The largest value a limit takes (far above any machine's, in any of its units).
const MAX_LIMIT: u64 = (1 << 40) - 1;

/// A limit specification that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad limits '{spec}': {reason} (expected comma-separated key=value with keys memory (MiB), cpu (seconds), processes, filesize (MiB), files; a value 'none' lifts a limit)")]
pub struct LimitsError {
    spec: String,
    reason: String,
}

impl Limits {
    /// Reads `memory=512,cpu=60,processes=64,filesize=16,files=256` over `base`.
    pub fn parse_over(base: Limits, spec: &str) -> Result<Limits, LimitsError> {
        let error = |reason: String| LimitsError {
            spec: spec.to_string(),
            reason,
        };
        let mut limits = base;
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| error(format!("'{part}' is not key=value")))?;
            let value = match value.trim() {
                "none" => None,
                number => Some(
                    number
                        .parse::<u64>()
                        .ok()
                        .filter(|&n| (1..=MAX_LIMIT).contains(&n))
                        .ok_or_else(|| {
                            error(format!(
                                "'{number}' is not a whole number from 1 to {MAX_LIMIT}"
                            ))
                        })?,
                ),
            };
            match key.trim() {
                "memory" => limits.memory_mb = value,
                "cpu" => limits.cpu_seconds = value,
                "processes" => limits.processes = value,
                "filesize" => limits.file_size_mb = value,
                "files" => limits.open_files = value,
                other => return Err(error(format!("unknown key '{other}'"))),
            }
        }
        let too_low = |value: Option<u64>, minimum: u64| value.is_some_and(|v| v < minimum);
        if too_low(limits.memory_mb, MIN_MEMORY_MB) {
            return Err(error(format!(
                "memory={} MiB is too little for any bot to start (the dynamic loader and libc \
                 alone map more); give at least memory={MIN_MEMORY_MB}: a small C or Python bot \
                 starts in that, a Java one needs several hundred",
                limits.memory_mb.unwrap_or(0)
            )));
        }
        if too_low(limits.open_files, MIN_OPEN_FILES) {
            return Err(error(format!(
                "files={} is too few for any bot to start (its standard input, output and error \
                 take 3, loading its libraries more); give at least files={MIN_OPEN_FILES}",
                limits.open_files.unwrap_or(0)
            )));
        }
        Ok(limits)
    }

    /// Sets the limits on the calling process. Runs in the forked child before `exec`, so it
    /// only calls `setrlimit` (async-signal-safe, no allocation).
    pub fn apply(&self) -> std::io::Result<()> {
        const MIB: u64 = 1024 * 1024;
        let set = |resource, value: Option<u64>, hard_extra: u64| match value {
            // The hard CPU limit is a little above the soft one so the bot gets SIGXCPU
            // (a verdict we can name) before SIGKILL.
            Some(v) => {
                setrlimit(resource, v, v.saturating_add(hard_extra)).map_err(std::io::Error::from)
            }
            None => Ok(()),
        };
        set(Resource::RLIMIT_AS, self.memory_mb.map(|m| m * MIB), 0)?;
        set(Resource::RLIMIT_CPU, self.cpu_seconds, 1)?;
        set(Resource::RLIMIT_NPROC, self.processes, 0)?;
        set(
            Resource::RLIMIT_FSIZE,
            self.file_size_mb.map(|m| m * MIB),
            0,
        )?;
        set(Resource::RLIMIT_NOFILE, self.open_files, 0)?;
        Ok(())
    }

    /// Names the limit a bot that died by `signal` (if any) or with a peak resident size of
    /// `peak_rss_kib` most likely hit: the verdict code and a sentence.
    pub fn exceeded(
        &self,
        signal: Option<Signal>,
        peak_rss_kib: u64,
    ) -> Option<(ResourceLimit, String)> {
        match signal {
            Some(Signal::SIGXCPU) => {
                return Some((
                    ResourceLimit::Cpu,
                    format!(
                        "used up its CPU time limit of {} s",
                        self.cpu_seconds.unwrap_or(0)
                    ),
                ))
            }
            Some(Signal::SIGXFSZ) => {
                return Some((
                    ResourceLimit::FileSize,
                    format!(
                        "wrote a file larger than its limit of {} MiB",
                        self.file_size_mb.unwrap_or(0)
                    ),
                ))
            }
            _ => {}
        }
        // A process that failed an allocation has touched most of what it was allowed.
        let limit_kib = self.memory_mb? * 1024;
        (peak_rss_kib * 4 >= limit_kib * 3).then(|| {
            (
                ResourceLimit::Memory,
                format!(
                    "ran out of memory: peak {} MiB against a limit of {} MiB",
                    peak_rss_kib / 1024,
                    limit_kib / 1024
                ),
            )
        })
    }
}

impl fmt::Display for Limits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: Option<u64>| v.map_or("none".to_string(), |v| v.to_string());
        write!(
            f,
            "memory={} cpu={} processes={} filesize={} files={}",
            show(self.memory_mb),
            show(self.cpu_seconds),
            show(self.processes),
            show(self.file_size_mb),
            show(self.open_files)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No limits at all.
    const NONE: Limits = Limits {
        memory_mb: None,
        cpu_seconds: None,
        processes: None,
        file_size_mb: None,
        open_files: None,
    };

    #[test]
    fn specs_override_only_what_they_name() {
        let limits =
            Limits::parse_over(Limits::default(), "memory=512, cpu=30,files=none").unwrap();
        assert_eq!(limits.memory_mb, Some(512));
        assert_eq!(limits.cpu_seconds, Some(30));
        assert_eq!(limits.open_files, None);
        assert_eq!(limits.file_size_mb, Some(64));
        assert_eq!(
            limits.to_string(),
            "memory=512 cpu=30 processes=none filesize=64 files=none"
        );
    }

    #[test]
    fn bad_specs_are_explained() {
        for spec in [
            "memory",
            "memory=lots",
            "memory=0",
            "memory=1",
            "files=3",
            "heap=5",
            "cpu=-1",
        ] {
            let err = Limits::parse_over(Limits::default(), spec).unwrap_err();
            assert!(
                err.to_string().contains("expected comma-separated"),
                "{err}"
            );
        }
    }

    #[test]
    fn limits_too_low_to_start_anything_name_a_workable_minimum() {
        let err = Limits::parse_over(Limits::default(), "memory=1")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("memory=1 MiB is too little for any bot to start")
                && err.contains("give at least memory=16"),
            "{err}"
        );
        let err = Limits::parse_over(Limits::default(), "files=2")
            .unwrap_err()
            .to_string();
        assert!(err.contains("give at least files=16"), "{err}");
        assert!(Limits::parse_over(Limits::default(), "memory=16,files=16").is_ok());
    }

    #[test]
    fn verdicts_name_the_limit() {
        let limits = Limits::parse_over(NONE, "memory=100,cpu=2,filesize=1").unwrap();
        assert_eq!(
            limits.exceeded(Some(Signal::SIGXCPU), 0).unwrap().0,
            ResourceLimit::Cpu
        );
        assert_eq!(
            limits.exceeded(Some(Signal::SIGXFSZ), 0).unwrap().0,
            ResourceLimit::FileSize
        );
        assert_eq!(
            limits.exceeded(Some(Signal::SIGABRT), 90 * 1024).unwrap().0,
            ResourceLimit::Memory
        );
        assert_eq!(limits.exceeded(Some(Signal::SIGSEGV), 10 * 1024), None);
        assert_eq!(NONE.exceeded(None, 1 << 30), None);
    }
}
