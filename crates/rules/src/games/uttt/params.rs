//! The rule variations of ultimate tic-tac-toe, read from `key=value` parameters: only how a
//! game without a line of boards is decided (the board itself is fixed).

use crate::games::param_reader::{ParamError, ParamReader};
use serde::{Deserialize, Serialize};

/// How ultimate tic-tac-toe is decided when no move is left and nobody has a line of boards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UtttTiebreak {
    /// A draw (theaigames / riddles.io).
    #[default]
    None,
    /// More small boards won wins (CodinGame).
    Codingame,
}

impl UtttTiebreak {
    /// Every tie-break: what the `tiebreak` parameter accepts.
    pub const ALL: [UtttTiebreak; 2] = [UtttTiebreak::None, UtttTiebreak::Codingame];

    /// The value of the `tiebreak` parameter.
    pub fn as_str(self) -> &'static str {
        match self {
            UtttTiebreak::None => "none",
            UtttTiebreak::Codingame => "codingame",
        }
    }
}

/// The rule variations of ultimate tic-tac-toe (the board itself is fixed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UtttParams {
    /// How a game with no move left and no line of boards is decided.
    pub tiebreak: UtttTiebreak,
}

impl UtttParams {
    /// Reads the `tiebreak` parameter, `none` unless given.
    pub(crate) fn read(reader: &mut ParamReader) -> Result<UtttParams, ParamError> {
        Ok(UtttParams {
            tiebreak: reader.choice(
                "tiebreak",
                &UtttTiebreak::ALL.map(|t| (t.as_str(), t)),
                UtttTiebreak::default(),
            )?,
        })
    }

    /// Every parameter with its value, in the order a bot is told them.
    pub(crate) fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![("tiebreak", self.tiebreak.as_str().to_string())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::uttt::test_positions::O_MORE_BOARDS;
    use crate::games::{Side, Variant};

    #[test]
    fn the_spec_parameter_reaches_the_rules() {
        let mut reader = ParamReader::new("uttt", &[("tiebreak", "codingame")]);
        let params = UtttParams::read(&mut reader).unwrap();
        reader.finish().unwrap();
        let mut game = params.new_game();
        for mv in O_MORE_BOARDS.split(',') {
            game.play_text(mv).unwrap();
        }
        assert_eq!(game.outcome().unwrap().winner, Some(Side::Second));
    }
}
