//! Values every position of the database by retrograde analysis, a layer of materials at a
//! time.
//!
//! A capture leads to fewer pieces and a crowning to one man fewer, so when a layer (the
//! materials with a given number of pieces and of men) is valued, every move out of it leads
//! to a layer already valued, except the plain moves that crown nothing, which stay inside (the
//! other side's material, its twin, is in the same layer). Those are followed backwards:
//!
//! 1. Each position counts its moves inside the layer, and takes what it learns from the moves
//!    out of it: a win if one reaches a lost position, a draw is possible if one reaches a drawn
//!    position, and the longest of the moves into won positions.
//! 2. Positions are then settled in order of distance (a queue per number of plies). A lost
//!    position makes every position with a move into it a win one ply further; a won position
//!    takes one move off the count of each such position, and one whose moves are all used up
//!    this way is lost, at one ply more than its longest move.
//!
//! What is never settled is a draw: neither side can force the end. Wins come out at the
//! fewest plies and losses at the most, as both sides play them.

use super::index::{Block, Index};
use referee_rules::games::checkers::{neighbours, Diagonal, Move, Position};
use referee_rules::games::Side;

/// A value byte: 0 a draw, else the number of plies to the end plus one; an odd number of plies
/// is a win for the side to move (it makes the last move), an even one a loss.
pub(super) type Stored = u8;
pub(super) const DRAW: Stored = 0;
/// The longest distance a byte holds.
const MAX_PLIES: usize = Stored::MAX as usize - 1;

/// Per position of the layer being valued: some move reaches a drawn position, so it is never
/// lost.
const CAN_DRAW: u8 = 1;
/// A move reaching a lost position is known: it is won, at a distance queued already.
const WON: u8 = 2;

/// The value of every slot of `index`, in slot order; `None` if some distance does not fit a
/// byte (not the case up to four pieces).
pub(super) fn solve(index: &Index) -> Option<Vec<Stored>> {
    let mut values = vec![DRAW; index.len];
    let mut first = 0;
    while first < index.blocks.len() {
        let layer = |block: &Block| (block.material.pieces(), block.material.men());
        let key = layer(&index.blocks[first]);
        let count = index.blocks[first..]
            .iter()
            .take_while(|block| layer(block) == key)
            .count();
        Layer::new(index, &index.blocks[first..first + count]).solve(&mut values)?;
        first += count;
    }
    Some(values)
}

/// The value of `position` (Black to move, after a move out of the layer being valued) from
/// the layers already valued.
fn known(index: &Index, values: &[Stored], position: &Position) -> Stored {
    if position.pieces(Side::First) == 0 {
        return 1;
    }
    let slot = index
        .slot(position)
        .expect("a move out of a layer leads to a layer valued before");
    values[slot]
}

/// The positions after `mv` from `position`, turned so that Black is to move.
fn after(position: &Position, mv: Move) -> Position {
    let mut child = *position;
    child.apply(mv);
    child.rotated()
}

struct Layer<'a> {
    index: &'a Index,
    blocks: &'a [Block],
    start: usize,
    /// Moves inside the layer whose value is not known yet, per position.
    open: Vec<u8>,
    /// The distance (plies) of the position if it turns out lost: one more than its longest
    /// move to a won position.
    loss: Vec<u8>,
    flags: Vec<u8>,
    /// Positions to settle, by distance in plies: a position may be queued more than once,
    /// the first time it comes out counts.
    queues: Vec<Vec<u32>>,
    /// The predecessors of the position being settled, reused.
    before: Vec<Position>,
}

