//! The board, line and rule set of an m,n,k game, read from `key=value` parameters: `mnk` plays
//! any board from 3x3 to 20x20, and tic-tac-toe and gomoku are presets with their own names.

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
    /// Renju or caro on top of the line (absent from older records and specs: `none`).
    #[serde(default)]
    pub rule: Rule,
    /// How the colours are chosen: a swap opening, or none (absent from older records, and
    /// left out when none, so that their form stays the same).
    #[serde(default, skip_serializing_if = "SwapRule::is_none")]
    pub swap: SwapRule,
}

/// The rule sets of Gomocup on top of `line` in a row: the `rule` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rule {
    /// A line wins (exactly `line` with `exact`): freestyle gomoku, or Gomocup's standard.
    #[default]
    None,
    /// The RIF renju rules: Black (the first player) may not make a double three, a double four
    /// or an overline, and only exactly five wins for Black; White wins with five or more.
    Renju,
    /// Caro (Gomocup rule 8): a line blocked at both ends by the opponent's marks does not win.
    Caro,
}

impl Rule {
    const WORDS: [(&'static str, Rule); 3] = [
        ("none", Rule::None),
        ("renju", Rule::Renju),
        ("caro", Rule::Caro),
    ];

    /// The value of the `rule` parameter.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::None => "none",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
        }
    }
}

/// Who plays which colour: fixed (the first player is Black), or chosen in a swap opening,
/// the `swap` parameter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SwapRule {
    /// The first player is Black and moves first.
    #[default]
    None,
    /// The first player places three stones (Black, White, Black); the second then takes
    /// Black (`swap`) or plays White's fourth stone.
    Swap1,
    /// As swap1, and the second player may also place two more stones (White, Black) and
    /// leave the choice of colour to the first player (Gomocup's swap2).
    Swap2,
}

impl SwapRule {
    const WORDS: [(&'static str, SwapRule); 3] = [
        ("none", SwapRule::None),
        ("swap1", SwapRule::Swap1),
        ("swap2", SwapRule::Swap2),
    ];

    fn is_none(&self) -> bool {
        *self == SwapRule::None
    }

    /// The value of the `swap` parameter.
    pub fn as_str(self) -> &'static str {
        match self {
            SwapRule::None => "none",
            SwapRule::Swap1 => "swap1",
            SwapRule::Swap2 => "swap2",
        }
    }
}

/// Tic-tac-toe: the 3x3 board with a line of three, under a name of its own. It may be asked
/// for with its own values (so every `game` line reads back) and nothing else; other boards
/// are what `mnk` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    /// The board and line the name stands for.
    pub params: MnkParams,
}

/// The `tictactoe` game: three in a row on 3x3, no rule set, no swap.
pub const TICTACTOE: Preset = Preset {
    params: MnkParams {
        width: 3,
        height: 3,
        line: 3,
        exact: false,
        rule: Rule::None,
        swap: SwapRule::None,
    },
};

/// Gomoku: five in a row on a square board, 15x15 unless `size` says otherwise (Gomocup's
/// freestyle league plays on 20x20), with Gomocup's `exact` and `rule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Gomoku {
    /// Only exactly five wins (Gomocup's exact-five rule); six or more in a row do not.
    pub exact: bool,
    /// Renju or caro; specs written before rule sets existed have none.
    #[serde(default)]
    pub rule: Rule,
    /// A swap opening; specs written before swap openings existed have none, and none is left
    /// out.
    #[serde(default, skip_serializing_if = "SwapRule::is_none")]
    pub swap: SwapRule,
    /// The board's side; specs written before it could change have 15.
    #[serde(default = "Gomoku::standard_size")]
    pub size: u8,
}

impl Gomoku {
    /// Freestyle gomoku on the 15x15 board.
    pub const STANDARD: Gomoku = Gomoku {
        exact: false,
        rule: Rule::None,
        swap: SwapRule::None,
        size: 15,
    };

    fn standard_size() -> u8 {
        Gomoku::STANDARD.size
    }

    /// The board and line.
    pub fn params(&self) -> MnkParams {
        MnkParams {
            width: self.size,
            height: self.size,
            line: 5,
            exact: self.exact,
            rule: self.rule,
            swap: self.swap,
        }
    }

