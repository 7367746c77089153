//! Tests of the verdicts: codes, classes and sentences.

use super::*;

#[test]
fn every_code_reads_back_as_its_termination() {
    let all: Vec<Termination> = Termination::all().collect();
    assert_eq!(all.len(), Ending::ALL.len() + 11 + ResourceLimit::ALL.len());
    for termination in all {
        assert_eq!(termination.code().parse(), Ok(termination));
        let json = serde_json::to_string(&termination).unwrap();
        assert_eq!(json, format!("\"{}\"", termination.code()));
        assert_eq!(
            serde_json::from_str::<Termination>(&json).unwrap(),
            termination
        );
    }
    assert!("draw".parse::<Termination>().is_err());
}

#[test]
fn forfeits_are_told_from_endings() {
    for code in [
        "timeout",
        "illegal-move",
        "resign",
        "exited",
        "memory-limit",
        "refused-board",
    ] {
        assert!(code.parse::<Termination>().unwrap().is_forfeit(), "{code}");
    }
    for code in ["line", "all-lines-drawn", "repetition", "agreement"] {
        assert!(!code.parse::<Termination>().unwrap().is_forfeit(), "{code}");
    }
}

#[test]
fn every_forfeit_but_a_resignation_has_a_standings_column() {
    for termination in Termination::all() {
        let counted = termination.forfeit_column().is_some();
        assert_eq!(
            counted,
            termination.is_forfeit() && termination != Termination::Resign,
            "{termination}"
        );
    }
    assert_eq!(
        Termination::RefusedBoard.forfeit_column(),
        Some(ForfeitColumn::Crash)
    );
    assert_eq!(
        Termination::NotAMove.forfeit_column(),
        Some(ForfeitColumn::Illegal)
    );
}

fn names() -> [String; 2] {
    ["A (first player)".into(), "B (second player)".into()]
}

#[test]
fn lateness_reads_the_same_with_or_without_an_answer() {
    let late = |answered_after| Verdict::Forfeit {
        loser: Side::First,
        at: Moment::Move(3),
        forfeit: Forfeit::Late {
            answered_after,
            limit: Duration::from_millis(200),
            margin: Duration::from_millis(10),
            strikes: None,
            on_stderr: None,
            passed_over: None,
        },
    };
    let names = names();
    assert_eq!(
        late(Some(Duration::from_micros(212_400)))
            .sentence(&names)
            .to_string(),
        "A (first player) answered move 3 after 212.4 ms; the limit is 200 ms (+10 ms margin)"
    );
    assert_eq!(
        late(None).sentence(&names).to_string(),
        "A (first player) did not answer move 3 within 210 ms; the limit is 200 ms (+10 ms margin)"
    );
}

/// A timeout names the last move written on standard error that the rules allow, escaped
/// and cut short as any line of the bot's, and tells where moves go.
#[test]
fn a_move_written_on_stderr_is_named_in_the_timeout() {
    let timeout = |on_stderr: Vec<StderrMove>| {
        let overtime = Overtime {
            limit: Duration::from_millis(100),
            margin: Duration::from_millis(10),
            strikes: None,
        };
        let fault = Fault::Timeout {
            waited: Duration::from_millis(160),
            on_stderr,
            passed_over: None,
        };
        Verdict::fault(Side::First, Moment::Move(1), fault, overtime, |notation| {
            notation != "0 0"
        })
        .sentence(&names())
        .to_string()
    };
    let written = |written: &str, notation: &str| StderrMove {
        written: written.into(),
        notation: notation.into(),
    };
    let bare =
        "A (first player) did not answer move 1 within 110 ms; the limit is 100 ms (+10 ms margin)";
    assert_eq!(timeout(Vec::new()), bare);
    // Only illegal moves: nothing to say.
    assert_eq!(timeout(vec![written("0 0", "0 0")]), bare);
    assert_eq!(
        timeout(vec![
            written("4 4", "4 4"),
            written("3 5", "5 3"),
            written("0 0", "0 0")
        ]),
        format!(
            "{bare}; it wrote '3 5' on standard error; moves must go to standard output \
             (print / System.out / cout), flushed"
        )
    );
    let long = format!("4 4\x1b[2J{}", " ".repeat(100));
    let said = timeout(vec![written(&long, "4 4")]);
    assert!(said.contains("; it wrote '4 4\\x1b[2J     "), "{said}");
    assert!(said.contains("...' on standard error"), "{said}");
}

