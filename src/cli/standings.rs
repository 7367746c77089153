//! `referee standings`: the standings of tournament journals, merged.

use anyhow::{bail, Context, Result};
use clap::Args;
use referee_core::report::say;
use referee_core::standings::render;
use referee_core::tournament::merge::merge;
use referee_core::tournament::runner::journals_in;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub(super) struct StandingsArgs {
    /// Journal files (journal.jsonl, or every shard's journal-K-of-N.jsonl), or the output
    /// directories holding them (every journal in each).
    #[arg(required = true, value_name = "JOURNAL")]
    journals: Vec<PathBuf>,
    /// Also write the standings, ratings and crosstable as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Also write one CSV row per player (standings and ratings) to FILE.
    #[arg(long, value_name = "FILE")]
    csv: Option<PathBuf>,
}

pub(super) fn run(args: StandingsArgs) -> Result<()> {
    let journals = journals(args.journals)?;
    for (option, output) in [("--json", &args.json), ("--csv", &args.csv)] {
        if let Some(output) = output.as_deref().filter(|out| is_one_of(out, &journals)) {
            bail!(
                "{option} {} is a journal read: writing the standings there would destroy it; \
                 give another file",
                output.display()
            );
        }
    }
    let merged = merge(&journals)?;
    for note in &merged.notes {
        eprintln!("referee: note: {note}");
    }
    let standings = merged.standings();
    say(&render::full_report(&standings));
    if let Some(path) = &args.json {
        render::write_file(&render::Json, path, &standings)?;
    }
    if let Some(path) = &args.csv {
        render::write_file(&render::Csv, path, &standings)?;
    }
    Ok(())
}

/// Whether `path` is the same file as one of `files` (however each is written).
fn is_one_of(path: &Path, files: &[PathBuf]) -> bool {
    let Ok(path) = std::fs::canonicalize(path) else {
        return false;
    };
    files
        .iter()
        .any(|file| std::fs::canonicalize(file).is_ok_and(|file| file == path))
}

/// The journals `given`: each file as it is, each directory's journals (a tournament's output
/// folder is what its run names, and what people give).
fn journals(given: Vec<PathBuf>) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    for path in given {
        if !path.is_dir() {
            found.push(path);
            continue;
        }
        let inside =
            journals_in(&path).with_context(|| format!("cannot read {}", path.display()))?;
        if inside.is_empty() {
            bail!(
                "{} holds no tournament journal (journal.jsonl, or a shard's journal-K-of-N.jsonl)",
                path.display()
            );
        }
        found.extend(inside);
    }
    Ok(found)
}
