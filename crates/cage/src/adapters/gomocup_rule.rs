//! Gomocup's `INFO rule`: the game's rule set as the bit flags of the Gomoku AI protocol
//! (1 exactly five in a row wins, 2 continuous game, 4 renju, 8 caro), so a brain plays by the
//! referee's rules: 0 freestyle, 1 exactly five, 4 renju, 8 caro, 9 caro with exactly five.
//!
//! `INFO` needs no answer, but a brain that cannot play the rule may say so with `ERROR`
//! (Rapfi: `ERROR Unknown rule id: 8. Rule is reset to freestyle...`) and then play a rule of
//! its own. Gomocup's managers pass that line over like any other (GomocupJudge's `wait` reads
//! moves only; its tournaments run a brain's executable built for the rule, picked by its
//! file name), so the game would be played by a brain that does not know its rule, unnoticed:
//! the referee rules it a refusal of the rule instead, as it rules an `ERROR` to `START` a
//! refusal of the board.

use super::gomocup::keyword;
use referee_rules::games::mnk::{MnkParams, Rule};
use referee_rules::verdict::Fault;

/// The value of `INFO rule` for a game of `params`.
pub(super) fn info_rule(params: &MnkParams) -> u8 {
    let exact = u8::from(params.exact);
    match params.rule {
        Rule::None => exact,
        Rule::Renju => 4,
        Rule::Caro => 8 | exact,
    }
}

/// The rule set of `params` in words, with its `INFO rule` value: `caro (INFO rule 8)`.
pub(super) fn rule_name(params: &MnkParams) -> String {
    let rule = match (params.rule, params.exact) {
        (Rule::None, false) => "freestyle",
        (Rule::None, true) => "exactly five",
        (Rule::Renju, _) => "renju",
        (Rule::Caro, false) => "caro",
        (Rule::Caro, true) => "caro with exactly five",
    };
    format!("{rule} (INFO rule {})", info_rule(params))
}

/// The refusal of the rule `rule` (see [`rule_name`]), when `line` is one: an `ERROR` line
/// that names the rule. A brain's other `ERROR` lines (to an `INFO` key it does not know) are
/// passed over, as Gomocup's managers do.
pub(super) fn refusal(rule: &str, line: &str) -> Option<Fault> {
    (keyword(line) == "ERROR" && line.to_ascii_lowercase().contains("rule")).then(|| {
        Fault::RefusedRule {
            rule: rule.to_string(),
            answer: line.to_string(),
        }
    })
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

    #[test]
    fn an_error_naming_the_rule_refuses_it() {
        let spec = GameSpec::from_words("gomoku", &["rule=caro"]).unwrap();
        let rule = rule_name(&spec.mnk_params().unwrap());
        assert_eq!(rule, "caro (INFO rule 8)");
        let line = "ERROR Unknown rule id: 8. Rule is reset to freestyle...";
        let fault = refusal(&rule, line).unwrap();
        assert_eq!(
            fault.to_string(),
            "refused the rule caro (INFO rule 8): 'ERROR Unknown rule id: 8. Rule is reset \
             to freestyle...'"
        );
        for passed_over in [
            "ERROR unknown INFO key max_memory",
            "MESSAGE rule 8 is fine",
            "7,7",
        ] {
            assert_eq!(refusal(&rule, passed_over), None, "{passed_over}");
        }
    }
}
