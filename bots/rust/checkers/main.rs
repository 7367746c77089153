//! Starter bot for English checkers (`checkers`) in Rust, standard library only.
//!
//! Only the 32 dark squares of the 8x8 board are used, numbered 1..32 four to a row from
//! Black's side (PDN): row 0 holds 1-4, row 7 holds 29-32. Black (the first player) starts on
//! 1-12 and moves down, White (the second) on 21-32 and moves up; a man reaching the far row
//! is crowned king, and kings move both ways, one square at a time. A move is `11-15` (a
//! step), `22x15` (a jump over the piece between) or `9x18x27` (a multi-jump, every landing
//! square named). Captures are mandatory; a capture goes on while the same piece can jump
//! again, the whole sequence is one move, and a man that is crowned ends its move there.
//!
//! It keeps its own position (from the FEN of the `game` line) and plays the move that takes
//! the most pieces minus the most the opponent can take back at once, at random among equals.
//! It accepts a draw offered when it is not ahead in material, and offers one when only kings
//! are left, level. Change `choose_move` and keep the rest.
//!
//!     rustc --edition 2021 -O -o main main.rs && referee check checkers ./main
//!
//! Protocol rules it relies on: stdout holds protocol lines only, each flushed (see `send`);
//! debug output goes to stderr; `start` -> `ready NAME VERSION multi`; `turn` -> a move (with
//! ` draw` after it to offer a draw, or `draw` alone to accept one); it exits on `quit` or at
//! the end of its input.
use std::io::{self, BufRead, Write};

/// A move: the start square, then every square the piece lands on.
type Move = Vec<i32>;

/// The row (0 at Black's side) of square 1..32.
fn row_of(s: i32) -> i32 {
    (s - 1) / 4
}

/// The column of square 1..32: dark squares have row + column odd.
fn col_of(s: i32) -> i32 {
    2 * ((s - 1) % 4) + 1 - row_of(s) % 2
}

/// The square at (row, column), or 0 off the board.
fn square_at(r: i32, c: i32) -> i32 {
    if (0..8).contains(&r) && (0..8).contains(&c) && (r + c) % 2 == 1 {
        r * 4 + c / 2 + 1
    } else {
        0
    }
}

fn is_capture(m: &[i32]) -> bool {
    (row_of(m[1]) - row_of(m[0])).abs() == 2
}

fn taken(m: &[i32]) -> usize {
    if is_capture(m) {
        m.len() - 1
    } else {
        0
    }
}

fn format_move(m: &[i32]) -> String {
    let squares: Vec<String> = m.iter().map(|s| s.to_string()).collect();
    squares.join(if is_capture(m) { "x" } else { "-" })
}

/// `9x18x27` or `11-15`: the referee writes every square.
fn parse_move(text: &str) -> Move {
    text.split(['x', '-'])
        .filter_map(|s| s.parse().ok())
        .collect()
}

fn is_king(piece: u8) -> bool {
    piece == b'B' || piece == b'W'
}

#[derive(Clone)]
struct Position {
    board: [u8; 33], // board[square]: b'b' black man, b'B' black king, b'w', b'W'; 0 empty
    to_move: u8,     // b'b' (Black) or b'w' (White): the bot is asked to move for this side
}

impl Position {
    /// `B:W21,22,...,32:B1,2,...,12`: the side to move, then each colour's squares, `K` before
    /// a king's square (`W:W18,K30:BK3,14`).
    fn from_fen(fen: &str) -> Position {
        let mut parts = fen.split(':');
        let to_move = if parts.next() == Some("W") {
            b'w'
        } else {
            b'b'
        };
        let mut position = Position {
            board: [0; 33],
            to_move,
        };
        for list in parts.filter(|list| !list.is_empty()) {
            let colour = if list.starts_with('W') { b'w' } else { b'b' };
            for item in list[1..].split(',').filter(|item| !item.is_empty()) {
                let (piece, square) = match item.strip_prefix('K') {
                    Some(square) => (colour.to_ascii_uppercase(), square),
                    None => (colour, item),
                };
                if let Ok(square) = square.parse::<usize>() {
                    position.board[square] = piece;
                }
            }
        }
        position
    }

    fn owns(&self, s: i32, colour: u8) -> bool {
        self.board[s as usize].to_ascii_lowercase() == colour
    }

    /// The row directions a piece may go: a man only forward (Black down, White up), a king
    /// both.
    fn rows(&self, s: i32) -> Vec<i32> {
        match self.board[s as usize] {
            b'b' => vec![1],
            b'w' => vec![-1],
            _ => vec![1, -1],
        }
    }

    /// Every legal move of the side to move: only captures when there is one, each complete.
    fn legal(&self) -> Vec<Move> {
        let (mut captures, mut steps) = (Vec::new(), Vec::new());
        for s in (1..=32).filter(|&s| self.owns(s, self.to_move)) {
            self.jumps(s, vec![s], &mut [false; 33], &mut captures);
            for dr in self.rows(s) {
                for dc in [-1, 1] {
                    let to = square_at(row_of(s) + dr, col_of(s) + dc);
                    if to != 0 && self.board[to as usize] == 0 {
                        steps.push(vec![s, to]);
                    }
                }
            }
        }
        if captures.is_empty() {
            steps
        } else {
            captures
        }
    }

