use super::*;
use rand::{Rng, SeedableRng};
use referee_rules::seeded::SeededRng;

/// The database of up to three pieces, built once for the tests of the process: a tenth of a
/// second in a debug build, where four pieces take much longer.
pub(crate) fn three_pieces() -> Arc<EndgameDb> {
    static DB: OnceLock<Arc<EndgameDb>> = OnceLock::new();
    Arc::clone(DB.get_or_init(|| Arc::new(EndgameDb::build(3).expect("three pieces fit"))))
}

fn position(fen: &str) -> Position {
    fen.parse().unwrap()
}

/// The value of `position` if the game ends within `depth` plies whatever the loser does,
/// by plain exhaustive search of the rules' moves; `None` if it does not.
fn forced(position: &Position, depth: u32) -> Option<EndgameValue> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    if moves.is_empty() {
        return Some(EndgameValue::Loss { plies: 0 });
    }
    if depth == 0 {
        return None;
    }
    let mut fastest_win = None;
    let mut slowest_loss = Some(0);
    for mv in moves {
        let mut child = *position;
        child.apply(mv);
        match forced(&child, depth - 1) {
            Some(EndgameValue::Loss { plies }) => {
                fastest_win = Some(fastest_win.map_or(plies + 1, |w: u32| w.min(plies + 1)));
            }
            Some(EndgameValue::Win { plies }) => {
                slowest_loss = slowest_loss.map(|l: u32| l.max(plies + 1));
            }
            _ => slowest_loss = None,
        }
    }
    match (fastest_win, slowest_loss) {
        (Some(plies), _) => Some(EndgameValue::Win { plies }),
        (None, Some(plies)) => Some(EndgameValue::Loss { plies }),
        (None, None) => None,
    }
}

/// Random positions of the database's index (either side to move).
fn sampled(db: &EndgameDb, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = SeededRng::seed_from_u64(seed);
    let mut positions = Vec::new();
    while positions.len() < count {
        let block = &db.index.blocks[rng.gen_range(0..db.index.blocks.len())];
        let offset = rng.gen_range(0..block.len as u64);
        if let Some(position) = db.index.position(block, offset) {
            positions.push(if rng.gen() {
                position
            } else {
                position.rotated()
            });
        }
    }
    positions
}

#[test]
fn agrees_with_an_exhaustive_search() {
    let db = three_pieces();
    let depth = 7;
    let (mut decided, mut drawn) = (0, 0);
    for position in sampled(&db, 400, 1) {
        let value = db.probe(&position).unwrap();
        let searched = forced(&position, depth);
        if value.within(depth) && value != EndgameValue::Draw {
            assert_eq!(searched, Some(value), "{position:?}");
            decided += 1;
        } else {
            assert_eq!(searched, None, "{position:?} is {value:?}");
            drawn += u32::from(value == EndgameValue::Draw);
        }
    }
    assert!(
        decided > 20 && drawn > 20,
        "{decided} decided, {drawn} drawn"
    );
}

#[test]
fn every_value_is_the_best_of_its_moves() {
    let db = three_pieces();
    let mut moves = Vec::new();
    for block in &db.index.blocks {
        for offset in 0..block.len as u64 {
            let Some(position) = db.index.position(block, offset) else {
                continue;
            };
            let value = db.probe(&position).unwrap();
            position.legal_moves(&mut moves);
            let children: Vec<EndgameValue> = moves
                .iter()
                .map(|&mv| {
                    let mut child = position;
                    child.apply(mv);
                    db.probe(&child).unwrap().before()
                })
                .collect();
            let best = children.iter().copied().max_by_key(|&value| rank(value));
            assert_eq!(
                best.unwrap_or(EndgameValue::Loss { plies: 0 }),
                value,
                "{position:?}"
            );
            let (_, keep) = db.best_moves(&position).unwrap();
            assert_eq!(
                keep.len(),
                children.iter().filter(|&&child| child == value).count()
            );
        }
    }
}

/// Orders values as the side to move prefers them: wins (the faster the better), draws, losses
/// (the slower the better).
fn rank(value: EndgameValue) -> i64 {
    match value {
        EndgameValue::Win { plies } => 1000 - i64::from(plies),
        EndgameValue::Draw => 0,
        EndgameValue::Loss { plies } => -1000 + i64::from(plies),
    }
}

#[test]
fn two_kings_beat_one_and_one_king_holds_one() {
    let db = three_pieces();
    let (mut kings, mut wins, mut draws) = (0, 0, 0);
    for block in &db.index.blocks {
        if block.material.0 != [0, 2, 0, 1] {
            continue;
        }
        for offset in 0..block.len as u64 {
            if let Some(position) = db.index.position(block, offset) {
                kings += 1;
                match db.probe(&position) {
                    Some(EndgameValue::Win { .. }) => wins += 1,
                    Some(EndgameValue::Draw) => draws += 1,
                    other => panic!("{}: {other:?}", position.to_fen()),
                }
            }
        }
    }
    // With the two kings to move, every placement is won but a few (34) where the lone king
    // wins one back, by a fork or because the two are cramped in a corner.
    assert_eq!(kings, 32 * 31 * 30 / 2);
    assert_eq!(kings, wins + draws);
    assert!(draws < 50, "{draws} drawn");
    assert_eq!(
        db.probe(&position("B:WK11:BK3,K4")),
        Some(EndgameValue::Draw)
    );
    let corner = db.probe(&position("B:WK32:BK1,K3")).unwrap();
    assert!(
        matches!(corner, EndgameValue::Win { plies } if plies > 9),
        "{corner:?}"
    );
    // One king against one is a draw, unless one is caught at once.
    assert_eq!(db.probe(&position("B:WK32:BK1")), Some(EndgameValue::Draw));
    assert_eq!(db.probe(&position("W:WK32:BK1")), Some(EndgameValue::Draw));
    assert_eq!(
        db.probe(&position("B:WK6:BK1")),
        Some(EndgameValue::Win { plies: 1 })
    );
    // The side without a piece has lost.
    assert_eq!(
        db.probe(&position("W:W:BK1")),
        Some(EndgameValue::Loss { plies: 0 })
    );
    // Four pieces are not in a database of three.
    assert_eq!(db.probe(&position("B:WK31,K32:BK1,K3")), None);
}

#[test]
fn a_build_on_its_thread_hands_the_database_over_once() {
    let slow = EndgameBuild::spawn(|| {
        std::thread::sleep(std::time::Duration::from_millis(300));
        Some(three_pieces())
    });
    assert_eq!(
        slow.wait_until(Instant::now()).err(),
        Some(StillBuilding::Yes)
    );
    // Far enough for a build in the idle class to get a processor while the other tests keep
    // both busy (60 s was once too short under other people's builds); the waits end as soon
    // as the builds do.
    let far = Instant::now() + std::time::Duration::from_secs(300);
    assert_eq!(slow.wait_until(far).unwrap().pieces(), 3);
    assert_eq!(slow.wait_until(far).err(), Some(StillBuilding::No));
    let failed = EndgameBuild::spawn(|| None);
    assert_eq!(failed.wait_until(far).err(), Some(StillBuilding::No));
    // The build runs only on a processor nobody else wants.
    let idle = EndgameBuild::spawn(|| {
        // SAFETY: pid 0 is the calling thread; the call only reads its policy.
        let policy = unsafe { libc::sched_getscheduler(0) };
        (policy == libc::SCHED_IDLE).then(three_pieces)
    });
    assert_eq!(idle.wait_until(far).unwrap().pieces(), 3);
}
