//! SGF (FF[4], GM[4]) for tic-tac-toe, gomoku and m,n,k, written as c-gomoku-cli writes its
//! games: the players, the size, the result, then each move with its time as its comment
//! (`C[12ms]`, `C[opening move]` for a move of the opening), followed by what a Gomocup brain
//! wrote in `MESSAGE` lines while it thought (`C[812ms depth 12 eval +35]`).

use super::{date, player_name, time_comment};
use crate::games::{GameSpec, Side};
use crate::record::GameRecord;
use crate::verdict::Termination;
use std::fmt::Write as _;

/// The game as one SGF tree.
pub fn sgf(record: &GameRecord, spec: &GameSpec) -> String {
    let params = spec.mnk_params().expect("SGF is for m,n,k games");
    let size = if params.width == params.height {
        params.width.to_string()
    } else {
        format!("{}:{}", params.width, params.height)
    };
    let mut out = String::from("(;FF[4]GM[4]CA[UTF-8]AP[referee]");
    let _ = write!(
        out,
        "GN[{}]RU[{}]SZ[{size}]DT[{}]PB[{}]PW[{}]RE[{}]GC[{}]",
        record.number,
        escape(&record.game),
        date(&record.started, '-'),
        escape(&player_name(record, 0)),
        escape(&player_name(record, 1)),
        result(record),
        escape(&record.result.detail),
    );
    out.push('\n');
    let opening = record.opening.iter().map(|mv| (mv, None));
    let played = record.moves.iter().map(|mv| (&mv.notation, Some(mv)));
    for (ply, (notation, played)) in opening.chain(played).enumerate() {
        let colour = if ply % 2 == 0 { 'B' } else { 'W' };
        let comment = match played {
            Some(played) => std::iter::once(time_comment(played.us))
                .chain(played.messages.iter().cloned())
                .collect::<Vec<_>>()
                .join(" "),
            None => "opening move".to_string(),
        };
        let _ = write!(out, ";{colour}[{}]C[{}]", point(notation), escape(&comment));
        if ply % 8 == 7 {
            out.push('\n');
        }
    }
    out.push_str(")\n");
    out
}

/// `x y` as SGF's two letters, `a` for 0 (SGF's origin is the top left, like the referee's).
fn point(notation: &str) -> String {
    notation
        .split(' ')
        .filter_map(|n| n.parse::<u8>().ok())
        .map(|n| char::from(b'a' + n))
        .collect()
}

/// `B+` (Black, the first player, won on the board), `B+R` (the loser resigned), `B+T` (on
/// time), `B+F` (any other forfeit), `0` for a draw.
fn result(record: &GameRecord) -> String {
    let Some(winner) = record.result.winner else {
        return "0".to_string();
    };
    let colour = match winner {
        Side::First => 'B',
        Side::Second => 'W',
    };
    let how = match record.result.reason {
        Termination::Rules(_) | Termination::Agreement => "",
        Termination::Resign => "R",
        Termination::Timeout => "T",
        _ => "F",
    };
    format!("{colour}+{how}")
}

/// SGF's escapes in a property value: `\` and `]` are written with a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}
