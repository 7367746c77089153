//! The files and folders a build stages in the cache beside the builds (the sources' copy, the
//! tar file, the unpacked build before it is moved in, a failure being written, a toolchain's
//! look), named after the run that made them: a referee killed mid-build (SIGKILL, or an
//! interrupt, which ends the process at once) leaves them behind, and the next build in that
//! cache removes those of runs that are gone.

use crate::leftovers;
use crate::procfs;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// What the staged names start with, each followed by `-`.
const KINDS: [&str; 5] = ["src", "new", "out", "failed", "look"];

/// A name no other staging of this run or of any other has: `WHAT.RUN.N`, which a staged
/// name puts after its kind (`src-WHAT.RUN.N`).
pub(super) fn unique(what: &str) -> String {
    static STAGINGS: AtomicU64 = AtomicU64::new(0);
    let n = STAGINGS.fetch_add(1, Ordering::Relaxed);
    format!("{what}.{}.{n}", leftovers::this_run())
}

/// Removes what the builds of runs that are gone left in `cache`.
pub(super) fn sweep(cache: &Path) {
    let Ok(entries) = std::fs::read_dir(cache) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_str().is_some_and(left_by_a_run_gone) {
            let path = entry.path();
            let _ = std::fs::remove_dir_all(&path).or_else(|_| std::fs::remove_file(&path));
        }
    }
}

/// Whether `name` is staged (`KIND-WHAT.RUN.N`, `.tar` after it for a tar file) by a run that is
/// gone. A bare pid as the run is an older referee's naming: gone when no process has it.
fn left_by_a_run_gone(name: &str) -> bool {
    let Some((kind, rest)) = name.split_once('-') else {
        return false;
    };
    if !KINDS.contains(&kind) {
        return false;
    }
    let rest = rest.strip_suffix(".tar").unwrap_or(rest);
    let mut parts = rest.rsplit('.');
    let (Some(n), Some(run)) = (parts.next(), parts.next()) else {
        return false;
    };
    if n.parse::<u64>().is_err() {
        return false;
    }
    match run.parse::<i32>() {
        Ok(pid) => procfs::stat(pid).is_none(),
        Err(_) => leftovers::is_gone(run),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_runs_that_are_gone_staged_is_swept() {
        let cache = tempfile::tempdir().unwrap();
        let mine = unique("0123abcd");
        let gone = "0123abcd.999999999-1.0";
        let older = "look-999999999.3";
        let kept = [
            format!("src-{mine}"),
            format!("out-{mine}.tar"),
            "0123abcd".to_string(),
            "0123abcd.failed".to_string(),
            "src-notes.txt".to_string(),
        ];
        let swept = [
            format!("src-{gone}"),
            format!("new-{gone}"),
            format!("out-{gone}.tar"),
            format!("failed-{gone}"),
            older.to_string(),
        ];
        for name in kept.iter().chain(&swept) {
            if name.ends_with(".tar") || name.contains(".failed") || name.starts_with("failed-") {
                std::fs::write(cache.path().join(name), "x").unwrap();
            } else {
                std::fs::create_dir_all(cache.path().join(name).join("bot")).unwrap();
            }
        }
        sweep(cache.path());
        let mut left: Vec<String> = std::fs::read_dir(cache.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        let mut expected = kept.to_vec();
        expected.sort();
        assert_eq!(left, expected);
    }
}
