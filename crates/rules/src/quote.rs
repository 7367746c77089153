//! Quoting what a bot wrote in messages meant for people and other bots. A bot's bytes are
//! hostile: a lone CR can fake a line for an opponent whose reader splits on it, an ESC can drive
//! the organiser's terminal. Whatever is quoted is first made printable ASCII, so it can be
//! shown anywhere and sent on in a protocol line; records keep the exact bytes in JSON.

use std::fmt::Write as _;

/// `text` as printable ASCII: printable ASCII stays (but `\` becomes `\\`), tab, CR, LF and NUL
/// become `\t`, `\r`, `\n`, `\0`, other control bytes `\xNN`, and any other character `\u{N}`.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        push_escaped(&mut escaped, c);
    }
    escaped
}

fn push_escaped(escaped: &mut String, c: char) {
    match c {
        '\\' => escaped.push_str("\\\\"),
        '\t' => escaped.push_str("\\t"),
        '\r' => escaped.push_str("\\r"),
        '\n' => escaped.push_str("\\n"),
        '\0' => escaped.push_str("\\0"),
        ' '..='~' => escaped.push(c),
        c if c.is_ascii() => {
            let _ = write!(escaped, "\\x{:02x}", c as u32);
        }
        c => {
            let _ = write!(escaped, "\\u{{{:x}}}", c as u32);
        }
    }
}

/// `text` escaped (see [`escape`]) and cut to at most `max` characters, marking the cut, for
/// messages.
pub fn shorten(text: &str, max: usize) -> String {
    let escaped = escape(text);
    if escaped.chars().count() <= max {
        escaped
    } else {
        let mut cut: String = escaped.chars().take(max).collect();
        cut.push_str("...");
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn long_text_is_cut_and_marked() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdef", 3), "abc...");
    }

    #[test]
    fn control_characters_and_non_ascii_are_spelled_out() {
        assert_eq!(escape("x\rturn 1000\r"), "x\\rturn 1000\\r");
        assert_eq!(escape("\u{1b}[2J\0\t\n"), "\\x1b[2J\\0\\t\\n");
        assert_eq!(escape("0\u{a0}0 \u{3000}"), "0\\u{a0}0 \\u{3000}");
        assert_eq!(escape("a\\b"), "a\\\\b");
        assert_eq!(escape("ok \x7f"), "ok \\x7f");
        assert_eq!(shorten("\r\r\r", 4), "\\r\\r...");
    }

    proptest! {
        #[test]
        fn whatever_a_bot_writes_is_quoted_as_printable_ascii(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let text = String::from_utf8_lossy(&bytes);
            let quoted = escape(&text);
            prop_assert!(quoted.bytes().all(|b| (b' '..=b'~').contains(&b)), "{quoted:?}");
            prop_assert!(shorten(&text, 60).bytes().all(|b| (b' '..=b'~').contains(&b)));
        }
    }
}
