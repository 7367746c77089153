//! `referee report`: one self-contained HTML file of results, every game replayable.

use anyhow::Result;
use clap::Args;
use referee_web::report::write_report;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    /// Where to write index.html (created if needed).
    #[arg(value_name = "OUT_DIR")]
    out: PathBuf,
    /// Directories whose games go in: --record directories, tournament outputs, or
    /// directories holding them.
    #[arg(long = "from", value_name = "DIR", default_values = ["results", "records"])]
    from: Vec<PathBuf>,
}

pub(super) fn run(args: ReportArgs) -> Result<()> {
    let written = write_report(&args.from, &args.out, None)?;
    println!(
        "wrote {} ({} games, {} KiB): open it in a browser, no server needed",
        written.path.display(),
        written.games,
        written.bytes / 1024
    );
    Ok(())
}
