//! The mintaka test set (junghyun397/mintaka, documents/renju-test-set.md) and the tests of
//! its rusty_renju crate: strips and whole boards with every forbidden point marked.

use super::{marked, Case, Expect};

const MINTAKA: &str = "junghyun397/mintaka documents/renju-test-set.md";

/// The strips of the mintaka test set: one line, its ends the edges of the board.
pub(super) const STRIPS: &[Case] = &[
    // double-four-forbid
    strip("...X.XX4.X..."),
    strip("...X.4XX.X..."),
    strip("...XXX.4.XXX..."),
    strip("...XX.4X.XX..."),
    strip("...X.X4X.X..."),
    strip("...X.X4X4X.X..."),
    strip("...X.X4X4X4X4X4X.X..."),
    strip("...XXX..X.XX..."),
    strip("...X.X.X.XX..."),
    // overline-forbid
    strip("...XXX6XX..."),
    strip("...X6XXXX..."),
    strip("...X.XXX6XXX..."),
    strip("...OXXXX6X..."),
];

/// A mintaka strip whose every empty point is checked.
const fn strip(board: &'static str) -> Case {
    Case {
        source: MINTAKA,
        board,
        extra: &[],
        expect: Expect::Every,
    }
}

/// The mintaka strips of fives: the points that make five (marked `a`) are allowed, even
/// next to another four (`...XXXX..XXXX...`) or where one more stone is an overline.
pub(super) const FIVE_STRIPS: &[Case] = &[
    marked(MINTAKA, "..aXXXXa.."),
    marked(MINTAKA, "...OXXXXa.."),
    marked(MINTAKA, "...XXaXX..."),
    marked(MINTAKA, "...XXXaX..."),
    marked(MINTAKA, "..aXXXXaaXXXXa.."),
    marked(MINTAKA, "..aXXXX.XX..."),
];

const fn every(source: &'static str, board: &'static str) -> Case {
    Case {
        source,
        board,
        extra: &[],
        expect: Expect::Every,
    }
}

