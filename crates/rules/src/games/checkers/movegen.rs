//! Legal move generation on a position: plain moves in bulk, captures jump by jump, and the
//! rule that a capture, when there is one, must be played.

use super::moves::Move;
use super::position::Position;
use super::squares::{bit, is_forward, shift, step, CROWN_ROW, DIRECTIONS, NEIGHBOUR, NONE, RAYS};
use crate::games::Side;

impl Position {
    /// The pieces that must move in `direction` to move in it: every piece forward, only kings
    /// backward.
    fn movers(&self, side: usize, direction: usize) -> u32 {
        if is_forward(side, direction) {
            self.pieces[side]
        } else {
            self.pieces[side] & self.kings
        }
    }

    /// The side to move's pieces that can capture, found in bulk.
    pub(super) fn jumpers(&self) -> u32 {
        self.capturers(self.to_move)
    }

    /// The pieces of `side` that could capture if it were `side`'s turn: for the side to move
    /// they are the pieces that may move (captures are mandatory); for the other side, the
    /// threats it poses.
    pub fn capturers(&self, side: Side) -> u32 {
        let side = side.index();
        let (opponent, empty) = (self.pieces[1 - side], self.empty());
        let mut jumpers = 0;
        for direction in DIRECTIONS {
            let back = 3 - direction;
            let victims = step(back, empty) & opponent;
            jumpers |= step(back, victims) & self.movers(side, direction);
        }
        jumpers
    }

    /// Whether the side to move must capture (every legal move is then a capture).
    pub fn must_capture(&self) -> bool {
        self.jumpers() != 0
    }

    /// Whether the side to move has a legal move; without one it has lost.
    pub fn can_move(&self) -> bool {
        let side = self.to_move.index();
        let empty = self.empty();
        self.jumpers() != 0
            || DIRECTIONS
                .into_iter()
                .any(|direction| step(direction, self.movers(side, direction)) & empty != 0)
    }

