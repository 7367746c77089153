//! A 1000-bot round robin (999,000 games) is generated lazily: creating its schedule and taking
//! its first pairings allocates a few bytes, not per-game or per-pairing state. Measured with a
//! counting allocator that counts each thread's bytes apart, so the other tests of this binary,
//! running on their own threads meanwhile, do not count.

use referee_core::tournament::schedule::{Format, Schedule, Shard};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Bytes allocated by this thread. A `const` thread-local of a `Copy` type needs no lazy
    /// set-up and no destructor, so the allocator may use it without allocating.
    static ALLOCATED: Cell<usize> = const { Cell::new(0) };
}

/// The bytes this thread has allocated so far.
fn allocated() -> usize {
    ALLOCATED.with(Cell::get)
}

// SAFETY: forwards every call to the system allocator unchanged, only counting bytes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // `try_with`: a thread being torn down has no counter left, and is not counted.
        let _ = ALLOCATED.try_with(|bytes| bytes.set(bytes.get() + layout.size()));
        // SAFETY: the caller's contract for `layout` is passed on unchanged.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with `layout`, as the caller guarantees.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_thousand_bot_round_robin_allocates_nothing_per_game() {
    let before = allocated();
    let schedule = Schedule::new(1000, Format::RoundRobin, 2);
    let mut pairs = schedule.pairs(Shard::WHOLE);
    let first: Vec<[usize; 2]> = pairs.by_ref().take(5).map(|[slot, _]| slot.seats).collect();
    // A shard far into the schedule starts as cheaply.
    let shard = Shard { index: 7, count: 8 };
    let far = schedule.pairs(shard).nth(10_000).unwrap();
    let bytes = allocated() - before;
    assert_eq!(schedule.total_games(), 999_000);
    assert_eq!(first.len(), 5);
    assert_eq!(far[0].index, 2 * (6 + 8 * 10_000));
    // The five-pairing Vec above is all: a listed schedule would take megabytes.
    assert!(bytes < 1024, "{bytes} bytes allocated");
    // The first round of the circle method seats each of the 1000 players once.
    let round: Vec<usize> = schedule
        .pairs(Shard::WHOLE)
        .take(500)
        .flat_map(|[slot, _]| slot.seats)
        .collect();
    let mut seated = round.clone();
    seated.sort_unstable();
    seated.dedup();
    assert_eq!(seated.len(), 1000);
}
