//! `referee export`: game records as PDN (checkers) or SGF (tic-tac-toe, gomoku, mnk), or as the
//! files of their own a `--record` directory holds.

use anyhow::{Context, Result};
use clap::Args;
use referee_records::export::{each_game, export};
use referee_records::record::write_stored;
use std::fs;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub(super) struct ExportArgs {
    /// Game records: NNNN.json files, a tournament's records file (games.jsonl, one line per
    /// game), or directories holding either (a --record directory, or a tournament's output
    /// directory, whose games.jsonl and games/ folder are read).
    #[arg(required = true, value_name = "RECORD_OR_DIR")]
    paths: Vec<PathBuf>,
    /// Write each game to DIR/NNNN.pdn or DIR/NNNN.sgf instead of printing them all (one after
    /// the other, which is itself a valid PDN file or SGF collection).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Instead of PDN or SGF, write every game (of any game) as files of its own into DIR, as
    /// `referee match --record DIR` and a tournament with records = "files" write them:
    /// NNNN.json (the record), NNNN.transcript.txt and NNNN.LABEL.stderr.txt (each player's
    /// stderr, when it wrote any). Example, a tournament's games as files to open in an
    /// editor: referee export results/league --files league-games
    #[arg(long, value_name = "DIR", conflicts_with = "out")]
    files: Option<PathBuf>,
}

pub(super) fn run(args: ExportArgs) -> Result<()> {
    match export_all(&args) {
        // The reader of the output went away (`referee export DIR | head`): it has what it
        // wanted, and the export ends quietly, as `cat` does.
        Err(error)
            if error
                .downcast_ref::<std::io::Error>()
                .is_some_and(|error| error.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            Ok(())
        }
        done => done,
    }
}

fn export_all(args: &ExportArgs) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    let mut written = 0;
    for path in &args.paths {
        each_game(path, |game| -> Result<()> {
            if let Some(dir) = &args.files {
                write_stored(dir, &game)
                    .with_context(|| format!("cannot write into {}", dir.display()))?;
                written += 1;
                return Ok(());
            }
            let (format, text) = export(&game.record)?;
            match &args.out {
                Some(dir) => {
                    fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                    let file =
                        dir.join(format!("{:04}.{}", game.record.number, format.extension()));
                    fs::write(&file, text)
                        .with_context(|| format!("cannot write {}", file.display()))?;
                    writeln!(stdout, "{}", file.display())?;
                }
                None => stdout.write_all(text.as_bytes())?,
            }
            Ok(())
        })?;
    }
    if let Some(dir) = &args.files {
        writeln!(stdout, "{written} games written into {}", dir.display())?;
    }
    Ok(())
}
