//! PDN for English checkers: the tags (players, result, the start position when it is not the
//! standard one, the ballot), then the moves, each followed by its time as a comment
//! (`{12ms}`, `{ballot}` for a move of the opening).

use super::{date, player_name, time_comment};
use crate::record::GameRecord;
use referee_rules::games::checkers::{CheckersParams, Position};
use referee_rules::games::Side;
use std::fmt::Write as _;

/// The game as one PDN game.
pub(super) fn pdn(record: &GameRecord, params: &CheckersParams) -> String {
    let result = result(record);
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    };
    tag("Event", &format!("referee game {}", record.number));
    tag("Date", &date(&record.started, '.'));
    tag("Black", &player_name(record, 0));
    tag("White", &player_name(record, 1));
    tag("Result", result);
    tag("GameType", "21");
    if params.start != Position::standard() {
        tag("SetUp", "1");
        tag("FEN", &params.start.to_fen());
    }
    if !record.opening.is_empty() {
        tag("Opening", &record.opening.join(" "));
    }
    tag("Termination", &record.result.detail);
    let white_starts = params.start.side_to_move() == Side::Second;
    let opening = record.opening.iter().map(|mv| (mv, "ballot".to_string()));
    let played = record.moves.iter().map(|mv| {
        let mut comment = time_comment(mv.us);
        if mv.offers_draw {
            comment.push_str(", offers a draw");
        }
        (&mv.notation, comment)
    });
    let mut text = String::new();
    for (index, (notation, comment)) in opening.chain(played).enumerate() {
        let ply = index + usize::from(white_starts);
        let number = ply / 2 + 1;
        if ply % 2 == 0 {
            let _ = write!(text, "{number}. ");
        } else if index == 0 {
            let _ = write!(text, "{number}... ");
        }
        let _ = write!(text, "{notation} {{{comment}}} ");
    }
    text.push_str(result);
    out.push('\n');
    out.push_str(&wrap(&text, 79));
    out.push_str("\n\n");
    out
}

/// `1-0` when Black (the first player) won, `0-1` when White did, `1/2-1/2` for a draw.
fn result(record: &GameRecord) -> &'static str {
    match record.result.winner {
        Some(Side::First) => "1-0",
        Some(Side::Second) => "0-1",
        None => "1/2-1/2",
    }
}

/// A tag value's escapes: `\` and `"` are written with a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The move text cut into lines of at most `width` characters, between tokens but never inside
/// a comment.
fn wrap(text: &str, width: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    let mut in_comment = false;
    for word in text.split(' ') {
        let line = lines.last_mut().expect("never empty");
        if !line.is_empty()
            && !in_comment
            && !line.ends_with('.')
            && line.len() + 1 + word.len() > width
        {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        in_comment = (in_comment || word.starts_with('{')) && !word.ends_with('}');
    }
    lines.join("\n")
}
