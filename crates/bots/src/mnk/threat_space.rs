//! Threat-space search: a forced win made of threats the defender must answer at once.
//!
//! Victory by continuous fours (VCF): every attacking move threatens to complete a line, so the
//! defender's reply is forced, until the attacker has two winning squares (the defender can
//! block only one). Victory by continuous threats (VCT) also lets the attacker make a three (a
//! threat to make two winning squares with the next move): the defender then has several
//! answers, every square that spoils the coming double threat (the three's gap and ends) and
//! every four of its own (which the attacker must block first), and the attacker must win
//! against each. Only threats are searched, so the tree is narrow and reaches far deeper than
//! the full search; a win it finds is proven, but for one answer it does not try: a quiet move
//! of the defender's that would let it win by fours of its own against the coming open four.

use super::board::{Board, Threats};
use referee_rules::games::mnk::Square;
use std::time::Instant;

/// Which attacking moves a search may make.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attack {
    /// Fours only (VCF).
    Fours,
    /// Fours and threes (VCT).
    Threes,
}

/// Positions whose attack failed, remembered within one search: 2^16 slots.
const FAILED_BITS: u32 = 16;

pub(super) struct ThreatSearch {
    /// The moves of each level, kept between searches so they do not allocate.
    levels: Vec<Vec<Square>>,
    /// Positions (hash) where the attacker to move has no win within the stored number of
    /// attacking moves, with that number in the low byte: many move orders reach one position.
    failed: Vec<u64>,
    /// Mixed into the keys of `failed`, new for each search, so that what an earlier search
    /// stored is (all but) never read back, and the table is never cleared (512 KiB, for each of
    /// a move's several searches).
    salt: u64,
    attack: Attack,
    nodes: u64,
    node_limit: u64,
    deadline: Instant,
    stopped: bool,
}

impl ThreatSearch {
    pub(super) fn new() -> ThreatSearch {
        ThreatSearch {
            levels: Vec::new(),
            failed: vec![0; 1 << FAILED_BITS],
            salt: 0,
            attack: Attack::Fours,
            nodes: 0,
            node_limit: 0,
            deadline: Instant::now(),
            stopped: false,
        }
    }

    /// The first move of a forced win for the side to move by `attack`'s moves, looking at
    /// most `depth` attacking moves ahead, shallow wins first, and visiting at most
    /// `node_limit` positions (and stopping at `deadline`). `None` when there is none within
    /// those limits.
    pub(super) fn find(
        &mut self,
        board: &mut Board,
        attack: Attack,
        depth: usize,
        node_limit: u64,
        deadline: Instant,
    ) -> Option<Square> {
        self.attack = attack;
        self.nodes = 0;
        self.node_limit = node_limit;
        self.deadline = deadline;
        self.stopped = false;
        self.salt = self.salt.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let me = board.side_to_move();
        if let Threats::One(square) | Threats::Several(square) = board.threats(me) {
            return Some(square);
        }
        // Deepening finds the shortest win, and what failed shallow is remembered.
        for depth in 1..=depth {
            if let Some(win) = self.attack(board, depth, 0) {
                return Some(win);
            }
            if self.stopped {
                break;
            }
        }
        None
    }

