//! `referee report`: one self-contained HTML file of results, every game replayable.

use anyhow::Result;
use clap::Args;
use referee_contest::page::saved_section;
use referee_web::report::write_report;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub(super) struct ReportArgs {
    /// Where to write index.html (created if needed).
    #[arg(value_name = "OUT_DIR")]
    out: PathBuf,
    /// Directories whose games go in: --record directories, tournament outputs, or
    /// directories holding them. A contest's output also brings its entrants (the first, if
    /// several are given).
    #[arg(long = "from", value_name = "DIR", default_values = ["results", "records"])]
    from: Vec<PathBuf>,
}

pub(super) fn run(args: ReportArgs) -> Result<()> {
    // A contest's output folder brings its contest: the page is then the contest's own.
    let contest = args
        .from
        .iter()
        .find_map(|dir| saved_section(dir).transpose())
        .transpose()?;
    let written = write_report(&args.from, &args.out, contest.as_ref())?;
    println!(
        "wrote {} ({} games, {} KiB): open it in a browser, no server needed",
        written.path.display(),
        written.games,
        written.bytes / 1024
    );
    Ok(())
}
