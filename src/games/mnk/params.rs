//! The board and line of an m,n,k game, read from `key=value` parameters: `mnk` plays any board
//! from 3x3 to 20x20, and tic-tac-toe and gomoku are presets with their own names.

use crate::games::param_reader::{yes_no, ParamError, ParamReader};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Board and line of an m,n,k game (tic-tac-toe and gomoku are presets of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MnkParams {
    /// Columns, 3..=20.
    pub width: u8,
    /// Rows, 3..=20.
    pub height: u8,
    /// Marks in a row needed to win, 3..=10 and at most the longer side... and fitting the board.
    pub line: u8,
    /// When true only a line of exactly `line` wins; an overline (longer) does not.
    pub exact: bool,
}

/// A fixed board and line under a name of its own: the game may be asked for with its own
/// values (so every `game` line reads back) and nothing else; other boards are what `mnk` is
/// for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The board and line; `exact` is only the default of the `exact` parameter.
    pub params: MnkParams,
    /// Why `exact=yes` is refused, for a board on which no line can be longer than `line`.
    no_overlines: Option<&'static str>,
}

pub const TICTACTOE: Preset = Preset {
    params: MnkParams {
        width: 3,
        height: 3,
        line: 3,
        exact: false,
    },
    no_overlines: Some("tic-tac-toe has no overlines: only exact=no is allowed"),
};

pub const GOMOKU: Preset = Preset {
    params: MnkParams {
        width: 15,
        height: 15,
        line: 5,
        exact: false,
    },
    no_overlines: None,
};

/// Gomoku's exactly-five rule: an overline does not win.
pub const GOMOKU_EXACT: Preset = Preset {
    params: MnkParams {
        exact: true,
        ..GOMOKU.params
    },
    ..GOMOKU
};

const SIZE: RangeInclusive<i64> = 3..=20;
const LINE: RangeInclusive<i64> = 3..=10;

impl MnkParams {
    /// Reads `mnk`'s parameters: a square board of `size` (15 unless given) or `width` by
    /// `height`, a `line` (5, or the longer side when shorter) and `exact`.
    pub(crate) fn read(reader: &mut ParamReader) -> Result<MnkParams, ParamError> {
        let side = reader.number("size", SIZE, 15)?;
        let width = reader.number("width", SIZE, side)?;
        let height = reader.number("height", SIZE, side)?;
        let line = reader.number("line", LINE, 5.min(width.max(height)))?;
        if line > width.max(height) {
            return Err(reader.bad(
                "line",
                format!("a line of {line} does not fit on a {width}x{height} board"),
            ));
        }
        Ok(MnkParams {
            width: width as u8,
            height: height as u8,
            line: line as u8,
            exact: reader.flag("exact", false)?,
        })
    }

    /// Every parameter with its value, in the order a bot is told them.
    pub(crate) fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("width", self.width.to_string()),
            ("height", self.height.to_string()),
            ("line", self.line.to_string()),
            ("exact", yes_no(self.exact).to_string()),
        ]
    }
}

impl Preset {
    /// Reads a preset's parameters, which take the same keys as `mnk`'s but only the preset's
    /// values; `exact` is free unless the board has no overlines.
    pub(crate) fn read(&self, reader: &mut ParamReader) -> Result<MnkParams, ParamError> {
        let side = self.params.width as i64;
        for key in ["size", "width", "height"] {
            fixed(reader, key, side)?;
        }
        fixed(reader, "line", self.params.line as i64)?;
        let exact = reader.flag("exact", false)?;
        match self.no_overlines {
            Some(why) if exact => Err(reader.bad("exact", why.into())),
            _ => Ok(MnkParams {
                exact,
                ..self.params
            }),
        }
    }
}

/// A preset's parameter, which may only be given its one value.
fn fixed(reader: &mut ParamReader, key: &'static str, value: i64) -> Result<i64, ParamError> {
    match reader.take(key) {
        None => Ok(value),
        Some(text) if text.parse::<i64>() == Ok(value) => Ok(value),
        Some(text) => Err(reader.bad(
            key,
            format!(
                "'{text}' is not allowed: {} is always {value} (the game mnk plays other boards)",
                reader.game()
            ),
        )),
    }
}
