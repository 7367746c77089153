//! `referee standings`: the standings of tournament journals, merged.

use anyhow::Result;
use clap::Args;
use referee_core::report::say;
use referee_core::standings::render;
use referee_core::tournament::merge::merge;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub(super) struct StandingsArgs {
    /// Journal files (journal.jsonl, or every shard's journal-K-of-N.jsonl).
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
    let merged = merge(&args.journals)?;
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
