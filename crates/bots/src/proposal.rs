//! The move a search would answer if it were stopped now. The protocol loop answers with it
//! when the search has not returned by the hard deadline (a loaded machine can keep a
//! thinking process off the CPU for tens of milliseconds), so a bot answers late only if the
//! whole process is starved, never because one search overran.

use std::sync::Mutex;

/// A legal move in notation, replaced as the search finds better ones.
#[derive(Debug, Default)]
pub(crate) struct Proposal(Mutex<Option<String>>);

impl Proposal {
    /// Replaces the move to answer with.
    pub(crate) fn set(&self, notation: String) {
        *self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(notation);
    }

    /// The move proposed last, if any.
    pub(crate) fn get(&self) -> Option<String> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}
