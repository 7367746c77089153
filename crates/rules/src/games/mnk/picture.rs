//! The m,n,k board as a picture: a grid with its coordinates, X and O marks, the last move
//! lit, and each empty square a target while the game goes on.

use super::Mnk;
use crate::games::picture::{Picture, Target};
use crate::games::{parse_coordinate, Game, Side};

/// A square's side, in the picture's units.
pub(crate) const CELL: i32 = 32;
/// Room for the coordinates along the top and left edges.
pub(crate) const MARGIN: i32 = 24;

/// Where the mark of column `x`, row `y` is centred.
pub(crate) fn centre(x: u8, y: u8) -> (i32, i32) {
    (
        MARGIN + i32::from(x) * CELL + CELL / 2,
        MARGIN + i32::from(y) * CELL + CELL / 2,
    )
}

/// Draws an X or an O centred on `at`, in the classes given for X and for O.
pub(crate) fn mark(
    picture: &mut Picture,
    side: Side,
    at: (i32, i32),
    half: i32,
    [x_class, o_class]: [&'static str; 2],
) {
    match side {
        Side::First => picture.cross(at, half, x_class),
        Side::Second => picture.circle(at.0, at.1, half, o_class),
    }
}

/// The classes of the marks on squares.
pub(crate) const MARKS: [&str; 2] = ["x", "o"];

/// Lights square (x, y) in `class`.
pub(crate) fn light(picture: &mut Picture, (x, y): (u8, u8), class: &'static str) {
    let (cx, cy) = centre(x, y);
    picture.rect(cx - CELL / 2, cy - CELL / 2, CELL, CELL, class);
}

/// The X and O marks of a `width` x `height` grid of squares.
pub(crate) fn marks(
    picture: &mut Picture,
    width: u8,
    height: u8,
    mark_at: impl Fn(u8, u8) -> Option<Side>,
) {
    for y in 0..height {
        for x in 0..width {
            if let Some(side) = mark_at(x, y) {
                mark(picture, side, centre(x, y), CELL / 3, MARKS);
            }
        }
    }
}

/// A target on each square a legal move plays, given as the square and the move's notation.
pub(crate) fn targets(picture: &mut Picture, moves: impl IntoIterator<Item = ((u8, u8), String)>) {
    for ((x, y), notation) in moves {
        let (cx, cy) = centre(x, y);
        picture.target(
            cx - CELL / 2,
            cy - CELL / 2,
            CELL,
            CELL,
            Target::Move(notation),
        );
    }
}

/// `picture` with the square `text` names (`x y`) marked as a refused move, when it is one of
/// a `width` x `height` grid's.
pub(crate) fn with_refused(
    mut picture: Picture,
    text: &str,
    width: u8,
    height: u8,
) -> Option<Picture> {
    let mut words = text.split_whitespace();
    let (Some(x), Some(y), None) = (words.next(), words.next(), words.next()) else {
        return None;
    };
    let on_board = |n: &str, size: u8| {
        let n = parse_coordinate(n)?;
        u8::try_from(n).ok().filter(|&n| n < size)
    };
    let (x, y) = (on_board(x, width)?, on_board(y, height)?);
    light(&mut picture, (x, y), "refused");
    picture.cross(centre(x, y), CELL / 3, "refused");
    Some(picture)
}

/// The coordinates along the top and left edges of a grid of `width` x `height` squares.
pub(crate) fn coordinates(picture: &mut Picture, width: u8, height: u8) {
    for x in 0..width {
        picture.text(centre(x, 0).0, MARGIN / 2, "label", x.to_string());
    }
    for y in 0..height {
        picture.text(MARGIN / 2, centre(0, y).1, "label", y.to_string());
    }
}

impl Mnk {
    pub(super) fn draw_picture(&self) -> Picture {
        let params = self.params();
        let (width, height) = (params.width, params.height);
        let size = |n: u8| MARGIN + i32::from(n) * CELL + 4;
        let mut picture = Picture::new("mnk", size(width), size(height));
        picture.rect(
            MARGIN,
            MARGIN,
            i32::from(width) * CELL,
            i32::from(height) * CELL,
            "ground",
        );
        coordinates(&mut picture, width, height);
        for x in 0..=width {
            let left = MARGIN + i32::from(x) * CELL;
            picture.line(
                (left, MARGIN),
                (left, MARGIN + i32::from(height) * CELL),
                "grid",
            );
        }
        for y in 0..=height {
            let top = MARGIN + i32::from(y) * CELL;
            picture.line(
                (MARGIN, top),
                (MARGIN + i32::from(width) * CELL, top),
                "grid",
            );
        }
        if let Some(last) = self.last_move() {
            light(&mut picture, self.coordinates(last), "last");
        }
        marks(&mut picture, width, height, |x, y| self.mark_at(x, y));
        if let Some((from, to)) = self.winning_line() {
            picture.line(centre(from.0, from.1), centre(to.0, to.1), "win-line");
        }
        // Renju: Black's forbidden points are no moves; each is marked, and a click on one
        // says why rather than doing nothing.
        for (square, shape) in self.forbidden_points() {
            let (x, y) = self.coordinates(square);
            let (cx, cy) = centre(x, y);
            picture.cross((cx, cy), CELL / 6, "forbidden");
            picture.target(
                cx - CELL / 2,
                cy - CELL / 2,
                CELL,
                CELL,
                Target::Forbidden(shape),
            );
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let moves = moves
            .into_iter()
            .map(|square| (self.coordinates(square), self.format_move(square)));
        targets(&mut picture, moves);
        picture
    }
}

#[cfg(test)]
mod tests {
    use crate::games::mnk::{Mnk, TICTACTOE};
    use crate::games::picture::Target;
    use crate::games::{AnyGame, Forbidden, Game};

    #[test]
    fn marks_the_last_move_and_offers_the_empty_squares() {
        let mut game = Mnk::new(TICTACTOE.params);
        game.play_text("1 1").unwrap();
        game.play_text("2 0").unwrap();
        let picture = Game::picture(&game);
        let svg = picture.to_svg(true);
        assert_eq!(svg.matches("class=\"x\"").count(), 2, "one X: two strokes");
        assert_eq!(svg.matches("class=\"o\"").count(), 1);
        // The last move, 2 0, is lit.
        assert!(
            svg.contains("<rect class=\"last\" x=\"88\" y=\"24\""),
            "{svg}"
        );
        let targets: Vec<&Target> = picture.targets().collect();
        assert_eq!(targets.len(), 7);
        assert!(!targets.contains(&&Target::Move("1 1".into())));
        assert!(targets.contains(&&Target::Move("0 2".into())));
    }

    #[test]
    fn a_refused_move_is_marked_on_its_square_when_it_names_one() {
        let mut game = Mnk::new(TICTACTOE.params);
        game.play_text("1 1").unwrap();
        let svg = Game::refused_picture(&game, "1 1").unwrap().to_svg(false);
        assert!(
            svg.contains("<rect class=\"refused\" x=\"56\" y=\"56\""),
            "{svg}"
        );
        for text in ["3 0", "1 -1", "banana", "1 1 1"] {
            assert!(Game::refused_picture(&game, text).is_none(), "{text}");
        }
    }

    #[test]
    fn the_winning_line_is_drawn_from_end_to_end() {
        let mut game = Mnk::new(TICTACTOE.params);
        for mv in ["0 0", "0 1", "1 1", "0 2", "2 2"] {
            game.play_text(mv).unwrap();
        }
        let svg = Game::picture(&game).to_svg(false);
        assert!(
            svg.contains("<polyline class=\"win-line\" points=\"40,40 104,104\"/>"),
            "{svg}"
        );
        game.undo(Mnk::square(&game, 2, 2), Some(Mnk::square(&game, 0, 2)));
        assert!(!Game::picture(&game).to_svg(false).contains("win-line"));
    }

    #[test]
    fn renju_marks_blacks_forbidden_points_and_says_why_when_clicked() {
        let spec = crate::games::GameSpec::from_words("gomoku", &["rule=renju"]).unwrap();
        let mut game = Mnk::new(spec.mnk_params().unwrap());
        // Black's 3 7, 4 7, 5 7, 7 7, 8 7: 6 7 would make six, an overline.
        for mv in [
            "3 7", "0 0", "4 7", "0 1", "5 7", "0 2", "7 7", "0 3", "8 7", "1 0",
        ] {
            game.play_text(mv).unwrap();
        }
        let picture = Game::picture(&game);
        let forbidden: Vec<&Target> = picture
            .targets()
            .filter(|target| matches!(target, Target::Forbidden(_)))
            .collect();
        assert_eq!(forbidden, [&Target::Forbidden(Forbidden::Overline)]);
        assert!(!picture.targets().any(|t| *t == Target::Move("6 7".into())));
        let svg = picture.to_svg(true);
        assert!(
            svg.contains("data-forbidden=\"overline\" x=\"216\" y=\"248\""),
            "{svg}"
        );
        assert_eq!(
            picture.to_svg(false).matches("class=\"forbidden\"").count(),
            2
        );
        // White is not restricted: nothing is marked on its turn.
        game.play_text("10 10").unwrap();
        game.play_text("0 4").unwrap();
        assert!(!Game::picture(&game).to_svg(true).contains("forbidden"));
    }
}
