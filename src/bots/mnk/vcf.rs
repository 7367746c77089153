//! Victory by continuous fours: a forced win where every attacking move threatens to complete a
//! line at once, so the defender's reply is forced each time, until the attacker has two
//! winning squares (the defender can block only one). The tree is narrow (only the moves that
//! make a four, one reply each), so it reaches far deeper than the full search, and a win it
//! finds is proven.

use super::board::{Board, Threats};
use crate::games::mnk::Square;
use std::time::Instant;

pub struct Vcf {
    /// The attacking moves of each level, kept between searches so they do not allocate.
    levels: Vec<Vec<Square>>,
    nodes: u64,
    node_limit: u64,
    deadline: Instant,
    stopped: bool,
}

impl Vcf {
    pub fn new() -> Vcf {
        Vcf {
            levels: Vec::new(),
            nodes: 0,
            node_limit: 0,
            deadline: Instant::now(),
            stopped: false,
        }
    }

    /// The first move of a forced win by fours for the side to move, looking at most `depth`
    /// attacking moves ahead and visiting at most `node_limit` positions (and stopping at
    /// `deadline`). `None` when there is none within those limits.
    pub fn find(
        &mut self,
        board: &mut Board,
        depth: usize,
        node_limit: u64,
        deadline: Instant,
    ) -> Option<Square> {
        self.nodes = 0;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.stopped = false;
        let me = board.side_to_move();
        if let Threats::One(square) | Threats::Several(square) = board.threats(me) {
            return Some(square);
        }
        self.attack(board, depth, 0)
    }

    /// Whether the side to move wins by fours; returns the first move of the win.
    fn attack(&mut self, board: &mut Board, depth: usize, level: usize) -> Option<Square> {
        let me = board.side_to_move();
        let them = me.opponent();
        if board.threats(them) != Threats::None || depth == 0 || self.exhausted() {
            return None;
        }
        if self.levels.len() <= level {
            self.levels.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.levels[level]);
        moves.clear();
        board.four_moves(me, &mut moves);
        moves.retain(|&square| !board.forbidden(square));
        let mut found = None;
        for &square in &moves {
            self.nodes += 1;
            board.play(square);
            let wins = if board.can_win(them) {
                false
            } else {
                match board.threats(me) {
                    Threats::Several(_) => true,
                    // Renju: Black cannot block on a forbidden point.
                    Threats::One(block) if board.forbidden(block) => true,
                    Threats::One(block) => {
                        board.play(block);
                        let wins = board.can_win(me) || {
                            self.attack(board, depth - 1, level + 1).is_some()
                        };
                        board.undo();
                        wins
                    }
                    // With `exact`, the move may have spoilt its own line (an overline).
                    Threats::None => false,
                }
            };
            board.undo();
            if wins {
                found = Some(square);
                break;
            }
            if self.stopped {
                break;
            }
        }
        self.levels[level] = moves;
        found
    }

    /// Whether the node limit or the deadline has come (the search then stops for good).
    fn exhausted(&mut self) -> bool {
        if self.nodes >= self.node_limit
            || (self.nodes % 16 == 0 && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
        self.stopped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mnk::{Gomoku, Mnk};
    use crate::games::{Game, GameSpec};
    use std::time::Duration;

    /// X: three in row 4 (closed at the left by O) and two in column 4. The four at 4 4 forces
    /// O to 5 4 and turns column 4 into an open three; 4 5 or 4 1 then makes an open four.
    /// Two attacking moves, not one.
    #[test]
    fn finds_a_win_two_fours_deep() {
        let gomoku = GameSpec::Gomoku(Gomoku::STANDARD).mnk_params().unwrap();
        let mut game = Mnk::new(gomoku);
        let x = [(1, 4), (2, 4), (3, 4), (4, 2), (4, 3)];
        let o = [(0, 4), (14, 14), (10, 14), (14, 10), (10, 10)];
        for (&(xx, xy), &(ox, oy)) in x.iter().zip(&o) {
            game.play(game.square(xx, xy)).unwrap();
            game.play(game.square(ox, oy)).unwrap();
        }
        let mut board = Board::new(gomoku);
        board.load(&game);
        let later = Instant::now() + Duration::from_secs(60);
        let mut vcf = Vcf::new();
        assert_eq!(vcf.find(&mut board, 1, u64::MAX, later), None);
        let win = vcf.find(&mut board, 2, u64::MAX, later);
        assert_eq!(win.map(|s| game.format_move(s)), Some("4 4".to_string()));
        // The search leaves the board as it found it.
        let mut fresh = Board::new(gomoku);
        fresh.load(&game);
        assert_eq!(board.hash(), fresh.hash());
    }
}
