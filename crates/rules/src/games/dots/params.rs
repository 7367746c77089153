//! The board of a dots-and-boxes game, read from `key=value` parameters.

use crate::games::param_reader::{ParamError, ParamReader};
use serde::{Deserialize, Serialize};
use std::ops::RangeInclusive;

/// Board of a dots-and-boxes game, counted in boxes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DotsParams {
    /// Rows of boxes, 1..=10.
    pub rows: u8,
    /// Columns of boxes, 1..=10.
    pub cols: u8,
}

const SIZE: RangeInclusive<i64> = 1..=10;

impl DotsParams {
    /// Reads `rows` and `cols`, counted in boxes as the rules tables count them; `size` sets
    /// both, 3 unless given.
    pub(crate) fn read(reader: &mut ParamReader) -> Result<DotsParams, ParamError> {
        let size = reader.number("size", SIZE, 3)?;
        let rows = reader.number("rows", SIZE, size)?;
        let cols = reader.number("cols", SIZE, size)?;
        Ok(DotsParams {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    /// Every parameter with its value, in the order a bot is told them.
    pub(crate) fn pairs(&self) -> Vec<(&'static str, String)> {
        vec![
            ("rows", self.rows.to_string()),
            ("cols", self.cols.to_string()),
        ]
    }
}
