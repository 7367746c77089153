//! Starter bot for dots and boxes (`dots`) in Rust, standard library only.
//!
//! The board has `rows` x `cols` boxes, so (cols + 1) x (rows + 1) dots; a dot is (x, y),
//! column then row, from (0, 0) at the top left. A move draws one line: `h x y` from dot (x, y)
//! to the right, `v x y` from dot (x, y) downwards. Whoever completes a box scores it and moves
//! again (the referee sends another `turn`).
//!
//! It keeps its own board and plays: a line that completes a box if there is one; else a
//! random line that gives no box away (draws no box's third side); else any line. Change
//! `choose_move` and keep the rest.
//!
//!     rustc --edition 2021 -O -o main main.rs && referee check dots ./main
//!
//! Protocol rules it relies on: stdout holds protocol lines only, each flushed (see `send`);
//! debug output goes to stderr; `start` -> `ready NAME VERSION multi`; `turn` -> one line; it
//! exits on `quit` or at the end of its input.
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

/// A line: 'h' or 'v', and its dot.
type Line = (char, usize, usize);

struct Board {
    rows: usize,
    cols: usize,
    h: Vec<Vec<bool>>, // h[y][x]: line h x y drawn
    v: Vec<Vec<bool>>, // v[y][x]: line v x y drawn
}

impl Board {
    fn new(rows: usize, cols: usize) -> Board {
        Board {
            rows,
            cols,
            h: vec![vec![false; cols]; rows + 1],
            v: vec![vec![false; cols + 1]; rows],
        }
    }

    fn draw(&mut self, (kind, x, y): Line) {
        let lines = if kind == 'h' {
            &mut self.h
        } else {
            &mut self.v
        };
        if let Some(drawn) = lines.get_mut(y).and_then(|row| row.get_mut(x)) {
            *drawn = true;
        }
    }

    fn sides(&self, bx: usize, by: usize) -> usize {
        [
            self.h[by][bx],
            self.h[by + 1][bx],
            self.v[by][bx],
            self.v[by][bx + 1],
        ]
        .iter()
        .filter(|&&drawn| drawn)
        .count()
    }

    /// The boxes on either side of a line.
    fn boxes(&self, (kind, x, y): Line) -> Vec<(usize, usize)> {
        let mut boxes = Vec::new();
        if kind == 'h' {
            if y > 0 {
                boxes.push((x, y - 1));
            }
            if y < self.rows {
                boxes.push((x, y));
            }
        } else {
            if x > 0 {
                boxes.push((x - 1, y));
            }
            if x < self.cols {
                boxes.push((x, y));
            }
        }
        boxes
    }

    fn free_lines(&self) -> Vec<Line> {
        let mut lines = Vec::new();
        for y in 0..=self.rows {
            for x in 0..self.cols {
                if !self.h[y][x] {
                    lines.push(('h', x, y));
                }
            }
        }
        for y in 0..self.rows {
            for x in 0..=self.cols {
                if !self.v[y][x] {
                    lines.push(('v', x, y));
                }
            }
        }
        lines
    }
}

/// The function to improve: return one of `board.free_lines()`.
fn choose_move(board: &Board, seed: &mut u64) -> Line {
    let lines = board.free_lines();
    let mut safe = Vec::new();
    for &line in &lines {
        let sides: Vec<usize> = board
            .boxes(line)
            .iter()
            .map(|&(bx, by)| board.sides(bx, by))
            .collect();
        if sides.contains(&3) {
            return line;
        }
        if !sides.contains(&2) {
            safe.push(line);
        }
    }
    // A xorshift generator: enough to vary the games.
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let pool = if safe.is_empty() { &lines } else { &safe };
    pool[(*seed % pool.len() as u64) as usize]
}

fn send(text: &str) {
    let mut out = io::stdout().lock();
    // An answer left in a buffer loses on time: flush every line.
    let _ = writeln!(out, "{}", text).and_then(|()| out.flush());
}

fn main() {
    let mut board = Board::new(3, 3);
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
            Some("game") => {
                // game dots rows=R cols=C
                let params: HashMap<&str, &str> = words
                    .iter()
                    .skip(2)
                    .filter_map(|w| w.split_once('='))
                    .collect();
                let get = |key: &str| params.get(key).and_then(|v| v.parse().ok()).unwrap_or(3);
                board = Board::new(get("rows"), get("cols"));
            }
            // A line drawn by the opening or by the opponent: h x y or v x y.
            Some("played") | Some("opponent") => {
                let kind = if words.get(1) == Some(&"h") { 'h' } else { 'v' };
                board.draw((kind, number(2), number(3)));
            }
            Some("start") => send("ready rust-dots-starter 1.0 multi"),
            Some("turn") => {
                let line = choose_move(&board, &mut seed);
                board.draw(line);
                send(&format!("{} {} {}", line.0, line.1, line.2));
            }
            Some("quit") => return,
            _ => {} // referee, side, time, legal, result: nothing to answer
        }
    }
}
