//! The pages' files, compiled into the binary: plain HTML, CSS and JavaScript, no build step.

/// The one page, `index.html`, of both `referee serve` and the report.
pub const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script, which draws the index, the games and the standings from the data.
pub const APP_JS: &str = include_str!("../assets/app.js");
/// The page's style sheet.
pub const STYLE_CSS: &str = include_str!("../assets/style.css");
