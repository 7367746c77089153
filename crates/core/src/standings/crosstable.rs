//! The crosstable: the points each player scored against each other, in the order of the
//! standings. A thousand players make a million cells, so the table keeps the tally's meetings
//! (shared, not copied) and makes each cell when it is shown or written.

use super::meetings::Meetings;
use serde::ser::{Serialize, SerializeStruct, Serializer};
use std::sync::Arc;

/// Every player against every other, in rank order. As JSON: one object per player,
/// `{"name", "against": [{"opponent", "points", "games"}, ...]}` listing the opponents met, in
/// rank order.
#[derive(Clone, Debug, PartialEq)]
pub struct Crosstable {
    /// In rank order: each player's name and its index among the meetings.
    players: Vec<(String, usize)>,
    meetings: Arc<Meetings>,
}

/// What one player scored against another.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Points scored by the row's player: 1 a win, ½ a draw.
    pub points: f64,
    /// Games they played against each other.
    pub games: u32,
}

impl Crosstable {
    pub(super) fn new(players: Vec<(String, usize)>, meetings: Arc<Meetings>) -> Crosstable {
        Crosstable { players, meetings }
    }

    /// Players (rows, and columns).
    pub fn len(&self) -> usize {
        self.players.len()
    }

    /// Whether there are no players (and so nothing to show).
    pub fn is_empty(&self) -> bool {
        self.players.is_empty()
    }

    /// The name of the player ranked `row` (from 0).
    pub fn name(&self, row: usize) -> &str {
        &self.players[row].0
    }

    /// What the player ranked `row` scored against the one ranked `column` (from 0); none if
    /// they did not meet.
    pub fn encounter(&self, row: usize, column: usize) -> Option<Encounter> {
        let (a, b) = (self.players[row].1, self.players[column].1);
        let meeting = self.meetings.between(a, b)?;
        let points_low = meeting.points_low();
        Some(Encounter {
            points: if a <= b {
                points_low
            } else {
                f64::from(meeting.games) - points_low
            },
            games: meeting.games,
        })
    }
}

impl Serialize for Crosstable {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((0..self.len()).map(|row| Row { table: self, row }))
    }
}

/// A row of the crosstable, as JSON.
struct Row<'a> {
    table: &'a Crosstable,
    row: usize,
}

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut row = serializer.serialize_struct("CrosstableRow", 2)?;
        row.serialize_field("name", self.table.name(self.row))?;
        row.serialize_field("against", &Against(self))?;
        row.end()
    }
}

/// The opponents a row's player met, as JSON.
struct Against<'a>(&'a Row<'a>);

impl Serialize for Against<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let Row { table, row } = *self.0;
        serializer.collect_seq((0..table.len()).filter_map(|column| {
            let encounter = table.encounter(row, column)?;
            Some(Opponent {
                opponent: table.name(column),
                points: encounter.points,
                games: encounter.games,
            })
        }))
    }
}

#[derive(serde::Serialize)]
struct Opponent<'a> {
    opponent: &'a str,
    points: f64,
    games: u32,
}
