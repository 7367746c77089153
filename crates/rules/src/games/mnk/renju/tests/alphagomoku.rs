//! The renju tests of AlphaGomoku (MaciejKozarzewski/AlphaGomoku, test_renju.cpp): the
//! points each test names, on the boards it draws.

use super::{Case, Expect};

const ALPHAGOMOKU: &str = "MaciejKozarzewski/AlphaGomoku tests, test_renju.cpp";

const fn points(board: &'static str, extra: &'static [&'static str]) -> Case {
    Case {
        source: ALPHAGOMOKU,
        board,
        extra,
        expect: Expect::Marked,
    }
}

/// AlphaGomoku's renju tests: the points each test names, forbidden (`F`) or allowed (`a`).
/// Rows are numbered 0 to 14 from the top, columns a to o.
pub(super) const NAMED_POINTS: &[(&str, Case)] = &[
    (
        "WinIn1: a five at either end of four",
        points(
            "
a _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
a _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "Overline: filling the gap makes six",
        points(
            "
a _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
6 _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "WinInsideOverline: a five across wins though the same stone makes six down",
        points(
            "
a _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
a X X X X _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "FourAndFour: double fours on two lines and on one",
        points(
            "
_ _ _ _ _ _ _ _ _ X 4 _ X X _
_ _ X 4 X X O _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ X _ _
_ _ _ X _ _ _ _ _ _ _ _ _ X _
_ _ _ X _ _ O X X X 4 _ _ _ X
_ _ _ X _ _ _ _ _ _ X _ _ _ _
X _ _ O _ _ _ _ _ _ X _ _ _ _
X _ _ _ _ _ _ _ _ _ X _ _ _ _
_ _ _ _ _ _ _ _ _ _ O _ _ _ _
4 _ _ _ _ X _ X 4 X _ X _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
X _ _ _ _ _ _ _ _ _ _ _ _ _ _
O _ _ _ _ X X X _ 4 _ X X X _",
            &[],
        ),
    ),
    (
        "FourAndFreeThree: a four and a three together are allowed",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ a _ _ _ _ O _ X a X _ O
_ _ X X _ _ _ _ _ _ _ X _ _ _
_ X _ X _ _ _ _ _ _ _ X _ _ _
_ _ _ X _ _ _ _ _ _ _ X _ _ _
_ _ _ O _ _ _ _ _ _ _ O _ _ _
_ _ _ _ _ X X a _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
X _ _ _ _ _ _ O _ _ _ X _ _ _
_ _ _ _ _ _ _ _ _ _ X _ _ _ _
_ _ a _ X X _ _ _ a _ X X X O
_ _ _ X _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ X _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "ThreeAndThree: double threes, and one whose three is blocked",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ O X a X _ _ _ _ _ X _ 3 X _
_ _ _ X _ _ _ _ _ _ _ _ X _ _
_ _ _ X _ _ _ _ _ _ _ _ X _ _
_ _ _ _ _ _ _ _ X _ _ _ _ _ _
_ _ _ _ _ _ _ 3 _ _ _ _ _ _ _
_ _ _ _ _ _ X X _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ X _ _ _ _ _ _ _ _ _ _ X _
_ _ _ X _ X _ _ _ _ _ _ X _ _
_ _ _ _ 3 _ _ _ _ _ _ _ _ _ _
_ _ _ X _ _ _ _ X X 3 _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "DeadThree: a three with no room for a straight four",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ X _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ X X _ a _ _ _ _ _
_ _ _ _ _ _ _ _ X _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ O _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "ForbiddenPatterns: threes that are not threes, and real ones",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ X
_ _ _ _ X _ _ _ _ _ _ _ _ a _
X _ _ a X X _ _ X _ _ _ _ _ _
_ _ X _ _ _ _ _ _ _ _ X _ X _
_ _ _ _ _ _ _ _ _ _ X _ _ X _
_ _ _ _ _ _ _ _ _ X _ _ _ X _
_ _ _ _ _ _ _ _ O _ _ _ _ O _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ X _ _ _ _ _ _ _ O X O _ _
_ _ X F _ X _ _ _ _ O _ O _ _
_ _ _ _ X _ _ _ _ _ X F X _ _
_ _ _ _ _ _ _ _ _ O O X O O _
_ _ _ _ _ _ O _ _ _ O _ O _ _",
            &[],
        ),
    ),
    (
        "TwoDeathEnds: both straight fours of a three end in a white stone",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ O _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ O _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ O _ _ _ _ _ _
_ _ _ _ _ _ _ _ X a X _ _ _ _
_ _ _ _ _ _ _ X O X O X _ _ _
_ _ _ _ _ _ O X O X O X O _ _
_ _ _ _ _ _ _ X _ _ _ X _ _ _
_ _ _ _ _ _ _ O _ _ _ O _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "ChainedForbidden: a three is no three when its straight four's point is forbidden",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ O _ _ _ _ _ O _ _ _ _
_ _ _ _ X _ _ _ _ _ X _ _ _ _
_ _ _ F X _ _ _ _ _ X F _ _ _
_ _ X X F _ _ _ _ _ F X X _ _
_ _ _ _ _ X _ _ _ X _ _ _ _ _
_ _ _ _ _ _ X _ X _ _ _ _ _ _
_ _ _ _ _ _ _ F _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ F X a X F _ _ _ _ _
_ _ _ _ X X X F X X X _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "ChainedForbidden, White's e3 taken away: h12 becomes forbidden",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ O _ _ _ _
_ _ _ _ X _ _ _ _ _ X _ _ _ _
_ _ _ _ X _ _ _ _ _ X _ _ _ _
_ _ X X _ _ _ _ _ _ _ X X _ _
_ _ _ _ _ X _ _ _ X _ _ _ _ _
_ _ _ _ _ _ X _ X _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ _ X _ _ _ _ _ _ _
_ _ _ _ _ _ X F X _ _ _ _ _ _
_ _ _ _ X X X _ X X X _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "LegalMove: a crowded point that is allowed",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ O X _ _ _ _ _ _
_ _ _ _ _ X _ O X _ _ _ _ _ _
_ _ _ _ _ _ O a X _ _ _ _ _ _
_ _ _ _ _ O X O _ X _ _ _ _ _
_ _ _ _ _ _ X O O X O O _ _ _
_ _ _ _ _ _ O X O X X _ _ _ _
_ _ _ _ _ _ _ _ X O _ _ _ _ _
_ _ _ _ _ _ _ _ O _ X _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "No33BlockedBy44: a second three whose straight four would be a double four",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ O _ _ _ _ _
_ _ _ _ _ _ _ _ O _ _ _ _ _ _
_ _ _ _ O O X O O _ _ _ _ _ _
_ _ _ _ X _ a X _ _ _ _ _ _ _
_ _ _ _ X O _ _ _ _ _ _ _ _ _
_ _ _ _ X X X _ _ _ _ _ _ _ _
_ _ _ _ X _ _ _ _ _ _ _ _ _ _
_ _ _ _ O _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "MultipleForks: forbidden points where several lines cross",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ O X O _
_ X _ _ _ _ _ _ _ _ X O X O X
_ _ _ _ _ _ _ _ _ _ O X X X O
_ _ X F X _ _ _ _ _ _ _ F _ _
_ _ X O X _ _ _ _ _ _ X _ _ _
_ X O _ O _ _ _ _ _ _ _ _ _ X
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ X _ _
_ X X F X O _ _ _ _ X _ F X _
_ _ O X X O _ _ _ _ O X X O O
_ _ O X O X _ _ _ _ X O _ _ _
_ _ _ X _ _ _ _ _ X _ _ _ _ _
_ _ _ O _ _ _ _ O _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "WinInFork: the same forks, each now also making five",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ O X O _
_ X _ _ _ _ _ _ _ _ X O X O X
_ _ _ _ _ _ _ _ _ _ O X X X O
X X X a X _ _ _ _ _ _ _ a _ _
_ _ X O X _ _ _ _ _ _ X _ X _
_ X O _ O _ _ _ _ _ _ _ _ _ X
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ X _
X X X a X O _ _ _ _ X _ a X _
_ _ O X X O _ _ _ _ O X X O O
_ _ O X O X _ _ _ _ X O _ _ _
_ _ _ X _ _ _ _ _ X _ _ _ _ _
_ _ _ O _ _ _ _ O _ _ _ _ _ _",
            &[],
        ),
    ),
    (
        "ForcedForbidden: k7 is forbidden",
        points(FORCED_FORBIDDEN, &[]),
    ),
    (
        "ForcedForbidden after Xk5 Oi10: k7 is allowed again",
        points(FORCED_FORBIDDEN_ALLOWED, &["Xk5", "Oi10"]),
    ),
    (
        "ForcedForbidden after Xk5 Oi10 Xi9 Om7: k7 is forbidden again",
        points(FORCED_FORBIDDEN, &["Xk5", "Oi10", "Xi9", "Om7"]),
    ),
    (
        "RemoveForbidden: h5 is forbidden",
        points(REMOVE_FORBIDDEN, &[]),
    ),
    (
        "RemoveForbidden after Xh3 Oi2: h5 is allowed",
        points(REMOVE_FORBIDDEN_ALLOWED, &["Xh3", "Oi2"]),
    ),
    (
        "Fake433: a four and two threes that are not both real",
        points(
            "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ X O _ _ _ _ _ _ _ _ _ _
_ _ a _ X _ _ _ _ _ _ _ _ _ _
_ X _ X _ O _ _ _ _ _ _ _ _ _
_ _ _ _ X _ _ _ _ _ _ _ _ _ _
O X _ X X _ _ _ _ _ _ _ _ _ _
_ _ X X a _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            &[],
        ),
    ),
    ("FoulR2225: f8 is forbidden", points(FOUL_R2225, &[])),
    (
        "FoulR2225 after Xi7: f8 is allowed",
        points(FOUL_R2225_ALLOWED, &["Xi7"]),
    ),
    (
        "FoulR2225 after Xi7 Og9: f8 is forbidden again",
        points(FOUL_R2225, &["Xi7", "Og9"]),
    ),
];

const FORCED_FORBIDDEN: &str = "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ X _ _ _ _ _ _
_ _ _ _ _ _ _ O O X X _ _ _ _
_ _ _ _ _ _ _ X O O F O _ _ _
_ _ _ _ _ _ _ X O X X _ _ _ _
_ _ _ _ _ _ _ O _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _";

const FORCED_FORBIDDEN_ALLOWED: &str = "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ X _ _ _ _ _ _
_ _ _ _ _ _ _ O O X X _ _ _ _
_ _ _ _ _ _ _ X O O a O _ _ _
_ _ _ _ _ _ _ X O X X _ _ _ _
_ _ _ _ _ _ _ O _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _";

const REMOVE_FORBIDDEN: &str = "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ X _ O _ _ _ _ _ _
_ _ _ _ _ X X F _ _ _ _ _ _ _
_ _ _ _ X _ O X X _ _ _ _ _ _
_ _ _ O _ O O X O X _ _ _ _ _
_ _ _ _ _ _ O X _ _ O _ _ _ _
_ _ _ _ _ _ _ O _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _";

const REMOVE_FORBIDDEN_ALLOWED: &str = "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ X _ O _ _ _ _ _ _
_ _ _ _ _ X X a _ _ _ _ _ _ _
_ _ _ _ X _ O X X _ _ _ _ _ _
_ _ _ O _ O O X O X _ _ _ _ _
_ _ _ _ _ _ O X _ _ O _ _ _ _
_ _ _ _ _ _ _ O _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _";

const FOUL_R2225: &str = "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ O _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ O _ X _ _ _ _ _ _
_ _ _ _ _ _ _ X O X _ _ _ _ _
_ _ _ _ _ _ O X _ _ _ _ _ _ _
_ _ _ _ _ F X X _ O _ _ _ _ _
_ _ _ _ _ X _ O _ _ _ _ _ _ _
_ _ _ _ _ _ O _ _ _ _ _ _ _ _
_ _ _ O _ X _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _";

const FOUL_R2225_ALLOWED: &str = "
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ O _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ O _ X _ _ _ _ _ _
_ _ _ _ _ _ _ X O X _ _ _ _ _
_ _ _ _ _ _ O X _ _ _ _ _ _ _
_ _ _ _ _ a X X _ O _ _ _ _ _
_ _ _ _ _ X _ O _ _ _ _ _ _ _
_ _ _ _ _ _ O _ _ _ _ _ _ _ _
_ _ _ O _ X _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _";
