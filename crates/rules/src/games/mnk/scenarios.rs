//! The m,n,k edge cases `referee check` plays: an opening already played, and a board that is
//! not square.

use super::params::MnkParams;
use crate::games::Scenario;

/// The edge cases of a preset, whose board cannot change.
pub(super) fn fixed_board(params: &MnkParams) -> Vec<Scenario> {
    vec![opening(params)]
}

/// The edge cases of `mnk`: a square board hides a bot that mixes up columns and rows, so a
/// board wider than it is high is played too.
pub(super) fn any_board(params: &MnkParams) -> Vec<Scenario> {
    let mut cases = fixed_board(params);
    if params.width == params.height {
        cases.push(Scenario {
            title: "a board wider than it is high".into(),
            params: vec![rectangular(params)],
            opening: Vec::new(),
        });
    }
    cases
}

/// The centre and a corner already played, told to the bot in `played` lines.
fn opening(params: &MnkParams) -> Scenario {
    let (cx, cy) = (params.width / 2, params.height / 2);
    Scenario {
        title: "an opening already played: 'played' lines".into(),
        params: Vec::new(),
        opening: vec![format!("{cx} {cy}"), "0 0".into()],
    }
}

/// The square board of `params` made two columns wider, or two rows lower when that does not
/// fit.
fn rectangular(params: &MnkParams) -> (&'static str, String) {
    if params.width + 2 <= 20 {
        ("width", (params.width + 2).to_string())
    } else {
        ("height", (params.height - 2).to_string())
    }
}
