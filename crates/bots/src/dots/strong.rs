//! Level 3 for dots and boxes: perfect play by exhaustive search whenever it finishes in time,
//! and chain knowledge when it does not.
//!
//! Boards of up to 24 lines (3x3 and smaller) are valued whole during the start-up allowance
//! ([`PerfectTable`]), so every move on them is perfect and instant (on a machine too slow to
//! finish within the allowance, the bot plays by search until the table is done). Boards of up to 64 lines
//! (5x5 and smaller) are searched whole, with one transposition table for the life of the
//! process; larger boards are searched once at most 64 lines are left. When the search runs out of time the bot falls back
//! on the classic knowledge: take what is offered unless declining the last two boxes of a chain
//! (four of a loop) keeps control profitably, draw safe lines while there are any, then open
//! the chain or loop that costs least, judged by the value of the chains and loops left
//! ([`loony_value`]).

use super::coins::{Coins, Component, LineBits, Run, WideBits};
use super::control::{loony_value, opening_values};
use super::perfect::{PerfectTable, TableBuild};
use super::safe::{safe_lines, sampled_line_values, SafeLines};
use super::solver::{Solver, MAX_LINES};
use crate::{Brain, Budget};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use referee_rules::games::dots::{Dots, Line};
use referee_rules::games::Side;
use referee_rules::seeded::SeededRng;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Entries of the table for a whole board (16 bytes each): room for every position a 3x3 solve
/// meets.
const BOARD_TABLE_BITS: u32 = 22;
/// Entries of the table for the endgame of a large board, rebuilt for each game.
const ENDGAME_TABLE_BITS: u32 = 20;
/// Positions with at most this many safe lines are searched exactly (in the model of
/// [`SafeLines`]) before they are sampled.
const EXACT_SAFE_LINES: usize = 26;
/// While safe lines are left, positions with more free lines than this are not searched
/// exhaustively: the search would not finish (5x5 boards finish from about 34).
const HOPELESS_SEARCH_LINES: usize = 44;
/// The share of a move's budget spent waiting for a table still being built.
const TABLE_WAIT_SHARE: f64 = 0.5;
/// The share of a move's budget all the thinking may take; the rest is a margin.
const THINKING_SHARE: f64 = 0.9;
/// The share the exhaustive search may take while safe lines are left, when the search of the
/// safe lines may need the rest.
const EXHAUSTIVE_SHARE_WITH_SAFE_LINES: f64 = 0.45;

/// The strong dots-and-boxes bot (level 3). Its tables live as long as the bot process, so
/// what one game learnt helps the next.
pub struct DotsStrong {
    rng: SeededRng,
    /// The size of the solver's table, chosen for the board of the game.
    table_bits: u32,
    /// The whole board's view, for the chain knowledge.
    board: Option<Coins>,
    solver: Option<Solver>,
    /// Every position's value, for a board small enough.
    perfect: Option<Arc<PerfectTable>>,
    /// The table of a small board while it is being built.
    building: Option<TableBuild>,
    safe: SafeLines,
}

impl DotsStrong {
    /// A strong bot whose choices between equal lines follow `seed`. Its tables are made at
    /// the start of a game, for that game's board.
    pub fn new(seed: u64) -> DotsStrong {
        DotsStrong {
            rng: SeededRng::seed_from_u64(seed),
            table_bits: 0,
            board: None,
            solver: None,
            perfect: None,
            building: None,
            safe: SafeLines::default(),
        }
    }

    /// The table being built, once done, waiting for it until `deadline` (for ever with none).
    fn table_within(&mut self, deadline: Option<Instant>) -> Option<Arc<PerfectTable>> {
        let table = self.building.as_ref()?.wait_until(deadline);
        if table.is_some() {
            self.building = None;
        }
        table
    }

    /// A solver with a table of `bits`, made now unless there is one already.
    fn ensure_solver(&mut self, bits: u32) {
        if self.solver.is_none() || self.table_bits != bits {
            self.solver = Some(Solver::new(bits));
            self.table_bits = bits;
        }
    }

