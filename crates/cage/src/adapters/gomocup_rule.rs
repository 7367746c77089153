//! Gomocup's `INFO rule`: the game's rule set as the bit flags of the Gomoku AI protocol
//! (1 exactly five in a row wins, 2 continuous game, 4 renju, 8 caro), so a brain plays by the
//! referee's rules: 0 freestyle, 1 exactly five, 4 renju, 8 caro, 9 caro with exactly five.

use referee_rules::games::mnk::{MnkParams, Rule};

/// The value of `INFO rule` for a game of `params`.
pub(super) fn info_rule(params: &MnkParams) -> u8 {
    let exact = u8::from(params.exact);
    match params.rule {
        Rule::None => exact,
        Rule::Renju => 4,
        Rule::Caro => 8 | exact,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use referee_rules::games::GameSpec;

    #[test]
    fn each_rule_set_has_its_gomocup_flags() {
        for (words, flags) in [
            (&[][..], 0),
            (&["exact=yes"], 1),
            (&["rule=renju"], 4),
            (&["rule=caro"], 8),
            (&["rule=caro", "exact=yes"], 9),
        ] {
            let spec = GameSpec::from_words("gomoku", words).unwrap();
            assert_eq!(info_rule(&spec.mnk_params().unwrap()), flags, "{spec}");
        }
    }
}
