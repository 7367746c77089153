//! The standings as people and programs read them: Markdown-style tables for the terminal (and
//! for pasting) whose cells the web pages show too, JSON with everything, CSV with one row per
//! player.

use super::{Gauntlet, Standings};
use comfy_table::{presets, CellAlignment, Table};
use referee_records::export::Exporter;
use serde::Serialize;
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Largest field shown as a crosstable on the terminal (the JSON always has it).
pub const CROSSTABLE_MAX_PLAYERS: usize = 16;

/// A table as cells of text, formatted once: the terminal prints it (its `Display`, a
/// Markdown-style table) and the web pages show its cells (its JSON), so that both say the
/// same numbers the same way.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cells {
    /// The columns' titles.
    pub titles: Vec<String>,
    /// Each row's cells, one per column.
    pub rows: Vec<Vec<String>>,
    /// The columns from this one on hold numbers, aligned right.
    pub right_from: usize,
}

impl Cells {
    fn new(titles: &[&str], right_from: usize) -> Cells {
        Cells {
            titles: titles.iter().map(ToString::to_string).collect(),
            rows: Vec::new(),
            right_from,
        }
    }

    fn add_row(&mut self, cells: impl IntoIterator<Item = String>) {
        self.rows.push(cells.into_iter().collect());
    }
}

impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut table = Table::new();
        table.load_preset(presets::ASCII_MARKDOWN);
        table.set_header(self.titles.clone());
        for column in self.right_from..self.titles.len() {
            if let Some(column) = table.column_mut(column) {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
        for row in &self.rows {
            table.add_row(row.clone());
        }
        write!(f, "{table}")
    }
}

fn points(value: f64) -> String {
    crate::report::format_points(value)
}

fn percent(value: f64) -> String {
    format!("{:.1}%", value * 100.0)
}

/// Rank (by score), points, results, forfeits and tie-breaks; the head-to-head cell is empty
/// for a player level on score with nobody.
pub fn standings_table(standings: &Standings) -> Cells {
    let versioned = !standings.versions.is_empty();
    let mut titles = vec![
        "#", "player", "games", "points", "score", "won", "drawn", "lost", "timeouts", "illegal",
        "crashes", "h2h", "SB", "Buch",
    ];
    if versioned {
        titles.insert(2, "version");
    }
    let mut table = Cells::new(&titles, if versioned { 3 } else { 2 });
    for row in &standings.players {
        let mut cells = vec![row.rank.to_string(), row.name.clone()];
        if versioned {
            cells.push(
                standings
                    .versions
                    .get(&row.name)
                    .cloned()
                    .unwrap_or_default(),
            );
        }
        table.add_row(cells.into_iter().chain([
            row.games.to_string(),
            points(row.points),
            percent(row.score),
            row.wins.to_string(),
            row.draws.to_string(),
            row.losses.to_string(),
            row.timeouts.to_string(),
            row.illegal.to_string(),
            row.crashes.to_string(),
            row.head_to_head.map(points).unwrap_or_default(),
            points(row.sonneborn_berger),
            points(row.buchholz),
        ]));
    }
    table
}

/// Players by Elo, with the 95% interval and the likelihood of superiority over the next.
pub fn ratings_table(standings: &Standings) -> Cells {
    let mut table = Cells::new(&["#", "player", "elo", "+/-", "games", "score", "LOS"], 2);
    let mut rows: Vec<_> = standings.players.iter().collect();
    rows.sort_by_key(|row| row.elo_rank);
    for row in rows {
        table.add_row(vec![
            row.elo_rank.to_string(),
            row.name.clone(),
            format!("{:+.0}", row.elo),
            format!("{:.0}", row.elo_error95),
            row.games.to_string(),
            percent(row.score),
            row.superiority_over_next.map(percent).unwrap_or_default(),
        ]);
    }
    table
}

/// A gauntlet challenger against each opponent, best score first: its results, score and the
/// Elo difference over the opponent with its 95% interval and LOS.
pub fn gauntlet_table(gauntlet: &Gauntlet) -> Cells {
    let mut table = Cells::new(
        &[
            "opponent",
            "games",
            "won",
            "drawn",
            "lost",
            "score",
            "elo",
            "95% interval",
            "LOS",
        ],
        1,
    );
    for row in &gauntlet.opponents {
        let mut cells = vec![
            row.opponent.clone(),
            row.games.to_string(),
            row.wins.to_string(),
            row.draws.to_string(),
            row.losses.to_string(),
            percent(row.score),
        ];
        match &row.elo {
            Some(elo) => cells.extend([
                format!("{:+.0}", elo.elo),
                elo.interval(0),
                percent(elo.los),
            ]),
            None => cells.extend(["", "", ""].map(String::from)),
        }
        table.add_row(cells);
    }
    table
}

/// What a gauntlet's table shows, as its heading says it.
pub fn gauntlet_caption(challenger: &str) -> String {
    format!(
        "{challenger} against each opponent, ranked by its score; elo: its Elo difference over the opponent from their games, with the 95% interval (-inf or +inf: the games set no bound on that side); LOS: the likelihood that {challenger} is the stronger"
    )
}

