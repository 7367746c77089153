//! Standings, recomputed from finished games alone (a tournament's journal is enough): points
//! (1 for a win, ½ for a draw), wins, draws and losses, losses by forfeit (timeouts, illegal
//! moves, crashes), the tie-breaks, a crosstable, and Elo ratings with their uncertainty.
//!
//! Players are ranked by score (points per game: in a gauntlet the challengers play many more
//! games than the field, and in a run still under way some players have played more than
//! others, so total points would mislead), then, among players level on score, by the points
//! they scored against each other (head-to-head), then by Sonneborn-Berger (the points of
//! every opponent, weighted by the points scored against it), then by Buchholz (the points of
//! every opponent, once per game against it), then by wins, then by name. A
//! gauntlet also gets each challenger's results against each opponent, with the Elo difference
//! they show.

mod cholesky;
mod crosstable;
mod meetings;
pub(crate) mod ratings;
pub mod render;
pub mod sprt;

pub use crosstable::{Crosstable, Encounter};
use meetings::Meetings;
use ratings::{estimate_elo, EloEstimate, Meeting, Ratings, DEFAULT_PRIOR_DRAWS};
use referee_rules::games::Side;
use referee_rules::verdict::{ForfeitColumn, Termination};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// One game as the standings need it.
#[derive(Clone, Copy, Debug)]
pub struct ScoredGame<'a> {
    /// Who played the first side.
    pub first: &'a str,
    /// Who played the second side.
    pub second: &'a str,
    /// The side that won; `None` for a draw.
    pub winner: Option<Side>,
    /// How the game ended, to count losses by forfeit.
    pub reason: Termination,
}

#[derive(Clone, Debug, Default)]
struct PlayerTally {
    wins: u32,
    draws: u32,
    losses: u32,
    /// Losses by timeout, illegal move, crash.
    forfeits: [u32; 3],
}

impl PlayerTally {
    fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game; 0 before any game.
    fn score(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            games => self.points() / games as f64,
        }
    }
}

/// Results accumulated game by game; players are known by name.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    names: Vec<String>,
    index: HashMap<String, usize>,
    players: Vec<PlayerTally>,
    /// Shared with the crosstables of the standings made so far (copied only if a game is
    /// added while one of them is kept).
    meetings: Arc<Meetings>,
    /// A gauntlet's challengers, by index (none for a round robin).
    challengers: Vec<usize>,
}

