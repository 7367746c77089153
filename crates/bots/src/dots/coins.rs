//! Dots and boxes seen the way its players analyse it ("strings and coins"): the boxes still
//! open, each with the lines around it that are still in play, and the lines that join two boxes
//! or a box and the edge of the board. Taking a box, a safe line, a chain, a loop, the boxes a
//! line gives away: the knowledge both the greedy and the strong bot use, written once.
//!
//! A view is built from a [`Dots`] position for a chosen set of lines "in play", renumbered
//! 0..n (n <= 220 fits a byte): every line of the board, so that one view serves a whole game,
//! or only the lines still free, for the endgame of a large board. Which of them are drawn is a
//! separate value of a [`LineBits`] type, so that a search keeps its positions in one `u64`.

use referee_rules::games::dots::{Dots, Line};

/// No box on that side of a line: the edge of the board ("the ground").
pub(super) const GROUND: u8 = u8::MAX;
/// Not in play: a line drawn before the view was built.
const NOT_IN_PLAY: u8 = u8::MAX;

/// A set of lines in play, by their local number.
pub trait LineBits: Copy + Eq + 'static {
    const EMPTY: Self;
    fn has(&self, line: u8) -> bool;
    fn with(self, line: u8) -> Self;
}

impl LineBits for u64 {
    const EMPTY: u64 = 0;
    fn has(&self, line: u8) -> bool {
        self & 1 << line != 0
    }
    fn with(self, line: u8) -> u64 {
        self | 1 << line
    }
}

/// Enough for every line of the largest board (220).
pub(super) type WideBits = [u64; 4];

impl LineBits for WideBits {
    const EMPTY: WideBits = [0; 4];
    fn has(&self, line: u8) -> bool {
        self[line as usize / 64] & 1 << (line % 64) != 0
    }
    fn with(mut self, line: u8) -> WideBits {
        self[line as usize / 64] |= 1 << (line % 64);
        self
    }
}

/// The boxes that can be taken one after the other starting from a box with three sides: each
/// capture leaves the next box of an opened chain or loop with three sides in turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// Boxes in the run, the first included.
    pub boxes: u32,
    /// Whether its far end can be taken too (an opened loop, for instance): declining the run
    /// then leaves the opponent four boxes rather than two.
    pub loop_like: bool,
    /// The far side of the run's second box: drawing it instead of taking the first box is the
    /// double-dealing move when two boxes are left (two can then be taken with one line), and
    /// the double double-dealing one when four boxes are left of a loop-like run (two pairs).
    pub decline: Option<u8>,
}

/// A part of a position where every line is a sacrifice (no capture, no safe line): how it
/// will be played out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Component {
    /// A string of boxes with two undrawn sides each, whose ends lead to the edge or to a
    /// joint (a box with three or four undrawn sides).
    Chain(u32),
    /// A closed ring of boxes with two undrawn sides each.
    Loop(u32),
}

/// The default view is empty: it covers no game.
#[derive(Clone, Debug, Default)]
pub struct Coins {
    rows: u8,
    cols: u8,
    /// The board's number of each line in play.
    global: Vec<Line>,
    /// The local number of each line of the board, or [`NOT_IN_PLAY`].
    local: Vec<u8>,
    /// The boxes on both sides of each line in play, or [`GROUND`].
    beside: Vec<[u8; 2]>,
    /// Each box's sides in play, `side_count` of them.
    sides: Vec<[u8; 4]>,
    side_count: Vec<u8>,
}

