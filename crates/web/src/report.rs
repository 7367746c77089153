//! `referee report`: one self-contained HTML file with the standings and every game
//! replayable, to publish results without a server. It is the pages of `referee serve` with
//! their data inside: the index, each game's view and the picture of each of its positions.
//! The page is written as it is made, a game at a time, so that a contest of thousands of games
//! needs the memory of one game, not of the whole page.

use crate::assets;
use crate::library::Library;
use crate::replay;
use crate::server::tournament_standings;
use base64::engine::general_purpose::STANDARD as BASE64;
use base64::Engine as _;
use flate2::write::GzEncoder;
use flate2::Compression;
use serde_json::{json, Map, Value};
use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// No finished game in any of the directories: there would be nothing to show.
    #[error("no game records found in {}", dirs.join(", "))]
    Empty {
        /// The directories looked in, each said not to exist when it does not.
        dirs: Vec<String>,
    },
    /// The output folder or the page could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The page, `index.html`.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: io::Error,
    },
}

/// What was written.
pub struct Written {
    /// The page, `index.html`.
    pub path: PathBuf,
    /// The games the page holds, each replayable.
    pub games: usize,
    /// The page's size.
    pub bytes: usize,
}

/// Writes `out_dir/index.html` from the games of `dirs` (finished games only). With `contest`
/// (a contest's entrants, standings and languages; see `referee_contest::page`), the page
/// opens on the contest.
pub fn write_report(
    dirs: &[PathBuf],
    out_dir: &Path,
    contest: Option<&Value>,
) -> Result<Written, ReportError> {
    let library = Library::new(dirs.to_vec());
    let games: Vec<_> = library
        .games()
        .into_iter()
        .filter(|game| !game.live)
        .collect();
    if games.is_empty() {
        let dirs = dirs.iter().map(|dir| {
            if dir.is_dir() {
                dir.display().to_string()
            } else if dir.exists() {
                format!("{} (which is not a directory)", dir.display())
            } else {
                format!("{} (which does not exist)", dir.display())
            }
        });
        return Err(ReportError::Empty {
            dirs: dirs.collect(),
        });
    }
    let path = out_dir.join("index.html");
    let write_error = |source| ReportError::Write {
        path: path.clone(),
        source,
    };
    fs::create_dir_all(out_dir).map_err(|source| ReportError::Write {
        path: out_dir.to_path_buf(),
        source,
    })?;
    let mut page = Page::begin(File::create(&path).map_err(write_error)?).map_err(write_error)?;
    let index = json!({ "generation": 0, "sources": library.sources, "games": games });
    page.data(&format!("{{\"index\":{index},\"games\":{{"))
        .map_err(write_error)?;
    let mut written = 0;
    for summary in &games {
        let Some(view) = game_view(&library, &summary.source, summary.number) else {
            continue;
        };
        let key = format!("{}/{}", summary.source, summary.number);
        let comma = if written > 0 { "," } else { "" };
        page.data(&format!("{comma}{}:{view}", Value::from(key)))
            .map_err(write_error)?;
        written += 1;
    }
    let mut tournaments = Map::new();
    for source in &library.sources {
        let journal = source.journal.as_ref().map(std::slice::from_ref);
        if let Some(standings) = journal.and_then(tournament_standings) {
            tournaments.insert(source.id.clone(), standings);
        }
    }
    page.data(&format!(
        "}},\"tournaments\":{},\"contest\":{}}}",
        Value::Object(tournaments),
        contest.unwrap_or(&Value::Null)
    ))
    .map_err(write_error)?;
    let bytes = page.end().map_err(write_error)?;
    Ok(Written {
        path,
        games: written,
        bytes,
    })
}

/// What the page holds of one finished game: its view and the pictures of its positions.
fn game_view(library: &Library, source: &str, number: u32) -> Option<Value> {
    let game = library.find(source, number)?.stored()?;
    let view = replay::finished(&game);
    let positions: Vec<String> = (0..view.positions)
        .map(|ply| replay::picture_at(&view.record, ply).unwrap_or_default())
        .collect();
    let (prefix, positions) = shared_start(positions);
    // The PDN or SGF text, for the page to offer as a download with no server.
    let download = referee_records::export::export(&game.record)
        .ok()
        .map(|(_, text)| text);
    let positions_gz = gzip_base64(&serde_json::to_vec(&positions).ok()?).ok()?;
    Some(
        json!({ "view": view, "prefix": prefix, "positions_gz": positions_gz, "download": download }),
    )
}