    /// Whether the solver can search `game`, after setting its view for the position: the
    /// whole board if it fits a search, else the lines still free if they do. The table is
    /// allocated once, in `new_game` or `prepare`, where the time is not charged.
    fn prepare_solver(&mut self, game: &Dots) -> bool {
        let Some(solver) = self.solver.as_mut() else {
            return false;
        };
        if !solver.coins().covers(game) {
            let free = (game.line_count() - game.drawn_count()) as usize;
            if game.line_count() as usize <= MAX_LINES {
                solver.set_view(game, Coins::whole_board(game));
            } else if free <= MAX_LINES {
                solver.set_view(game, Coins::free_lines(game));
            } else {
                return false;
            }
        }
        true
    }

    /// The whole board's view for `game`, built again (with the safe-line values forgotten)
    /// when the board is another one.
    fn board_view(&mut self, game: &Dots) -> &Coins {
        if !self.board.as_ref().is_some_and(|coins| coins.covers(game)) {
            self.safe.clear();
        }
        Coins::whole_board_kept(&mut self.board, game)
    }

    /// The move chain knowledge suggests, searching the safe lines until `deadline`.
    fn knowledge(&mut self, game: &Dots, deadline: Instant) -> Line {
        self.board_view(game);
        let coins = self.board.as_ref().expect("the board's view");
        let drawn: WideBits = coins.drawn_in(game);
        let captures: Vec<(u8, u8)> = coins.captures(drawn).collect();
        if !captures.is_empty() {
            return coins.global(capture_or_decline(coins, drawn, &captures));
        }
        let free: Vec<u8> = (0..coins.line_count() as u8)
            .filter(|&line| !drawn.has(line))
            .collect();
        let safe: Vec<u8> = safe_lines(coins, drawn).collect();
        if !safe.is_empty() {
            let exact = if safe.len() <= EXACT_SAFE_LINES {
                let halfway =
                    Instant::now() + deadline.saturating_duration_since(Instant::now()) / 2;
                self.safe.line_values(coins, drawn, halfway)
            } else {
                None
            };
            let values: Vec<(u8, f64)> = match exact {
                Some(values) => values
                    .into_iter()
                    .map(|(line, value)| (line, value as f64))
                    .collect(),
                None => sampled_line_values(coins, drawn, deadline, &mut self.rng),
            };
            let best = values
                .iter()
                .map(|&(_, value)| value)
                .max_by(f64::total_cmp);
            let mut choices: Vec<u8> = values
                .into_iter()
                .filter(|&(_, value)| Some(value) == best)
                .map(|(line, _)| line)
                .collect();
            if choices.is_empty() {
                // No time to look at any: every safe line is as good.
                choices = safe;
            }
            return coins.global(*choices.choose(&mut self.rng).expect("a safe line"));
        }
        let components = coins.components(drawn);
        if !components.is_empty() {
            let kinds: Vec<Component> = components.iter().map(|&(c, _)| c).collect();
            let values = opening_values(&kinds);
            let best = *values.iter().max().expect("components");
            let choices: Vec<u8> = components
                .iter()
                .zip(&values)
                .filter(|&(_, &value)| value == best)
                .map(|(&(_, line), _)| line)
                .collect();
            return coins.global(*choices.choose(&mut self.rng).expect("a best component"));
        }
        let least = free
            .iter()
            .map(|&line| coins.given_away(drawn, line))
            .min()
            .expect("the game is not over");
        let line = *free
            .iter()
            .find(|&&line| coins.given_away(drawn, line) == least)
            .expect("a line");
        coins.global(line)
    }
}

