//! Renju's forbidden points as the referee judges them, written out to be compared with another
//! judge's: `tools/renju-compare.py` compares them with GomocupJudge's check (Piskvork's logic,
//! which Gomocup's renju tournaments apply) on every empty point. Not a measure of speed: a
//! bench so that it builds with the workspace and needs nothing outside it.
//!
//! `cargo bench --profile dev --bench renju_judges -- [random N] [dense N] [seed S] [games FILE]`
//!
//! - `random N`: N seeded random renju games, each move a legal point within two of the last
//!   move, as games are played;
//! - `dense N`: N seeded random games played inside the central 9x9 square, so that stones
//!   crowd and threes and fours cross;
//! - `games FILE`: games given as lines of moves (`7 7,8 8,...`), such as self-play records.
//!
//! Every position of those games with Black to move (before the game ended) is written as one
//! line: the moves that lead to it, comma-separated, a tab, and the points forbidden to Black,
//! comma-separated (every empty point that is not a legal move of Black's: the referee leaves
//! them out of Black's moves).

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha12Rng;
use referee_rules::games::{AnyGame, GameSpec, Side};
use std::collections::HashSet;
use std::io::{BufWriter, Write};

/// The board's side (gomoku, the renju board).
const SIZE: i32 = 15;

/// How a generated game picks its moves.
#[derive(Clone, Copy)]
enum Style {
    /// Near the last move, within two points.
    Random,
    /// Anywhere in the central 9x9 square.
    Dense,
}

fn xy(text: &str) -> (i32, i32) {
    let mut words = text
        .split(' ')
        .map(|w| w.parse::<i32>().expect("a coordinate"));
    (words.next().expect("x"), words.next().expect("y"))
}

/// Whether `mv` may be played in a game of `style`, after `last`.
fn fits(style: Style, mv: &str, last: Option<&String>) -> bool {
    let (x, y) = xy(mv);
    match (style, last) {
        (Style::Dense, _) => (3..12).contains(&x) && (3..12).contains(&y),
        (Style::Random, None) => true,
        (Style::Random, Some(last)) => {
            let (lx, ly) = xy(last);
            (x - lx).abs() <= 2 && (y - ly).abs() <= 2
        }
    }
}

/// A seeded random game of `style`, as its moves.
fn generated(style: Style, seed: u64) -> Vec<String> {
    let spec = GameSpec::from_words("gomoku", &["rule=renju"]).expect("renju");
    let mut rng = ChaCha12Rng::seed_from_u64(seed);
    let mut game = spec.new_game();
    let mut moves: Vec<String> = Vec::new();
    while game.outcome().is_none() {
        let legal = game.legal_moves_text();
        let fitting: Vec<&String> = legal
            .iter()
            .filter(|mv| fits(style, mv, moves.last()))
            .collect();
        let Some(choice) = fitting.choose(&mut rng) else {
            break;
        };
        let choice = (*choice).clone();
        game.play_text(&choice).expect("a legal move");
        moves.push(choice);
    }
    moves
}

/// Writes every position of `moves` with Black to move, with Black's forbidden points.
fn write_positions(out: &mut impl Write, moves: &[String]) -> std::io::Result<()> {
    let spec = GameSpec::from_words("gomoku", &["rule=renju"]).expect("renju");
    let mut game: Box<dyn AnyGame> = spec.new_game();
    for played in 0..=moves.len() {
        if game.outcome().is_some() {
            break;
        }
        if game.side_to_move() == Side::First && played > 0 {
            let taken: HashSet<&str> = moves[..played].iter().map(String::as_str).collect();
            let legal: HashSet<String> = game.legal_moves_text().into_iter().collect();
            let forbidden: Vec<String> = (0..SIZE)
                .flat_map(|y| (0..SIZE).map(move |x| format!("{x} {y}")))
                .filter(|point| !taken.contains(point.as_str()) && !legal.contains(point))
                .collect();
            writeln!(
                out,
                "{}\t{}",
                moves[..played].join(","),
                forbidden.join(",")
            )?;
        }
        let Some(mv) = moves.get(played) else { break };
        if game.play_text(mv).is_err() {
            break;
        }
    }
    Ok(())
}

fn main() -> std::io::Result<()> {
    // `cargo bench` passes `--bench` to a bench without the harness: not ours.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let mut games: Vec<Vec<String>> = Vec::new();
    let mut seed = 0u64;
    let number =
        |value: Option<&String>| -> u64 { value.and_then(|v| v.parse().ok()).expect("a number") };
    let mut words = args.iter();
    while let Some(word) = words.next() {
        match word.as_str() {
            "seed" => seed = number(words.next()),
            "random" | "dense" => {
                let style = if word == "random" {
                    Style::Random
                } else {
                    Style::Dense
                };
                for game in 0..number(words.next()) {
                    games.push(generated(style, seed * 1_000_003 + game));
                }
            }
            "games" => {
                let file = words.next().expect("a file of games");
                for line in std::fs::read_to_string(file)?.lines() {
                    games.push(line.split(',').map(str::to_string).collect());
                }
            }
            other => panic!("unknown argument '{other}': random N, dense N, seed S, games FILE"),
        }
    }
    let mut out = BufWriter::new(std::io::stdout().lock());
    for moves in &games {
        write_positions(&mut out, moves)?;
    }
    out.flush()
}
