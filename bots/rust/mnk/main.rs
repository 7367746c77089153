//! Starter bot for m,n,k games (tic-tac-toe, gomoku, any `mnk` board) in Rust, standard
//! library only.
//!
//! It speaks protocol 1 of the referee (protocol.md at the root of the repository) on stdin
//! and stdout, keeps its own board, and plays: a winning square if it has one; else a square
//! that blocks the opponent's win; else an empty square next to a mark (the centre on an empty
//! board), picked by a small random generator. Change `choose_move` and keep the rest.
//!
//! Build and check it (the contest's Rust profile builds it the same way):
//!     rustc --edition 2021 -O -o main main.rs
//!     referee check tictactoe ./main
//!
//! Rules of the protocol this file relies on: stdout holds protocol lines only, each flushed at
//! once (see `send`); debug output goes to stderr (`eprintln!`); `start` is answered with
//! `ready NAME VERSION multi`, each `turn` with one move `x y`; the bot exits on `quit` or at
//! the end of its input.
use std::collections::HashMap;
use std::io::{self, BufRead, Write};

struct Board {
    width: i32,
    height: i32,
    line: i32,
    exact: bool,    // only a line of exactly `line` marks wins
    cells: Vec<u8>, // cells[y * width + x]: 0 empty, 1 first player, 2 second
    moves: usize,
}

impl Board {
    fn on(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }
    fn at(&self, x: i32, y: i32) -> u8 {
        self.cells[(y * self.width + x) as usize]
    }
    fn place(&mut self, x: i32, y: i32, mark: u8) {
        if !self.on(x, y) || self.at(x, y) != 0 {
            eprintln!("warning: cannot place {x} {y}");
            return;
        }
        self.cells[(y * self.width + x) as usize] = mark;
        self.moves += 1;
    }
    /// Would `mark` on the empty square (x, y) complete a winning line?
    fn wins(&self, x: i32, y: i32, mark: u8) -> bool {
        [(1, 0), (0, 1), (1, 1), (-1, 1)].iter().any(|&(dx, dy)| {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut cx, mut cy) = (x + sign * dx, y + sign * dy);
                while self.on(cx, cy) && self.at(cx, cy) == mark {
                    run += 1;
                    cx += sign * dx;
                    cy += sign * dy;
                }
            }
            run == self.line || (run > self.line && !self.exact)
        })
    }
    fn near_mark(&self, x: i32, y: i32) -> bool {
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                (dx, dy) != (0, 0) && self.on(x + dx, y + dy) && self.at(x + dx, y + dy) != 0
            })
        })
    }
}

/// The function to improve: `board` is up to date; return an empty square.
fn choose_move(board: &Board, me: u8, seed: &mut u64) -> (i32, i32) {
    let mut empty = Vec::new();
    for y in 0..board.height {
        for x in 0..board.width {
            if board.at(x, y) == 0 {
                empty.push((x, y));
            }
        }
    }
    if let Some(&square) = empty.iter().find(|&&(x, y)| board.wins(x, y, me)) {
        return square;
    }
    if let Some(&square) = empty.iter().find(|&&(x, y)| board.wins(x, y, 3 - me)) {
        return square;
    }
    // A xorshift generator: enough to vary the games.
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let near: Vec<(i32, i32)> = empty
        .iter()
        .copied()
        .filter(|&(x, y)| board.near_mark(x, y))
        .collect();
    if !near.is_empty() {
        return near[(*seed % near.len() as u64) as usize];
    }
    let centre = (board.width / 2, board.height / 2);
    if board.at(centre.0, centre.1) == 0 {
        return centre;
    }
    empty[(*seed % empty.len() as u64) as usize]
}

fn send(text: &str) {
    let mut out = io::stdout().lock();
    // An answer left in a buffer loses on time: flush every line.
    let _ = writeln!(out, "{text}").and_then(|()| out.flush());
}

fn main() {
    let mut board = Board {
        width: 3,
        height: 3,
        line: 3,
        exact: false,
        cells: vec![0; 9],
        moves: 0,
    };
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
                .and_then(|w| w.parse::<i32>().ok())
                .unwrap_or(-1)
        };
        match words.first().copied() {
            Some("game") => {
                // game NAME width=W height=H line=K exact=yes|no
                let params: HashMap<&str, &str> = words
                    .iter()
                    .skip(2)
                    .filter_map(|w| w.split_once('='))
                    .collect();
                let get = |key: &str| params.get(key).and_then(|v| v.parse().ok()).unwrap_or(3);
                board = Board {
                    width: get("width"),
                    height: get("height"),
                    line: get("line"),
                    exact: params.get("exact") == Some(&"yes"),
                    cells: vec![0; (get("width") * get("height")) as usize],
                    moves: 0,
                };
            }
            Some("side") => me = if words.get(1) == Some(&"first") { 1 } else { 2 },
            // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
            Some("played") => {
                let mark = (board.moves % 2 + 1) as u8;
                board.place(number(1), number(2), mark);
            }
            Some("opponent") => board.place(number(1), number(2), 3 - me),
            Some("start") => send("ready rust-mnk-starter 1.0 multi"),
            Some("turn") => {
                let (x, y) = choose_move(&board, me, &mut seed);
                board.place(x, y, me);
                send(&format!("{x} {y}"));
            }
            Some("quit") => return,
            _ => {} // referee, time, legal, result: nothing to answer
        }
    }
}
