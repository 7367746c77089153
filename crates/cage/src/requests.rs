//! What the arbiter's messages tell a seat that does not pass them on as they are (an adapter
//! speaking another protocol, a person's seat): a game's setup and a move request, read once.

use referee_rules::clock::TimeControl;
use referee_rules::games::{GameSpec, Side};
use referee_rules::protocol::RefereeMessage;

/// What a game's setup tells a seat.
pub struct Setup {
    /// The game and its parameters.
    pub spec: GameSpec,
    /// The side the seat plays.
    pub side: Side,
    /// The seat's own clock.
    pub time: TimeControl,
    /// The opening, in canonical notation.
    pub played: Vec<String>,
}

impl Setup {
    /// Reads the arbiter's setup messages, which always name the game, the side and the time.
    pub fn read(messages: &[RefereeMessage]) -> Setup {
        let (mut spec, mut side, mut time) = (None, None, None);
        let mut played = Vec::new();
        for message in messages {
            match message {
                RefereeMessage::Game(game) => spec = Some(game.clone()),
                RefereeMessage::Side(s) => side = Some(*s),
                RefereeMessage::Time(t) => time = Some(*t),
                RefereeMessage::Played(mv) => played.push(mv.clone()),
                _ => {}
            }
        }
        Setup {
            spec: spec.expect("the arbiter's setup names the game"),
            side: side.expect("the arbiter's setup names the side"),
            time: time.expect("the arbiter's setup names the time control"),
            played,
        }
    }
}

/// What a move request tells a seat.
pub(crate) struct Turn {
    /// The opponent's moves since the seat's last turn, in canonical notation.
    pub opponent: Vec<String>,
    /// The time for this move, in milliseconds.
    pub ms: u64,
    /// What is left of the bank, in milliseconds (None without a bank).
    pub bank_left: Option<u64>,
}

impl Turn {
    /// Reads the arbiter's request, which always ends with `turn MS`.
    pub(crate) fn read(messages: &[RefereeMessage]) -> Turn {
        let mut opponent = Vec::new();
        let mut time = None;
        for message in messages {
            match message {
                RefereeMessage::Opponent(mv) => opponent.push(mv.clone()),
                RefereeMessage::Turn { ms, bank_left } => time = Some((*ms, *bank_left)),
                _ => {}
            }
        }
        let (ms, bank_left) = time.expect("the arbiter's request ends with a turn");
        Turn {
            opponent,
            ms,
            bank_left,
        }
    }
}