/// `bytes` gzipped, in base64: how the page holds a game's pictures, which the browser
/// unpacks with its own `DecompressionStream` when the game is opened. SVG repeats itself:
/// 200 ultimate tic-tac-toe games' pictures are 29 MB as text and 0.7 MB so.
fn gzip_base64(bytes: &[u8]) -> io::Result<String> {
    let mut gzip = GzEncoder::new(Vec::new(), Compression::default());
    gzip.write_all(bytes)?;
    Ok(BASE64.encode(gzip.finish()?))
}

/// The page being written: its style inside, then its data, then its script. In the data,
/// `<` is written `\u003c`, so that no text of a bot's can close the script element it sits
/// in.
struct Page<W: Write> {
    out: BufWriter<W>,
    /// The page after the data: the script and the rest of the HTML.
    after: String,
    bytes: usize,
}

/// Where the data and the script go in the pages' HTML.
const SCRIPT: &str = "<script src=\"app.js\"></script>";

impl<W: Write> Page<W> {
    fn begin(out: W) -> io::Result<Page<W>> {
        let html = assets::INDEX_HTML.replace(
            "<link rel=\"stylesheet\" href=\"style.css\">",
            &format!("<style>\n{}</style>", assets::STYLE_CSS),
        );
        let (before, rest) = html.split_once(SCRIPT).unwrap_or((&html, ""));
        let mut page = Page {
            out: BufWriter::new(out),
            after: format!("</script>\n<script>\n{}</script>{rest}", assets::APP_JS),
            bytes: 0,
        };
        page.raw(before)?;
        page.raw("<script type=\"application/json\" id=\"referee-data\">")?;
        Ok(page)
    }

    fn raw(&mut self, text: &str) -> io::Result<()> {
        self.bytes += text.len();
        self.out.write_all(text.as_bytes())
    }

    /// Adds JSON text to the data.
    fn data(&mut self, json: &str) -> io::Result<()> {
        let mut parts = json.split('<');
        if let Some(first) = parts.next() {
            self.raw(first)?;
        }
        for part in parts {
            self.raw("\\u003c")?;
            self.raw(part)?;
        }
        Ok(())
    }

    /// Writes the rest of the page; returns its size in bytes.
    fn end(mut self) -> io::Result<usize> {
        let after = std::mem::take(&mut self.after);
        self.raw(&after)?;
        self.out.flush()?;
        Ok(self.bytes)
    }
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
        let mut page = Page::begin(Vec::new()).unwrap();
        let data = json!({ "name": "</script><script>alert(1)</script>" }).to_string();
        page.data(&data).unwrap();
        let bytes = page.end().unwrap();
        let html = String::from_utf8(page_bytes(&data)).unwrap();
        assert_eq!(bytes, html.len());
        assert!(!html.contains("</script><script>alert"));
        assert!(html.contains("\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"));
        assert!(html.contains("<style>") && !html.contains("href=\"style.css\""));
        assert!(!html.contains("src=\"app.js\""));
        assert!(html.contains("id=\"referee-data\">{\"name\""));
    }

    #[test]
    fn pictures_are_packed_as_gzip_in_base64() {
        let text = "<svg>".repeat(1000);
        let packed = gzip_base64(text.as_bytes()).unwrap();
        assert!(packed.len() < text.len() / 20, "{} bytes", packed.len());
        let mut unpacked = String::new();
        let bytes = BASE64.decode(packed).unwrap();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut unpacked)
            .unwrap();
        assert_eq!(unpacked, text);
    }

    /// The page holding `data`.
    fn page_bytes(data: &str) -> Vec<u8> {
        let mut out = Vec::new();
        let mut page = Page::begin(&mut out).unwrap();
        page.data(data).unwrap();
        page.end().unwrap();
        out
    }
}