impl Tally {
    /// No player and no game yet.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Makes `name` known (a player with no game yet still gets a row).
    pub fn enter(&mut self, name: &str) -> usize {
        if let Some(&at) = self.index.get(name) {
            return at;
        }
        self.names.push(name.to_string());
        self.players.push(PlayerTally::default());
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// Makes `name` a gauntlet challenger: the standings show its results against each
    /// opponent.
    pub fn enter_challenger(&mut self, name: &str) {
        let at = self.enter(name);
        if !self.challengers.contains(&at) {
            self.challengers.push(at);
        }
    }

    /// Adds a finished game, entering its players if they are new.
    pub fn add(&mut self, game: ScoredGame<'_>) {
        let seats = [self.enter(game.first), self.enter(game.second)];
        self.add_between(seats, game.winner, game.reason);
    }

    /// Adds a game between the players [`Tally::enter`] gave these indices (first, second).
    pub fn add_between(&mut self, seats: [usize; 2], winner: Option<Side>, reason: Termination) {
        for side in Side::BOTH {
            let player = &mut self.players[seats[side.index()]];
            match winner {
                None => player.draws += 1,
                Some(won) if won == side => player.wins += 1,
                Some(_) => {
                    player.losses += 1;
                    if let Some(forfeit) = reason.forfeit_column() {
                        player.forfeits[forfeit as usize] += 1;
                    }
                }
            }
        }
        let first_won = winner.map(|winner| winner == Side::First);
        Arc::make_mut(&mut self.meetings).add(seats[0], seats[1], first_won);
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.meetings.games()
    }

    /// The player with the best score, as the standings rank them (more games, then the name,
    /// break ties): name, points, games.
    pub fn leader(&self) -> Option<(&str, f64, u32)> {
        self.players
            .iter()
            .enumerate()
            .filter(|(_, p)| p.games() > 0)
            .max_by(|(a, pa), (b, pb)| {
                pa.score()
                    .total_cmp(&pb.score())
                    .then(pa.games().cmp(&pb.games()))
                    .then(self.names[*b].cmp(&self.names[*a]))
            })
            .map(|(i, p)| (self.names[i].as_str(), p.points(), p.games()))
    }

    /// Points `a` scored against `b` and the games they played.
    fn against(&self, a: usize, b: usize) -> (f64, u32) {
        let record = self.record_against(a, b);
        (
            record.wins as f64 + record.draws as f64 / 2.0,
            record.games(),
        )
    }

    /// Games `a` won, drew and lost against `b`.
    fn record_against(&self, a: usize, b: usize) -> PlayerTally {
        let Some(meeting) = self.meetings.between(a, b) else {
            return PlayerTally::default();
        };
        let (wins_low, losses_low) = (meeting.wins_low, meeting.losses_low());
        let (wins, losses) = if a <= b {
            (wins_low, losses_low)
        } else {
            (losses_low, wins_low)
        };
        PlayerTally {
            wins,
            draws: meeting.draws,
            losses,
            forfeits: [0; 3],
        }
    }

    /// Each challenger's results against each opponent it met, best score first.
    fn gauntlets(&self) -> Vec<Gauntlet> {
        self.challengers
            .iter()
            .map(|&challenger| {
                let mut opponents: Vec<GauntletRow> = (0..self.names.len())
                    .filter(|&other| other != challenger)
                    .filter_map(|other| {
                        let record = self.record_against(challenger, other);
                        (record.games() > 0).then(|| GauntletRow {
                            opponent: self.names[other].clone(),
                            games: record.games(),
                            wins: record.wins,
                            draws: record.draws,
                            losses: record.losses,
                            score: record.score(),
                            elo: estimate_elo(&[
                                (1.0, record.wins.into()),
                                (0.5, record.draws.into()),
                                (0.0, record.losses.into()),
                            ]),
                        })
                    })
                    .collect();
                opponents.sort_by(|a, b| {
                    b.score
                        .total_cmp(&a.score)
                        .then(b.games.cmp(&a.games))
                        .then(a.opponent.cmp(&b.opponent))
                });
                Gauntlet {
                    challenger: self.names[challenger].clone(),
                    opponents,
                }
            })
            .collect()
    }

    /// The standings, ratings and crosstable of everything added.
    pub fn standings(&self) -> Standings {
        let n = self.players.len();
        let points: Vec<f64> = self.players.iter().map(PlayerTally::points).collect();
        let score: Vec<f64> = self.players.iter().map(PlayerTally::score).collect();
        // In the order of the pairs, whatever the order of the games, so that the sums round
        // alike in every run.
        let mut meetings: Vec<Meeting> = self
            .meetings
            .iter()
            .map(|(low, high, m)| Meeting {
                a: low as u32,
                b: high as u32,
                points_a: m.points_low(),
                games: m.games as f64,
            })
            .collect();
        meetings.sort_unstable_by_key(|m| (m.a, m.b));
        let mut sonneborn_berger = vec![0.0; n];
        let mut buchholz = vec![0.0; n];
        for m in &meetings {
            let (low, high) = (m.a as usize, m.b as usize);
            sonneborn_berger[low] += m.points_a * points[high];
            sonneborn_berger[high] += (m.games - m.points_a) * points[low];
            buchholz[low] += m.games * points[high];
            buchholz[high] += m.games * points[low];
        }
        // Head-to-head: points among the players level on score (none for a player level with
        // nobody, who needs no tie-break).
        let mut level: HashMap<u64, Vec<usize>> = HashMap::new();
        for (i, s) in score.iter().enumerate() {
            level.entry(s.to_bits()).or_default().push(i);
        }
        let mut head_to_head = vec![None; n];
        for group in level.values().filter(|g| g.len() > 1) {
            for &a in group {
                head_to_head[a] = Some(
                    group
                        .iter()
                        .filter(|&&b| b != a)
                        .map(|&b| self.against(a, b).0)
                        .sum(),
                );
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        let tie_break = |h2h: Option<f64>| h2h.unwrap_or(0.0);
        order.sort_by(|&a, &b| {
            score[b]
                .total_cmp(&score[a])
                .then(tie_break(head_to_head[b]).total_cmp(&tie_break(head_to_head[a])))
                .then(sonneborn_berger[b].total_cmp(&sonneborn_berger[a]))
                .then(buchholz[b].total_cmp(&buchholz[a]))
                .then(self.players[b].wins.cmp(&self.players[a].wins))
                .then(self.names[a].cmp(&self.names[b]))
        });

        let ratings = Ratings::fit(n, &meetings, DEFAULT_PRIOR_DRAWS);
        drop(meetings);
        let mut by_elo: Vec<usize> = (0..n).collect();
        by_elo.sort_by(|&a, &b| {
            ratings.elo[b]
                .total_cmp(&ratings.elo[a])
                .then(self.names[a].cmp(&self.names[b]))
        });
        let mut elo_rank = vec![0; n];
        let mut superiority_over_next = vec![None; n];
        for (at, &player) in by_elo.iter().enumerate() {
            elo_rank[player] = at + 1;
            superiority_over_next[player] = by_elo
                .get(at + 1)
                .map(|&next| ratings.superiority(player, next));
        }

        let rows = order
            .iter()
            .enumerate()
            .map(|(at, &i)| {
                let player = &self.players[i];
                let games = player.games();
                StandingRow {
                    rank: at + 1,
                    name: self.names[i].clone(),
                    games,
                    points: points[i],
                    score: score[i],
                    wins: player.wins,
                    draws: player.draws,
                    losses: player.losses,
                    timeouts: player.forfeits[ForfeitColumn::Timeout as usize],
                    illegal: player.forfeits[ForfeitColumn::Illegal as usize],
                    crashes: player.forfeits[ForfeitColumn::Crash as usize],
                    head_to_head: head_to_head[i],
                    sonneborn_berger: sonneborn_berger[i],
                    buchholz: buchholz[i],
                    elo: ratings.elo[i],
                    elo_error95: ratings.error95(i),
                    elo_rank: elo_rank[i],
                    superiority_over_next: superiority_over_next[i],
                }
            })
            .collect();
        let crosstable = Crosstable::new(
            order.iter().map(|&i| (self.names[i].clone(), i)).collect(),
            Arc::clone(&self.meetings),
        );
        Standings {
            games: self.games(),
            players: rows,
            crosstable,
            gauntlets: self.gauntlets(),
            versions: BTreeMap::new(),
        }
    }
}

/// Everything `referee standings` shows and writes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// Games counted.
    pub games: u64,
    /// In rank order.
    pub players: Vec<StandingRow>,
    /// Points between every two players, in rank order.
    pub crosstable: Crosstable,
    /// A gauntlet's challengers, each against each opponent (none for a round robin).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub gauntlets: Vec<Gauntlet>,
    /// The version of each player that has one (a contest's build), by name: the standings
    /// of a contest say which build each row is.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub versions: BTreeMap<String, String>,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingRow {
    /// Place in the ranking, from 1.
    pub rank: usize,
    /// The name the player has in the tournament.
    pub name: String,
    /// Games played.
    pub games: u32,
    /// 1 for a win, ½ for a draw.
    pub points: f64,
    /// Points per game.
    pub score: f64,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost, forfeits included.
    pub losses: u32,
    /// Losses by timeout.
    pub timeouts: u32,
    /// Losses by an illegal move or a line that is not a move.
    pub illegal: u32,
    /// Losses by anything else a broken bot does: exiting, a resource limit, unrequested output.
    pub crashes: u32,
    /// Points scored against the players level on score with this one; none when no other
    /// player is.
    pub head_to_head: Option<f64>,
    /// The points of every opponent, weighted by the points scored against it: beating the
    /// strong counts more than beating the weak.
    pub sonneborn_berger: f64,
    /// The points of every opponent, once per game against it: how hard a player's draw was,
    /// which matters in a Swiss tournament, where players of one score met different fields.
    pub buchholz: f64,
    /// Elo relative to the field's average.
    pub elo: f64,
    /// Half the width of the Elo's 95% interval.
    pub elo_error95: f64,
    /// Position when sorted by Elo.
    pub elo_rank: usize,
    /// The probability that this player is stronger than the next one by Elo.
    pub superiority_over_next: Option<f64>,
}

/// A gauntlet challenger's results against the field.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gauntlet {
    /// Whom the results are about.
    pub challenger: String,
    /// By the challenger's score against them, best first.
    pub opponents: Vec<GauntletRow>,
}

/// A challenger's results against one opponent, from the challenger's side: its score and the
/// Elo difference over the opponent these games show (none from a single game, or a perfect
/// or nil score).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GauntletRow {
    /// The opponent's name.
    pub opponent: String,
    /// Games between the two.
    pub games: u32,
    /// Games the challenger won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the challenger lost.
    pub losses: u32,
    /// The challenger's points per game.
    pub score: f64,
    /// The Elo difference, with its 95% interval and LOS; `None` when the games cannot show one.
    pub elo: Option<EloEstimate>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::Ending;
    use referee_rules::verdict::ResourceLimit;