/// Points scored by each row's player against each column's (`1.5/2`), for small fields.
pub fn crosstable(standings: &Standings) -> Option<Cells> {
    let crosstable = &standings.crosstable;
    if crosstable.len() > CROSSTABLE_MAX_PLAYERS {
        return None;
    }
    let mut header = vec!["#".to_string(), "player".to_string()];
    header.extend((1..=crosstable.len()).map(|rank| rank.to_string()));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut table = Cells::new(&header, 2);
    for row in 0..crosstable.len() {
        let mut cells = vec![(row + 1).to_string(), crosstable.name(row).to_string()];
        for column in 0..crosstable.len() {
            let cell = if column == row {
                "-".to_string()
            } else {
                crosstable
                    .encounter(row, column)
                    .map(|e| format!("{}/{}", points(e.points), e.games))
                    .unwrap_or_default()
            };
            cells.push(cell);
        }
        table.add_row(cells);
    }
    Some(table)
}

/// Everything, as printed after a tournament and by `referee standings`; each table says what
/// it is ranked by.
pub fn full_report(standings: &Standings) -> String {
    let mut out = format!(
        "standings after {}, ranked by score (points per game), then among players level on score by head-to-head points (h2h), Sonneborn-Berger (SB), Buchholz (Buch), wins\n\n{}\n",
        crate::report::counted(standings.games, "game"),
        standings_table(standings),
    );
    for gauntlet in &standings.gauntlets {
        out.push_str(&format!(
            "\n{}\n\n{}\n",
            gauntlet_caption(&gauntlet.challenger),
            gauntlet_table(gauntlet)
        ));
        if gauntlet.opponents.iter().any(|row| row.elo.is_none()) {
            out.push_str(
                "(no Elo difference from a single game, or from a perfect or nil score)\n",
            );
        }
    }
    out.push_str(&format!(
        "\nratings, ranked by Elo (relative to the field's average, with the 95% interval; LOS: the likelihood of superiority over the next)\n\n{}\n",
        ratings_table(standings)
    ));
    match crosstable(standings) {
        Some(table) => out.push_str(&format!(
            "\ncrosstable in the order of the standings (points/games of the row against the column)\n\n{table}\n"
        )),
        None => out.push_str(&format!(
            "\n(crosstable in the JSON output only: more than {CROSSTABLE_MAX_PLAYERS} players)\n"
        )),
    }
    out
}

/// A standings file that could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {}", path.display())]
pub struct WriteError {
    path: PathBuf,
    #[source]
    source: io::Error,
}

/// Runs `write`, naming `path` if it fails.
fn write_to(path: &Path, write: impl FnOnce() -> io::Result<()>) -> Result<(), WriteError> {
    write().map_err(|source| WriteError {
        path: path.to_path_buf(),
        source,
    })
}

/// The standings' file formats: a tournament writes each as `standings.EXTENSION`. A new
/// format is one [`Exporter`] and one line here.
pub const STANDINGS_FORMATS: [&dyn Exporter<Standings>; 2] = [&Json, &Csv];

/// Writes `standings` in `format` to the file `path`.
pub fn write_file(
    format: &dyn Exporter<Standings>,
    path: &Path,
    standings: &Standings,
) -> Result<(), WriteError> {
    write_to(path, || {
        let mut file = io::BufWriter::new(std::fs::File::create(path)?);
        format.write(standings, &mut file)?;
        file.flush()
    })
}

/// The whole standings, crosstable included, as pretty JSON.
pub struct Json;

impl Exporter<Standings> for Json {
    fn extension(&self) -> &'static str {
        "json"
    }

    fn write(&self, standings: &Standings, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, standings).map_err(io::Error::other)?;
        out.write_all(b"\n")
    }
}

/// One CSV row per player, in rank order.
#[derive(Serialize)]
struct CsvRow<'a> {
    rank: usize,
    name: &'a str,
    games: u32,
    points: f64,
    score: f64,
    wins: u32,
    draws: u32,
    losses: u32,
    timeouts: u32,
    illegal: u32,
    crashes: u32,
    head_to_head: Option<f64>,
    sonneborn_berger: f64,
    buchholz: f64,
    elo: f64,
    elo_error95: f64,
    elo_rank: usize,
    superiority_over_next: Option<f64>,
}

/// The players' rows as CSV, one per player in rank order, for spreadsheets (no crosstable).
pub struct Csv;

