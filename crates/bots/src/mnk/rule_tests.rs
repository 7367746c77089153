//! The built-in bots under renju: no level ever plays a forbidden point, and the strong bot
//! wins with a four that Black could only block on one.

use super::{GreedyBrain, StrongBrain};
use crate::random::RandomBrain;
use crate::{Brain, Budget};
use referee_rules::games::mnk::Mnk;
use referee_rules::games::{Game, GameSpec, Side};

fn renju() -> Mnk {
    Mnk::new(
        GameSpec::from_words("gomoku", &["rule=renju"])
            .unwrap()
            .mnk_params()
            .unwrap(),
    )
}

fn play(game: &mut Mnk, moves: &[&str]) {
    for mv in moves {
        let square = game.parse_move(mv).unwrap();
        game.play(square).unwrap();
    }
}

/// Black: a two across and a two down meeting at 7 7 (a double three there), and stones on
/// 6 6 and 12 12 that cap White's diagonal 8 8 - 10 10; White to move. White's 11 11 makes a
/// four whose only open end is 7 7, forbidden to Black: a win in renju only.
fn white_to_exploit() -> Mnk {
    let mut game = renju();
    play(
        &mut game,
        &[
            "5 7", "8 8", "6 7", "9 9", "7 5", "10 10", "7 6", "0 14", "6 6", "2 14", "12 12",
        ],
    );
    game
}

fn brains(seed: u64) -> Vec<(&'static str, Box<dyn Brain<Mnk>>)> {
    vec![
        ("random", Box::new(RandomBrain::new(seed))),
        ("greedy", Box::new(GreedyBrain::new(seed))),
        ("strong", Box::new(StrongBrain::new(seed))),
    ]
}

#[test]
fn strong_wins_with_a_four_black_can_only_block_on_a_forbidden_point() {
    let mut game = white_to_exploit();
    let choice = StrongBrain::new(1).choose(&game, &Budget::nodes(20_000));
    assert_eq!(game.format_move(choice), "11 11");
    game.play(choice).unwrap();
    // Black's only block is forbidden: every level plays elsewhere, and White then wins.
    assert!(game.forbidden(game.square(7, 7)).is_some());
    for (name, mut brain) in brains(2) {
        let reply = brain.choose(&game, &Budget::nodes(20_000));
        assert_ne!(game.format_move(reply), "7 7", "{name}");
        assert!(game.forbidden(reply).is_none(), "{name}");
    }
}

/// Games between every pair of levels, the strong bot's moves bounded by positions visited (so
/// the games do not depend on the machine's speed): Black never plays a forbidden point.
#[test]
fn no_level_plays_a_forbidden_point() {
    for seed in 0..2 {
        for black in 0..3 {
            for white in 0..3 {
                let mut players = [
                    brains(seed).swap_remove(black).1,
                    brains(seed + 7).swap_remove(white).1,
                ];
                let mut game = renju();
                while Game::outcome(&game).is_none() {
                    let side = Game::side_to_move(&game).index();
                    let budget = Budget::nodes(3000);
                    let choice = players[side].choose(&game, &budget);
                    if side == Side::First.index() {
                        assert_eq!(game.forbidden(choice), None, "\n{}", game.render());
                    }
                    game.play(choice).unwrap();
                }
            }
        }
    }
}
