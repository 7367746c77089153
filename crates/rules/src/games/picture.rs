//! Pictures of positions as SVG, one drawer per game beside its text diagram: the web viewer,
//! the static report and the browser seat all show the same picture. A picture is shapes with
//! CSS classes (the page's stylesheet colours them) and clickable targets that carry the move
//! they play, so the page's script needs to know no game.

use crate::games::Forbidden;
use std::fmt::Write as _;

/// A shape of a picture, in the picture's own units (its `viewBox`).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    Rect {
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        class: &'static str,
    },
    Circle {
        x: i32,
        y: i32,
        r: i32,
        class: &'static str,
    },
    /// A polyline: two points for a plain line.
    Line {
        points: Vec<(i32, i32)>,
        class: &'static str,
    },
    Text {
        x: i32,
        y: i32,
        class: &'static str,
        text: String,
    },
    /// A clickable area: a rectangle that plays `target` when clicked.
    Target {
        x: i32,
        y: i32,
        width: i32,
        height: i32,
        target: Target,
    },
}

/// What a click on a target means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// The move, in canonical notation (`3 4`, `h 0 1`).
    Move(String),
    /// A checkers square (1..32): a step of a move the page builds square by square.
    Square(u8),
    /// A renju point forbidden to Black, which the page explains when clicked.
    Forbidden(Forbidden),
}

/// A picture of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    width: i32,
    height: i32,
    /// The game's name, a class of the `<svg>` element.
    game: &'static str,
    shapes: Vec<Shape>,
}

impl Picture {
    /// An empty picture `width` by `height` units; `game` becomes a class of the `<svg>`.
    pub fn new(game: &'static str, width: i32, height: i32) -> Picture {
        Picture {
            width,
            height,
            game,
            shapes: Vec::new(),
        }
    }

    /// A rectangle with its top left corner at (x, y).
    pub fn rect(&mut self, x: i32, y: i32, width: i32, height: i32, class: &'static str) {
        self.shapes.push(Shape::Rect {
            x,
            y,
            width,
            height,
            class,
        });
    }

    /// A circle of radius `r` centred on (x, y).
    pub fn circle(&mut self, x: i32, y: i32, r: i32, class: &'static str) {
        self.shapes.push(Shape::Circle { x, y, r, class });
    }

    /// A straight line between two points.
    pub fn line(&mut self, from: (i32, i32), to: (i32, i32), class: &'static str) {
        self.polyline(vec![from, to], class);
    }

    /// Connected line segments through `points`, in order (not closed).
    pub fn polyline(&mut self, points: Vec<(i32, i32)>, class: &'static str) {
        self.shapes.push(Shape::Line { points, class });
    }

    /// Text centred on (x, y).
    pub fn text(&mut self, x: i32, y: i32, class: &'static str, text: impl Into<String>) {
        self.shapes.push(Shape::Text {
            x,
            y,
            class,
            text: text.into(),
        });
    }

    /// An X centred on (x, y), `half` from its centre to a corner's x and y.
    pub fn cross(&mut self, (x, y): (i32, i32), half: i32, class: &'static str) {
        self.line((x - half, y - half), (x + half, y + half), class);
        self.line((x - half, y + half), (x + half, y - half), class);
    }

    /// A clickable rectangle with its top left corner at (x, y), meaning `target` when clicked.
    pub fn target(&mut self, x: i32, y: i32, width: i32, height: i32, target: Target) {
        self.shapes.push(Shape::Target {
            x,
            y,
            width,
            height,
            target,
        });
    }

    /// The clickable targets, in the order drawn.
    pub fn targets(&self) -> impl Iterator<Item = &Target> {
        self.shapes.iter().filter_map(|shape| match shape {
            Shape::Target { target, .. } => Some(target),
            _ => None,
        })
    }

    /// The picture as an `<svg>` element; `targets: false` leaves the clickable areas out (a
    /// replay needs none, and is smaller without them).
    pub fn to_svg(&self, targets: bool) -> String {
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" class=\"board {}\">",
            self.width, self.height, self.game
        );
        for shape in &self.shapes {
            let _ = match shape {
                Shape::Rect {
                    x,
                    y,
                    width,
                    height,
                    class,
                } => write!(
                    out,
                    "<rect class=\"{class}\" x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\"/>"
                ),
                Shape::Circle { x, y, r, class } => write!(
                    out,
                    "<circle class=\"{class}\" cx=\"{x}\" cy=\"{y}\" r=\"{r}\"/>"
                ),
                Shape::Line { points, class } => {
                    let points: Vec<String> =
                        points.iter().map(|(x, y)| format!("{x},{y}")).collect();
                    write!(
                        out,
                        "<polyline class=\"{class}\" points=\"{}\"/>",
                        points.join(" ")
                    )
                }
                Shape::Text { x, y, class, text } => write!(
                    out,
                    "<text class=\"{class}\" x=\"{x}\" y=\"{y}\">{}</text>",
                    escape(text)
                ),
                Shape::Target {
                    x,
                    y,
                    width,
                    height,
                    target,
                } if targets => {
                    let data = match target {
                        Target::Move(mv) => format!("data-move=\"{}\"", escape(mv)),
                        Target::Square(square) => format!("data-square=\"{square}\""),
                        Target::Forbidden(shape) => format!("data-forbidden=\"{shape}\""),
                    };
                    write!(
                        out,
                        "<rect class=\"target\" {data} x=\"{x}\" y=\"{y}\" width=\"{width}\" height=\"{height}\"/>"
                    )
                }
                Shape::Target { .. } => Ok(()),
            };
        }
        out.push_str("</svg>");
        out
    }
}

/// Text made safe inside an XML element or attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_and_targets_are_escaped_and_targets_can_be_left_out() {
        let mut picture = Picture::new("mnk", 10, 10);
        picture.text(1, 2, "label", "<script>&\"");
        picture.target(0, 0, 5, 5, Target::Move("1 \"2".into()));
        picture.target(5, 5, 5, 5, Target::Square(7));
        let svg = picture.to_svg(true);
        assert!(svg.contains(">&lt;script&gt;&amp;&quot;</text>"), "{svg}");
        assert!(svg.contains("data-move=\"1 &quot;2\""), "{svg}");
        assert!(svg.contains("data-square=\"7\""), "{svg}");
        assert!(!picture.to_svg(false).contains("target"));
        assert_eq!(picture.targets().count(), 2);
    }
}