    /// Reads gomoku's parameters: `size` (5 to 20, 15 unless given), or `width` and `height`
    /// equal to it (as the `game` line writes the board), `line` only 5, `exact` and `rule`.
    pub(crate) fn read(reader: &mut ParamReader) -> Result<Gomoku, ParamError> {
        let size = reader.number("size", 5..=20, i64::from(Gomoku::STANDARD.size))?;
        let width = reader.number("width", 5..=20, size)?;
        let height = reader.number("height", 5..=20, width)?;
        if width != height || (size != i64::from(Gomoku::STANDARD.size) && size != width) {
            return Err(reader.bad(
                "width",
                format!(
                    "gomoku's board is square: give size=N (a {width}x{height} board is mnk's)"
                ),
            ));
        }
        let size = width;
        let line = fixed(reader, "line", 5, "five in a row")?;
        let exact = reader.flag("exact", false)?;
        Ok(Gomoku {
            exact,
            rule: read_rule(reader, line, exact)?,
            swap: read_swap(reader, line)?,
            size: size as u8,
        })
    }
}

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
        let exact = reader.flag("exact", false)?;
        Ok(MnkParams {
            width: width as u8,
            height: height as u8,
            line: line as u8,
            exact,
            rule: read_rule(reader, line, exact)?,
            swap: read_swap(reader, line)?,
        })
    }

    /// Every parameter with its value, in the order a bot is told them. `rule` is told only
    /// when it is not `none`, so that the `game` line of a game without one reads as it always
    /// has (for bots and records written before rule sets existed).
    pub(crate) fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut pairs = vec![
            ("width", self.width.to_string()),
            ("height", self.height.to_string()),
            ("line", self.line.to_string()),
            ("exact", yes_no(self.exact).to_string()),
        ];
        if self.rule != Rule::None {
            pairs.push(("rule", self.rule.as_str().to_string()));
        }
        if self.swap != SwapRule::None {
            pairs.push(("swap", self.swap.as_str().to_string()));
        }
        pairs
    }
}

/// Reads `rule`: renju is defined for five in a row and decides overlines itself (Black's is
/// forbidden, White's wins), so it takes neither another line nor `exact=yes`.
fn read_rule(reader: &mut ParamReader, line: i64, exact: bool) -> Result<Rule, ParamError> {
    let rule = reader.choice("rule", &Rule::WORDS, Rule::None)?;
    match rule {
        Rule::Renju if line != 5 => Err(reader.bad(
            "rule",
            format!("renju is played with five in a row, not line={line}"),
        )),
        Rule::Renju if exact => Err(reader.bad(
            "rule",
            "renju decides overlines itself (Black's is forbidden, White's wins): \
             it takes exact=no"
                .into(),
        )),
        _ => Ok(rule),
    }
}

/// Reads `swap`: the opening places up to three Black stones before the colours are settled, so
/// a line of three could be made before anyone knows whose it is; a swap takes `line` 4 or more.
fn read_swap(reader: &mut ParamReader, line: i64) -> Result<SwapRule, ParamError> {
    let swap = reader.choice("swap", &SwapRule::WORDS, SwapRule::None)?;
    if swap != SwapRule::None && line < 4 {
        return Err(reader.bad(
            "swap",
            format!(
                "a swap opening needs line=4 or more: its first five stones could make a \
                 line of {line} before the colours are chosen"
            ),
        ));
    }
    Ok(swap)
}

impl Preset {
    /// Reads a preset's parameters, which take the same keys as `mnk`'s but only the preset's
    /// values; a board too small for a longer line has no `exact=yes`.
    pub(crate) fn read(&self, reader: &mut ParamReader) -> Result<MnkParams, ParamError> {
        let side = self.params.width as i64;
        for key in ["size", "width", "height"] {
            fixed(reader, key, side, "the game mnk plays other boards")?;
        }
        fixed(
            reader,
            "line",
            self.params.line as i64,
            "the game mnk plays other lines",
        )?;
        if reader.flag("exact", false)? {
            return Err(reader.bad(
                "exact",
                "tic-tac-toe has no overlines: only exact=no is allowed".into(),
            ));
        }
        Ok(self.params)
    }
}

/// A parameter that may only be given its one value, `why` said when another is given.
fn fixed(
    reader: &mut ParamReader,
    key: &'static str,
    value: i64,
    why: &str,
) -> Result<i64, ParamError> {
    match reader.take(key) {
        None => Ok(value),
        Some(text) if text.parse::<i64>() == Ok(value) => Ok(value),
        Some(text) => Err(reader.bad(
            key,
            format!(
                "'{text}' is not allowed: {} is always {value} ({why})",
                reader.game()
            ),
        )),
    }
}