    /// Clears `moves` and fills it with the legal moves of the pieces (the draw rules are
    /// [`Checkers`](super::Checkers)' business): for searches, which reuse the vector so they do
    /// not allocate.
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        self.generate(moves);
    }

    pub(super) fn generate(&self, moves: &mut Vec<Move>) {
        let mut jumpers = self.jumpers();
        if jumpers != 0 {
            while jumpers != 0 {
                let from = jumpers.trailing_zeros() as u8;
                jumpers &= jumpers - 1;
                self.captures_from(from, moves);
            }
            return;
        }
        let side = self.to_move.index();
        let empty = self.empty();
        for direction in DIRECTIONS {
            let movers = self.movers(side, direction);
            for ray in &RAYS[direction] {
                let mut targets = shift(movers & ray.from, ray.shift) & empty;
                while targets != 0 {
                    let to = targets.trailing_zeros() as i32;
                    targets &= targets - 1;
                    moves.push(Move::simple((to - ray.shift) as u8, to as u8));
                }
            }
        }
    }

    /// Appends every complete capture by the piece on `from` (nothing if it cannot capture).
    pub(super) fn captures_from(&self, from: u8, moves: &mut Vec<Move>) {
        let king = self.kings & bit(from) != 0;
        let opponent = self.pieces[1 - self.to_move.index()];
        // The moving piece has left its square: a king may pass over or come back to it.
        let empty = self.empty() | bit(from);
        self.extend_capture(
            Move::start_capture(from),
            from,
            opponent,
            empty,
            king,
            moves,
        );
    }

    /// Continues `mv`, standing on `at`, with every possible jump (depth first) and appends each
    /// capture that cannot go on (`mv` itself when it has jumped and cannot go on, nothing when
    /// it has not jumped yet and cannot). `opponent` no longer holds the pieces already jumped, so
    /// none is jumped twice; their squares stay occupied, though no landing can be there anyway
    /// (landings and jumped squares have different parities).
    pub(super) fn extend_capture(
        &self,
        mv: Move,
        at: u8,
        opponent: u32,
        empty: u32,
        king: bool,
        moves: &mut Vec<Move>,
    ) {
        let side = self.to_move.index();
        let mut extended = false;
        for direction in DIRECTIONS {
            if !king && !is_forward(side, direction) {
                continue;
            }
            let over = NEIGHBOUR[direction][at as usize];
            if over == NONE || opponent & bit(over) == 0 {
                continue;
            }
            let land = NEIGHBOUR[direction][over as usize];
            if land == NONE || empty & bit(land) == 0 {
                continue;
            }
            extended = true;
            let next = mv.jump(over, land);
            if !king && CROWN_ROW[side] & bit(land) != 0 {
                // Crowning ends the move.
                moves.push(next);
            } else {
                self.extend_capture(next, land, opponent & !bit(over), empty, king, moves);
            }
        }
        if !extended && mv.len > 0 {
            moves.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::checkers::test_games::*;
    use crate::games::checkers::{Checkers, Piece};
    use crate::games::{perft, Game, IllegalMove};
    use crate::seeded::SeededRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn perft_matches_the_published_table() {
        let expected = [7, 49, 302, 1469, 7361, 36768, 179740, 845931];
        let start = Checkers::default();
        for (depth, &count) in expected.iter().enumerate() {
            assert_eq!(
                perft(&start, depth as u32 + 1),
                count,
                "depth {}",
                depth + 1
            );
        }
    }

    #[test]
    fn captures_are_mandatory_but_any_capture_may_be_chosen() {
        // 14 can take one piece, 1 can take two: both are allowed.
        let g = game("B:W6,15,18:B1,14");
        assert_eq!(legal(&g), ["14x23", "1x10x19"]);
        let mut smaller = g.clone();
        play(&mut smaller, &["14x23"]);
        assert_eq!(smaller.piece_at(18), None);
        assert_eq!(smaller.piece_at(6).map(|p| p.side), Some(Side::Second));

        let g = game("B:W18:B1,14");
        assert_eq!(legal(&g), ["14x23"]);
        assert_eq!(
            illegal(&g, "1-5"),
            IllegalMove::CaptureMandatory {
                example: "14x23".into()
            }
        );
        assert_eq!(
            illegal(&g, "14-17"),
            IllegalMove::CaptureMandatory {
                example: "14x23".into()
            }
        );
    }

    #[test]
    fn crowning_ends_the_move() {
        // A man jumping onto 31 is crowned there, though a king could jump on over 27.
        let mut g = game("B:W26,27:B22");
        assert_eq!(legal(&g), ["22x31"]);
        assert_eq!(
            reason(&g, "22x31x24"),
            "the man is crowned on 31 and its move ends there"
        );
        play(&mut g, &["22x31"]);
        assert_eq!(
            g.piece_at(31),
            Some(Piece {
                side: Side::First,
                king: true
            })
        );
        assert_eq!(g.to_fen(), "W:W27:BK31");
        // A king in the same place goes on.
        assert_eq!(legal(&game("B:W26,27:BK22")), ["22x31x24"]);
        // A plain move onto the last row crowns too.
        let mut g = game("W:W6:B20");
        play(&mut g, &["6-2"]);
        assert_eq!(g.piece_at(2).map(Piece::letter), Some('W'));
    }

    #[test]
    fn kings_move_both_ways_and_men_only_forward() {
        let g = game("B:W32:BK14,15");
        let from =
            |square| -> Vec<String> { g.moves_from(square).iter().map(Move::to_string).collect() };
        let mut king = from(14);
        king.sort();
        assert_eq!(king, ["14-10", "14-17", "14-18", "14-9"]);
        assert_eq!(from(15), ["15-18", "15-19"]);
        assert!(from(32).is_empty(), "not Black's piece");
        assert!(from(20).is_empty(), "empty square");
        assert_eq!(
            reason(&g, "15-10"),
            "a man cannot move backwards (15-10); only kings can"
        );
        // White's men go up the board, and its kings both ways.
        assert_eq!(
            legal(&game("W:WK14:B1")),
            ["14-10", "14-17", "14-18", "14-9"]
        );
        assert_eq!(legal(&game("W:W14:B1")), ["14-10", "14-9"]);
    }

    #[test]
    fn the_position_level_operations_agree_with_the_game() {
        let mut rng = SeededRng::seed_from_u64(11);
        let (mut from_game, mut from_position) = (Vec::new(), Vec::new());
        for start in [STANDARD_FEN, DIAMOND, "W:WK1,K3,20,21:BK30,K32,9,12"] {
            let mut g = game(start);
            let mut position = g.position();
            while Game::outcome(&g).is_none() {
                g.generate_moves(&mut from_game);
                position.legal_moves(&mut from_position);
                assert_eq!(from_position, from_game);
                assert!(position.can_move());
                let capturing: u32 = from_game
                    .iter()
                    .filter(|mv| mv.is_capture())
                    .map(|mv| bit(mv.from() - 1))
                    .fold(0, |a, b| a | b);
                assert_eq!(position.must_capture(), capturing != 0);
                assert_eq!(position.capturers(position.side_to_move()), capturing);
                for mv in &from_game {
                    let bits = mv.captured().fold(0, |a, n| a | bit(n - 1));
                    assert_eq!(mv.captured_bits(), bits);
                }
                let mv = from_game[rng.gen_range(0..from_game.len())];
                g.play_unchecked(mv);
                position.apply(mv);
                assert_eq!(position, g.position());
            }
        }
    }
}