    /// Whether the side to move (the attacker) wins with at most `depth` attacking moves;
    /// returns the first move of the win.
    fn attack(&mut self, board: &mut Board, depth: usize, level: usize) -> Option<Square> {
        if depth == 0 || self.stopped {
            return None;
        }
        let me = board.side_to_move();
        let slot = (board.hash() as usize) & ((1 << FAILED_BITS) - 1);
        let key = (board.hash() ^ self.salt) & !0xff;
        let known = self.failed[slot];
        if known & !0xff == key && (known & 0xff) as usize >= depth {
            return None;
        }
        if self.levels.len() <= level {
            self.levels.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.levels[level]);
        moves.clear();
        match board.threats(me.opponent()) {
            Threats::Several(_) => {}
            // A four of the defender's must be blocked; the block attacks on only if it makes
            // a threat of its own or an earlier one still stands.
            Threats::One(block) => moves.push(block),
            Threats::None => board.threat_moves(me, self.attack == Attack::Threes, &mut moves),
        }
        moves.retain(|&square| !board.forbidden(square));
        let mut found = None;
        for &square in &moves {
            self.visit();
            board.play(square);
            let wins = self.defend(board, depth - 1, level + 1);
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
        if found.is_none() && !self.stopped {
            self.failed[slot] = key | depth.min(0xff) as u64;
        }
        found
    }

    /// Whether the attacker (who just moved) wins against every answer of the side to move,
    /// with at most `depth` more attacking moves.
    fn defend(&mut self, board: &mut Board, depth: usize, level: usize) -> bool {
        let me = board.side_to_move();
        let attacker = me.opponent();
        if board.can_win(me) {
            return false;
        }
        match board.threats(attacker) {
            Threats::Several(_) => return true,
            // Renju: Black cannot block on a forbidden point.
            Threats::One(block) if board.forbidden(block) => return true,
            Threats::One(block) => {
                board.play(block);
                let wins = board.can_win(attacker) || self.attack(board, depth, level).is_some();
                board.undo();
                return wins;
            }
            Threats::None if self.attack == Attack::Fours => return false,
            Threats::None => {}
        }
        if self.levels.len() <= level {
            self.levels.push(Vec::new());
        }
        let mut answers = std::mem::take(&mut self.levels[level]);
        answers.clear();
        board.defences(attacker, &mut answers);
        // No three to answer: the attack has run out. (Renju: when every answer is forbidden
        // to Black, the threat goes through.)
        let mut wins = !answers.is_empty();
        answers.retain(|&square| !board.forbidden(square));
        for &square in &answers {
            self.visit();
            board.play(square);
            let refuted =
                !board.can_win(attacker) && self.attack(board, depth, level + 1).is_none();
            board.undo();
            if refuted || self.stopped {
                wins = false;
                break;
            }
        }
        self.levels[level] = answers;
        wins
    }

    /// Counts a position; stops the search for good at the node limit or the deadline (the
    /// clock is read every 16 positions, a few microseconds of work).
    fn visit(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.node_limit
            || (self.nodes % 16 == 0 && Instant::now() >= self.deadline)
        {
            self.stopped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mnk::tests::position;
    use referee_rules::games::mnk::{Gomoku, Mnk};
    use referee_rules::games::{Game, GameSpec};
    use std::time::Duration;

    fn gomoku(moves: &[&str]) -> (Mnk, Board) {
        let game = position(GameSpec::Gomoku(Gomoku::STANDARD), moves);
        let mut board = Board::new(game.params());
        board.load(&game);
        (game, board)
    }

    const STRESS_POSITIONS: usize = 300;

    /// A search bounded by its depth only: the deadline is a day away.
    fn find(board: &mut Board, attack: Attack, depth: usize) -> Option<Square> {
        let later = Instant::now() + Duration::from_secs(24 * 60 * 60);
        ThreatSearch::new().find(board, attack, depth, u64::MAX, later)
    }

    /// X: three in row 4 (closed at the left by O) and two in column 4. The four at 4 4 forces
    /// O to 5 4 and turns column 4 into an open three; 4 5 or 4 1 then makes an open four.
    /// Two attacking moves, not one.
    #[test]
    fn finds_a_win_two_fours_deep() {
        let (game, mut board) = gomoku(&[
            "1 4", "0 4", "2 4", "14 14", "3 4", "10 14", "4 2", "14 10", "4 3", "10 10",
        ]);
        assert_eq!(find(&mut board, Attack::Fours, 1), None);
        let win = find(&mut board, Attack::Fours, 2);
        assert_eq!(win.map(|s| game.format_move(s)), Some("4 4".to_string()));
        // The search leaves the board as it found it.
        let mut fresh = Board::new(game.params());
        fresh.load(&game);
        assert_eq!(board.hash(), fresh.hash());
    }

    /// Two twos crossing at 6 7: filling it makes two open threes, and O can block only one.
    /// No sequence of fours wins; fours and threes do, in two attacking moves.
    #[test]
    fn finds_a_win_by_a_double_three() {
        let (game, mut board) =
            gomoku(&["7 7", "0 0", "8 7", "14 14", "6 5", "0 14", "6 6", "14 0"]);
        assert_eq!(find(&mut board, Attack::Fours, 20), None);
        assert_eq!(find(&mut board, Attack::Threes, 1), None);
        let win = find(&mut board, Attack::Threes, 2);
        assert_eq!(win.map(|s| game.format_move(s)), Some("6 7".to_string()));
    }

    /// Whether the side to move wins by playing `win` whatever the opponent replies (any
    /// point near the stones, not only the answers the search considers), each later attacking
    /// move found by the search again within `depth` attacking moves in all.
    fn holds(board: &mut Board, win: Square, depth: usize) -> bool {
        let attacker = board.side_to_move();
        board.play(win);
        let mut replies = Vec::new();
        board.candidates(&mut replies);
        let holds = replies.into_iter().all(|reply| {
            if board.can_win(attacker.opponent()) {
                return false;
            }
            board.play(reply);
            let holds = board.can_win(attacker)
                || (depth > 1
                    && find(board, Attack::Threes, depth - 1)
                        .is_some_and(|next| holds(board, next, depth - 1)));
            board.undo();
            holds
        });
        board.undo();
        holds
    }

    /// The crossing, but O holds 6 8 and 5 7, closing one end of each line: the wins the search
    /// finds there hold against every reply, and two lone stones have none.
    #[test]
    fn every_win_found_holds_against_every_reply() {
        for moves in [
            &["7 7", "6 8", "8 7", "5 7", "6 5", "0 14", "6 6", "14 0"][..],
            &["7 7", "0 0", "8 7", "14 14", "6 5", "0 14", "6 6", "14 0"],
            &[
                "1 4", "0 4", "2 4", "14 14", "3 4", "10 14", "4 2", "14 10", "4 3", "10 10",
            ],
        ] {
            let (game, mut board) = gomoku(moves);
            let win = find(&mut board, Attack::Threes, 4).expect("a win");
            assert!(holds(&mut board, win, 4), "{}", game.format_move(win));
        }
        let (_, mut lone) = gomoku(&["7 7", "0 0", "8 7", "14 14"]);
        assert_eq!(find(&mut lone, Attack::Threes, 6), None);
    }

    /// Random crowded positions in the middle of the board: every win by threats the search
    /// finds holds against every reply, and some are found.
    #[test]
    fn wins_found_in_random_positions_hold() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        use referee_rules::seeded::SeededRng;
        let mut rng = SeededRng::seed_from_u64(19);
        let mut found = 0;
        for _ in 0..STRESS_POSITIONS {
            let mut middle: Vec<String> = (4..11)
                .flat_map(|x| (4..11).map(move |y| format!("{x} {y}")))
                .collect();
            middle.shuffle(&mut rng);
            let (mut game, _) = gomoku(&[]);
            for square in middle.iter().take(12) {
                let square = game.parse_move(square).unwrap();
                game.play(square).unwrap();
                if game.outcome().is_some() {
                    break;
                }
            }
            let mut board = Board::new(game.params());
            board.load(&game);
            let me = board.side_to_move();
            if game.outcome().is_some() || board.can_win(me) || board.can_win(me.opponent()) {
                continue;
            }
            if let Some(win) = find(&mut board, Attack::Threes, 3) {
                found += 1;
                assert!(
                    holds(&mut board, win, 3),
                    "{}\n{}",
                    game.format_move(win),
                    game.render()
                );
            }
        }
        assert!(found > 0, "{found}");
        eprintln!("found {found}");
    }

    /// The winning double three of X, but O has an open three in row 12: O answers X's threes
    /// with an open four of its own, which X cannot block. No win for X; the same stones
    /// without O's three give one.
    #[test]
    fn a_counter_four_refutes_the_threes() {
        let (_, mut board) = gomoku(&["7 7", "3 12", "8 7", "4 12", "6 5", "5 12", "6 6", "14 0"]);
        assert_eq!(find(&mut board, Attack::Threes, 4), None);
        let (game, mut board) =
            gomoku(&["7 7", "3 12", "8 7", "14 14", "6 5", "5 12", "6 6", "14 0"]);
        let win = find(&mut board, Attack::Threes, 4);
        assert_eq!(win.map(|s| game.format_move(s)), Some("6 7".to_string()));
    }
}
