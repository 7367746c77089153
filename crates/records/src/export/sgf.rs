//! SGF (FF[4], GM[4]) for tic-tac-toe, gomoku and m,n,k, written as c-gomoku-cli writes its
//! games: the players, the size, the result, then each move with its time as its comment
//! (`C[12ms]`, `C[opening move]` for a move of the opening), followed by what a Gomocup brain
//! wrote in `MESSAGE` lines while it thought (`C[812ms depth 12 eval +35]`). After a swap
//! opening, Black is the player that took Black; `swap` places no stone and is told in the
//! comment of the stone after it, and `x y more` is its stone.

use super::{date, player_name, time_comment};
use crate::record::GameRecord;
use referee_rules::games::{Colour, GameSpec, Side};
use referee_rules::verdict::Termination;
use std::fmt::Write as _;

/// The game as one SGF tree.
pub(super) fn sgf(record: &GameRecord, spec: &GameSpec) -> String {
    let params = spec.mnk_params().expect("SGF is for m,n,k games");
    let size = if params.width == params.height {
        params.width.to_string()
    } else {
        format!("{}:{}", params.width, params.height)
    };
    let black = black_player(record);
    let mut out = String::from("(;FF[4]GM[4]CA[UTF-8]AP[referee]");
    let _ = write!(
        out,
        "GN[{}]RU[{}]SZ[{size}]DT[{}]PB[{}]PW[{}]RE[{}]GC[{}]",
        record.number,
        escape(&record.game),
        date(&record.started, '-'),
        escape(&player_name(record, black)),
        escape(&player_name(record, 1 - black)),
        result(record),
        escape(&record.result.detail),
    );
    out.push('\n');
    let opening = record.opening.iter().map(|mv| (mv, None));
    let played = record.moves.iter().map(|mv| (&mv.notation, Some(mv)));
    let mut stones = 0;
    let mut swapped = false;
    for (notation, played) in opening.chain(played) {
        if notation == "swap" {
            swapped = true;
            continue;
        }
        let colour = if stones % 2 == 0 { 'B' } else { 'W' };
        let mut comment = match played {
            Some(played) => std::iter::once(time_comment(played.us))
                .chain(played.messages.iter().cloned())
                .collect::<Vec<_>>()
                .join(" "),
            None => "opening move".to_string(),
        };
        if std::mem::take(&mut swapped) {
            comment.insert_str(0, "after swap: ");
        }
        let (square, more) = match notation.strip_suffix(" more") {
            Some(square) => (square, " more"),
            None => (notation.as_str(), ""),
        };
        comment.push_str(more);
        let _ = write!(out, ";{colour}[{}]C[{}]", point(square), escape(&comment));
        stones += 1;
        if stones % 8 == 0 {
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

/// `B+` (Black won on the board), `B+R` (the loser resigned), `B+T` (on
/// time), `B+F` (any other forfeit), `0` for a draw.
fn result(record: &GameRecord) -> String {
    let Some(winner) = record.result.winner else {
        return "0".to_string();
    };
    let colour = if winner.index() == black_player(record) {
        'B'
    } else {
        'W'
    };
    let how = match record.result.reason {
        Termination::Rules(_) | Termination::Agreement => "",
        Termination::Resign => "R",
        Termination::Timeout => "T",
        _ => "F",
    };
    format!("{colour}+{how}")
}

/// The index of the player of Black: the first, unless a swap opening gave Black to the
/// second.
fn black_player(record: &GameRecord) -> usize {
    usize::from(record.players[Side::Second.index()].colour == Some(Colour::Black))
}

/// SGF's escapes in a property value: `\` and `]` are written with a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}
