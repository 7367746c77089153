//! Property tests: whatever text a bot sends or a user types reaches one of the parsers below, and
//! none of them may panic. Where a parser accepts, what it accepted must hold up: a move that
//! parses can be played, and a spec that parses prints back to itself.

use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_cage::console::input::{self, Input};
use referee_cage::limits::Limits;
use referee_core::console_game::SideSpec;
use referee_core::players::PlayerSpec;
use referee_rules::clock::TimeControl;
use referee_rules::games::{AnyGame, GameSpec};
use referee_rules::protocol::{Ready, RefereeMessage, Reply};

/// Any text, including invalid UTF-8 turned into replacement characters as the reader does.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..64)
            .prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        any::<String>(),
    ]
}

/// Text close to the games' notations, where parsers have the most branches.
fn move_like() -> impl Strategy<Value = String> {
    prop_oneof![
        "[-+]?[0-9]{1,3} [-+]?[0-9]{1,3}",
        "[-+]?[0-9]{1,25}[ \t]+[-+]?[0-9]{1,25}",
        "[hvHVx]? ?[-+]?[0-9]{1,3} [-+]?[0-9]{1,3}",
        "[0-9]{1,3}([-x][0-9]{1,3}){0,12}",
        "[0-9x \\-]{0,20}",
        "(resign|draw|[0-9]+ [0-9]+ draw|)",
    ]
}

/// A spec of every game, with a few non-default parameters.
fn specs() -> Vec<GameSpec> {
    [
        ("tictactoe", vec![]),
        ("gomoku", vec!["exact=yes"]),
        ("mnk", vec!["width=7", "height=4", "line=4"]),
        ("uttt", vec![]),
        ("dots", vec!["rows=2", "cols=5"]),
        ("checkers", vec![]),
        ("checkers", vec!["fen=W:WK30,K31:B1,K9"]),
    ]
    .into_iter()
    .map(|(name, params)| GameSpec::from_words(name, &params).unwrap())
    .collect()
}

/// The game of `spec` after `plies` random moves (fewer if it ends), chosen from `seed`.
fn position(spec: &GameSpec, plies: usize, seed: u64) -> Box<dyn AnyGame> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut game = spec.new_game();
    for _ in 0..plies {
        let moves = game.legal_moves_text();
        let Some(mv) = moves.choose(&mut rng) else {
            break;
        };
        game.play_text(mv).unwrap();
    }
    game
}

/// A legal move's text changed a little: spacing, case, a CR, the short form of a jump, a digit
/// replaced, or noise appended.
fn mangle(mv: &str, how: usize, noise: &str) -> String {
    match how {
        1 => mv.to_string(),
        2 => format!("  {}\t", mv.replace(' ', "   ")),
        3 => mv.to_uppercase(),
        4 => match (mv.split('x').next(), mv.rsplit('x').next()) {
            (Some(from), Some(to)) if mv.contains('x') => format!("{from}x{to}"),
            _ => format!("{mv}\r"),
        },
        _ => format!("{mv}{}", noise.chars().take(3).collect::<String>()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn protocol_lines_never_panic(line in any_text()) {
        let _ = RefereeMessage::parse(&line);
        let _ = Ready::parse(&line);
        let _ = Reply::parse(&line);
    }

    #[test]
    fn referee_messages_that_parse_print_back(line in prop_oneof![
        any_text(),
        "(referee|game|side|time|played|opponent|legal|turn|result|offer|start|quit)( [a-z0-9=, :-]{0,30})?",
    ]) {
        if let Ok(message) = RefereeMessage::parse(&line) {
            let printed = message.to_string();
            prop_assert_eq!(RefereeMessage::parse(&printed).unwrap(), message);
        }
    }

    #[test]
    fn moves_that_parse_can_be_played(
        text in prop_oneof![any_text(), move_like()],
        pick in any::<usize>(),
        mutation in 0usize..6,
        plies in 0usize..40,
        seed in any::<u64>(),
    ) {
        for spec in specs() {
            let game = position(&spec, plies, seed);
            // Half the texts are a legal move of this position, as written or mangled a little.
            let legal = game.legal_moves_text();
            let tried = match legal.get(pick % legal.len().max(1)) {
                Some(mv) if mutation > 0 => mangle(mv, mutation, &text),
                _ => text.clone(),
            };
            let mut copy = game.boxed_clone();
            if let Ok(canonical) = copy.play_text(&tried) {
                // The canonical form names the same move, and it is one of the legal moves.
                let mut again = game.boxed_clone();
                prop_assert_eq!(again.play_text(&canonical).unwrap(), canonical.clone());
                prop_assert!(legal.contains(&canonical), "{}: {:?} -> {}", spec, tried, canonical);
            }
        }
    }

    #[test]
    fn game_specs_never_panic_and_print_back(
        name in prop_oneof![
            Just("tictactoe".to_string()), Just("gomoku".to_string()), Just("mnk".to_string()),
            Just("uttt".to_string()), Just("dots".to_string()), Just("checkers".to_string()),
            any_text(),
        ],
        words in proptest::collection::vec(prop_oneof![
            "(size|width|height|line|exact|tiebreak|rows|cols|fen|repetition|moverule)=[-a-zW0-9:,K ]{0,12}",
            any_text(),
        ], 0..4),
    ) {
        if let Ok(spec) = GameSpec::from_words(&name, &words) {
            let printed = spec.to_string();
            let mut parts = printed.split(' ');
            let name = parts.next().unwrap();
            let rest: Vec<&str> = parts.collect();
            prop_assert_eq!(GameSpec::from_words(name, &rest).unwrap(), spec.clone());
            // Every accepted spec starts a game with a legal move.
            prop_assert!(!spec.new_game().legal_moves_text().is_empty() || spec.new_game().outcome().is_some());
        }
    }

    #[test]
    fn time_limits_and_player_specs_never_panic(text in prop_oneof![
        any_text(),
        "((move|bank|increment|first|memory|cpu|processes|filesize|files)=[-0-9a-z]{0,22},?){0,4}",
        "builtin:[a-z0-9]{0,8}",
    ]) {
        let _ = TimeControl::parse_over(TimeControl::default(), &text);
        let _ = Limits::parse_over(Limits::default(), &text);
        let _ = PlayerSpec::parse(&text);
        let _ = SideSpec::parse(&text);
    }

    #[test]
    fn what_a_person_types_at_the_console_never_panics(
        text in prop_oneof![
            any_text(),
            move_like(),
            "[a-zA-Z][0-9]{1,22}( ?-? ?[a-zA-Z][0-9]{1,22})?( draw)?",
            "[0-9]{1,4}( [0-9]{1,4})?( draw)?",
        ],
        plies in 0usize..40,
        seed in any::<u64>(),
    ) {
        for spec in specs() {
            let game = position(&spec, plies, seed);
            // A move the console accepts is sent only once the rules have played it on a copy.
            if let Input::Move { notation, .. } = input::read(&spec, game.as_ref(), &text) {
                let _ = game.boxed_clone().play_text(&notation);
            }
        }
    }
}
