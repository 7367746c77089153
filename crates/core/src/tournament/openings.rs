//! Openings for fairness: cycle `c` of a tournament plays opening `c` in every pairing, once
//! with each colour, so no player owes a result to the luck of the start.
//!
//! Two sources. An openings file holds one opening per line, written as `--opening` takes it
//! (see [`opening_moves`]: the game's notation, checkers ballots, Gomocup's offsets).
//! `#` starts a comment; blank lines are skipped. The deck is shuffled by the tournament's seed
//! unless its file order is asked for, and starts over when the cycles outnumber it.
//! Or random openings: `plies` uniformly random legal moves, drawn again until they leave the
//! game going, from a generator seeded by the tournament's seed and the cycle.

use crate::arbiter::play_opening;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use referee_records::input_files::{read_text, MAX_INPUT_FILE};
use referee_rules::games::{opening_moves, GameSpec};
use referee_rules::seeded::SeededRng;
use std::path::Path;

/// How many times a random opening is drawn before the referee gives up on the ply count.
const RANDOM_ATTEMPTS: u32 = 1000;

/// In which order a deck is used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeckOrder {
    /// Shuffled by the tournament's seed.
    #[default]
    Random,
    /// As written in the file.
    File,
}

/// Where each cycle's opening comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Every game from the game's start.
    None,
    /// Openings from a file, in canonical notation, in the order they are used.
    Deck {
        description: String,
        openings: Vec<Vec<String>>,
    },
    /// `plies` random moves.
    Random { plies: u32, seed: u64 },
}

/// An openings file or setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningsError {
    #[error("cannot read the openings file {path}: {message}")]
    Unreadable { path: String, message: String },
    #[error("openings file {path}, line {line}: {message}")]
    BadLine {
        path: String,
        line: usize,
        message: String,
    },
    #[error("openings file {0} holds no opening")]
    Empty(String),
    #[error("no random opening of {plies} plies leaves a {game} game going (tried {RANDOM_ATTEMPTS} times); use fewer plies")]
    TooManyPlies { plies: u32, game: String },
}

