//! Games being played. Each slot's table shows the moves of the game it plays in its live file
//! ([`referee_records::live`]); the slot says here which game that is before it plays it and
//! that it is done once its result is stored. The pages list these games, show each in the
//! viewer as it is played, and hear of changes by server-sent events: a watcher looks at the
//! live files a few times a second and tells the pages when a move was made or a game began or
//! ended (at most that often, however many games the slots play).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// How often the watcher looks for moves.
const LOOK_EVERY: Duration = Duration::from_millis(200);

/// A game being played: its ladder and where its table shows its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveGame {
    /// The game's id in the queue (`scheduled.id`, which the stored game keeps as
    /// `scheduled_id`).
    pub id: i64,
    /// Its ladder.
    pub ladder: String,
    /// Its table's live file.
    pub file: PathBuf,
}

/// The games being played, and the generation of changes the pages wait on.
pub struct Playing {
    games: Mutex<BTreeMap<i64, LiveGame>>,
    /// A game began or ended since the watcher last looked.
    changed: AtomicBool,
    generation: watch::Sender<u64>,
}

impl Default for Playing {
    fn default() -> Playing {
        Playing {
            games: Mutex::default(),
            changed: AtomicBool::new(false),
            generation: watch::Sender::new(0),
        }
    }
}

impl Playing {
    fn games(&self) -> MutexGuard<'_, BTreeMap<i64, LiveGame>> {
        self.games
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A slot is about to play `game`.
    pub fn begin(&self, game: LiveGame) {
        self.games().insert(game.id, game);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// The game `id` was stored, given back to the queue or dropped.
    pub fn end(&self, id: i64) {
        self.games().remove(&id);
        self.changed.store(true, Ordering::Relaxed);
    }

    /// The games being played, oldest first.
    pub fn list(&self) -> Vec<LiveGame> {
        self.games().values().cloned().collect()
    }

    /// The game `id` of `ladder`, if it is being played.
    pub fn find(&self, ladder: &str, id: i64) -> Option<LiveGame> {
        self.games()
            .get(&id)
            .filter(|game| game.ladder == ladder)
            .cloned()
    }

    /// What pages wait on: a new value whenever a game being played moved, began or ended.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.generation.subscribe()
    }

    /// Looks at the live files every [`LOOK_EVERY`] for as long as the server runs, and tells
    /// the pages when anything changed.
    pub async fn watch(&self) {
        let mut sizes: BTreeMap<i64, u64> = BTreeMap::new();
        loop {
            tokio::time::sleep(LOOK_EVERY).await;
            let games = self.list();
            let now: BTreeMap<i64, u64> = games
                .iter()
                .map(|game| {
                    let size = std::fs::metadata(&game.file).map_or(0, |m| m.len());
                    (game.id, size)
                })
                .collect();
            let began_or_ended = self.changed.swap(false, Ordering::Relaxed);
            if began_or_ended || now != sizes {
                self.generation.send_modify(|generation| *generation += 1);
            }
            sizes = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_found_on_its_own_ladder_while_played() {
        let playing = Playing::default();
        let game = LiveGame {
            id: 7,
            ladder: "uttt".into(),
            file: PathBuf::from("/nowhere/live-1-1.jsonl"),
        };
        playing.begin(game.clone());
        assert_eq!(playing.find("uttt", 7), Some(game.clone()));
        assert_eq!(playing.find("tictactoe", 7), None, "another ladder's");
        assert_eq!(playing.list(), [game]);
        playing.end(7);
        assert_eq!(playing.find("uttt", 7), None);
        assert!(playing.list().is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn pages_hear_of_a_game_that_began_and_of_each_move() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("live-1-1.jsonl");
        std::fs::write(&file, "{}\n").unwrap();
        let playing = std::sync::Arc::new(Playing::default());
        let mut pages = playing.subscribe();
        let watcher = std::sync::Arc::clone(&playing);
        tokio::spawn(async move { watcher.watch().await });
        playing.begin(LiveGame {
            id: 1,
            ladder: "uttt".into(),
            file: file.clone(),
        });
        tokio::time::timeout(Duration::from_secs(1), pages.changed())
            .await
            .expect("told within a second")
            .unwrap();
        let seen = *pages.borrow_and_update();
        // Nothing changes: nothing is said.
        let quiet = tokio::time::timeout(Duration::from_secs(1), pages.changed()).await;
        assert!(quiet.is_err(), "told of nothing");
        std::fs::write(&file, "{}\n{\"move\":1}\n").unwrap();
        tokio::time::timeout(Duration::from_secs(1), pages.changed())
            .await
            .expect("told of the move")
            .unwrap();
        assert!(*pages.borrow_and_update() > seen);
    }
}
