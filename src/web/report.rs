//! `referee report`: one self-contained HTML file with the standings and every game
//! replayable, to publish results without a server. It is the pages of `referee serve` with
//! their data inside: the index, each game's view and the picture of each of its positions.

use crate::record::GameRecord;
use crate::web::assets;
use crate::web::library::Library;
use crate::web::replay::{self, all_moves, position, spec_of_text};
use crate::web::server::tournament_standings;
use serde_json::{json, Map, Value};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("no game records found in {}", dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "))]
    Empty { dirs: Vec<PathBuf> },
    #[error("cannot write {path}")]
    Write {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
}

/// What was written.
pub struct Written {
    pub path: PathBuf,
    pub games: usize,
    pub bytes: usize,
}

/// Writes `out_dir/index.html` from the games of `dirs` (finished games only).
pub fn write_report(dirs: &[PathBuf], out_dir: &Path) -> Result<Written, ReportError> {
    let library = Library::new(dirs.to_vec());
    let games: Vec<_> = library
        .games()
        .into_iter()
        .filter(|game| !game.live)
        .collect();
    if games.is_empty() {
        return Err(ReportError::Empty {
            dirs: dirs.to_vec(),
        });
    }
    let mut views = Map::new();
    for summary in &games {
        let Some(source) = library.source(summary.source) else {
            continue;
        };
        let path = source.records.join(format!("{:04}.json", summary.number));
        let Some(record) = fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<GameRecord>(&text).ok())
        else {
            continue;
        };
        let view = replay::finished(&source.records, &record);
        let moves = all_moves(&view.record);
        let positions: Vec<String> = match spec_of_text(&record.game) {
            Some(spec) => (0..view.positions)
                .map(|ply| {
                    position(&spec, &moves, ply)
                        .map_or_else(String::new, |game| game.picture().to_svg(false))
                })
                .collect(),
            None => Vec::new(),
        };
        let (prefix, positions) = shared_start(positions);
        views.insert(
            format!("{}/{}", summary.source, summary.number),
            json!({ "view": view, "prefix": prefix, "positions": positions }),
        );
    }
    let mut tournaments = Map::new();
    for source in &library.sources {
        if let Some(standings) = source.journal.as_deref().and_then(tournament_standings) {
            tournaments.insert(source.id.to_string(), standings);
        }
    }
    let data = json!({
        "index": { "generation": 0, "sources": library.sources, "games": games },
        "games": views,
        "tournaments": tournaments,
    });
    let html = page(&data);
    let path = out_dir.join("index.html");
    fs::create_dir_all(out_dir)
        .and_then(|()| fs::write(&path, &html))
        .map_err(|source| ReportError::Write {
            path: path.clone(),
            source,
        })?;
    Ok(Written {
        path,
        games: views.len(),
        bytes: html.len(),
    })
}

/// The start every picture of a game shares (the board without its pieces, mostly), and what
/// follows it in each: the page joins them again, and the file is several times smaller.
fn shared_start(pictures: Vec<String>) -> (String, Vec<String>) {
    let Some(first) = pictures.first() else {
        return (String::new(), pictures);
    };
    let mut shared = first.len();
    for picture in &pictures[1..] {
        let common = first
            .char_indices()
            .zip(picture.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((at, a), _)| at + a.len_utf8());
        shared = shared.min(common);
    }
    let prefix = first[..shared].to_string();
    let rests = pictures
        .into_iter()
        .map(|picture| picture[shared..].to_string())
        .collect();
    (prefix, rests)
}

/// The page with its style, data and script inside. In the JSON, `<` is written `\u003c`, so
/// that no text of a bot's can close the script element it sits in.
fn page(data: &Value) -> String {
    let json = data.to_string().replace('<', "\\u003c");
    let body = assets::INDEX_HTML
        .replace(
            "<link rel=\"stylesheet\" href=\"style.css\">",
            &format!("<style>\n{}</style>", assets::STYLE_CSS),
        )
        .replace(
            "<script src=\"app.js\"></script>",
            &format!(
                "<script type=\"application/json\" id=\"referee-data\">{json}</script>\n<script>\n{}</script>",
                assets::APP_JS
            ),
        );
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_keep_their_shared_start_once() {
        let pictures = vec![
            "<svg><a/><b/>".into(),
            "<svg><a/><c/>".into(),
            "<svg><a/>".into(),
        ];
        let (prefix, rests) = shared_start(pictures);
        assert_eq!(prefix, "<svg><a/>");
        assert_eq!(rests, ["<b/>", "<c/>", ""]);
        assert_eq!(shared_start(Vec::new()), (String::new(), Vec::new()));
        let (prefix, rests) = shared_start(vec!["é1".into(), "é2".into(), "ê".into()]);
        assert_eq!(prefix, "");
        assert_eq!(rests, ["é1", "é2", "ê"]);
    }

    #[test]
    fn a_bots_text_cannot_close_the_data_script() {
        let html = page(&json!({ "name": "</script><script>alert(1)</script>" }));
        assert!(!html.contains("</script><script>alert"));
        assert!(html.contains("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"));
        assert!(html.contains("<style>") && !html.contains("href=\"style.css\""));
        assert!(!html.contains("src=\"app.js\""));
    }
}