#[test]
fn a_line_that_reads_like_prose_is_pointed_to_stderr() {
    for prose in [
        "thinking...",
        "DEBUG: best 3 4",
        "depth 5 score 12",
        "banana",
        "Loading model",
    ] {
        assert!(looks_like_prose(prose), "{prose}");
    }
    for notation in [
        "3 4",
        "1,1",
        "h 0 0",
        "V 2 1",
        "9x18x27",
        "11-15 draw",
        "Resign",
        "x",
        "swap",
        "SWAP",
        "7 5 more",
    ] {
        assert!(!looks_like_prose(notation), "{notation}");
    }
    let verdict = |sent: &str| Verdict::Forfeit {
        loser: Side::First,
        at: Moment::Move(1),
        forfeit: Forfeit::NotAMove {
            sent: sent.into(),
            written: None,
            expected: "expected two numbers 'x y' (column, then row)".into(),
        },
    };
    let names = names();
    assert_eq!(
        verdict("thinking...").sentence(&names).to_string(),
        "A (first player) sent 'thinking...' for move 1, which is not a move: expected two \
         numbers 'x y' (column, then row); it reads like debug output: write that to \
         stderr, stdout carries the protocol only"
    );
    assert!(!verdict("1,1")
        .sentence(&names)
        .to_string()
        .contains("stderr"));
    let unasked = Fault::Unrequested {
        line: "my eval: +3".into(),
        memory_limit_mb: None,
    };
    assert!(
        unasked.to_string().ends_with(DEBUG_OUTPUT_HINT),
        "{unasked}"
    );
    let jvm = "Error occurred during initialization of VM";
    assert!(looks_like_allocation_failure(jvm));
    assert!(looks_like_allocation_failure(
        "Could not reserve enough space for object heap"
    ));
    assert!(!looks_like_allocation_failure("my eval: +3"));
    let stopped = Fault::Unrequested {
        line: jvm.into(),
        memory_limit_mb: Some(768),
    };
    assert_eq!(
        stopped.to_string(),
        "wrote when not asked: 'Error occurred during initialization of VM'; it reads like \
         a failure to get memory: its memory limit of 768 MiB (address space, --limits \
         memory=) most likely stopped it (a JVM reserves more than its heap: raise the \
         limit, or cap the heap with -Xmx)"
    );
}

#[test]
fn a_seat_fault_names_when_it_happened() {
    let exited = |at| {
        Verdict::fault(
            Side::Second,
            at,
            Fault::Exited {
                detail: "exited with code 3".into(),
            },
            Overtime {
                limit: Duration::ZERO,
                margin: Duration::ZERO,
                strikes: None,
            },
            |_| false,
        )
    };
    let names = names();
    assert_eq!(
        exited(Moment::Setup).sentence(&names).to_string(),
        "B (second player) exited with code 3 during the setup"
    );
    assert_eq!(
        exited(Moment::Move(4)).sentence(&names).to_string(),
        "B (second player) exited with code 3 at move 4"
    );
    assert_eq!(exited(Moment::Move(4)).winner(), Some(Side::First));
    assert_eq!(exited(Moment::Move(4)).termination(), Termination::Exited);
    // When it happened stays with what the bot did, before the advice.
    let fault = |at, fault| {
        Verdict::fault(
            Side::First,
            at,
            fault,
            Overtime {
                limit: Duration::ZERO,
                margin: Duration::ZERO,
                strikes: None,
            },
            |_| false,
        )
    };
    let unasked = Fault::Unrequested {
        line: "thinking done".into(),
        memory_limit_mb: None,
    };
    assert_eq!(
        fault(Moment::Move(3), unasked).sentence(&names).to_string(),
        format!(
            "A (first player) wrote when not asked: 'thinking done' at move 3{DEBUG_OUTPUT_HINT}"
        )
    );
    let silent = fault(
        Moment::Setup,
        Fault::NoReadyLine {
            allowance: Duration::from_millis(5000),
        },
    );
    assert_eq!(
        silent.sentence(&names).to_string(),
        "A (first player) not ready: no 'ready' line within 5000 ms during the setup; a line \
         the bot wrote but did not flush never arrives: flush stdout after every line"
    );
    assert_eq!(silent.termination(), Termination::NotReady);
}

#[test]
fn a_forbidden_move_is_a_loss_by_the_rules_that_names_its_shape() {
    use crate::games::Forbidden;
    for shape in Forbidden::ALL {
        let verdict = Verdict::Rules {
            winner: Some(Side::Second),
            ending: Ending::Forbidden(shape),
            last: None,
        };
        assert_eq!(verdict.termination(), Termination::ForbiddenMove);
        assert_eq!(verdict.violation(), Some(shape.code()));
        assert!(!verdict.termination().is_forfeit());
        assert_eq!(verdict.termination().forfeit_column(), None);
    }
    let verdict = Verdict::Rules {
        winner: Some(Side::Second),
        ending: Ending::Forbidden(Forbidden::DoubleThree),
        last: Some(super::LastMove {
            number: 9,
            notation: "7 7".into(),
        }),
    };
    assert_eq!(
        verdict.sentence(&names()).to_string(),
        "B (second player) wins: A (first player) made a forbidden double three with move 9, \
         '7 7' (renju forbids it to Black)"
    );
    assert_eq!("forbidden-move".parse(), Ok(Termination::ForbiddenMove));
}
