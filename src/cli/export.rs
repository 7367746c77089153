//! `referee export`: game records as PDN (checkers) or SGF (tic-tac-toe, gomoku, mnk).

use crate::export::{export, read_record, record_paths};
use anyhow::{Context, Result};
use clap::Args;
use std::fs;
use std::io::Write;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct ExportArgs {
    /// Game records: NNNN.json files, or directories holding them (a --record directory, or a
    /// tournament's output, whose games/ folder is read).
    #[arg(required = true, value_name = "RECORD_OR_DIR")]
    paths: Vec<PathBuf>,
    /// Write each game to DIR/NNNN.pdn or DIR/NNNN.sgf instead of printing them all (one after
    /// the other, which is itself a valid PDN file or SGF collection).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub fn run(args: ExportArgs) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    for path in &args.paths {
        for record_path in record_paths(path)? {
            let record = read_record(&record_path)?;
            let (format, text) = export(&record)?;
            match &args.out {
                Some(dir) => {
                    fs::create_dir_all(dir)
                        .with_context(|| format!("cannot create {}", dir.display()))?;
                    let file = dir.join(format!("{:04}.{}", record.number, format.extension()));
                    fs::write(&file, text)
                        .with_context(|| format!("cannot write {}", file.display()))?;
                    writeln!(stdout, "{}", file.display())?;
                }
                None => stdout.write_all(text.as_bytes())?,
            }
        }
    }
    Ok(())
}
