//! One game of a tournament's schedule, as the runner is handed it: what the
//! [`super::schedule`] (known up front) and the [`super::rounds`] (paired from results) both
//! produce, in a module of its own so that the rounds need not import the schedule.

/// One game of the schedule: its index (from 0), who sits first and second (player indices),
/// and the cycle it belongs to (which chooses its opening).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// Its place in the schedule, from 0: the journal's key, and its record's number less one.
    pub index: u64,
    /// Player indices of who sits first and second.
    pub seats: [usize; 2],
    /// The cycle it belongs to: both games of a pair play the cycle's opening.
    pub cycle: u64,
}