impl Openings {
    /// Reads and checks every opening of `path` (each must be legal and leave the game going).
    pub fn from_file(
        path: &Path,
        spec: &GameSpec,
        order: DeckOrder,
        seed: u64,
    ) -> Result<Openings, OpeningsError> {
        let shown = path.display().to_string();
        let text = read_text(path, MAX_INPUT_FILE).map_err(|e| OpeningsError::Unreadable {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        let mut openings = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let bad = |message: String| OpeningsError::BadLine {
                path: shown.clone(),
                line: number + 1,
                message,
            };
            let Some(moves) = split_line(line, spec) else {
                continue;
            };
            let (_, canonical) = play_opening(spec, &moves).map_err(|e| bad(e.to_string()))?;
            openings.push(canonical);
        }
        if openings.is_empty() {
            return Err(OpeningsError::Empty(shown));
        }
        if order == DeckOrder::Random {
            openings.shuffle(&mut SeededRng::seed_from_u64(seed));
        }
        let description = format!(
            "{shown} ({} openings, {} order)",
            openings.len(),
            match order {
                DeckOrder::Random => "random",
                DeckOrder::File => "file",
            }
        );
        Ok(Openings::Deck {
            description,
            openings,
        })
    }

    /// Random openings of `plies` moves, checked by drawing the first one.
    pub fn random(plies: u32, seed: u64, spec: &GameSpec) -> Result<Openings, OpeningsError> {
        let openings = Openings::Random { plies, seed };
        openings.for_cycle(spec, 0)?;
        Ok(openings)
    }

    /// The opening of cycle `cycle`, in canonical notation.
    pub fn for_cycle(&self, spec: &GameSpec, cycle: u64) -> Result<Vec<String>, OpeningsError> {
        match self {
            Openings::None => Ok(Vec::new()),
            Openings::Deck { openings, .. } => {
                Ok(openings[(cycle % openings.len() as u64) as usize].clone())
            }
            Openings::Random { plies, seed } => random_opening(spec, *plies, *seed, cycle),
        }
    }

    /// What the journal records to recognise these openings on `--resume`.
    pub fn description(&self) -> String {
        match self {
            Openings::None => "none".into(),
            Openings::Deck { description, .. } => description.clone(),
            Openings::Random { plies, .. } => format!("random, {plies} plies"),
        }
    }
}

/// The moves of one line, or `None` for a blank or comment line.
fn split_line(line: &str, spec: &GameSpec) -> Option<Vec<String>> {
    let moves = opening_moves(spec, line.split('#').next().unwrap_or(""));
    (!moves.is_empty()).then_some(moves)
}

fn random_opening(
    spec: &GameSpec,
    plies: u32,
    seed: u64,
    cycle: u64,
) -> Result<Vec<String>, OpeningsError> {
    let mut rng =
        SeededRng::seed_from_u64(seed.wrapping_add(cycle.wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    'attempt: for _ in 0..RANDOM_ATTEMPTS {
        let mut game = spec.new_game();
        // Not sized by `plies`: a file may ask for billions, and no game lasts that long.
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = game.legal_moves_text();
            if legal.is_empty() || game.outcome().is_some() {
                continue 'attempt;
            }
            let choice = &legal[rng.gen_range(0..legal.len())];
            let Ok(played) = game.play_text(choice) else {
                continue 'attempt;
            };
            moves.push(played);
            if game.outcome().is_some() {
                continue 'attempt;
            }
        }
        return Ok(moves);
    }
    Err(OpeningsError::TooManyPlies {
        plies,
        game: spec.name().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(game: &str) -> GameSpec {
        GameSpec::from_words::<&str>(game, &[]).unwrap()
    }

    fn deck(text: &str, game: &str) -> Result<Openings, OpeningsError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, text).unwrap();
        Openings::from_file(&path, &spec(game), DeckOrder::File, 1)
    }

    #[test]
    fn a_gomocup_openings_file_is_read_as_it_is_published() {
        let openings = deck("# Gomocup offsets\n0,0, 1,0, 1,1\n-1,-1, 0,1\n", "gomoku").unwrap();
        assert_eq!(
            openings.for_cycle(&spec("gomoku"), 0).unwrap(),
            ["7 7", "8 7", "8 8"]
        );
        assert_eq!(
            openings.for_cycle(&spec("gomoku"), 1).unwrap(),
            ["6 6", "7 8"]
        );
        let off_board = deck("8,0\n", "gomoku").unwrap_err().to_string();
        assert!(off_board.contains("line 1"), "{off_board}");
    }

    #[test]
    fn the_checkers_deck_loads_as_it_is() {
        let path = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../openings/checkers-3move.txt"
        ));
        let openings = Openings::from_file(path, &spec("checkers"), DeckOrder::File, 1).unwrap();
        let Openings::Deck { openings: list, .. } = &openings else {
            panic!("a deck");
        };
        assert_eq!(list.len(), 157);
        assert_eq!(list[0], ["9-13", "21-17", "5-9"]);
        assert_eq!(openings.for_cycle(&spec("checkers"), 157).unwrap(), list[0]);
        assert!(openings.description().contains("157 openings, file order"));
        let shuffled = Openings::from_file(path, &spec("checkers"), DeckOrder::Random, 7).unwrap();
        let again = Openings::from_file(path, &spec("checkers"), DeckOrder::Random, 7).unwrap();
        assert_eq!(shuffled, again, "the seed decides the order");
        assert_ne!(
            shuffled.for_cycle(&spec("checkers"), 0),
            openings.for_cycle(&spec("checkers"), 0)
        );
    }

    #[test]
    fn comma_separated_lines_and_one_move_lines() {
        let openings = deck("# gomoku openings\n7 7,8 8\n\n7 7 # the centre\n", "gomoku").unwrap();
        let gomoku = spec("gomoku");
        assert_eq!(openings.for_cycle(&gomoku, 0).unwrap(), ["7 7", "8 8"]);
        assert_eq!(openings.for_cycle(&gomoku, 1).unwrap(), ["7 7"]);
        let checkers = deck("11-15, 23-19\n", "checkers").unwrap();
        assert_eq!(
            checkers.for_cycle(&spec("checkers"), 0).unwrap(),
            ["11-15", "23-19"]
        );
    }

    #[test]
    fn bad_decks_name_the_line() {
        let error = deck("7 7,8 8\n7 7,7 7\n", "gomoku")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("line 2") && error.contains("opening move 2"),
            "{error}"
        );
        let error = deck("0 0,1 0,0 1,1 1,0 2\n", "tictactoe")
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("ends the game: an opening must leave it going"),
            "{error}"
        );
        let error = deck("# nothing\n\n", "tictactoe").unwrap_err().to_string();
        assert!(error.contains("holds no opening"), "{error}");
        let error = Openings::from_file(
            Path::new("/no/such/deck"),
            &spec("uttt"),
            DeckOrder::File,
            1,
        )
        .unwrap_err()
        .to_string();
        assert!(
            error.contains("cannot read the openings file /no/such/deck"),
            "{error}"
        );
    }

    #[test]
    fn random_openings_are_legal_reproducible_and_vary_by_cycle() {
        let uttt = spec("uttt");
        let openings = Openings::random(6, 42, &uttt).unwrap();
        let first = openings.for_cycle(&uttt, 0).unwrap();
        assert_eq!(first.len(), 6);
        assert!(play_opening(&uttt, &first).is_ok());
        assert_eq!(first, openings.for_cycle(&uttt, 0).unwrap());
        let distinct: std::collections::BTreeSet<Vec<String>> = (0..10)
            .map(|c| openings.for_cycle(&uttt, c).unwrap())
            .collect();
        assert!(distinct.len() > 5, "{distinct:?}");
        // Tic-tac-toe cannot be played 9 plies deep without ending.
        let error = Openings::random(9, 1, &spec("tictactoe")).unwrap_err();
        assert!(error.to_string().contains("use fewer plies"), "{error}");
        let error = Openings::random(u32::MAX, 1, &spec("tictactoe")).unwrap_err();
        assert!(error.to_string().contains("use fewer plies"), "{error}");
    }
}