impl<'a> Layer<'a> {
    fn new(index: &'a Index, blocks: &'a [Block]) -> Layer<'a> {
        let start = blocks[0].start;
        let len = blocks.iter().map(|block| block.len).sum();
        Layer {
            index,
            blocks,
            start,
            open: vec![0; len],
            loss: vec![0; len],
            flags: vec![0; len],
            queues: vec![Vec::new(); MAX_PLIES + 1],
            before: Vec::with_capacity(16),
        }
    }

    fn solve(mut self, values: &mut [Stored]) -> Option<()> {
        self.look_out(values)?;
        for plies in 0..=MAX_PLIES {
            let queue = std::mem::take(&mut self.queues[plies]);
            for local in queue {
                let local = local as usize;
                let slot = self.start + local;
                if values[slot] != DRAW {
                    continue;
                }
                values[slot] = plies as Stored + 1;
                self.settle_predecessors(local, plies)?;
            }
        }
        Some(())
    }

    /// Step 1: every position's moves, those out of the layer valued, the others counted.
    fn look_out(&mut self, values: &[Stored]) -> Option<()> {
        let mut moves = Vec::new();
        for block in self.blocks {
            for offset in 0..block.len {
                let local = block.start - self.start + offset;
                let Some(position) = self.index.position(block, offset as u64) else {
                    continue;
                };
                position.legal_moves(&mut moves);
                let kings = position.kings().count_ones();
                let mut win = None;
                for &mv in &moves {
                    let child = after(&position, mv);
                    if !mv.is_capture() && child.kings().count_ones() == kings {
                        self.open[local] += 1;
                        continue;
                    }
                    match known(self.index, values, &child) {
                        DRAW => self.flags[local] |= CAN_DRAW,
                        stored if stored % 2 == 1 => {
                            // Lost for the opponent after `stored - 1` plies.
                            let plies = usize::from(stored);
                            win = Some(win.map_or(plies, |w: usize| w.min(plies)));
                        }
                        stored => self.loss[local] = self.loss[local].max(stored),
                    }
                }
                if let Some(plies) = win {
                    self.flags[local] |= WON;
                    self.queue(local, plies)?;
                } else if self.open[local] == 0 && self.flags[local] & CAN_DRAW == 0 {
                    self.queue(local, usize::from(self.loss[local]))?;
                }
            }
        }
        Some(())
    }

    fn queue(&mut self, local: usize, plies: usize) -> Option<()> {
        self.queues.get_mut(plies)?.push(local as u32);
        Some(())
    }

    /// Step 2 for the position `local`, just settled at `plies`: what it tells the positions
    /// with a plain move into it.
    fn settle_predecessors(&mut self, local: usize, plies: usize) -> Option<()> {
        let lost = plies % 2 == 0;
        let mut before = std::mem::take(&mut self.before);
        predecessors(&self.position(local), &mut before);
        for position in &before {
            let slot = self
                .index
                .slot(position)
                .expect("a plain move stays in the layer");
            let local = slot - self.start;
            if lost {
                self.flags[local] |= WON;
                self.queue(local, plies + 1)?;
            } else {
                self.open[local] -= 1;
                self.loss[local] = self.loss[local].max(plies as u8 + 1);
                let flags = self.flags[local];
                if self.open[local] == 0 && flags & (WON | CAN_DRAW) == 0 {
                    self.queue(local, usize::from(self.loss[local]))?;
                }
            }
        }
        self.before = before;
        Some(())
    }

    fn position(&self, local: usize) -> Position {
        let slot = self.start + local;
        let block = self
            .blocks
            .iter()
            .find(|block| (block.start..block.start + block.len).contains(&slot))
            .expect("a slot of the layer");
        self.index
            .position(block, (slot - block.start) as u64)
            .expect("only valid positions are settled")
    }
}

/// Fills `before` with every position (turned so that Black is to move) from which a plain
/// move that crowns nothing leads to `position` (Black to move): White's last move taken back,
/// where White had no capture (it would have been forced).
fn predecessors(position: &Position, before: &mut Vec<Position>) {
    before.clear();
    let black = position.pieces(Side::First);
    let white = position.pieces(Side::Second);
    let kings = position.kings();
    let empty = !(black | white);
    let mut pieces = white;
    while pieces != 0 {
        let to = pieces & pieces.wrapping_neg();
        pieces &= pieces - 1;
        let king = kings & to != 0;
        let directions: &[Diagonal] = if king {
            &Diagonal::ALL
        } else {
            // A white man moves up the diagram: it came from below.
            &Diagonal::backward(Side::Second)
        };
        for &direction in directions {
            let from = neighbours(to, direction) & empty;
            if from == 0 {
                continue;
            }
            let moved_kings = if king { (kings & !to) | from } else { kings };
            let earlier =
                Position::from_bitboards([black, (white & !to) | from], moved_kings, Side::Second)
                    .expect("a piece moved back to an empty square");
            if !earlier.must_capture() {
                before.push(earlier.rotated());
            }
        }
    }
}