/// Whole boards of the mintaka test set and of rusty_renju's tests, every forbidden point
/// marked (the strict, recursive RIF reading).
pub(super) const BOARDS: &[Case] = &[
    every(
        "junghyun397/mintaka documents/renju-test-set.md, basic-forbid",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . 4 . . . . . . . . . . 14
13 . . . . X . . . . . . . . . . 13
12 . . X . X . . . . . . . . . . 12
11 . X . . X . . . . . . . . . . 11
10 X . . . O . . . . . . . . . . 10
 9 . . . . . . . . . . . . . . . 9
 8 . . . X X 6 X X X . . . . . . 8
 7 . . . . . . . . . . . . . . . 7
 6 . . . . . . . . . . . . . . . 6
 5 . . . . . . . . . . . . 3 . . 5
 4 . X . . . . . . . . . X X . . 4
 3 . X . X . . . . . . X . X . . 3
 2 . . . X . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 1 (no forbidden point)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . . . . O . . . . . . . 11
10 . . . . . O . . . . . . . . . 10
 9 . . . . . X X . . . . . . . . 9
 8 . . . . . . O X O . . . . . . 8
 7 . . . . . . O X O . . . . . . 7
 6 . . . . . . . . X X X O . . . 6
 5 . . . . . . . . . . . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 2 (no forbidden point)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . O . . . . . . . . . . 11
10 . . . . . X . . . . . . . . . 10
 9 . . . . . . X O O X . . . . . 9
 8 . . . . . . . X X . . . . . . 8
 7 . . . . . X . O O . . . . . . 7
 6 . . . . O X X . O X . . . . . 6
 5 . . . . . O . O . X . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 3 (no forbidden point)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . O . . . . . . . . . . 12
11 . . . . . O . . . . . . . . . 11
10 . . . . . X O . O X . . . . . 10
 9 . . . . . . X . X . . . . . . 9
 8 . . . . . . . X O X . . . . . 8
 7 . . . . . X O X O X O . . . . 7
 6 . . . . . X . . . O . . . . . 6
 5 . . . . . O . . . . . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 4 (a double three whose \
         second three is real)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . O . . . . . . . . . 12
11 . . . . . X O . O . . . . . . 11
10 . . . . . . X . X . O . . . . 10
 9 . . . . O . O X . . . . . . . 9
 8 . . . . . X O X O . . . . . . 8
 7 . . . . . X . 3 X . . . . . . 7
 6 . . . . . . . . . . . . . . . 6
 5 . . . . . . . . . . . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 5 (double nested \
         double three)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . O . . O . . . . . . . . 11
10 . . . . X . . X . O . . . . . 10
 9 . . . . O X O X X . . . . . . 9
 8 . . . . . . X X 3 . . . . . . 8
 7 . . . . . . O O X X . . . . . 7
 6 . . . . . X . . . . . . . . . 6
 5 . . . . O X . . . . . . . . . 5
 4 . . . . . O . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 6 (double nested \
         double three, three points)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . O . . O . . . . . . . . 11
10 . . . . X . 3 X 3 O . . . . . 10
 9 . . . . O X O X X . . . . . . 9
 8 . . . . . . X X 3 . O . . . . 8
 7 . . . . . . O O X X . . . . . 7
 6 . . . . . X O . . . . . . . . 6
 5 . . . . O X . . . . . . . . . 5
 4 . . . . . O . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, pseudo-forbid 7 (single nested \
         double three)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . O . . . . . . . 12
11 . . . . . . . X . . . . . . . 11
10 . . . . . O . X . . . . . . . 10
 9 . . . . . X O X O . . . . . . 9
 8 . . . . 3 X . X . O . . . . . 8
 7 . . O X X X X O X . . . . . . 7
 6 . . . . 3 X . O . O . . . . . 6
 5 . . . . X O O . . . . . . . . 5
 4 . . . O . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, complex-forbid",
        "
15 . . . . . . . . . . . . . . O 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . X . X . . . . . . . . 11
10 . . . . . . . . . X . . . . . 10
 9 . . . . . . 4 . . . . . . . . 9
 8 . . . . 3 . X X 3 . . . . . . 8
 7 . . . . X . 3 . X X . 3 . . . 7
 6 . . . . X . X . X . 3 . . . . 6
 5 . . . . . . . 3 4 X X X . . . 5
 4 . . . . . . . . X . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka documents/renju-test-set.md, recursive-forbid",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . . . . . . . . . . . . 11
10 . . . . . . O O . . . . . . . 10
 9 . . . . . 3 X X 3 . . . . . . 9
 8 . . . . O X X X X O . . . . . 8
 7 . . . . O X X X X O . . . . . 7
 6 . . . . . 3 X X 3 . . . . . . 6
 5 . . . . . . O O . . . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka rusty_renju/tests/test_forbid.rs, basic_forbidden_moves",
        "
15 . . . . . . . . . . X . . . . 15
14 . . . . 4 . . . . . X . . . . 14
13 . . . . X . . . . . X . . . . 13
12 . . X . X . . . . X . X X X X 12
11 . X . . X . . . . . X . . . . 11
10 X . . . O . . . . . . . . . . 10
 9 . . . . . . . . . . . . . . . 9
 8 . . . X X 6 X X X . . . . . . 8
 7 . . . . . . . . . . . . . . . 7
 6 . . . . . . . . . . . . . . . 6
 5 . . . . . . . . . X 3 . X . . 5
 4 . X . . . . . . . . X . . . . 4
 3 . X . X . . . . . . X . . . . 3
 2 . . . X . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka rusty_renju/tests/test_forbid.rs, pseudo_double_three (first)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . . . . . . . . . . . . 11
10 . . . . . . . . O . . . . . . 10
 9 . . . . O O X O O . . . . . . 9
 8 . . . . X 3 . X . . . . . . . 8
 7 . . . . X O . . . . . . . . . 7
 6 . . . . X X X . . . . . . . . 6
 5 . . . . X . . . . . . . . . . 5
 4 . . . . O . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka rusty_renju/tests/test_nested_forbid.rs, \
         pseudo_double_nested_double_three",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . . . . . . . . . 12
11 . . . . . X . . . O . . . . . 11
10 . . . . . . . . . . X . . . . 10
 9 . . . . . . . 3 . . O X . . . 9
 8 . . . . . O X X X O X . . . . 8
 7 . . . . . X . 3 . . . . . . . 7
 6 . . . . . . . X 3 . . . . . . 6
 5 . . . . . . . . . X . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka rusty_renju/tests/test_nested_forbid.rs, \
         multiple_nested_double_three (first)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . X . . . . . . . 12
11 . . . . . . . . . . . . X . . 11
10 . . . . . O . . . 3 . . O X . 10
 9 . . O X . . X O X X X O X . . 9
 8 . . . X O O . X O 3 . . . . . 8
 7 . O . . X X 3 . . X 3 . . . . 7
 6 . . . . . . X . . . X X O . . 6
 5 . . . . O . . . . . . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
    every(
        "junghyun397/mintaka rusty_renju/tests/test_nested_forbid.rs, \
         multiple_nested_double_three (second)",
        "
15 . . . . . . . . . . . . . . . 15
14 . . . . . . . . . . . . . . . 14
13 . . . . . . . . . . . . . . . 13
12 . . . . . . . X . . . . . . . 12
11 . . . . . . . . . . . . X . X 11
10 . . . . . O . . . 3 . . O X . 10
 9 . . O X . . X O X X X O X . . 9
 8 . . . X O O . X O 3 . . . . . 8
 7 . O . 3 X X 3 . . X . . . . . 7
 6 . . . . . . X . . . X X O . . 6
 5 . . . . O . . . . . . . . . . 5
 4 . . . . . . . . . . . . . . . 4
 3 . . . . . . . . . . . . . . . 3
 2 . . . . . . . . . . . . . . . 2
 1 . . . . . . . . . . . . . . . 1",
    ),
];
