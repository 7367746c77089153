//! The bots' view of an m,n,k position: the rules engine's own board, plus, for every window of
//! `line` consecutive squares, how many marks each side has in it.
//!
//! A window holding the marks of one side only can still become that side's line: it is *live*
//! for that side. (With `exact`, and for Black in renju, a window is also dead for a side that
//! owns a square just beyond either end, since filling it would make an overline; in caro, a
//! window is dead for a side whose opponent owns the squares just beyond both ends.) Live windows give, cheaply and
//! incrementally, both an evaluation (more marks in live windows is better) and the threats: a
//! live window one mark short is a square that wins now, and these are exactly the winning
//! squares of the rules. Moves are played and taken back in place, so a search never clones.

use referee_rules::games::mnk::{Mnk, MnkParams, Rule, Square};
use referee_rules::games::{Game, Side};

/// What a live window is worth by how many marks it still needs (index 1: one short, a threat
/// to win now; 0: a line, which only ever ends a game). Longer lines count as much as five
/// short.
const NEED_WEIGHT: [i32; 6] = [100_000, 3000, 250, 30, 5, 1];

/// The weight of the side to move's own windows against the opponent's: it moves first, and in
/// gomoku the first to turn its lines into threats leads the race (against Rapfi, 2 scored 25%
/// where 3/2 scored 17.5%; 5/4 and 5/2 did worse still).
const TEMPO: i32 = 2;

/// Boards up to this many squares are searched over every empty square; larger ones only near
/// the marks already placed.
const FULL_WIDTH_SQUARES: usize = 25;

/// How far from a mark (in king steps) a square counts as near it.
const NEAR: i32 = 1;

/// Marks and flanking marks of each side in one window (indexed by [`Side::index`]).
#[derive(Clone, Copy, Default)]
struct WindowState {
    marks: [u8; 2],
    /// The squares just beyond the window's ends that hold this side's mark (0..=2); they
    /// matter only with `exact`, renju or caro.
    flanks: [u8; 2],
    /// How far the window is towards each side's line: its marks while it is live, `dead`
    /// (`line + 1`) once it cannot become that side's line. Kept from `marks` and `flanks`.
    level: [u8; 2],
}

/// A set of window numbers with constant-time insert and remove.
#[derive(Default)]
struct WindowSet {
    items: Vec<u32>,
    /// Where each window sits in `items`, or `ABSENT`.
    slot: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl WindowSet {
    fn reset(&mut self, windows: usize) {
        self.items.clear();
        self.slot.clear();
        self.slot.resize(windows, ABSENT);
    }

    fn insert(&mut self, window: u32) {
        debug_assert_eq!(self.slot[window as usize], ABSENT);
        self.slot[window as usize] = self.items.len() as u32;
        self.items.push(window);
    }

    fn remove(&mut self, window: u32) {
        let at = self.slot[window as usize] as usize;
        self.slot[window as usize] = ABSENT;
        self.items.swap_remove(at);
        if let Some(&moved) = self.items.get(at) {
            self.slot[moved as usize] = at as u32;
        }
    }
}

/// The winning squares of one side, as far as a search needs them: none, one (which the other
/// side must take), or several (which it cannot all take).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Threats {
    None,
    One(Square),
    Several(Square),
}

