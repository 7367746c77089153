//! A match: games between two players with the sides alternating, played one after another at
//! one [`Table`] (so the bots' processes are started, reused when they declared `multi`, and
//! cleaned up exactly as in a tournament), for a number of games or until an SPRT decides.

use crate::standings::sprt::{Decision, Pairing, SprtSpec};
use crate::table::{check_players, FinishedGame, GameError, Player, ScheduledGame, Table, Venue};
use referee_cage::supervisor::Supervisor;
use std::ops::ControlFlow;

/// Everything `referee match` needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// What every game of the match shares: rules, processes, records.
    pub venue: Venue,
    /// Player A, player B (A moves first in odd-numbered games).
    pub players: [Player; 2],
    /// Moves played before the bots take over, in every game.
    pub opening: Vec<String>,
    /// Number of games; `None` plays until `on_game` breaks.
    pub games: Option<u32>,
}

/// What the two players of a match are called in its records and output.
pub const LABELS: [&str; 2] = ["A", "B"];

/// Refuses a bad opening, a game a player's protocol cannot express, or a player that cannot
/// start, before any bot is started.
pub fn check_match(config: &MatchConfig) -> Result<(), GameError> {
    check_players(&config.venue, &config.players, &config.opening)
}

/// Plays the match with bots started by `supervisor`, calling `on_game` after each game that
/// counts (it may stop the match) and `on_replay` after each game that will be played again.
pub fn run_match(
    config: &MatchConfig,
    supervisor: &Supervisor,
    on_game: impl FnMut(&FinishedGame) -> ControlFlow<()>,
    mut on_replay: impl FnMut(&FinishedGame),
) -> Result<(), GameError> {
    check_match(config)?;
    let mut table = Table::new(supervisor);
    each_game(
        config.games,
        |number| {
            let first = ((number - 1) % 2) as usize;
            let game = ScheduledGame {
                number,
                seats: [first, 1 - first],
                opening: config.opening.clone(),
            };
            table.play(&config.venue, &config.players, &game, &mut on_replay)
        },
        on_game,
    )
}

/// Plays the match, under an SPRT when `sprt` is given: game pairs (sides swapped) until the
/// test decides, `config.games` capping them. `on_game` hears of each game that counts, with
/// the score so far (and whether the game completed a pair); `on_replay` of each game played
/// again.
pub fn play_match(
    config: &MatchConfig,
    supervisor: &Supervisor,
    sprt: Option<SprtSpec>,
    mut on_game: impl FnMut(&FinishedGame, &MatchScore, bool),
    on_replay: impl FnMut(&FinishedGame),
) -> Result<MatchScore, GameError> {
    let mut score = MatchScore::new(sprt);
    run_match(
        config,
        supervisor,
        |game| {
            let completed_pair = score.count(game.winner());
            on_game(game, &score, completed_pair);
            score.flow()
        },
        on_replay,
    )?;
    Ok(score)
}

/// Plays games numbered from 1 until `games` were played or `on_game` breaks; apart from how a
/// game is played, so that tests can feed the match made-up results.
fn each_game<G, E>(
    games: Option<u32>,
    mut play: impl FnMut(u32) -> Result<G, E>,
    mut on_game: impl FnMut(&G) -> ControlFlow<()>,
) -> Result<(), E> {
    for number in 1u32.. {
        if games.is_some_and(|games| number > games) {
            break;
        }
        if on_game(&play(number)?).is_break() {
            break;
        }
    }
    Ok(())
}

/// Wins, draws and points of A and B over a match.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MatchTally {
    /// Games each player won, A then B.
    pub wins: [u32; 2],
    /// Games drawn, worth half a point to each.
    pub draws: u32,
}

impl MatchTally {
    /// Counts a game by the player who won it (`None`: a draw).
    pub fn add(&mut self, winner: Option<usize>) {
        match winner {
            None => self.draws += 1,
            Some(player) => self.wins[player] += 1,
        }
    }

    /// Each player's points, A then B: a win is one, a draw a half.
    pub fn points(&self) -> [f64; 2] {
        let half = self.draws as f64 / 2.0;
        [self.wins[0] as f64 + half, self.wins[1] as f64 + half]
    }
}

/// The SPRT of a match, A being the player under test.
#[derive(Clone, Debug)]
pub struct MatchTest {
    /// The hypotheses and error rates tested.
    pub spec: SprtSpec,
    /// The log-likelihood ratio after the last complete pair (0 before the first).
    pub llr: f64,
    /// What the test says after the last complete pair.
    pub decision: Decision,
}