impl Coins {
    /// The view of `game` where the lines for which `in_play` holds are in play; boxes with no
    /// side in play are left out.
    fn new(game: &Dots, in_play: impl Fn(Line) -> bool) -> Coins {
        let mut coins = Coins {
            rows: game.rows(),
            cols: game.cols(),
            global: Vec::new(),
            local: vec![NOT_IN_PLAY; game.line_count() as usize],
            beside: Vec::new(),
            sides: Vec::new(),
            side_count: Vec::new(),
        };
        for line in (0..game.line_count()).filter(|&line| in_play(line)) {
            coins.local[line as usize] = coins.global.len() as u8;
            coins.global.push(line);
            coins.beside.push([GROUND; 2]);
        }
        for row in 0..game.rows() {
            for col in 0..game.cols() {
                let mut sides = [0; 4];
                let mut count = 0;
                for line in game.box_lines(col, row) {
                    let local = coins.local[line as usize];
                    if local != NOT_IN_PLAY {
                        sides[count] = local;
                        count += 1;
                    }
                }
                if count == 0 {
                    continue;
                }
                let index = coins.sides.len() as u8;
                for &line in &sides[..count] {
                    let beside = &mut coins.beside[line as usize];
                    let slot = if beside[0] == GROUND { 0 } else { 1 };
                    beside[slot] = index;
                }
                coins.sides.push(sides);
                coins.side_count.push(count as u8);
            }
        }
        coins
    }

    /// Every line of the board in play: one view for a whole game.
    pub fn whole_board(game: &Dots) -> Coins {
        Coins::new(game, |_| true)
    }

