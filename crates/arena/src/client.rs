//! The command line's side of the API: `referee arena submit` and `referee arena leaderboard`
//! talk to a running arena with an API token (a bearer token: no cookie, no page token).

use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// What the command line could not do: said as the server said it.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server refused, with its reason.
    #[error("refused: {0}")]
    Refused(String),
    /// The server answered nonsense, or not in time.
    #[error("{0}")]
    Transport(String),
    /// `--server` is no web address.
    #[error("--server takes the arena's address, http://HOST:PORT (e.g. http://{0}), not '{0}'")]
    NotAnAddress(String),
    /// The server did not answer (down, or not at this address).
    #[error("the arena did not answer")]
    Unreachable(#[source] Connection),
    /// The server stopped answering while the command line waited for a version it had taken.
    #[error(
        "the arena stopped answering while upload {id} was being built and validated: it has \
         the upload and keeps it (its build goes on when the arena is back); see how it went on \
         the bot's page, {page}, or at {api} with your token"
    )]
    StoppedAnswering {
        /// The upload's id.
        id: i64,
        /// The bot's page.
        page: String,
        /// The version's address in the API.
        api: String,
        /// What the connection said.
        #[source]
        source: Connection,
    },
    /// The sources could not be read (what the system said is its source, said after it).
    #[error("cannot read the sources {path}")]
    Sources {
        /// The folder.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
}

/// What the connection to the arena said, in ureq's words, which end with their own cause
/// (so that it is not chained, to be said twice).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Connection(String);

fn answer(result: Result<ureq::Response, ureq::Error>) -> Result<Value, ClientError> {
    match result {
        Ok(response) => response
            .into_json()
            .map_err(|e| ClientError::Transport(format!("the server's answer is not JSON: {e}"))),
        Err(ureq::Error::Status(status, response)) => {
            let url = response.get_url().to_string();
            let body: Value = response.into_json().unwrap_or(Value::Null);
            let why = match (body["error"].as_str(), status) {
                (Some(why), _) => why.to_string(),
                // No arena's page is missing without saying why: this is another server.
                (None, 404) => format!(
                    "the server answered 404 for {url}, as no arena does: is --server an \
                     arena's address?"
                ),
                (None, _) => format!("the server answered {status}"),
            };
            Err(ClientError::Refused(why))
        }
        Err(ureq::Error::Transport(error)) => {
            Err(ClientError::Unreachable(Connection(error.to_string())))
        }
    }
}

/// What to submit.
#[derive(Clone, Debug)]
pub struct Submission<'a> {
    /// The arena's address (`http://HOST:PORT`).
    pub server: &'a str,
    /// The API token.
    pub token: &'a str,
    /// The ladder.
    pub ladder: &'a str,
    /// The bot's name.
    pub name: &'a str,
    /// The sources' folder.
    pub sources: &'a Path,
    /// The language, if named.
    pub language: Option<&'a str>,
    /// The protocol, if named.
    pub protocol: Option<&'a str>,
}

/// Uploads the folder as a new version; returns the version's id. An archive larger than the
/// arena takes is not sent (the server would answer before reading it all, cutting the
/// connection while it is sent): refused here with the server's words.
pub fn submit(submission: &Submission<'_>) -> Result<i64, ClientError> {
    let bytes =
        crate::archive::pack(submission.sources).map_err(|source| ClientError::Sources {
            path: submission.sources.display().to_string(),
            source,
        })?;
    let server = address(submission.server)?;
    let status = answer(ureq::get(&format!("{server}/api/status")).call())?;
    if let Some(most) = status["upload_bytes"].as_u64() {
        if bytes.len() as u64 > most {
            return Err(ClientError::Refused(crate::versions::too_large(most)));
        }
    }
    let mut request = ureq::post(&format!("{server}/api/upload"))
        .set("Authorization", &format!("Bearer {}", submission.token))
        .set("Content-Type", "application/gzip")
        .query("ladder", submission.ladder)
        .query("name", submission.name);
    if let Some(language) = submission.language {
        request = request.query("language", language);
    }
    if let Some(protocol) = submission.protocol {
        request = request.query("protocol", protocol);
    }
    let value = answer(request.send_bytes(&bytes))?;
    value["version_id"]
        .as_i64()
        .ok_or_else(|| ClientError::Transport("the server gave no version id".into()))
}