/// A match's score as its games come in: the games, A's game pairs (games 1 and 2, 3 and 4,
/// ..., each pair playing both sides, so that the first player's advantage cancels), and the
/// SPRT if the match has one.
#[derive(Clone, Debug)]
pub struct MatchScore {
    /// Wins and draws over every game counted.
    pub tally: MatchTally,
    /// A's games in pairs, as the SPRT counts them.
    pub pairing: Pairing,
    /// The SPRT and where it stands; `None` when the match plays a fixed number of games.
    pub sprt: Option<MatchTest>,
}

impl MatchScore {
    /// The score before any game, under the SPRT `sprt` when there is one.
    pub fn new(sprt: Option<SprtSpec>) -> MatchScore {
        MatchScore {
            tally: MatchTally::default(),
            pairing: Pairing::default(),
            sprt: sprt.map(|spec| MatchTest {
                spec,
                llr: 0.0,
                decision: Decision::Continue,
            }),
        }
    }

    /// Counts a game by the player who won it (`None`: a draw); true when the game completed
    /// a pair (and so moved the SPRT, if there is one).
    pub fn count(&mut self, winner: Option<usize>) -> bool {
        self.tally.add(winner);
        let points_a = match winner {
            None => 0.5,
            Some(player) => f64::from(u8::from(player == 0)),
        };
        if !self.pairing.add_game(points_a) {
            return false;
        }
        if let Some(sprt) = &mut self.sprt {
            sprt.llr = sprt.spec.llr(&self.pairing.pairs);
            sprt.decision = sprt.spec.decide(sprt.llr);
        }
        true
    }

    /// Whether the match goes on: until its SPRT, if it has one, decides.
    pub fn flow(&self) -> ControlFlow<()> {
        match &self.sprt {
            Some(sprt) if sprt.decision != Decision::Continue => ControlFlow::Break(()),
            _ => ControlFlow::Continue(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standings::sprt::Pentanomial;
    use std::convert::Infallible;

    /// Plays a match of made-up results (each game's winner from `winner`, by game number)
    /// as `play_match` does; returns the score and the number of pairs reported.
    fn fake_match(
        games: Option<u32>,
        sprt: &str,
        winner: impl Fn(u32) -> Option<usize>,
    ) -> (MatchScore, u32) {
        let mut score = MatchScore::new(Some(sprt.parse().unwrap()));
        let mut pairs = 0;
        each_game(
            games,
            |number| Ok::<_, Infallible>(winner(number)),
            |&winner| {
                pairs += u32::from(score.count(winner));
                score.flow()
            },
        )
        .unwrap();
        (score, pairs)
    }

    #[test]
    fn the_match_stops_when_the_sprt_decides() {
        // A wins every game: a clear H1 for 200 Elo over 0 after a handful of pairs.
        let (score, pairs) = fake_match(Some(1000), "elo0=0,elo1=200", |_| Some(0));
        let sprt = score.sprt.unwrap();
        assert_eq!(sprt.decision, Decision::H1);
        assert_eq!(
            score.tally.wins,
            [2 * pairs, 0],
            "stopped on a complete pair"
        );
        assert!((2..20).contains(&pairs), "{pairs} pairs");
        assert_eq!(score.pairing.pairs.pairs(), u64::from(pairs));
        assert_eq!(sprt.llr, sprt.spec.llr(&score.pairing.pairs));

        // The first player always wins: every pair is even, not the 200 Elo of H1.
        let (score, _) = fake_match(None, "elo0=0,elo1=200", |n| Some(((n - 1) % 2) as usize));
        assert_eq!(score.sprt.unwrap().decision, Decision::H0);
    }

    #[test]
    fn the_games_cap_an_undecided_sprt() {
        let (score, pairs) = fake_match(Some(7), "elo0=0,elo1=5", |_| None);
        assert_eq!(score.tally.draws, 7);
        assert_eq!(pairs, 3, "the seventh game is half a pair");
        assert!(score.pairing.has_unpaired_game());
        let sprt = score.sprt.unwrap();
        assert_eq!(sprt.decision, Decision::Continue);
        assert_eq!(sprt.llr, sprt.spec.llr(&score.pairing.pairs));
    }

    #[test]
    fn without_an_sprt_every_game_is_played_and_paired() {
        let mut score = MatchScore::new(None);
        let mut played = 0;
        each_game(Some(5), Ok::<_, Infallible>, |&number| {
            played = number;
            // A wins the odd games, where it moves first, and draws the even ones.
            score.count((number % 2 == 1).then_some(0));
            score.flow()
        })
        .unwrap();
        assert_eq!(
            (played, score.tally.wins, score.tally.draws),
            (5, [3, 0], 2)
        );
        assert_eq!(score.pairing.pairs, Pentanomial([0, 0, 0, 2, 0]));
        assert!(score.pairing.has_unpaired_game());
        assert!(score.sprt.is_none());
    }
}