    /// The view of the whole board of `game`, kept in `slot` while the board stays the same.
    pub fn whole_board_kept<'a>(slot: &'a mut Option<Coins>, game: &Dots) -> &'a Coins {
        if !slot.as_ref().is_some_and(|coins| coins.covers(game)) {
            *slot = Some(Coins::whole_board(game));
        }
        slot.as_ref().expect("just built")
    }

    /// Only the lines not yet drawn in `game`.
    pub fn free_lines(game: &Dots) -> Coins {
        Coins::new(game, |line| !game.is_drawn(line))
    }

    /// Lines in play.
    pub fn line_count(&self) -> usize {
        self.global.len()
    }

    /// Boxes in the view.
    pub fn box_count(&self) -> usize {
        self.sides.len()
    }

    /// Whether this view still describes `game`: the same board, and every line out of play
    /// drawn there.
    pub fn covers(&self, game: &Dots) -> bool {
        game.rows() == self.rows
            && game.cols() == self.cols
            && self
                .local
                .iter()
                .enumerate()
                .all(|(line, &local)| local != NOT_IN_PLAY || game.is_drawn(line as Line))
    }

    /// The lines in play that are drawn in `game`.
    pub fn drawn_in<B: LineBits>(&self, game: &Dots) -> B {
        self.global
            .iter()
            .enumerate()
            .filter(|(_, &line)| game.is_drawn(line))
            .fold(B::EMPTY, |bits, (local, _)| bits.with(local as u8))
    }

    /// The board's line for a line in play.
    pub fn global(&self, line: u8) -> Line {
        self.global[line as usize]
    }

    /// The line in play for a line of the board, if it is in play.
    pub fn local(&self, line: Line) -> Option<u8> {
        Some(self.local[line as usize]).filter(|&local| local != NOT_IN_PLAY)
    }

    /// The boxes beside a line in play ([`GROUND`] for the edge).
    pub fn beside(&self, line: u8) -> [u8; 2] {
        self.beside[line as usize]
    }

    /// The sides of box `index` that are in play.
    pub fn sides(&self, index: u8) -> &[u8] {
        &self.sides[index as usize][..self.side_count[index as usize] as usize]
    }

    /// Undrawn sides of box `index`: 0 once it is taken, 1 when it can be taken.
    pub fn undrawn<B: LineBits>(&self, drawn: B, index: u8) -> u32 {
        self.sides(index)
            .iter()
            .filter(|&&line| !drawn.has(line))
            .count() as u32
    }

    /// Boxes still open.
    pub fn open_boxes<B: LineBits>(&self, drawn: B) -> u32 {
        (0..self.box_count() as u8)
            .filter(|&index| self.undrawn(drawn, index) > 0)
            .count() as u32
    }

    /// The box across `line` from `index` ([`GROUND`] at the edge).
    pub fn across(&self, line: u8, index: u8) -> u8 {
        let [a, b] = self.beside(line);
        if a == index {
            b
        } else {
            a
        }
    }

    /// The undrawn side of box `index` other than `line` (for a box with two undrawn sides).
    fn other_side<B: LineBits>(&self, drawn: B, index: u8, line: u8) -> u8 {
        *self
            .sides(index)
            .iter()
            .find(|&&side| side != line && !drawn.has(side))
            .expect("a box with two undrawn sides")
    }

    /// Boxes that drawing `line` completes (0, 1 or 2).
    pub fn gain<B: LineBits>(&self, drawn: B, line: u8) -> u32 {
        self.beside(line)
            .into_iter()
            .filter(|&index| index != GROUND && self.undrawn(drawn, index) == 1)
            .count() as u32
    }

    /// Whether drawing `line` completes nothing and leaves no box with three sides: it hands
    /// the opponent nothing.
    pub fn is_safe<B: LineBits>(&self, drawn: B, line: u8) -> bool {
        self.beside(line)
            .into_iter()
            .all(|index| index == GROUND || self.undrawn(drawn, index) > 2)
    }

    /// The undrawn line that completes box `index`, if it has only one.
    pub fn completing_line<B: LineBits>(&self, drawn: B, index: u8) -> Option<u8> {
        let mut undrawn = self.sides(index).iter().filter(|&&line| !drawn.has(line));
        match (undrawn.next(), undrawn.next()) {
            (Some(&line), None) => Some(line),
            _ => None,
        }
    }

    /// The lines that take a box now, with the box each takes (a line that takes two is listed
    /// once, with its first box).
    pub fn captures<B: LineBits>(&self, drawn: B) -> impl Iterator<Item = (u8, u8)> + '_ {
        (0..self.box_count() as u8).filter_map(move |index| {
            let line = self.completing_line(drawn, index)?;
            // The box on the other side lists a line that takes both.
            let first = self
                .beside(line)
                .into_iter()
                .find(|&other| other != GROUND && self.completing_line(drawn, other) == Some(line));
            (first == Some(index)).then_some((line, index))
        })
    }

    /// The run of boxes that taking box `index` with `line` starts.
    pub fn run<B: LineBits>(&self, drawn: B, index: u8, line: u8) -> Run {
        let mut run = Run {
            boxes: 1,
            loop_like: false,
            decline: None,
        };
        let (mut current, mut entry) = (index, line);
        loop {
            let next = self.across(entry, current);
            if next == GROUND {
                break;
            }
            match self.undrawn(drawn, next) {
                1 => {
                    run.boxes += 1;
                    // Beyond the first box, a box with three sides at the far end; right
                    // after it, the same line simply takes two boxes.
                    run.loop_like = current != index;
                    break;
                }
                2 => {
                    run.boxes += 1;
                    let exit = self.other_side(drawn, next, entry);
                    if run.boxes == 2 {
                        run.decline = Some(exit);
                    }
                    current = next;
                    entry = exit;
                }
                _ => break,
            }
        }
        run
    }

    /// Whether taking box `index` with `line` is at least as good as any other move, so a
    /// search need not look at the others: always, except for the last two boxes of an opened
    /// chain and the last four of an opened loop, where declining them can pay (it keeps the
    /// opponent moving first into the next chain).
    pub fn capture_is_forced<B: LineBits>(&self, drawn: B, index: u8, line: u8) -> bool {
        let across = self.across(line, index);
        if across == GROUND || self.undrawn(drawn, across) != 2 {
            // Nothing new to take after this capture.
            return true;
        }
        let run = self.run(drawn, index, line);
        if run.loop_like {
            run.boxes > 4
        } else {
            run.boxes > 2
        }
    }

    /// How many boxes the opponent takes in a row if `line` is drawn and it then takes every
    /// box it can: what drawing `line` gives away.
    pub fn given_away<B: LineBits>(&self, drawn: B, line: u8) -> u32 {
        let mut drawn = drawn.with(line);
        let mut taken = 0;
        while let Some((line, _)) = self.captures(drawn).next() {
            taken += self.gain(drawn, line);
            drawn = drawn.with(line);
        }
        taken
    }

    /// The chains and loops of a position where every undrawn line gives something away (no
    /// box to take, no safe line), each with one line that opens it: an end line of a chain
    /// (the middle one for a chain of two, so the opponent cannot decline it), any line of a
    /// loop. Boxes with three or four undrawn sides (joints) only join chains; they are not
    /// counted.
    pub fn components<B: LineBits>(&self, drawn: B) -> Vec<(Component, u8)> {
        let mut seen = vec![false; self.box_count()];
        let mut found = Vec::new();
        for start in 0..self.box_count() as u8 {
            if seen[start as usize] || self.undrawn(drawn, start) != 2 {
                continue;
            }
            seen[start as usize] = true;
            let mut undrawn = self.sides(start).iter().filter(|&&l| !drawn.has(l));
            let (first, second) = (*undrawn.next().unwrap(), *undrawn.next().unwrap());
            let (ahead, end) = self.walk(drawn, start, first, &mut seen);
            let Some(end) = end else {
                found.push((Component::Loop(1 + ahead), first));
                continue;
            };
            let (behind, _) = self.walk(drawn, start, second, &mut seen);
            let length = 1 + ahead + behind;
            let opening = match (length, ahead) {
                (2, 1) => first,
                (2, _) => second,
                _ => end,
            };
            found.push((Component::Chain(length), opening));
        }
        found
    }

    /// Walks from box `start` out through `line` along boxes with two undrawn sides: the
    /// boxes passed and the line at the end, which is `None` when the walk came back to
    /// `start` (a loop).
    fn walk<B: LineBits>(
        &self,
        drawn: B,
        start: u8,
        line: u8,
        seen: &mut [bool],
    ) -> (u32, Option<u8>) {
        let (mut current, mut line) = (start, line);
        let mut boxes = 0;
        loop {
            let next = self.across(line, current);
            if next == start {
                return (boxes, None);
            }
            if next == GROUND || seen[next as usize] || self.undrawn(drawn, next) != 2 {
                return (boxes, Some(line));
            }
            seen[next as usize] = true;
            boxes += 1;
            line = self.other_side(drawn, next, line);
            current = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::dots::DotsParams;
    use referee_rules::games::Game;

    fn after(rows: u8, cols: u8, lines: &[&str]) -> Dots {
        let mut game = Dots::new(DotsParams { rows, cols });
        for text in lines {
            let line = game.parse_move(text).unwrap();
            game.play(line).unwrap();
        }
        game
    }

    /// A view of the whole board, the drawn set, and the number of a line by its name (the
    /// view's numbers are the board's).
    fn view(game: &Dots) -> (Coins, u64, impl Fn(&str) -> u8) {
        let coins = Coins::whole_board(game);
        let drawn = coins.drawn_in(game);
        let empty = Dots::new(DotsParams {
            rows: game.rows(),
            cols: game.cols(),
        });
        let local = move |text: &str| empty.parse_move(text).unwrap() as u8;
        (coins, drawn, local)
    }

    /// A row of four boxes with the top and bottom drawn: one chain of four, edge to edge.
    const STRIP: [&str; 8] = [
        "h 0 0", "h 1 0", "h 2 0", "h 3 0", "h 0 1", "h 1 1", "h 2 1", "h 3 1",
    ];

    #[test]
    fn safe_lines_give_nothing_away() {
        let game = after(1, 4, &STRIP[..4]);
        let (coins, drawn, _) = view(&game);
        // Every box has one side: any line leaves at most two.
        assert!((0..coins.line_count() as u8)
            .filter(|&l| !drawn.has(l))
            .all(|l| coins.is_safe(drawn, l)));
        let game = after(1, 4, &STRIP);
        let (coins, drawn, local) = view(&game);
        assert!(!coins.is_safe(drawn, local("v 0 0")));
        assert_eq!(coins.given_away(drawn, local("v 0 0")), 4);
        assert_eq!(coins.given_away(drawn, local("v 2 0")), 4);
        assert_eq!(coins.captures(drawn).count(), 0);
    }

    #[test]
    fn a_chain_is_taken_box_by_box_until_the_last_two() {
        let mut lines = STRIP.to_vec();
        lines.push("v 0 0");
        let game = after(1, 4, &lines);
        let (coins, drawn, local) = view(&game);
        let captures: Vec<(u8, u8)> = coins.captures(drawn).collect();
        assert_eq!(captures, [(local("v 1 0"), 0)]);
        assert_eq!(coins.gain(drawn, local("v 1 0")), 1);
        assert_eq!(
            coins.run(drawn, 0, local("v 1 0")),
            Run {
                boxes: 4,
                loop_like: false,
                decline: Some(local("v 2 0")),
            }
        );
        assert!(coins.capture_is_forced(drawn, 0, local("v 1 0")));
        // Two boxes later, the last two: declining them is a real choice.
        lines.extend(["v 1 0", "v 2 0"]);
        let game = after(1, 4, &lines);
        let (coins, drawn, local) = view(&game);
        assert_eq!(
            coins.run(drawn, 2, local("v 3 0")),
            Run {
                boxes: 2,
                loop_like: false,
                decline: Some(local("v 4 0")),
            }
        );
        assert!(!coins.capture_is_forced(drawn, 2, local("v 3 0")));
    }

    #[test]
    fn a_loop_keeps_its_last_four_and_one_line_can_take_two() {
        // The eight edge lines of 2x2: the four inside lines make a loop of four.
        let edge = [
            "h 0 0", "h 1 0", "h 0 2", "h 1 2", "v 0 0", "v 0 1", "v 2 0", "v 2 1",
        ];
        let game = after(2, 2, &edge);
        let (coins, drawn, _) = view(&game);
        let components = coins.components(drawn);
        assert_eq!(components.len(), 1);
        assert_eq!(components[0].0, Component::Loop(4));
        let mut opened = edge.to_vec();
        opened.push("h 0 1");
        let game = after(2, 2, &opened);
        let (coins, drawn, _) = view(&game);
        let captures: Vec<(u8, u8)> = coins.captures(drawn).collect();
        assert_eq!(captures.len(), 2);
        let (line, index) = captures[0];
        let run = coins.run(drawn, index, line);
        assert_eq!((run.boxes, run.loop_like), (4, true));
        assert!(!coins.capture_is_forced(drawn, index, line));
        // Declining draws the line between the second and third boxes: two pairs are left.
        let declined = drawn.with(run.decline.unwrap());
        assert_eq!(coins.captures(declined).count(), 2);
        assert!(coins
            .captures(declined)
            .all(|(line, _)| coins.gain(declined, line) == 2));
        // A row of two boxes with its six outside lines: the middle one takes both.
        let game = after(
            1,
            2,
            &["h 0 0", "h 1 0", "h 0 1", "h 1 1", "v 0 0", "v 2 0"],
        );
        let (coins, drawn, local) = view(&game);
        let captures: Vec<(u8, u8)> = coins.captures(drawn).collect();
        assert_eq!(captures.len(), 1);
        assert_eq!(captures[0].0, local("v 1 0"));
        assert_eq!(coins.gain(drawn, local("v 1 0")), 2);
        assert!(coins.capture_is_forced(drawn, captures[0].1, captures[0].0));
    }

    #[test]
    fn components_are_chains_and_loops_with_a_line_to_open_them() {
        // 2x3: the top row is a chain of three (its top and bottom drawn); in the bottom row
        // the left edge and the line between the last two boxes are drawn too: a chain of two
        // and a single box, each with both ends on the edge of the board.
        let game = after(
            2,
            3,
            &[
                "h 0 0", "h 1 0", "h 2 0", "h 0 1", "h 1 1", "h 2 1", "v 0 1", "v 2 1",
            ],
        );
        let (coins, drawn, local) = view(&game);
        let mut components = coins.components(drawn);
        components.sort();
        let kinds: Vec<Component> = components.iter().map(|&(c, _)| c).collect();
        assert_eq!(
            kinds,
            [
                Component::Chain(1),
                Component::Chain(2),
                Component::Chain(3)
            ]
        );
        // The chain of two opens in its middle; the others at an end.
        assert_eq!(components[1].1, local("v 1 1"));
        for (component, line) in components {
            assert!(!drawn.has(line));
            assert_eq!(
                coins.given_away(drawn, line),
                match component {
                    Component::Chain(n) | Component::Loop(n) => n,
                },
                "{component:?}"
            );
        }
    }
}
