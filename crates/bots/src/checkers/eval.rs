//! What a checkers position is worth to the side to move, without looking ahead: the knowledge
//! both the greedy and the strong bot play with. Material comes first (a king is worth 1.3 men),
//! then the positional terms players learn early: advance men in the endgame, keep the back rank
//! (the "bridge" on 1 and 3, or 30 and 32) while the opponent has men to crown, keep men backed
//! up so they cannot be jumped from the front, hold the centre, give kings room, and run for the
//! crown when nothing can stop a man. When ahead, trade down and bring the kings to the enemy;
//! when behind, hide in a double corner.

use referee_rules::games::checkers::{coordinates, neighbours, Diagonal, Position};
use referee_rules::games::Side;

pub(super) const MAN: i32 = 100;
pub(super) const KING: i32 = 130;
/// Above any evaluation: the value of a won game (a search subtracts the plies to the win).
pub(super) const WIN: i32 = 30_000;

/// The bonus for the material lead, scaled by how little material is left: at 9 men against 8 a
/// man up is worth 12 more, at 2 kings against 1 a king up 100 more, so trading pays when ahead.
const TRADE: i32 = 300;
/// Per row a man has advanced, in the middle game and once few pieces are left.
const ADVANCE: i32 = 1;
const ADVANCE_ENDGAME: i32 = 5;
/// At most this many pieces on the board make an endgame.
const ENDGAME_PIECES: u32 = 10;
/// A man on the "bridge" squares of its back rank, while the opponent has men to crown.
const BRIDGE: i32 = 10;
/// A man that cannot be jumped from the front (both squares behind it are taken or off the
/// board).
const BACKED: i32 = 3;
/// A man or king on one of the four centre squares.
const CENTRE: i32 = 4;
/// Each square a king can step to.
const KING_MOBILITY: i32 = 3;
/// A man no enemy piece can reach before it crowns, plus so much per row advanced.
const RUNAWAY: i32 = 15;
const RUNAWAY_PER_ROW: i32 = 4;
/// When ahead: per square of distance between each own king and the nearest enemy piece.
const CHASE: i32 = 3;
/// When behind: a king in a double corner, where it is hardest to catch.
const DOUBLE_CORNER: i32 = 12;

const fn squares(list: &[u8]) -> u32 {
    let mut bits = 0;
    let mut i = 0;
    while i < list.len() {
        bits |= 1 << (list[i] - 1);
        i += 1;
    }
    bits
}

/// Squares 1 and 3 for Black, 30 and 32 for White: two men there keep every enemy man from
/// crowning unopposed.
const BRIDGE_SQUARES: [u32; 2] = [squares(&[1, 3]), squares(&[30, 32])];
const CENTRE_SQUARES: u32 = squares(&[14, 15, 18, 19]);
const DOUBLE_CORNERS: u32 = squares(&[1, 5, 28, 32]);

/// Per-square facts worked out once, when the program is built.
struct Geometry {
    row: [i32; 32],
    col: [i32; 32],
    /// `cone[side][index]`: the squares in front of a man of `side` on `index` that a piece
    /// would have to stand on to stop it crowning (those it could reach on its way, widening by
    /// one column each way per row).
    cone: [[u32; 32]; 2],
}

const GEOMETRY: Geometry = {
    let mut geometry = Geometry {
        row: [0; 32],
        col: [0; 32],
        cone: [[0; 32]; 2],
    };
    let mut index = 0;
    while index < 32 {
        let (row, col) = coordinates(index);
        geometry.row[index] = row;
        geometry.col[index] = col;
        let mut other = 0;
        while other < 32 {
            let (r, c) = coordinates(other);
            let reach = (c - col).abs();
            if r > row && reach <= r - row {
                geometry.cone[0][index] |= 1 << other;
            }
            if r < row && reach <= row - r {
                geometry.cone[1][index] |= 1 << other;
            }
            other += 1;
        }
        index += 1;
    }
    geometry
};

/// Rows a man of `side` on `index` has advanced from its own back rank, 0..=6.
fn advanced(side: Side, index: usize) -> i32 {
    match side {
        Side::First => GEOMETRY.row[index],
        Side::Second => 7 - GEOMETRY.row[index],
    }
}

/// King moves needed between two squares (both dark, so the larger coordinate gap counts).
fn distance(a: usize, b: usize) -> i32 {
    (GEOMETRY.row[a] - GEOMETRY.row[b])
        .abs()
        .max((GEOMETRY.col[a] - GEOMETRY.col[b]).abs())
}

fn indices(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let index = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            index
        })
    })
}

fn material(position: &Position, side: Side) -> i32 {
    let pieces = position.pieces(side);
    let kings = (pieces & position.kings()).count_ones() as i32;
    (pieces.count_ones() as i32 - kings) * MAN + kings * KING
}

/// The value of `position` for the side to move, in hundredths of a man. Meant for positions
/// where that side has a move (a search scores the end of the game itself).
pub(super) fn evaluate(position: &Position) -> i32 {
    let for_black = black_view(position);
    match position.side_to_move() {
        Side::First => for_black,
        Side::Second => -for_black,
    }
}

fn black_view(position: &Position) -> i32 {
    let material = [
        material(position, Side::First),
        material(position, Side::Second),
    ];
    let lead = material[0] - material[1];
    let mut score = lead + lead * TRADE / (material[0] + material[1]).max(1);
    let endgame = (position.pieces(Side::First) | position.pieces(Side::Second)).count_ones()
        <= ENDGAME_PIECES;
    for side in Side::BOTH {
        let terms = side_terms(position, side, endgame, lead);
        score += if side == Side::First { terms } else { -terms };
    }
    score
}

/// The positional terms of one side (material aside); `lead` is Black's material lead.
fn side_terms(position: &Position, side: Side, endgame: bool, lead: i32) -> i32 {
    let opponent = side.opponent();
    let own = position.pieces(side);
    let enemy = position.pieces(opponent);
    let kings = own & position.kings();
    let men = own & !kings;
    let enemy_men = enemy & !position.kings();
    let empty = !(own | enemy);
    let mut score = 0;

    let advance = if endgame { ADVANCE_ENDGAME } else { ADVANCE };
    for index in indices(men) {
        let rows = advanced(side, index);
        score += advance * rows;
        if GEOMETRY.cone[side.index()][index] & enemy == 0 {
            score += RUNAWAY + RUNAWAY_PER_ROW * rows;
        }
    }
    if enemy_men != 0 {
        score += BRIDGE * (men & BRIDGE_SQUARES[side.index()]).count_ones() as i32;
    }
    let mut backed = men;
    for behind in Diagonal::backward(side) {
        // Open from the front: the square behind, where a jump over the man would land, is
        // empty; those men are the empty squares' neighbours the other way.
        backed &= !neighbours(empty, behind.opposite());
    }
    score += BACKED * backed.count_ones() as i32;
    score += CENTRE * (own & CENTRE_SQUARES).count_ones() as i32;
    for direction in Diagonal::ALL {
        score += KING_MOBILITY * (neighbours(kings, direction) & empty).count_ones() as i32;
    }

    let ahead = if side == Side::First {
        lead > 0
    } else {
        lead < 0
    };
    let behind = lead != 0 && !ahead;
    if ahead && enemy != 0 {
        for king in indices(kings) {
            let nearest = indices(enemy).map(|e| distance(king, e)).min();
            score -= CHASE * nearest.unwrap_or(0);
        }
    }
    if behind {
        score += DOUBLE_CORNER * (kings & DOUBLE_CORNERS).count_ones() as i32;
    }
    score
}