/// Which of `captures` to make, or the line that declines the last boxes offered
/// (double-dealing) when keeping control is worth them.
fn capture_or_decline(coins: &Coins, drawn: WideBits, captures: &[(u8, u8)]) -> u8 {
    if let Some(&(line, _)) = captures
        .iter()
        .find(|&&(line, index)| coins.capture_is_forced(drawn, index, line))
    {
        return line;
    }
    let runs: Vec<(u8, Run)> = captures
        .iter()
        .map(|&(line, index)| (line, coins.run(drawn, index, line)))
        .collect();
    let (line, run) = runs[0];
    // A loop-like run lists both of its ends.
    let one_run = captures.len() == if run.loop_like { 2 } else { 1 };
    if !one_run {
        // Runs that would cost four to decline are taken first, so that the choice comes
        // down to the cheapest.
        let (line, _) = runs
            .iter()
            .find(|(_, run)| run.loop_like)
            .unwrap_or(&runs[0]);
        return *line;
    }
    let declined = if run.loop_like { 4 } else { 2 };
    let (Some(decline), true) = (run.decline, run.boxes == declined) else {
        return line;
    };
    let mut rest = drawn;
    while let Some((line, _)) = coins.captures(rest).next() {
        rest = rest.with(line);
    }
    let mut free = (0..coins.line_count() as u8).filter(|&line| !rest.has(line));
    if free.clone().next().is_none() || free.any(|line| coins.is_safe(rest, line)) {
        // The end of the game, or the fight for control is not over: take them.
        return line;
    }
    let components: Vec<Component> = coins.components(rest).into_iter().map(|(c, _)| c).collect();
    let next = loony_value(&components);
    let kept = declined as i32;
    // Taking them all, we open next; declining, the opponent does.
    if -kept - next > kept + next {
        decline
    } else {
        line
    }
}

impl Brain<Dots> for DotsStrong {
    /// Starts valuing every position of a small board (see [`Brain::prepare`]), and sets the
    /// solver up for the board (a table for the whole board when it fits a search, else for
    /// endgames), within the start-up allowance.
    fn new_game(&mut self, start: &Dots, _side: Side) {
        if !self
            .perfect
            .as_ref()
            .is_some_and(|table| table.covers(start))
        {
            self.perfect = None;
            if self.building.is_none() {
                self.building = PerfectTable::start_for_board(start);
            }
        }
        if self.perfect.is_none() && self.building.is_none() {
            let bits = if start.line_count() as usize <= MAX_LINES {
                BOARD_TABLE_BITS
            } else {
                ENDGAME_TABLE_BITS
            };
            self.ensure_solver(bits);
        }
    }

    /// Waits for the small board's table until `until`, so that the first game is perfect
    /// too on a slow or loaded machine; if it is not done by then, sets the solver up to play
    /// by search until it is.
    fn prepare(&mut self, until: Instant) {
        if self.perfect.is_none() && self.building.is_some() {
            self.perfect = self.table_within(Some(until));
            if self.perfect.is_none() {
                self.ensure_solver(BOARD_TABLE_BITS);
            }
        }
    }