/// The arena's address as `--server` gives it, without a final `/`, if it is one: a word
/// without `http://` (`127.0.0.1:8400`) was refused as a 'relative URL without a base'.
fn address(server: &str) -> Result<&str, ClientError> {
    if server.starts_with("http://") || server.starts_with("https://") {
        Ok(server.trim_end_matches('/'))
    } else {
        Err(ClientError::NotAnAddress(server.to_string()))
    }
}

/// The address of version `id` in the API of the arena at `server`.
fn version_address(server: &str, id: i64) -> String {
    format!("{}/api/versions/{id}", server.trim_end_matches('/'))
}

/// The version `id` as its owner sees it.
pub fn version(server: &str, token: &str, id: i64) -> Result<Value, ClientError> {
    answer(
        ureq::get(&version_address(server, id))
            .set("Authorization", &format!("Bearer {token}"))
            .call(),
    )
}

/// Waits until version `id` of `submission` is built and validated (or failed); returns it.
/// An arena that stops answering meanwhile is said so, with where to see the version later.
pub fn wait(submission: &Submission<'_>, id: i64, most: Duration) -> Result<Value, ClientError> {
    let server = submission.server.trim_end_matches('/');
    let started = Instant::now();
    loop {
        let value = version(server, submission.token, id).map_err(|error| match error {
            ClientError::Unreachable(source) => ClientError::StoppedAnswering {
                id,
                page: format!("{server}/#/bot/{}/{}", submission.ladder, submission.name),
                api: version_address(server, id),
                source,
            },
            other => other,
        })?;
        if matches!(value["state"].as_str(), Some("passed" | "failed")) {
            return Ok(value);
        }
        if started.elapsed() > most {
            return Err(ClientError::Transport(format!(
                "version {id} is still {} after {} s",
                value["state"].as_str().unwrap_or("?"),
                most.as_secs()
            )));
        }
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// The leaderboard of `ladder`.
pub fn leaderboard(server: &str, ladder: &str) -> Result<Value, ClientError> {
    let server = address(server)?;
    answer(ureq::get(&format!("{server}/api/ladders/{ladder}/leaderboard")).call())
}

/// The leaderboard as a table for the terminal.
pub fn leaderboard_text(board: &Value) -> String {
    let mut out = format!(
        "ladder {}{}\n{:>4}  {:<24} {:<16} {:>14} {:>8} {:>6} {:>13}\n",
        board["ladder"].as_str().unwrap_or("?"),
        if board["paused"].as_bool() == Some(true) {
            " (paused)"
        } else {
            ""
        },
        "rank",
        "bot",
        "owner",
        "rating",
        "mu-3s",
        "games",
        "W-D-L"
    );
    for row in board["rows"].as_array().into_iter().flatten() {
        out.push_str(&format!(
            "{:>4}  {:<24} {:<16} {:>7.2} ± {:<4.2} {:>8.2} {:>6} {:>13}\n",
            row["rank"].to_string(),
            format!(
                "{} v{}{}",
                row["bot"].as_str().unwrap_or("?"),
                row["version"],
                row["mark"]
                    .as_str()
                    .map_or_else(String::new, |mark| format!(" ({mark})"))
            ),
            row["owner"].as_str().unwrap_or_default(),
            row["mu"].as_f64().unwrap_or_default(),
            row["sigma"].as_f64().unwrap_or_default(),
            row["conservative"].as_f64().unwrap_or_default(),
            row["games"].to_string(),
            format!("{}-{}-{}", row["wins"], row["draws"], row["losses"]),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The error as the command line prints it: each cause after the one it caused.
    fn said(error: &dyn std::error::Error) -> String {
        let mut text = error.to_string();
        let mut cause = error.source();
        while let Some(error) = cause {
            text.push_str(&format!(": {error}"));
            cause = error.source();
        }
        text
    }

    /// The leaderboard's columns line up under their titles (a JSON number is printed
    /// without the padding asked for: the ranks and games stuck out to the left).
    #[test]
    fn the_leaderboards_columns_line_up() {
        let board = serde_json::json!({ "ladder": "t", "paused": false, "rows": [{
            "rank": 1, "bot": "alicepy", "version": 1, "owner": "alice", "mu": 26.27,
            "sigma": 1.76, "conservative": 21.0, "games": 271, "wins": 95, "draws": 137,
            "losses": 39,
        }]});
        let text = leaderboard_text(&board);
        let lines: Vec<&str> = text.lines().collect();
        // In characters ('±' is two bytes).
        let end_of = |line: &str, word: &str| {
            line[..line.find(word).unwrap() + word.len()]
                .chars()
                .count()
        };
        assert_eq!(end_of(lines[1], "rank"), end_of(lines[2], "1"), "{text}");
        assert_eq!(end_of(lines[1], "games"), end_of(lines[2], "271"), "{text}");
    }

    /// People and bosses are marked as the leaderboard page marks them, from the mark the API
    /// gives each row (the command line marked no person, and bosses only by their empty
    /// owner).
    #[test]
    fn the_leaderboard_marks_people_and_bosses_as_the_page_does() {
        let row = |bot: &str, owner: Option<&str>, builtin: Option<&str>| {
            let rating = (Some(25.0), Some(2.0), Some(10), Some(4), Some(2), Some(4));
            let (mu, sigma, games, wins, draws, losses) = rating;
            crate::api::board_row((
                bot.into(),
                owner.map(String::from),
                builtin.map(String::from),
                1,
                1,
                mu,
                sigma,
                games,
                wins,
                draws,
                losses,
            ))
        };
        let rows = [
            row("@ann", Some("ann"), None),
            row("builtin-random", None, Some("random")),
            row("rocket", Some("bob"), None),
        ];
        let board = serde_json::json!({ "ladder": "t", "paused": false, "rows": rows });
        let text = leaderboard_text(&board);
        let names: Vec<&str> = text
            .lines()
            .skip(2)
            .map(|line| line[6..31].trim_end())
            .collect();
        assert_eq!(
            names,
            [
                "@ann v1 (a person)",
                "builtin-random v1 (boss)",
                "rocket v1"
            ],
            "{text}"
        );
    }

    /// An arena that stops answering while a version it took is awaited is said so in one
    /// line, with what became of the upload and where to see it later (it said only
    /// 'Connection refused').
    #[test]
    fn an_arena_that_stops_answering_while_awaited_is_said_so() {
        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let server = format!("http://{}", closed.local_addr().unwrap());
        drop(closed);
        let submission = Submission {
            server: &server,
            token: "t",
            ladder: "tictactoe",
            name: "rocket",
            sources: Path::new("rocket"),
            language: None,
            protocol: None,
        };
        let error = wait(&submission, 7, Duration::from_secs(60)).unwrap_err();
        let text = said(&error);
        let expected = format!(
            "the arena stopped answering while upload 7 was being built and validated: it has \
             the upload and keeps it (its build goes on when the arena is back); see how it \
             went on the bot's page, {server}/#/bot/tictactoe/rocket, or at \
             {server}/api/versions/7 with your token: "
        );
        assert!(text.starts_with(&expected), "{text}");
        assert_eq!(text.matches("Connection refused").count(), 1, "{text}");
        assert_eq!(text.lines().count(), 1, "{text}");
    }

    /// Sources that cannot be read are said once, as not read, and the arena is not asked
    /// (it said 'refused: cannot read the sources x: No such file or directory (os error 2):
    /// No such file or directory (os error 2)').
    #[test]
    fn sources_that_cannot_be_read_are_said_once_and_not_as_refused() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nosuchdir");
        let submission = Submission {
            server: "http://127.0.0.1:9",
            token: "t",
            ladder: "l",
            name: "b",
            sources: &missing,
            language: None,
            protocol: None,
        };
        let error = submit(&submission).unwrap_err();
        let text = said(&error);
        assert_eq!(
            text,
            format!(
                "cannot read the sources {}: No such file or directory (os error 2)",
                missing.display()
            )
        );
        assert_eq!(
            ClientError::Refused("no ladder is named 'x'".into()).to_string(),
            "refused: no ladder is named 'x'"
        );
    }
}