    /// Extends the capture `path` of the piece from `start` (now on its last square, having
    /// jumped the squares marked in `jumped`) by every jump it can make, and adds each capture
    /// that can go no further to `out`. Jumped pieces stay on the board until the move ends.
    fn jumps(&self, start: i32, path: Move, jumped: &mut [bool; 33], out: &mut Vec<Move>) {
        let at = path[path.len() - 1];
        let mut extended = false;
        for dr in self.rows(start) {
            for dc in [-1, 1] {
                let over = square_at(row_of(at) + dr, col_of(at) + dc);
                let land = square_at(row_of(at) + 2 * dr, col_of(at) + 2 * dc);
                if over == 0 || land == 0 || jumped[over as usize] {
                    continue;
                }
                if self.board[over as usize] == 0 || self.owns(over, self.to_move) {
                    continue;
                }
                if land != start && self.board[land as usize] != 0 {
                    continue; // the mover has left its start square
                }
                extended = true;
                let mut longer = path.clone();
                longer.push(land);
                let crown_row = if self.to_move == b'b' { 7 } else { 0 };
                if !is_king(self.board[start as usize]) && row_of(land) == crown_row {
                    out.push(longer); // a man crowned ends its move
                    continue;
                }
                jumped[over as usize] = true;
                self.jumps(start, longer, jumped, out);
                jumped[over as usize] = false;
            }
        }
        if !extended && path.len() > 1 {
            out.push(path);
        }
    }

    /// Plays a legal move: removes every piece jumped, crowns a man on the far row.
    fn play(&mut self, m: &[i32]) {
        let mut piece = self.board[m[0] as usize];
        self.board[m[0] as usize] = 0;
        if is_capture(m) {
            for pair in m.windows(2) {
                let row = (row_of(pair[0]) + row_of(pair[1])) / 2;
                let col = (col_of(pair[0]) + col_of(pair[1])) / 2;
                self.board[square_at(row, col) as usize] = 0;
            }
        }
        let end = m[m.len() - 1];
        if (piece == b'b' && row_of(end) == 7) || (piece == b'w' && row_of(end) == 0) {
            piece = piece.to_ascii_uppercase();
        }
        self.board[end as usize] = piece;
        self.to_move = if self.to_move == b'b' { b'w' } else { b'b' };
    }

    /// A man counts 2, a king 3.
    fn material(&self, colour: u8) -> usize {
        (1..=32)
            .filter(|&s| self.owns(s, colour))
            .map(|s| {
                if is_king(self.board[s as usize]) {
                    3
                } else {
                    2
                }
            })
            .sum()
    }

    fn only_kings(&self) -> bool {
        !self
            .board
            .iter()
            .any(|&piece| piece == b'b' || piece == b'w')
    }
}

/// The function to improve: return one of `position.legal()` (never empty when asked to move).
fn choose_move(position: &Position, seed: &mut u64) -> Move {
    let mut best: Vec<Move> = Vec::new();
    let mut best_score = i64::MIN;
    for m in position.legal() {
        let mut after = position.clone();
        after.play(&m);
        // The most the opponent can take back at once.
        let back = after.legal().iter().map(|r| taken(r)).max().unwrap_or(0);
        let score = taken(&m) as i64 - back as i64;
        if score > best_score {
            best.clear();
            best_score = score;
        }
        if score == best_score {
            best.push(m);
        }
    }
    // A xorshift generator: enough to vary the games.
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let at = (*seed % best.len() as u64) as usize;
    best.swap_remove(at)
}

fn send(text: &str) {
    let mut out = io::stdout().lock();
    // An answer left in a buffer loses on time: flush every line.
    let _ = writeln!(out, "{}", text).and_then(|()| out.flush());
}

fn main() {
    let mut position =
        Position::from_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    let mut offered = false; // the opponent offered a draw with its last move
    let mut seed = std::process::id() as u64 | 1;
    for text in io::stdin().lock().lines() {
        let text = match text {
            Ok(text) => text,
            Err(_) => return,
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.first().copied() {
            // game checkers fen=B:W21,...,32:B1,...,12 repetition=3 moverule=40
            Some("game") => {
                if let Some(fen) = words.iter().find_map(|w| w.strip_prefix("fen=")) {
                    position = Position::from_fen(fen);
                }
                offered = false;
            }
            // An opening move or the opponent's, made by the side to move.
            Some("played") | Some("opponent") => {
                position.play(&parse_move(words.get(1).copied().unwrap_or("")))
            }
            Some("offer") => offered = true, // `offer draw`: good for our next answer only
            Some("start") => send("ready rust-checkers-starter 1.0 multi"),
            Some("turn") => {
                let me = position.to_move;
                let them = if me == b'b' { b'w' } else { b'b' };
                if offered && position.material(me) <= position.material(them) {
                    send("draw"); // accept: the game ends, drawn
                    continue;
                }
                offered = false;
                let m = choose_move(&position, &mut seed);
                position.play(&m);
                let level =
                    position.only_kings() && position.material(me) == position.material(them);
                send(&format!(
                    "{}{}",
                    format_move(&m),
                    if level { " draw" } else { "" }
                ));
            }
            Some("quit") => return,
            _ => {} // referee, side, time, legal, result: nothing to answer
        }
    }
}