    fn choose(&mut self, game: &Dots, budget: &Budget) -> Line {
        if self.perfect.is_none() && self.building.is_some() {
            self.perfect = self.table_within(Some(budget.share_deadline(TABLE_WAIT_SHARE)));
        }
        if let Some(table) = self.perfect.as_ref().filter(|table| table.covers(game)) {
            let mut best = table.best_moves(game);
            best.shuffle(&mut self.rng);
            // Among equally good moves, the one with the most pitfalls for the opponent.
            let mut choice = (-1.0, best[0]);
            for &line in &best {
                let pitfalls = table.pitfalls(game, line);
                if pitfalls > choice.0 {
                    choice = (pitfalls, line);
                }
            }
            return choice.1;
        }
        let now = Instant::now();
        let time = budget.remaining();
        let coins = self.board_view(game);
        let drawn: WideBits = coins.drawn_in(game);
        let free = (game.line_count() - game.drawn_count()) as usize;
        let exhaustive_share = match safe_lines(coins, drawn).next() {
            None => THINKING_SHARE,
            Some(_) if free <= HOPELESS_SEARCH_LINES => EXHAUSTIVE_SHARE_WITH_SAFE_LINES,
            Some(_) => 0.0,
        };
        if exhaustive_share > 0.0 && self.prepare_solver(game) {
            let solver = self.solver.as_mut().expect("a solver");
            solver.limit_nodes(budget.node_limit());
            let deadline = budget.share_deadline(exhaustive_share);
            if let Some(solution) = solver.solve(game, Some(deadline)) {
                let mut best = solution.best;
                best.shuffle(&mut self.rng);
                // Among equally good moves, the one with the most pitfalls for the opponent,
                // as far as there is time to count them.
                let mut choice = (0.0, best[0]);
                for &line in &best {
                    match solver.pitfalls(game, line, Some(deadline)) {
                        Some(pitfalls) if pitfalls > choice.0 => choice = (pitfalls, line),
                        Some(_) => {}
                        None => break,
                    }
                }
                return choice.1;
            }
        }
        // The chain knowledge's searches count no positions: under a node limit they get no
        // time, so that the move does not depend on the machine's speed.
        let thinking = if budget.node_limit() == u64::MAX {
            time.mul_f64(THINKING_SHARE)
        } else {
            Duration::ZERO
        };
        self.knowledge(game, now + thinking)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;
    use referee_rules::games::dots::DotsParams;
    use referee_rules::games::Game;
    use std::collections::BTreeMap;

    /// A million positions for the exhaustive search, whatever the clock: far more than the
    /// tests' positions need (it stops once it has solved them).
    fn generous() -> Budget {
        Budget::nodes(1_000_000)
    }

    /// Plays every reply of the second player against the brain as first player, to the end;
    /// counts the final scores.
    fn every_reply(brain: &mut DotsStrong, game: &Dots, scores: &mut BTreeMap<[u32; 2], u64>) {
        if game.outcome().is_some() {
            *scores.entry(game.box_counts()).or_default() += 1;
            return;
        }
        if game.side_to_move() == Side::First {
            let mut after = game.clone();
            after.play(brain.choose(game, &generous())).unwrap();
            every_reply(brain, &after, scores);
        } else {
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            for line in moves {
                let mut after = game.clone();
                after.play_unchecked(line);
                every_reply(brain, &after, scores);
            }
        }
    }

    #[test]
    fn first_on_2x2_it_wins_at_least_3_1_against_every_opponent() {
        let params = DotsParams { rows: 2, cols: 2 };
        let mut brain = DotsStrong::new(1);
        brain.new_game(&Dots::new(params), Side::First);
        let mut scores = BTreeMap::new();
        every_reply(&mut brain, &Dots::new(params), &mut scores);
        assert!(scores.keys().all(|&[first, _]| first >= 3), "{scores:?}");
        // The perfect opponent holds it to 3-1 (554 of the 2997 ways to play); every other
        // way loses 4-0.
        assert_eq!(scores.keys().collect::<Vec<_>>(), [&[3, 1], &[4, 0]]);
    }

    /// Draws random safe lines until none is left.
    fn random_safe_lines(game: &mut Dots, rng: &mut SeededRng) {
        loop {
            let coins = Coins::whole_board(game);
            let drawn: WideBits = coins.drawn_in(game);
            let safe: Vec<u8> = safe_lines(&coins, drawn).collect();
            let Some(&line) = safe.choose(rng) else {
                return;
            };
            game.play_unchecked(coins.global(line));
        }
    }

    /// The exact value of `line` for the player to move in `game`.
    fn value_of(solver: &mut Solver, game: &Dots, line: Line) -> i32 {
        let me = game.side_to_move();
        let mut after = game.clone();
        after.play_unchecked(line);
        let gained = (after.box_counts()[me.index()] - game.box_counts()[me.index()]) as i32;
        let rest = solver.value(&after, None).unwrap();
        gained
            + if after.side_to_move() == me {
                rest
            } else {
                -rest
            }
    }

    /// In endgames of plain chains and loops (no box with more than two sides undrawn), the
    /// chain knowledge alone plays as well as the exhaustive search: whether to decline the
    /// last boxes, which chain or loop to open, and how.
    #[test]
    fn chain_knowledge_plays_plain_endgames_perfectly() {
        let mut rng = SeededRng::seed_from_u64(3);
        let mut checked = [0; 2];
        for (rows, cols) in [(3, 3), (2, 4), (3, 4)] {
            let params = DotsParams { rows, cols };
            let mut brain = DotsStrong::new(4);
            let mut solver = Solver::new(20);
            let start = Dots::new(params);
            solver.set_view(&start, Coins::whole_board(&start));
            let far = Instant::now() + Duration::from_secs(3600);
            for _ in 0..40 {
                let mut game = start.clone();
                random_safe_lines(&mut game, &mut rng);
                let mut moves = Vec::new();
                while game.outcome().is_none() {
                    let coins = Coins::whole_board(&game);
                    let drawn: WideBits = coins.drawn_in(&game);
                    let plain = (0..coins.box_count() as u8).all(|b| coins.undrawn(drawn, b) <= 2);
                    game.generate_moves(&mut moves);
                    // Any line half the time, to reach all kinds of positions (declinable
                    // gifts included).
                    let mut next = moves[rng.gen_range(0..moves.len())];
                    if plain {
                        let line = brain.knowledge(&game, far);
                        let best = solver.value(&game, None).unwrap();
                        assert_eq!(
                            value_of(&mut solver, &game, line),
                            best,
                            "{} in\n{}",
                            game.format_move(line),
                            game.render()
                        );
                        checked[coins.captures(drawn).next().is_some() as usize] += 1;
                        if rng.gen_bool(0.5) {
                            next = line;
                        }
                    }
                    game.play_unchecked(next);
                }
            }
        }
        // Openings (no capture) and captures or declines.
        assert!(checked[0] > 100 && checked[1] > 500, "{checked:?}");
        println!("{checked:?}");
    }

    /// A 6x6 board has 84 lines: once at most 64 are free, the endgame is searched exactly.
    #[test]
    fn the_endgame_of_a_large_board_is_searched_exactly() {
        let params = DotsParams { rows: 6, cols: 6 };
        let mut brain = DotsStrong::new(5);
        brain.new_game(&Dots::new(params), Side::First);
        let mut rng = SeededRng::seed_from_u64(6);
        let mut checked = 0;
        for _ in 0..3 {
            let mut game = Dots::new(params);
            random_safe_lines(&mut game, &mut rng);
            let mut moves = Vec::new();
            while game.line_count() - game.drawn_count() > 24 {
                game.generate_moves(&mut moves);
                game.play_unchecked(moves[rng.gen_range(0..moves.len())]);
            }
            let mut solver = Solver::new(20);
            solver.set_view(&game, Coins::free_lines(&game));
            while game.outcome().is_none() {
                let line = brain.choose(&game, &generous());
                let best = solver.value(&game, None).unwrap();
                assert_eq!(
                    value_of(&mut solver, &game, line),
                    best,
                    "{}",
                    game.render()
                );
                checked += 1;
                game.play_unchecked(line);
            }
        }
        assert!(checked > 30, "{checked}");
    }

    #[test]
    fn answers_within_a_short_budget_on_any_board() {
        let mut rng = SeededRng::seed_from_u64(7);
        for size in [3, 5, 10] {
            let params = DotsParams {
                rows: size,
                cols: size,
            };
            let mut brain = DotsStrong::new(8);
            brain.new_game(&Dots::new(params), Side::First);
            let mut game = Dots::new(params);
            let mut moves = Vec::new();
            while game.outcome().is_none() {
                let started = Instant::now();
                let budget = Budget::fixed(started, Duration::from_millis(20));
                let line = brain.choose(&game, &budget);
                // Generous: the point is that the search stops, not how fast this machine is.
                assert!(started.elapsed() < Duration::from_millis(1000));
                assert!(game.check_move(line).is_ok());
                game.generate_moves(&mut moves);
                let next = if rng.gen_bool(0.5) {
                    line
                } else {
                    moves[rng.gen_range(0..moves.len())]
                };
                game.play_unchecked(next);
            }
        }
    }
}