impl Exporter<Standings> for Csv {
    fn extension(&self) -> &'static str {
        "csv"
    }

    fn write(&self, standings: &Standings, out: &mut dyn Write) -> io::Result<()> {
        let mut writer = csv::Writer::from_writer(out);
        for row in &standings.players {
            writer
                .serialize(CsvRow {
                    rank: row.rank,
                    name: &row.name,
                    games: row.games,
                    points: row.points,
                    score: row.score,
                    wins: row.wins,
                    draws: row.draws,
                    losses: row.losses,
                    timeouts: row.timeouts,
                    illegal: row.illegal,
                    crashes: row.crashes,
                    head_to_head: row.head_to_head,
                    sonneborn_berger: row.sonneborn_berger,
                    buchholz: row.buchholz,
                    elo: row.elo,
                    elo_error95: row.elo_error95,
                    elo_rank: row.elo_rank,
                    superiority_over_next: row.superiority_over_next,
                })
                .map_err(io::Error::other)?;
        }
        writer.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::{ScoredGame, Tally};
    use referee_rules::games::{Ending, Side};
    use referee_rules::verdict::Termination;

    fn sample() -> Standings {
        let mut tally = Tally::new();
        for (first, second, winner, reason) in [
            (
                "alpha",
                "beta",
                Some(Side::First),
                Termination::Rules(Ending::Line),
            ),
            ("beta", "alpha", None, Termination::Rules(Ending::BoardFull)),
            ("gamma", "alpha", Some(Side::Second), Termination::Timeout),
        ] {
            tally.add(ScoredGame {
                first,
                second,
                winner,
                reason,
            });
        }
        tally.standings()
    }

    #[test]
    fn tables_show_every_player() {
        let standings = sample();
        let table = standings_table(&standings).to_string();
        assert!(table.lines().count() >= 5, "{table}");
        let alpha = table.lines().find(|l| l.contains("alpha")).unwrap();
        let cells: Vec<&str> = alpha.split('|').map(str::trim).collect();
        assert_eq!(
            cells[1..9],
            ["1", "alpha", "3", "2.5", "83.3%", "2", "1", "0"]
        );
        let gamma = table.lines().find(|l| l.contains("gamma")).unwrap();
        let cells: Vec<&str> = gamma.split('|').map(str::trim).collect();
        assert_eq!(cells[9], "1", "a loss by timeout: {gamma}");
        let ratings = ratings_table(&standings).to_string();
        assert!(
            ratings.lines().nth(2).unwrap().contains("alpha"),
            "{ratings}"
        );
        let cross = crosstable(&standings).unwrap().to_string();
        let alpha = cross.lines().find(|l| l.contains("alpha")).unwrap();
        assert!(alpha.contains("1.5/2") && alpha.contains("1/1"), "{cross}");
    }

    #[test]
    fn every_table_says_what_it_is_ranked_by_and_a_gauntlet_has_its_own() {
        let mut tally = Tally::new();
        tally.enter_challenger("alpha");
        for (first, second, winner) in [
            ("alpha", "beta", Some(Side::First)),
            ("beta", "alpha", None),
            ("alpha", "gamma", Some(Side::Second)),
            ("gamma", "alpha", Some(Side::First)),
        ] {
            tally.add(ScoredGame {
                first,
                second,
                winner,
                reason: Termination::Rules(Ending::Line),
            });
        }
        let standings = tally.standings();
        let report = full_report(&standings);
        for header in [
            "standings after 4 games, ranked by score (points per game)",
            "alpha against each opponent, ranked by its score; elo: its Elo difference over the opponent",
            "ratings, ranked by Elo",
            "crosstable in the order of the standings",
            "(no Elo difference from a single game, or from a perfect or nil score)",
        ] {
            assert!(report.contains(header), "{header}:\n{report}");
        }
        let table = gauntlet_table(&standings.gauntlets[0]).to_string();
        let cells = |name: &str| -> Vec<String> {
            let line = table.lines().find(|l| l.contains(name)).unwrap();
            line.split('|').map(|c| c.trim().to_string()).collect()
        };
        // Against beta: 1.5/2 (75%), an Elo estimate; against gamma 0/2, none.
        let beta = cells("beta");
        assert_eq!(beta[1..7], ["beta", "2", "1", "1", "0", "75.0%"]);
        assert!(beta[7].starts_with('+') && !beta[8].is_empty() && beta[9].ends_with('%'));
        assert_eq!(cells("gamma")[7..10], ["", "", ""]);
        assert!(table.find("beta").unwrap() < table.find("gamma").unwrap());
    }

    #[test]
    fn json_and_csv_files() {
        let dir = tempfile::tempdir().unwrap();
        let standings = sample();
        write_file(&Json, &dir.path().join("s.json"), &standings).unwrap();
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("s.json")).unwrap())
                .unwrap();
        assert_eq!(json["games"], 3);
        assert_eq!(json["players"][0]["name"], "alpha");
        assert_eq!(json["crosstable"][0]["against"][0]["opponent"], "beta");
        write_file(&Csv, &dir.path().join("s.csv"), &standings).unwrap();
        let csv = std::fs::read_to_string(dir.path().join("s.csv")).unwrap();
        let mut lines = csv.lines();
        assert!(lines
            .next()
            .unwrap()
            .starts_with("rank,name,games,points,score,wins"));
        assert!(lines.next().unwrap().starts_with("1,alpha,3,2.5,"));
        assert_eq!(csv.lines().count(), 4);
    }
}