pub(super) struct Board {
    game: Mnk,
    params: MnkParams,
    line: usize,
    /// Whether each side wins only with exactly `line` (with `exact`; Black's fives in renju).
    exact: [bool; 2],
    /// Caro: a window flanked by the opponent at both ends is dead.
    caro: bool,
    /// Renju: Black's forbidden points are no moves.
    renju: bool,
    /// First square and step (in square numbers) of every window.
    window_start: Vec<Square>,
    window_step: Vec<Square>,
    /// The windows containing each square: `members[member_at[s]..member_at[s + 1]]`.
    member_at: Vec<u32>,
    members: Vec<u32>,
    /// The windows each square flanks (only with `exact`, renju or caro), laid out like
    /// `members`.
    flank_at: Vec<u32>,
    flanked: Vec<u32>,
    state: Vec<WindowState>,
    /// What a window is worth to a side by its level (0 when dead) ...
    weight: Vec<i32>,
    /// ... and what one more mark in it adds.
    advance: Vec<i32>,
    /// The level of a dead window.
    dead: u8,
    /// Sum of the weights of each side's live windows.
    score: [i32; 2],
    /// Each side's live windows one mark short (a winning square each) ...
    fours: [WindowSet; 2],
    /// ... and two marks short (a square that makes a four).
    threes: [WindowSet; 2],
    /// Marks within `NEAR` of each square.
    near: Vec<u8>,
    zobrist: Vec<u64>,
    hash: u64,
    /// Marks on the board.
    placed: usize,
    /// Moves played since `load`, to take them back.
    history: Vec<Square>,
    last_at_load: Option<Square>,
    /// Scratch marks for de-duplicating squares: a square is marked when `seen[s] == stamp`.
    seen: Vec<u32>,
    stamp: u32,
    /// Scratch pairs of squares for `defences`.
    pairs: Vec<(Square, Square)>,
}

