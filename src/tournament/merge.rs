//! `referee standings`: the standings of one or more journals (a tournament's, or the shards'
//! of one), counting each game of a schedule once, whatever the journals overlap.

use super::journal::{self, Identity, JournalError};
use crate::standings::Tally;
use std::collections::HashMap;
use std::path::PathBuf;

/// The games of several journals, and what the user should know about them.
pub struct Merged {
    pub tally: Tally,
    pub notes: Vec<String>,
}

/// Reads every journal and adds each game once (by its tournament and schedule index).
pub fn merge(paths: &[PathBuf]) -> Result<Merged, JournalError> {
    let mut tally = Tally::new();
    let mut notes = Vec::new();
    // For each tournament: the games seen, by index, with the journal they came from.
    let mut tournaments: Vec<(Identity, HashMap<u64, usize>)> = Vec::new();
    for (at, path) in paths.iter().enumerate() {
        let contents = journal::read(path)?;
        if contents.torn > 0 {
            notes.push(format!(
                "{}: ignored {} bytes of a last line cut short (a crash while writing it)",
                path.display(),
                contents.torn
            ));
        }
        let Some(header) = contents.header else {
            notes.push(format!("{}: empty journal", path.display()));
            continue;
        };
        let known = tournaments
            .iter()
            .position(|(identity, _)| *identity == header.tournament);
        let slot = match known {
            Some(slot) => slot,
            None => {
                for name in &header.tournament.players {
                    tally.enter(name);
                }
                for name in &header.tournament.challengers {
                    tally.enter_challenger(name);
                }
                tournaments.push((header.tournament, HashMap::new()));
                tournaments.len() - 1
            }
        };
        let seen = &mut tournaments[slot].1;
        for entry in &contents.entries {
            if let Some(&first) = seen.get(&entry.index) {
                notes.push(format!(
                    "{}: game {} is also in {}; counted once",
                    path.display(),
                    entry.index + 1,
                    paths[first].display()
                ));
                continue;
            }
            seen.insert(entry.index, at);
            tally.add(entry.scored());
        }
    }
    if tournaments.len() > 1 {
        notes.push(format!(
            "these journals come from {} different tournaments (name, players, game, format, games, openings or seed differ); their games are added together",
            tournaments.len()
        ));
    }
    for (identity, seen) in &tournaments {
        let found = seen.len() as u64;
        // A knock-out's matches decided without their tie-breaks leave games unplayed.
        if found < identity.total_games && !identity.format.starts_with(super::runner::KNOCKOUT) {
            notes.push(format!(
                "tournament '{}': {found} of its {} games are in these journals (shards missing or unfinished?)",
                identity.name, identity.total_games
            ));
        }
    }
    Ok(Merged { tally, notes })
}
