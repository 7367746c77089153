//! `referee standings`: the standings of one or more journals (a tournament's, or the shards'
//! of one), counting each game of a schedule once, whatever the journals overlap.

use super::journal::{self, Identity, JournalError};
use super::schedule::KNOCKOUT;
use crate::report::counted;
use crate::standings::{Standings, Tally};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The games of several journals, and what the user should know about them.
pub struct Merged {
    /// Every game counted, each schedule index of a tournament once.
    pub tally: Tally,
    /// What was skipped or looks amiss: games in two journals, torn lines, games missing.
    pub notes: Vec<String>,
    /// The players' versions the journals name (a contest's builds), by name.
    pub versions: BTreeMap<String, String>,
}

impl Merged {
    /// The standings of the games counted, each player's version with its row.
    pub fn standings(&self) -> Standings {
        Standings {
            versions: self.versions.clone(),
            ..self.tally.standings()
        }
    }
}

/// The games of one tournament seen so far: for each schedule index, which journal had it
/// first (its position in the list, plus one; 0 for a game not seen). Four bytes a game of the
/// schedule, where the journal has a few hundred.
struct Seen {
    identity: Identity,
    /// The tally's index of each of the identity's players.
    players: Vec<usize>,
    first_in: Vec<u32>,
    count: u64,
}

/// The place of `identity` among `tournaments`, adding it (and entering its players in `tally`)
/// when it is new.
fn enter(tournaments: &mut Vec<Seen>, tally: &mut Tally, identity: &Identity) -> usize {
    let known = tournaments
        .iter()
        .position(|seen| seen.identity == *identity);
    known.unwrap_or_else(|| {
        let players = identity
            .players
            .iter()
            .map(|name| tally.enter(name))
            .collect();
        for name in &identity.challengers {
            tally.enter_challenger(name);
        }
        tournaments.push(Seen {
            identity: identity.clone(),
            players,
            first_in: Vec::new(),
            count: 0,
        });
        tournaments.len() - 1
    })
}

/// The note on `games` of the journal `path` counted already from `earlier`: one for them
/// all (a journal given twice has every game in both).
fn repeated(path: &Path, earlier: &Path, games: &[u64]) -> String {
    const SHOWN: usize = 5;
    let numbers: Vec<String> = games.iter().take(SHOWN).map(u64::to_string).collect();
    format!(
        "{}: {} ({}{}) also in {}, counted once",
        path.display(),
        counted(games.len() as u64, "game"),
        numbers.join(", "),
        if games.len() > SHOWN { ", ..." } else { "" },
        earlier.display()
    )
}

/// Reads every journal, one line at a time, and adds each game once (by its tournament and
/// schedule index).
pub fn merge(paths: &[PathBuf]) -> Result<Merged, JournalError> {
    let mut tally = Tally::new();
    let mut notes = Vec::new();
    let mut tournaments: Vec<Seen> = Vec::new();
    for (at, path) in paths.iter().enumerate() {
        // The tournament of this journal, found at its first game (or after it, with none).
        let mut slot = None;
        // Games counted already, by the journal they were counted from (its place, from 1).
        let mut repeats: BTreeMap<u32, Vec<u64>> = BTreeMap::new();
        let end = journal::read_each(path, |header, entry, seats| {
            let slot = *slot
                .get_or_insert_with(|| enter(&mut tournaments, &mut tally, &header.tournament));
            let seen = &mut tournaments[slot];
            // The journal checked the index against the schedule's size.
            let index = entry.index as usize;
            if seen.first_in.len() <= index {
                seen.first_in.resize(index + 1, 0);
            }
            match seen.first_in[index] {
                0 => {
                    seen.first_in[index] = at as u32 + 1;
                    seen.count += 1;
                    let seats = seats.map(|seat| seen.players[seat]);
                    tally.add_between(seats, entry.winner, entry.reason);
                }
                first => repeats.entry(first).or_default().push(entry.index + 1),
            }
        })?;
        for (first, games) in repeats {
            notes.push(repeated(path, &paths[first as usize - 1], &games));
        }
        if end.torn > 0 {
            notes.push(format!(
                "{}: ignored {} bytes of a last line cut short (a crash while writing it)",
                path.display(),
                end.torn
            ));
        }
        match (&end.header, slot) {
            (None, _) => notes.push(format!("{}: empty journal", path.display())),
            (Some(header), None) => {
                enter(&mut tournaments, &mut tally, &header.tournament);
            }
            (Some(_), Some(_)) => {}
        }
    }
    if tournaments.len() > 1 {
        notes.push(format!(
            "these journals come from {} different tournaments (name, players, game, format, games, openings or seed differ); their games are added together",
            tournaments.len()
        ));
    }
    for Seen {
        identity, count, ..
    } in &tournaments
    {
        let found = *count;
        // A knock-out's matches decided without their tie-breaks leave games unplayed.
        if found < identity.total_games && !identity.format.starts_with(KNOCKOUT) {
            notes.push(format!(
                "tournament '{}': {found} of its {} games are in these journals (shards missing or unfinished?)",
                identity.name, identity.total_games
            ));
        }
    }
    let versions = tournaments
        .iter()
        .flat_map(|seen| seen.identity.versions.clone())
        .collect();
    Ok(Merged {
        tally,
        notes,
        versions,
    })
}
