//! The dots-and-boxes edge case `referee check` plays: a box to complete, after which the same
//! player must move again.

use super::DotsParams;
use crate::games::Scenario;

pub(super) fn scenarios(params: &DotsParams) -> Vec<Scenario> {
    if params.rows * params.cols <= 1 {
        // Completing the only box ends the game: there is no extra move to ask for.
        return Vec::new();
    }
    vec![Scenario {
        title: "a box to complete, then an extra move".into(),
        params: Vec::new(),
        opening: vec!["h 0 0".into(), "v 0 0".into(), "h 0 1".into()],
    }]
}
