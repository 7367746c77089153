//! Starter bot for ultimate tic-tac-toe (`uttt`) in Rust, standard library only.
//!
//! The board is 9x9 squares in nine small 3x3 boards, numbered 0..8 row by row; a move is the
//! square `x y` (column, row, each 0..8). The cell played inside its small board (0..8, row by
//! row) sends the opponent to the small board of that number; if that board is decided (won or
//! full), the opponent may play in any undecided board. Three small boards in a line win.
//!
//! It keeps its own position and plays a move that wins a small board if it has one, else a
//! random legal move. Change `choose_move` and keep the rest.
//!
//!     rustc --edition 2021 -O -o main main.rs && referee check uttt ./main
//!
//! Protocol rules it relies on: stdout holds protocol lines only, each flushed (see `send`);
//! debug output goes to stderr; `start` -> `ready NAME VERSION multi`; `turn` -> `x y`; it
//! exits on `quit` or at the end of its input.
use std::io::{self, BufRead, Write};

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

#[derive(Clone, Default)]
struct Position {
    small: [[u8; 9]; 9],   // small[board][cell]: 0 empty, 1 first player, 2 second
    status: [u8; 9],       // 0 undecided, 1 or 2 won by that player, 3 full
    forced: Option<usize>, // the board the side to move must play in, None for any
    moves: usize,
}

fn board_of(x: usize, y: usize) -> usize {
    y / 3 * 3 + x / 3
}

fn cell_of(x: usize, y: usize) -> usize {
    y % 3 * 3 + x % 3
}

impl Position {
    fn legal(&self) -> Vec<(usize, usize)> {
        let mut moves = Vec::new();
        for y in 0..9 {
            for x in 0..9 {
                let b = board_of(x, y);
                let allowed = self.forced.map_or(true, |f| f == b);
                if allowed && self.status[b] == 0 && self.small[b][cell_of(x, y)] == 0 {
                    moves.push((x, y));
                }
            }
        }
        moves
    }

    fn play(&mut self, x: usize, y: usize, mark: u8) {
        let (b, c) = (board_of(x, y), cell_of(x, y));
        self.small[b][c] = mark;
        let cells = self.small[b];
        if LINES.iter().any(|l| l.iter().all(|&i| cells[i] == mark)) {
            self.status[b] = mark;
        } else if cells.iter().all(|&cell| cell != 0) {
            self.status[b] = 3;
        }
        self.forced = if self.status[c] == 0 { Some(c) } else { None };
        self.moves += 1;
    }
}

/// The function to improve: return one of `position.legal()`.
fn choose_move(position: &Position, me: u8, seed: &mut u64) -> (usize, usize) {
    let moves = position.legal();
    for &(x, y) in &moves {
        let mut after = position.clone();
        after.play(x, y, me);
        if after.status[board_of(x, y)] == me {
            return (x, y);
        }
    }
    // A xorshift generator: enough to vary the games.
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    moves[(*seed % moves.len() as u64) as usize]
}

fn send(text: &str) {
    let mut out = io::stdout().lock();
    // An answer left in a buffer loses on time: flush every line.
    let _ = writeln!(out, "{}", text).and_then(|()| out.flush());
}

fn main() {
    let mut position = Position::default();
    let mut me = 1u8;
    let mut seed = std::process::id() as u64 | 1;
    for text in io::stdin().lock().lines() {
        let text = match text {
            Ok(text) => text,
            Err(_) => return,
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        let number = |at: usize| {
            words
                .get(at)
                .and_then(|w| w.parse::<usize>().ok())
                .unwrap_or(0)
        };
        match words.first().copied() {
            Some("game") => position = Position::default(), // `game uttt tiebreak=...`
            Some("side") => me = if words.get(1) == Some(&"first") { 1 } else { 2 },
            // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
            Some("played") => {
                let mark = (position.moves % 2 + 1) as u8;
                position.play(number(1), number(2), mark);
            }
            Some("opponent") => position.play(number(1), number(2), 3 - me),
            Some("start") => send("ready rust-uttt-starter 1.0 multi"),
            Some("turn") => {
                let (x, y) = choose_move(&position, me, &mut seed);
                position.play(x, y, me);
                send(&format!("{} {}", x, y));
            }
            Some("quit") => return,
            _ => {} // referee, time, legal, result: nothing to answer
        }
    }
}