    fn game<'a>(
        first: &'a str,
        second: &'a str,
        winner: Option<Side>,
        reason: Termination,
    ) -> ScoredGame<'a> {
        ScoredGame {
            first,
            second,
            winner,
            reason,
        }
    }

    const LINE: Termination = Termination::Rules(Ending::Line);
    const FULL: Termination = Termination::Rules(Ending::BoardFull);
    const W: Option<Side> = Some(Side::First);
    const L: Option<Side> = Some(Side::Second);
    const D: Option<Side> = None;

    #[test]
    fn points_games_and_forfeits() {
        let mut tally = Tally::new();
        tally.add(game("a", "b", W, Termination::Rules(Ending::Line)));
        tally.add(game("b", "a", D, Termination::Rules(Ending::BoardFull)));
        tally.add(game("a", "c", L, Termination::Timeout));
        tally.add(game("c", "b", L, Termination::IllegalMove));
        tally.add(game("b", "c", W, Termination::Limit(ResourceLimit::Memory)));
        tally.add(game("c", "a", W, Termination::Resign));
        let standings = tally.standings();
        assert_eq!(standings.games, 6);
        let row = |name: &str| standings.players.iter().find(|r| r.name == name).unwrap();
        let a = row("a");
        assert_eq!(
            (a.games, a.wins, a.draws, a.losses, a.points),
            (4, 1, 1, 2, 1.5)
        );
        assert_eq!(
            (a.timeouts, a.illegal, a.crashes),
            (1, 0, 0),
            "a resignation is no forfeit"
        );
        let b = row("b");
        assert_eq!((b.wins, b.draws, b.losses, b.points), (2, 1, 1, 2.5));
        let c = row("c");
        assert_eq!((c.wins, c.losses, c.points), (2, 2, 2.0));
        assert_eq!((c.timeouts, c.illegal, c.crashes), (0, 1, 1));
        let names: Vec<&str> = standings.players.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["b", "c", "a"]);
        assert_eq!(standings.players[0].rank, 1);
        // Sonneborn-Berger of b: 0.5 points against a (1.5 in all), 2 against c (2.0).
        assert_eq!(b.sonneborn_berger, 0.5 * 1.5 + 2.0 * 2.0);
        // Buchholz of b: a's 1.5 points twice (two games), c's 2.0 twice.
        assert_eq!(b.buchholz, 2.0 * 1.5 + 2.0 * 2.0);
    }

    #[test]
    fn buchholz_breaks_a_tie_that_sonneborn_berger_leaves() {
        // p and q each beat one player and lost to one, to the same effect for
        // Sonneborn-Berger (their victims scored nothing else), but p lost to the strong s.
        let mut tally = Tally::new();
        tally.add(game("p", "v", W, LINE));
        tally.add(game("q", "w", W, LINE));
        tally.add(game("s", "p", W, LINE));
        tally.add(game("t", "q", W, LINE));
        tally.add(game("s", "t", W, LINE));
        let standings = tally.standings();
        let row = |name: &str| standings.players.iter().find(|r| r.name == name).unwrap();
        let (p, q) = (row("p"), row("q"));
        assert_eq!((p.score, p.sonneborn_berger), (q.score, q.sonneborn_berger));
        assert_eq!((p.buchholz, q.buchholz), (2.0, 1.0));
        assert!(p.rank < q.rank);
    }

    #[test]
    fn ties_are_broken_by_head_to_head_then_sonneborn_berger() {
        let mut tally = Tally::new();
        // x and y end on 2 points of 3; y beat x, but x beat the strong s (higher
        // Sonneborn-Berger).
        tally.add(game("y", "x", W, LINE));
        tally.add(game("x", "s", W, LINE));
        tally.add(game("s", "y", W, LINE));
        tally.add(game("y", "t", W, LINE));
        tally.add(game("x", "t", W, LINE));
        for _ in 0..3 {
            tally.add(game("s", "t", W, LINE));
        }
        let standings = tally.standings();
        let names: Vec<&str> = standings.players.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["s", "y", "x", "t"]);
        let (y, x) = (&standings.players[1], &standings.players[2]);
        assert_eq!((y.points, x.points, y.games, x.games), (2.0, 2.0, 3, 3));
        assert_eq!((y.head_to_head, x.head_to_head), (Some(1.0), Some(0.0)));
        assert_eq!(
            standings.players[0].head_to_head, None,
            "s is level with nobody"
        );
        assert_eq!((y.sonneborn_berger, x.sonneborn_berger), (2.0, 4.0));

        // Level on score and on head-to-head (a draw): Sonneborn-Berger decides.
        let mut tally = Tally::new();
        tally.add(game("q", "p", D, FULL));
        tally.add(game("p", "a", W, LINE));
        tally.add(game("q", "b", W, LINE));
        tally.add(game("a", "b", W, Termination::Rules(Ending::Line)));
        tally.add(game("b", "a", L, LINE));
        tally.add(game("a", "c", W, LINE));
        tally.add(game("c", "a", L, LINE));
        let standings = tally.standings();
        let names: Vec<&str> = standings.players.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a", "p", "q", "b", "c"]);
        assert_eq!(standings.players[1].sonneborn_berger, 0.5 * 1.5 + 4.0);
        assert_eq!(standings.players[2].sonneborn_berger, 0.5 * 1.5);
    }

    /// A gauntlet's challenger plays every game, the field only its own: ranking by points
    /// would put a challenger scoring 37.5% above an opponent that won all its games.
    #[test]
    fn players_are_ranked_by_score_and_a_gauntlet_shows_each_opponent() {
        let mut tally = Tally::new();
        tally.enter_challenger("challenger");
        // The challenger's points in 12 games, 4 against each opponent, sides alternating:
        // 0/4 against strong, 2/4 against even, 2.5/4 against weak: 4.5 points, 37.5%.
        for (opponent, points) in [
            ("strong", [0.0, 0.0, 0.0, 0.0]),
            ("even", [1.0, 0.0, 1.0, 0.0]),
            ("weak", [1.0, 0.5, 1.0, 0.0]),
        ] {
            for (at, points) in points.into_iter().enumerate() {
                let challenger_side = if at % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                };
                let winner = match points {
                    1.0 => Some(challenger_side),
                    0.0 => Some(challenger_side.opponent()),
                    _ => None,
                };
                let (first, second) = match challenger_side {
                    Side::First => ("challenger", opponent),
                    Side::Second => (opponent, "challenger"),
                };
                tally.add(game(first, second, winner, LINE));
            }
        }
        let standings = tally.standings();
        let row = |name: &str| standings.players.iter().find(|r| r.name == name).unwrap();
        let challenger = row("challenger");
        assert_eq!((challenger.games, challenger.points), (12, 4.5));
        assert_eq!(standings.players[0].name, "strong", "4/4 ranks first");
        assert!(challenger.rank > row("strong").rank);
        assert!(challenger.points > row("strong").points);

        let [gauntlet] = &standings.gauntlets[..] else {
            panic!("{:?}", standings.gauntlets)
        };
        assert_eq!(gauntlet.challenger, "challenger");
        let rows: Vec<(&str, u32, u32, u32, f64)> = gauntlet
            .opponents
            .iter()
            .map(|r| (r.opponent.as_str(), r.wins, r.draws, r.losses, r.score))
            .collect();
        assert_eq!(
            rows,
            [
                ("weak", 2, 1, 1, 0.625),
                ("even", 2, 0, 2, 0.5),
                ("strong", 0, 0, 4, 0.0)
            ]
        );
        let even = gauntlet.opponents[1].elo.unwrap();
        assert!(even.elo == 0.0 && (even.los - 0.5).abs() < 1e-6, "{even:?}");
        assert!(
            even.low.unwrap() < -50.0 && even.high.unwrap() > 50.0,
            "{even:?}"
        );
        assert_eq!(
            gauntlet.opponents[2].elo, None,
            "a nil score has no finite Elo"
        );
    }

    #[test]
    fn the_crosstable_and_the_leader() {
        let mut tally = Tally::new();
        tally.enter("idle");
        tally.add(game("a", "b", W, Termination::Rules(Ending::Line)));
        tally.add(game("b", "a", D, Termination::Rules(Ending::BoardFull)));
        assert_eq!(tally.leader(), Some(("a", 1.5, 2)));
        let standings = tally.standings();
        let crosstable = &standings.crosstable;
        assert_eq!((crosstable.len(), crosstable.name(0)), (3, "a"));
        assert_eq!(
            crosstable.encounter(0, 1),
            Some(Encounter {
                points: 1.5,
                games: 2
            })
        );
        assert_eq!(crosstable.encounter(0, 2), None);
        assert_eq!(
            serde_json::to_value(crosstable).unwrap(),
            serde_json::json!([
                {"name": "a", "against": [{"opponent": "b", "points": 1.5, "games": 2}]},
                {"name": "b", "against": [{"opponent": "a", "points": 0.5, "games": 2}]},
                {"name": "idle", "against": []},
            ])
        );
        let idle = standings.players.iter().find(|r| r.name == "idle").unwrap();
        assert_eq!(idle.games, 0);
        assert!(idle.elo.abs() < 1e-6);
    }

    #[test]
    fn ratings_order_and_superiority() {
        let mut tally = Tally::new();
        for _ in 0..30 {
            tally.add(game("strong", "medium", W, LINE));
            tally.add(game("medium", "weak", W, LINE));
            tally.add(game("weak", "strong", L, LINE));
            tally.add(game("medium", "strong", D, FULL));
        }
        let standings = tally.standings();
        let by_elo: Vec<(&str, usize)> = standings
            .players
            .iter()
            .map(|r| (r.name.as_str(), r.elo_rank))
            .collect();
        assert_eq!(by_elo, [("strong", 1), ("medium", 2), ("weak", 3)]);
        let strong = &standings.players[0];
        assert!(strong.elo > 0.0 && strong.elo_error95 > 0.0);
        assert!(strong.superiority_over_next.unwrap() > 0.99);
        assert_eq!(standings.players[2].superiority_over_next, None);
    }
}
