//! Where a tournament's tables run: with as many tables as the processors the referee may use,
//! each table and its bots on one processor of its own; with more, wherever the scheduler puts
//! them.

use crate::common::{marker, referee, script, succeeded};
use referee_cage::cpus;
use std::collections::BTreeSet;
use std::path::Path;

/// The processor lists (as /proc writes them, e.g. `0-1` or `1`) of every bot started by a
/// round robin of four `cpus` bots played `jobs` games at a time.
fn bots_processors(jobs: usize) -> Vec<String> {
    bots_processors_with(jobs, "")
}

/// [`bots_processors`] with `extra` lines in the tournament file.
fn bots_processors_with(jobs: usize, extra: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let seen = dir.path().join("seen");
    std::fs::create_dir(&seen).unwrap();
    let marker = marker();
    let mut config = format!("game = \"tictactoe\"\ngames = 4\n{extra}");
    for name in ["a", "b", "c", "d"] {
        config.push_str(&format!(
            "[[players]]\nname = \"{name}\"\ncommand = \"python3 {} cpus:{} {marker}\"\n",
            script().display(),
            seen.display()
        ));
    }
    let path = dir.path().join("t.toml");
    std::fs::write(&path, config).unwrap();
    let out = dir.path().join("out");
    succeeded(
        &referee()
            .args(["tournament", path.to_str().unwrap(), "--out"])
            .arg(&out)
            .args(["-j", &jobs.to_string()])
            .output()
            .unwrap(),
    );
    lists(&seen)
}

fn lists(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect()
}

#[test]
fn as_many_tables_as_processors_put_each_table_with_its_bots_on_a_processor_of_its_own() {
    let allowed = cpus::allowed();
    let processors: BTreeSet<String> = allowed.iter().map(usize::to_string).collect();
    let pinned = bots_processors(allowed.len());
    assert!(!pinned.is_empty());
    for list in &pinned {
        assert!(
            processors.contains(list),
            "{list} is not one processor of {processors:?}"
        );
    }
    if allowed.len() > 1 {
        // More tables than processors: nobody is pinned.
        let everywhere = bots_processors(allowed.len() + 1);
        let own = std::fs::read_to_string("/proc/self/status").unwrap();
        let own_list = own
            .lines()
            .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
            .unwrap()
            .trim()
            .to_string();
        assert!(
            everywhere.iter().all(|list| *list == own_list),
            "{everywhere:?}"
        );
    }
}

/// `pin_games = true` (a contest's default): fewer tables than processors, each with its bots
/// on a processor of its own all the same, so that no running game slows another's bots.
#[test]
fn pinned_games_each_get_a_processor_of_their_own_however_few() {
    let allowed = cpus::allowed();
    let processors: BTreeSet<String> = allowed.iter().map(usize::to_string).collect();
    let jobs = allowed.len().saturating_sub(1).max(1);
    let pinned = bots_processors_with(jobs, "pin_games = true\n");
    let used: BTreeSet<&String> = pinned.iter().collect();
    for list in &used {
        assert!(
            processors.contains(*list),
            "{list} is not one processor of {processors:?}"
        );
    }
    assert!(used.len() <= jobs, "{jobs} tables used {used:?}");
}
