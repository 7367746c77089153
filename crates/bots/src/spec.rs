//! A built-in bot as an organiser names it: its level, and how much it searches for a move.

use super::{Level, UnknownLevel};
use std::fmt;
use std::str::FromStr;

/// How much a built-in bot searches for each move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Search {
    /// As long as the clock allows (see [`crate::GameClock`]): the most strength the machine
    /// gives, so the moves depend on its speed and load.
    #[default]
    Clock,
    /// This many positions (playouts in ultimate tic-tac-toe) and no more, within the clock:
    /// the same seed plays the same moves on any machine at any load, as long as the search
    /// fits in the time.
    Nodes(u64),
}

/// A built-in bot: `strong`, or `strong,nodes=20000` for a fixed search per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BotSpec {
    /// How strongly it plays.
    pub level: Level,
    /// How much it searches.
    pub search: Search,
}

impl From<Level> for BotSpec {
    fn from(level: Level) -> BotSpec {
        BotSpec {
            level,
            search: Search::Clock,
        }
    }
}

/// A built-in bot that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BotSpecError {
    /// The level does not exist.
    #[error(transparent)]
    Level(#[from] UnknownLevel),
    /// A parameter other than `nodes=N`.
    #[error(
        "unknown parameter '{0}' of a built-in bot (it takes nodes=N: a fixed search per move)"
    )]
    Parameter(String),
    /// `nodes=` with something else than a whole number from 1.
    #[error("nodes={0}: the positions to search per move, a whole number from 1")]
    Nodes(String),
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    /// A level (`strong` or `3`), then parameters after commas: `strong,nodes=20000`.
    fn from_str(text: &str) -> Result<BotSpec, BotSpecError> {
        let mut parts = text.split(',');
        let level: Level = parts.next().unwrap_or_default().parse()?;
        let mut spec = BotSpec::from(level);
        for part in parts {
            let Some(nodes) = part.strip_prefix("nodes=") else {
                return Err(BotSpecError::Parameter(part.to_string()));
            };
            match nodes.parse() {
                Ok(count) if count > 0 => spec.search = Search::Nodes(count),
                _ => return Err(BotSpecError::Nodes(nodes.to_string())),
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.level)?;
        match self.search {
            Search::Clock => Ok(()),
            Search::Nodes(nodes) => write!(f, ",nodes={nodes}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_with_a_fixed_search_reads_and_writes_back() {
        let spec: BotSpec = "3,nodes=20000".parse().unwrap();
        assert_eq!(spec.level, Level::Strong);
        assert_eq!(spec.search, Search::Nodes(20_000));
        assert_eq!(spec.to_string(), "strong,nodes=20000");
        assert_eq!("greedy".parse::<BotSpec>().unwrap().to_string(), "greedy");
        let refused = |text: &str| text.parse::<BotSpec>().unwrap_err().to_string();
        assert!(refused("strong,depth=3").contains("takes nodes=N"));
        assert!(refused("strong,nodes=0").contains("from 1"));
        assert!(refused("strong,nodes=many").contains("nodes=many"));
        assert!(refused("mighty,nodes=5").contains("unknown built-in bot"));
    }
}