impl Board {
    pub(super) fn new(params: MnkParams) -> Board {
        let (width, height) = (params.width as i32, params.height as i32);
        let line = params.line as i32;
        let squares = (width * height) as usize;
        let inside = |x: i32, y: i32| x >= 0 && y >= 0 && x < width && y < height;
        let mut window_start = Vec::new();
        let mut window_step = Vec::new();
        let mut members = vec![Vec::new(); squares];
        let mut flanked = vec![Vec::new(); squares];
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
            for y in 0..height {
                for x in 0..width {
                    if !inside(x + (line - 1) * dx, y + (line - 1) * dy) {
                        continue;
                    }
                    let window = window_start.len() as u32;
                    window_start.push((y * width + x) as Square);
                    window_step.push((dy * width + dx) as Square);
                    for i in 0..line {
                        members[((y + i * dy) * width + x + i * dx) as usize].push(window);
                    }
                    if params.exact || params.rule != Rule::None {
                        for (fx, fy) in [(x - dx, y - dy), (x + line * dx, y + line * dy)] {
                            if inside(fx, fy) {
                                flanked[(fy * width + fx) as usize].push(window);
                            }
                        }
                    }
                }
            }
        }
        let (member_at, members) = flatten(members);
        let (flank_at, flanked) = flatten(flanked);
        let weight: Vec<i32> = (0..=line as usize + 1)
            .map(|level| match line as usize - level.min(line as usize) {
                _ if level > line as usize || level == 0 => 0,
                need => NEED_WEIGHT[need.min(NEED_WEIGHT.len() - 1)],
            })
            .collect();
        let advance = (0..weight.len())
            .map(|level| match weight.get(level + 1) {
                Some(next) if level < line as usize => next - weight[level],
                _ => 0,
            })
            .collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ squares as u64;
        let zobrist = (0..2 * squares).map(|_| splitmix(&mut seed)).collect();
        let mut board = Board {
            game: Mnk::new(params),
            params,
            line: line as usize,
            exact: match params.rule {
                Rule::Renju => [true, false],
                Rule::None | Rule::Caro => [params.exact; 2],
            },
            caro: params.rule == Rule::Caro,
            renju: params.rule == Rule::Renju,
            window_start,
            window_step,
            member_at,
            members,
            flank_at,
            flanked,
            state: Vec::new(),
            weight,
            advance,
            dead: line as u8 + 1,
            score: [0; 2],
            fours: Default::default(),
            threes: Default::default(),
            near: Vec::new(),
            zobrist,
            hash: 0,
            placed: 0,
            history: Vec::with_capacity(squares),
            last_at_load: None,
            seen: vec![0; squares],
            stamp: 0,
            pairs: Vec::new(),
        };
        board.load(&Mnk::new(params));
        board
    }

    pub(super) fn params(&self) -> MnkParams {
        self.params
    }

    /// Sets the board to `game`'s position (same parameters).
    pub(super) fn load(&mut self, game: &Mnk) {
        debug_assert_eq!(game.params(), self.params);
        let windows = self.window_start.len();
        self.state.clear();
        self.state.resize(windows, WindowState::default());
        self.score = [0; 2];
        for set in self.fours.iter_mut().chain(self.threes.iter_mut()) {
            set.reset(windows);
        }
        self.near.clear();
        self.near.resize(self.squares(), 0);
        self.hash = 0;
        self.placed = 0;
        self.history.clear();
        self.last_at_load = game.last_move();
        self.game = game.clone();
        for square in 0..self.squares() as Square {
            if let Some(side) = game.mark(square) {
                self.place(square, side, true);
            }
        }
    }

    pub(super) fn squares(&self) -> usize {
        self.params.width as usize * self.params.height as usize
    }

    pub(super) fn side_to_move(&self) -> Side {
        self.game.side_to_move()
    }

    pub(super) fn is_empty(&self, square: Square) -> bool {
        self.game.mark(square).is_none()
    }

    pub(super) fn hash(&self) -> u64 {
        self.hash
    }

    /// Plays a legal move that does not end the game by a line (searches stop before wins).
    pub(super) fn play(&mut self, square: Square) {
        let side = self.game.side_to_move();
        self.game.play_unchecked(square);
        self.history.push(square);
        self.place(square, side, true);
    }

    /// Takes back the last move played since `load`.
    pub(super) fn undo(&mut self) {
        let square = self.history.pop().expect("a move to take back");
        let side = self.game.side_to_move().opponent();
        let previous = self.history.last().copied().or(self.last_at_load);
        self.game.undo(square, previous);
        self.place(square, side, false);
    }

    /// Adds (or with `add` false removes) `side`'s mark on `square` to the windows, the
    /// neighbourhood counts and the hash; the rules board is kept by the caller.
    fn place(&mut self, square: Square, side: Side, add: bool) {
        let me = side.index();
        let s = square as usize;
        for i in self.member_at[s]..self.member_at[s + 1] {
            let window = self.members[i as usize];
            self.change(window, |state| adjust(&mut state.marks[me], add));
        }
        for i in self.flank_at[s]..self.flank_at[s + 1] {
            let window = self.flanked[i as usize];
            self.change(window, |state| adjust(&mut state.flanks[me], add));
        }
        let (width, height) = (self.params.width as i32, self.params.height as i32);
        let (x, y) = (s as i32 % width, s as i32 / width);
        for ny in (y - NEAR).max(0)..=(y + NEAR).min(height - 1) {
            for nx in (x - NEAR).max(0)..=(x + NEAR).min(width - 1) {
                adjust(&mut self.near[(ny * width + nx) as usize], add);
            }
        }
        self.hash ^= self.zobrist[2 * s + me];
        if add {
            self.placed += 1;
        } else {
            self.placed -= 1;
        }
    }

    fn change(&mut self, window: u32, edit: impl FnOnce(&mut WindowState)) {
        let state = &mut self.state[window as usize];
        let before = *state;
        edit(state);
        for side in 0..2 {
            let live = state.marks[1 - side] == 0
                && !(self.exact[side] && state.flanks[side] > 0)
                && !(self.caro && state.flanks[1 - side] == 2);
            state.level[side] = if live { state.marks[side] } else { self.dead };
        }
        let after = *state;
        for side in 0..2 {
            let (old, new) = (before.level[side], after.level[side]);
            if old == new {
                continue;
            }
            self.score[side] += self.weight[new as usize] - self.weight[old as usize];
            let update = |set: &mut WindowSet, level: usize| {
                if old as usize == level {
                    set.remove(window);
                }
                if new as usize == level {
                    set.insert(window);
                }
            };
            update(&mut self.fours[side], self.line - 1);
            update(&mut self.threes[side], self.line - 2);
        }
    }

    /// The squares of a window.
    fn window_squares(&self, window: u32) -> impl Iterator<Item = Square> {
        let (start, step) = (
            self.window_start[window as usize],
            self.window_step[window as usize],
        );
        (0..self.line as Square).map(move |i| start + i * step)
    }

    /// Whether `side` has a square that completes a line now.
    pub(super) fn can_win(&self, side: Side) -> bool {
        !self.fours[side.index()].items.is_empty()
    }

    /// The squares where `side` would complete a line now.
    pub(super) fn threats(&self, side: Side) -> Threats {
        let mut found = Threats::None;
        for &window in &self.fours[side.index()].items {
            let square = self
                .window_squares(window)
                .find(|&s| self.is_empty(s))
                .expect("a four has one empty square");
            match found {
                Threats::None => found = Threats::One(square),
                Threats::One(first) if first != square => return Threats::Several(first),
                _ => {}
            }
        }
        found
    }

    /// Appends the squares where `side` would make a four (a window one mark short of a
    /// line), then, with `threes`, those where it would make a three (two marks short), each
    /// once: the attacking moves of a threat-space search. The fours come from the windows
    /// kept two marks short; the threes from a scan of every window, which only the
    /// threat-space search pays for (keeping them up to date would slow every move).
    pub(super) fn threat_moves(&mut self, side: Side, threes: bool, out: &mut Vec<Square>) {
        let stamp = self.next_stamp();
        let me = side.index();
        for i in 0..self.threes[me].items.len() {
            let window = self.threes[me].items[i];
            self.push_empty(window, stamp, out);
        }
        if threes && self.line >= 4 {
            let level = self.line as u8 - 3;
            for window in 0..self.state.len() as u32 {
                if self.state[window as usize].level[me] == level {
                    self.push_empty(window, stamp, out);
                }
            }
        }
    }

    /// Appends the empty squares of `window` not yet marked with `stamp`, marking them.
    fn push_empty(&mut self, window: u32, stamp: u32, out: &mut Vec<Square>) {
        let (start, step) = (
            self.window_start[window as usize],
            self.window_step[window as usize],
        );
        for i in 0..self.line as Square {
            let square = start + i * step;
            if self.is_empty(square) && self.seen[square as usize] != stamp {
                self.seen[square as usize] = stamp;
                out.push(square);
            }
        }
    }

    /// Where the side to move must play when `attacker` threatens to make two winning squares
    /// with one move (an open four, a double four): the squares of every window that would
    /// take part, plus the side to move's own fours, which force a reply first. Any other move
    /// loses to that double threat. Empty when there is no such threat.
    pub(super) fn defences(&mut self, attacker: Side, out: &mut Vec<Square>) {
        let Some(stamp) = self.mark_double_threats(attacker) else {
            return;
        };
        let start = out.len();
        for &(square, partner) in &self.pairs {
            if self.seen[square as usize] == stamp {
                out.extend([square, partner]);
            }
        }
        self.threat_moves(attacker.opponent(), false, out);
        out[start..].sort_unstable();
        let mut kept = start;
        for i in start..out.len() {
            if i == start || out[i] != out[kept - 1] {
                out[kept] = out[i];
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether the side to move has a move that makes two winning squares at once (an open
    /// four, a double four; not on a point forbidden to it) while the opponent cannot make a
    /// four: the opponent, unless it can win at once, blocks one and loses to the other. (With
    /// a four to make, it could answer with fours, each forcing a block, one of them perhaps
    /// on a winning square or ending in its own five.) Not for caro, where one block that
    /// closes both ends of two lines could kill both.
    pub(super) fn makes_double_threat(&mut self) -> bool {
        let opponent = self.side_to_move().opponent().index();
        if self.caro || !self.threes[opponent].items.is_empty() {
            return false;
        }
        let Some(stamp) = self.mark_double_threats(self.side_to_move()) else {
            return false;
        };
        let pairs = std::mem::take(&mut self.pairs);
        let found = pairs
            .iter()
            .any(|p| self.seen[p.0 as usize] == stamp && !self.forbidden(p.0));
        self.pairs = pairs;
        found
    }

    /// Whether `attacker` has a move that makes two winning squares at once.
    pub(super) fn threatens_double(&mut self, attacker: Side) -> bool {
        self.mark_double_threats(attacker).is_some()
    }

    /// Marks with a fresh stamp (returned) the squares where `attacker` would make two winning
    /// squares at once, leaving in `pairs` every empty square of its three-mark windows with
    /// the window's other empty square; `None` when there is no such square.
    fn mark_double_threats(&mut self, attacker: Side) -> Option<u32> {
        if self.threes[attacker.index()].items.is_empty() {
            return None;
        }
        // Each three-window pairs its two empty squares: filling one leaves the other winning.
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for &window in &self.threes[attacker.index()].items {
            let mut empty = self.window_squares(window).filter(|&s| self.is_empty(s));
            let (a, b) = (empty.next().unwrap(), empty.next().unwrap());
            pairs.extend([(a, b), (b, a)]);
        }
        pairs.sort_unstable();
        let stamp = self.next_stamp();
        let mut any = false;
        for group in pairs.chunk_by(|p, q| p.0 == q.0) {
            // A square with two different partners makes two winning squares at once.
            if group.iter().any(|&(_, partner)| partner != group[0].1) {
                self.seen[group[0].0 as usize] = stamp;
                any = true;
            }
        }
        self.pairs = pairs;
        any.then_some(stamp)
    }

    /// A fresh mark for `seen`.
    fn next_stamp(&mut self) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        self.stamp
    }

    /// Whether the board is small enough to consider every empty square at every node.
    pub(super) fn full_width(&self) -> bool {
        self.squares() <= FULL_WIDTH_SQUARES
    }

    /// Appends the moves worth considering: every empty square on a small or empty board,
    /// otherwise the empty squares near a mark (there is always one while the board is not
    /// full: some empty square touches the marks).
    pub(super) fn candidates(&self, out: &mut Vec<Square>) {
        let every = self.full_width() || self.placed == 0;
        out.extend(
            (0..self.squares() as Square)
                .filter(|&s| self.is_empty(s) && (every || self.near[s as usize] > 0)),
        );
    }

    /// How much playing `square` would change `side`'s score minus the opponent's: its own
    /// windows it advances (or, with `exact`, kills by flanking them) and the opponent's
    /// windows it kills (in caro also by closing their second end).
    pub(super) fn gain(&self, square: Square, side: Side) -> i32 {
        let (me, them) = (side.index(), side.opponent().index());
        let s = square as usize;
        let mut gain = 0;
        for &window in &self.members[self.member_at[s] as usize..self.member_at[s + 1] as usize] {
            let level = self.state[window as usize].level;
            gain += self.advance[level[me] as usize] + self.weight[level[them] as usize];
        }
        for &window in &self.flanked[self.flank_at[s] as usize..self.flank_at[s + 1] as usize] {
            let state = &self.state[window as usize];
            if self.exact[me] {
                gain -= self.weight[state.level[me] as usize];
            }
            if self.caro && state.flanks[me] == 1 {
                gain += self.weight[state.level[them] as usize];
            }
        }
        gain
    }

    /// Whether `square` is a forbidden point of the side to move (renju's Black), which a bot
    /// never plays: it loses.
    pub(super) fn forbidden(&self, square: Square) -> bool {
        self.renju && self.side_to_move() == Side::First && self.game.forbidden(square).is_some()
    }

    /// The static value of the position for the side to move, whose windows count more: it
    /// moves first.
    pub(super) fn evaluate(&self) -> i32 {
        let me = self.side_to_move().index();
        self.score[me] * TEMPO - self.score[1 - me]
    }

    /// The side to move's moves by the rules (renju's forbidden points left out, unless every
    /// empty point is forbidden).
    pub(super) fn allowed_moves(&self) -> Vec<Square> {
        let mut moves = Vec::new();
        self.game.generate_moves(&mut moves);
        moves
    }

    /// Squares still empty.
    pub(super) fn empty_squares(&self) -> usize {
        self.squares() - self.placed
    }
}

/// Per-square lists as one flat array and the offsets into it.
fn flatten(lists: Vec<Vec<u32>>) -> (Vec<u32>, Vec<u32>) {
    let mut offsets = Vec::with_capacity(lists.len() + 1);
    let mut flat = Vec::new();
    offsets.push(0);
    for list in lists {
        flat.extend(list);
        offsets.push(flat.len() as u32);
    }
    (offsets, flat)
}

fn adjust(count: &mut u8, add: bool) {
    if add {
        *count += 1;
    } else {
        *count -= 1;
    }
}

/// A fixed pseudo-random sequence for the hash keys (SplitMix64).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use referee_rules::games::mnk::Gomoku;
    use referee_rules::games::GameSpec;
    use referee_rules::seeded::SeededRng;

    fn params(words: &[&str]) -> MnkParams {
        GameSpec::from_words("mnk", words)
            .unwrap()
            .mnk_params()
            .unwrap()
    }

    /// The squares where the side to move completes a line, by the rules themselves.
    fn winning_squares(game: &Mnk) -> Vec<Square> {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        moves.retain(|&square| {
            let mut after = game.clone();
            after.play_unchecked(square);
            after.outcome().is_some_and(|o| o.winner.is_some())
        });
        moves
    }

    /// The board's threats for the side to move are the rules' winning squares. (Each side
    /// is asked in turn as the game goes on; the windows treat both sides alike.)
    fn agrees_with_rules(board: &Board, game: &Mnk) {
        let side = game.side_to_move();
        let wins = winning_squares(game);
        match board.threats(side) {
            Threats::None => assert!(wins.is_empty(), "missed {wins:?}\n{}", game.render()),
            Threats::One(s) => assert_eq!(wins, vec![s], "\n{}", game.render()),
            Threats::Several(s) => {
                assert!(wins.len() >= 2 && wins.contains(&s), "\n{}", game.render());
            }
        }
        assert_eq!(board.can_win(side), !wins.is_empty());
    }

    /// Random games on boards of every kind: the windows find exactly the rules' winning
    /// squares (overlines refused with `exact`), and playing then taking back restores the
    /// counts and the hash.
    #[test]
    fn threats_are_the_rules_winning_squares() {
        let boards = [
            params(&["size=3", "line=3"]),
            params(&["size=7", "line=4"]),
            params(&["size=9", "line=5", "exact=yes"]),
            params(&["width=10", "height=4", "line=4", "exact=yes"]),
            params(&["width=3", "height=8", "line=6"]),
            params(&["size=6", "line=3", "exact=yes"]),
            params(&["size=9", "rule=renju"]),
            params(&["size=9", "rule=caro", "exact=yes"]),
        ];
        let mut rng = SeededRng::seed_from_u64(11);
        for params in boards {
            for _ in 0..40 {
                let mut game = Mnk::new(params);
                let mut board = Board::new(params);
                let mut moves = Vec::new();
                game.generate_moves(&mut moves);
                moves.shuffle(&mut rng);
                for &square in &moves {
                    agrees_with_rules(&board, &game);
                    if winning_squares(&game).contains(&square) {
                        break;
                    }
                    if game.side_to_move() == Side::First && game.forbidden(square).is_some() {
                        continue;
                    }
                    let before = (board.hash(), board.score, board.evaluate());
                    let gain = board.gain(square, game.side_to_move());
                    let me = game.side_to_move().index();
                    board.play(square);
                    assert_eq!(
                        board.score[me] - board.score[1 - me],
                        before.1[me] - before.1[1 - me] + gain,
                        "gain is the change in balance"
                    );
                    board.undo();
                    assert_eq!((board.hash(), board.score, board.evaluate()), before);
                    board.play(square);
                    game.play_unchecked(square);
                    let mut fresh = Board::new(params);
                    fresh.load(&game);
                    assert_eq!((fresh.hash(), fresh.score), (board.hash(), board.score));
                    assert_eq!(board.empty_squares(), fresh.empty_squares());
                }
            }
        }
    }

    /// X X X X . X on the top row: the gap makes six, a win only when overlines count.
    #[test]
    fn an_overline_is_no_threat_with_exact() {
        for (exact, expected) in [("no", Threats::One(4)), ("yes", Threats::None)] {
            let params = params(&["size=9", "line=5", &format!("exact={exact}")]);
            let mut game = Mnk::new(params);
            for square in [0, 80, 1, 78, 2, 76, 3, 74, 5, 72] {
                game.play(square).unwrap();
            }
            let mut board = Board::new(params);
            board.load(&game);
            assert_eq!(board.threats(Side::First), expected, "exact={exact}");
            assert_eq!(
                winning_squares(&game).len(),
                expected.ne(&Threats::None) as usize
            );
        }
    }

    /// An open three (and a split one) must be answered on its own line; two marks need no
    /// answer yet.
    #[test]
    fn defences_against_a_three_are_the_squares_of_its_windows() {
        let gomoku = GameSpec::Gomoku(Gomoku::STANDARD).mnk_params().unwrap();
        let defences = |marks: &[(u8, u8)]| {
            let mut game = Mnk::new(gomoku);
            for (i, &(x, y)) in marks.iter().enumerate() {
                game.play(game.square(x, y)).unwrap();
                // The other side's replies, far away in a corner.
                game.play(game.square(i as u8 * 4, 14)).unwrap();
            }
            let mut board = Board::new(gomoku);
            board.load(&game);
            let mut out = Vec::new();
            board.defences(Side::First, &mut out);
            let mut squares: Vec<String> = out.iter().map(|&s| game.format_move(s)).collect();
            squares.sort();
            squares
        };
        assert_eq!(
            defences(&[(5, 7), (6, 7), (7, 7)]),
            ["3 7", "4 7", "8 7", "9 7"]
        );
        assert_eq!(defences(&[(4, 7), (5, 7), (7, 7)]), ["3 7", "6 7", "8 7"]);
        assert!(defences(&[(5, 7), (6, 7)]).is_empty());
    }

    /// The side to move with an open three makes an open four (two winning squares) with one
    /// move; with one end of the three blocked it makes only a four, one winning square.
    #[test]
    fn an_open_three_to_move_makes_a_double_threat() {
        let gomoku = GameSpec::Gomoku(Gomoku::STANDARD).mnk_params().unwrap();
        let board = |replies: [(u8, u8); 3]| {
            let mut game = Mnk::new(gomoku);
            for (x, reply) in [5, 6, 7].into_iter().zip(replies) {
                game.play(game.square(x, 7)).unwrap();
                game.play(game.square(reply.0, reply.1)).unwrap();
            }
            let mut board = Board::new(gomoku);
            board.load(&game);
            board
        };
        let mut open = board([(0, 14), (4, 14), (8, 14)]);
        assert!(open.makes_double_threat());
        assert!(open.threatens_double(Side::First));
        assert!(!open.threatens_double(Side::Second));
        let mut closed = board([(0, 14), (4, 14), (4, 7)]);
        assert!(!closed.makes_double_threat());
        assert!(!closed.threatens_double(Side::First));
        // The opponent has three in a row on the edge: it can answer the open four with fours.
        let mut countered = board([(0, 14), (1, 14), (2, 14)]);
        assert!(countered.threatens_double(Side::First));
        assert!(!countered.makes_double_threat());
    }
}
