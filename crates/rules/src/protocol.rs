//! Protocol v1: the text lines exchanged between the referee and a bot (see protocol.md).
//!
//! Pure: this module only formats and parses lines, in both directions, so the referee and the
//! built-in bots share one definition of the wire format.

use crate::clock::TimeControl;
use crate::games::{GameSpec, Side, SpecError};
use crate::verdict::Termination;
use std::fmt;

/// The protocol version announced in the `referee` line.
pub const VERSION: u32 = 1;

/// Longest line (without its newline) the referee accepts from a bot, by default.
pub const DEFAULT_MAX_LINE: usize = 4096;

/// The time a bot has to answer `start` with `ready`, by default (`--startup-ms`), in ms.
pub const DEFAULT_STARTUP_MS: u64 = 5000;

/// How a game ended, from the receiving bot's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The receiving bot won.
    Win,
    /// The receiving bot lost.
    Loss,
    /// Nobody won.
    Draw,
}

impl GameResult {
    /// The word of the `result` line: `win`, `loss` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::Win => "win",
            GameResult::Loss => "loss",
            GameResult::Draw => "draw",
        }
    }
}

/// A line the referee sends to a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefereeMessage {
    /// `referee 1`: opens the setup of a game and names the protocol version.
    Referee {
        /// The protocol version, [`VERSION`] from this referee.
        version: u32,
    },
    /// `game NAME key=value ...`: the game and all of its parameters.
    Game(GameSpec),
    /// `side first|second`: which seat the bot has.
    Side(Side),
    /// `time move=.. bank=.. increment=.. first=..`: the bot's time control, in milliseconds.
    Time(TimeControl),
    /// `played MOVE`: a move already made before the bots take over (an opening), in order.
    Played(String),
    /// `start`: the setup is complete; the bot answers `ready`.
    Start,
    /// `opponent MOVE`: a move of the opponent since the bot's last turn.
    Opponent(String),
    /// `offer draw`: the opponent offered a draw with its last move; answering `draw` accepts.
    OfferDraw,
    /// `legal MOVE,MOVE,...`: the legal moves (only when the match asks for them).
    Legal(Vec<String>),
    /// `turn MS`: the bot must answer with one move within MS milliseconds. `bank_left` is what
    /// is left of a time bank (None without one), for the adapters whose protocols tell it
    /// apart from the move's time (Gomocup's `time_left`); the native line carries only `MS`.
    Turn {
        /// The time for this move, in milliseconds.
        ms: u64,
        /// What is left of the bank in milliseconds, for adapters; the native line leaves it out.
        bank_left: Option<u64>,
    },
    /// `result win|loss|draw REASON [DETAIL]`: the game is over.
    Result {
        /// Win, loss or draw for the receiving bot.
        result: GameResult,
        /// The result reason's code, e.g. `line` or `timeout`.
        reason: Termination,
        /// The verdict's sentence (may be empty).
        detail: String,
    },
    /// `quit`: the bot must exit.
    Quit,
}

impl fmt::Display for RefereeMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefereeMessage::Referee { version } => write!(f, "referee {version}"),
            RefereeMessage::Game(spec) => write!(f, "game {spec}"),
            RefereeMessage::Side(side) => write!(f, "side {side}"),
            RefereeMessage::Time(tc) => write!(f, "time {tc}"),
            RefereeMessage::Played(mv) => write!(f, "played {mv}"),
            RefereeMessage::Start => f.write_str("start"),
            RefereeMessage::Opponent(mv) => write!(f, "opponent {mv}"),
            RefereeMessage::OfferDraw => f.write_str("offer draw"),
            RefereeMessage::Legal(moves) => write!(f, "legal {}", moves.join(",")),
            RefereeMessage::Turn { ms, .. } => write!(f, "turn {ms}"),
            RefereeMessage::Result {
                result,
                reason,
                detail,
            } => {
                write!(f, "result {} {reason}", result.as_str())?;
                if !detail.is_empty() {
                    write!(f, " {detail}")?;
                }
                Ok(())
            }
            RefereeMessage::Quit => f.write_str("quit"),
        }
    }
}

/// A referee line a bot cannot understand (used by the built-in bots, which read this side).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseMessageError {
    /// A line whose first word is no message of the protocol; the whole line.
    #[error("unknown message '{0}'")]
    Unknown(String),
    /// A known message whose arguments cannot be read, e.g. `turn` without a number.
    #[error("malformed '{keyword}' line: {line}")]
    Malformed {
        /// The message's first word.
        keyword: String,
        /// The whole line.
        line: String,
    },
    /// A `game` line naming a game or parameters that cannot be played.
    #[error(transparent)]
    Game(#[from] SpecError),
}

impl RefereeMessage {
    /// Reads a line sent by the referee (without its line end).
    pub fn parse(line: &str) -> Result<RefereeMessage, ParseMessageError> {
        let line = line.trim_end_matches(['\r', '\n']);
        let (keyword, rest) = line.split_once(' ').unwrap_or((line, ""));
        let malformed = || ParseMessageError::Malformed {
            keyword: keyword.to_string(),
            line: line.to_string(),
        };
        let number = |text: &str| text.trim().parse::<u64>().map_err(|_| malformed());
        Ok(match keyword {
            "referee" => RefereeMessage::Referee {
                version: u32::try_from(number(rest)?).map_err(|_| malformed())?,
            },
            "game" => {
                let mut words = rest.split_whitespace();
                let name = words.next().ok_or_else(malformed)?;
                RefereeMessage::Game(GameSpec::from_words(name, &words.collect::<Vec<_>>())?)
            }
            "side" => RefereeMessage::Side(match rest.trim() {
                "first" => Side::First,
                "second" => Side::Second,
                _ => return Err(malformed()),
            }),
            "time" => {
                let spec = rest.split_whitespace().collect::<Vec<_>>().join(",");
                RefereeMessage::Time(
                    TimeControl::parse_over(TimeControl::default(), &spec)
                        .map_err(|_| malformed())?,
                )
            }
            "played" => RefereeMessage::Played(rest.to_string()),
            "start" => RefereeMessage::Start,
            "opponent" => RefereeMessage::Opponent(rest.to_string()),
            "offer" if rest == "draw" => RefereeMessage::OfferDraw,
            "legal" => RefereeMessage::Legal(if rest.is_empty() {
                Vec::new()
            } else {
                rest.split(',').map(str::to_string).collect()
            }),
            "turn" => RefereeMessage::Turn {
                ms: number(rest)?,
                bank_left: None,
            },
            "result" => {
                let mut words = rest.splitn(3, ' ');
                let result = match words.next() {
                    Some("win") => GameResult::Win,
                    Some("loss") => GameResult::Loss,
                    Some("draw") => GameResult::Draw,
                    _ => return Err(malformed()),
                };
                RefereeMessage::Result {
                    result,
                    reason: words
                        .next()
                        .and_then(|code| code.parse().ok())
                        .ok_or_else(malformed)?,
                    detail: words.next().unwrap_or("").to_string(),
                }
            }
            "quit" => RefereeMessage::Quit,
            _ => return Err(ParseMessageError::Unknown(line.to_string())),
        })
    }
}

/// A bot's answer to `start`: `ready NAME VERSION [multi]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ready {
    /// The name the bot gives itself (one word), kept in the record.
    pub name: String,
    /// Its version (one word, in any form), kept in the record.
    pub version: String,
    /// The bot can play several games in one process (it is sent the next game's setup
    /// instead of `quit`).
    pub multi_game: bool,
}

/// The blanks that separate the words of a bot's line, and that surround it: spaces and tabs,
/// and no other kind of space.
const BLANKS: [char; 2] = [' ', '\t'];

/// The words of a bot's line, as protocol.md reads them: separated by runs of spaces and tabs.
pub fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(BLANKS).filter(|word| !word.is_empty())
}

/// `text` without the spaces and tabs at both ends.
pub fn trim_blanks(text: &str) -> &str {
    text.trim_matches(BLANKS)
}

/// A bot's line holding a character no line of the protocol may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{}'{} is not allowed: a line is printable ASCII, its words separated by spaces or tabs",
    crate::quote::escape(&.character.to_string()),
    Unprintable::named(*.character)
)]
pub struct Unprintable {
    /// The first such character in the line.
    pub character: char,
}

/// What a byte order mark is, and where it comes from, for a bot that wrote one.
const BYTE_ORDER_MARK: &str = " (a byte order mark, which an output stream set to \
                               UTF-8 with a signature writes first, as C#'s Encoding.UTF8 does: \
                               write ASCII, or UTF-8 without the mark)";

impl Unprintable {
    /// What `character` is, when its escape alone does not say it, for the sentence.
    fn named(character: char) -> &'static str {
        match character {
            '\u{feff}' => BYTE_ORDER_MARK,
            _ => "",
        }
    }

    /// Refuses `line` if it holds a character other than printable ASCII (space to `~`) and
    /// tabs. Every notation and keyword is printable ASCII, so anything else (a control
    /// character, a CR left by a doubled line end, a no-break space) can only be a mistake or
    /// an attack.
    pub fn check(line: &str) -> Result<(), Unprintable> {
        match line
            .chars()
            .find(|&c| c != '\t' && !(' '..='~').contains(&c))
        {
            Some(character) => Err(Unprintable { character }),
            None => Ok(()),
        }
    }
}

/// Why a `ready` line was refused; the line is quoted escaped (it goes to the opponent).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected 'ready NAME VERSION' or 'ready NAME VERSION multi', got '{}'{}",
    crate::quote::shorten(.line, 60),
    .unprintable.map(|u| format!(" ({u})")).unwrap_or_default()
)]
pub struct ReadyError {
    /// The line as the bot wrote it (escaped only when shown).
    pub line: String,
    /// The character that made it unreadable, when that was the trouble.
    pub unprintable: Option<Unprintable>,
}

impl Ready {
    /// Reads `ready NAME VERSION [multi]`: three or four words of printable ASCII separated by
    /// spaces or tabs.
    pub fn parse(line: &str) -> Result<Ready, ReadyError> {
        let refuse = |unprintable| ReadyError {
            line: line.to_string(),
            unprintable,
        };
        Unprintable::check(line).map_err(|u| refuse(Some(u)))?;
        let words: Vec<&str> = words(line).collect();
        let multi_game = match words.as_slice() {
            ["ready", _, _] => false,
            ["ready", _, _, "multi"] => true,
            _ => return Err(refuse(None)),
        };
        Ok(Ready {
            name: words[1].to_string(),
            version: words[2].to_string(),
            multi_game,
        })
    }
}

impl fmt::Display for Ready {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ready {} {}", self.name, self.version)?;
        if self.multi_game {
            f.write_str(" multi")?;
        }
        Ok(())
    }
}

/// A bot's answer to `turn`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `resign`: the bot gives up.
    Resign,
    /// `draw`: the bot accepts the draw its opponent offered with its last move.
    AcceptDraw,
    /// A move in the game's notation, optionally followed by the word `draw` to offer a draw
    /// (`11-15 draw`).
    Move {
        /// The move, its words joined by single spaces.
        text: String,
        /// Whether the line ended in the word `draw`, offering a draw.
        offers_draw: bool,
    },
}

impl Reply {
    /// Reads an answer to `turn`: its words separated by spaces or tabs (so `  4 \t 4 ` is the
    /// move `4 4`), the move's words joined by single spaces. A line holding anything but
    /// printable ASCII and tabs is no reply at all, whatever its words.
    pub fn parse(line: &str) -> Result<Reply, Unprintable> {
        Unprintable::check(line)?;
        // The words joined into one string, allocated once: this runs on every move.
        let mut text = String::with_capacity(line.len());
        for word in words(line) {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(word);
        }
        Ok(match text.as_str() {
            "resign" => Reply::Resign,
            "draw" => Reply::AcceptDraw,
            joined => match joined.strip_suffix(" draw") {
                Some(mv) => Reply::Move {
                    text: mv.to_string(),
                    offers_draw: true,
                },
                None => Reply::Move {
                    text,
                    offers_draw: false,
                },
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Ending;
    use proptest::prelude::*;

    #[test]
    fn every_referee_message_reads_back() {
        let spec = GameSpec::from_words("mnk", &["size=7", "line=4"]).unwrap();
        let messages = [
            RefereeMessage::Referee { version: 1 },
            RefereeMessage::Game(spec),
            RefereeMessage::Side(Side::Second),
            RefereeMessage::Time(TimeControl::default()),
            RefereeMessage::Played("3 3".into()),
            RefereeMessage::Start,
            RefereeMessage::Opponent("4 4".into()),
            RefereeMessage::OfferDraw,
            RefereeMessage::Legal(vec!["0 0".into(), "1 0".into()]),
            RefereeMessage::Turn {
                ms: 950,
                bank_left: None,
            },
            RefereeMessage::Result {
                result: GameResult::Loss,
                reason: Termination::Timeout,
                detail: "took 1043 ms, limit 1000 ms".into(),
            },
            RefereeMessage::Result {
                result: GameResult::Draw,
                reason: Termination::Rules(Ending::BoardFull),
                detail: String::new(),
            },
            RefereeMessage::Quit,
        ];
        for message in messages {
            let line = message.to_string();
            assert_eq!(RefereeMessage::parse(&line).unwrap(), message, "{line}");
        }
    }

    #[test]
    fn the_wire_form_is_as_documented() {
        assert_eq!(
            RefereeMessage::Game(GameSpec::Tictactoe).to_string(),
            "game tictactoe width=3 height=3 line=3 exact=no"
        );
        assert_eq!(
            RefereeMessage::Time(TimeControl::default()).to_string(),
            "time move=1000 bank=0 increment=0 first=0"
        );
        assert_eq!(
            RefereeMessage::Turn {
                ms: 1000,
                bank_left: Some(4000)
            }
            .to_string(),
            "turn 1000"
        );
    }

    #[test]
    fn unknown_and_malformed_lines_are_errors() {
        assert!(matches!(
            RefereeMessage::parse("hello"),
            Err(ParseMessageError::Unknown(_))
        ));
        assert!(matches!(
            RefereeMessage::parse("turn soon"),
            Err(ParseMessageError::Malformed { .. })
        ));
        assert!(matches!(
            RefereeMessage::parse("game chess"),
            Err(ParseMessageError::Game(_))
        ));
    }

    #[test]
    fn ready_lines() {
        assert_eq!(
            Ready::parse("ready rando 1.0 multi").unwrap(),
            Ready {
                name: "rando".into(),
                version: "1.0".into(),
                multi_game: true
            }
        );
        assert!(!Ready::parse("ready rando 1.0").unwrap().multi_game);
        for bad in ["ready", "ready x", "ok", "ready a b c", ""] {
            assert!(Ready::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn replies() {
        assert_eq!(Reply::parse("resign"), Ok(Reply::Resign));
        assert_eq!(Reply::parse(" draw\t"), Ok(Reply::AcceptDraw));
        assert_eq!(
            Reply::parse("\t4   4 "),
            Ok(Reply::Move {
                text: "4 4".into(),
                offers_draw: false
            })
        );
        assert_eq!(
            Reply::parse("9x18x27 \t draw"),
            Ok(Reply::Move {
                text: "9x18x27".into(),
                offers_draw: true
            })
        );
    }

    #[test]
    fn only_spaces_and_tabs_are_blanks() {
        for (line, character) in [
            ("0\u{a0}0", '\u{a0}'),
            ("1 1\u{3000}", '\u{3000}'),
            ("\u{b}1 1", '\u{b}'),
            ("1 1\u{c}", '\u{c}'),
            ("1 1\r", '\r'),
            ("x\rturn 1000", '\r'),
        ] {
            assert_eq!(
                Reply::parse(line),
                Err(Unprintable { character }),
                "{line:?}"
            );
        }
        assert_eq!(
            Unprintable { character: '\r' }.to_string(),
            "'\\r' is not allowed: a line is printable ASCII, its words separated by spaces or tabs"
        );
        let error = Ready::parse("ready me\u{3000}1 0").unwrap_err();
        assert_eq!(
            error.to_string(),
            "expected 'ready NAME VERSION' or 'ready NAME VERSION multi', got \
             'ready me\\u{3000}1 0' ('\\u{3000}' is not allowed: a line is printable ASCII, \
             its words separated by spaces or tabs)"
        );
        assert_eq!(
            Ready::parse("ready x\rturn 1000").unwrap_err().to_string(),
            "expected 'ready NAME VERSION' or 'ready NAME VERSION multi', got \
             'ready x\\rturn 1000' ('\\r' is not allowed: a line is printable ASCII, its \
             words separated by spaces or tabs)",
            "quoted escaped: the sentence goes to the opponent"
        );
        assert!(Ready::parse("ready\tme  1.0\tmulti").unwrap().multi_game);
    }

    /// protocol.md's grammar of an answer to `turn`, written out on its own (section 1,
    /// "Lines", and the notation of each game in section 8), so that the parser is held to it.
    mod documented {
        /// How protocol.md reads an answer.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(super) enum Reading {
            Resign,
            AcceptDraw,
            /// A move in the notation (legal or not), offering a draw or not.
            Move {
                offers_draw: bool,
            },
            NotAMove,
        }

        /// The notations of section 8.
        #[derive(Clone, Copy, Debug)]
        pub(super) enum Notation {
            /// `x y`: two numbers with an optional sign (tictactoe, gomoku, mnk, uttt).
            Square,
            /// Squares of 1 to 32 joined by `-` (exactly two) or by `x`/`X` (two or more).
            Checkers,
            /// `h` or `v` (either case) and two numbers with an optional sign.
            Line,
        }

        struct Cursor<'a>(&'a [u8]);

        impl Cursor<'_> {
            /// Skips spaces and tabs; how many.
            fn blanks(&mut self) -> usize {
                let n = self
                    .0
                    .iter()
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
                self.0 = &self.0[n..];
                n
            }

            fn any_of(&mut self, bytes: &[u8]) -> bool {
                match self.0.first() {
                    Some(b) if bytes.contains(b) => {
                        self.0 = &self.0[1..];
                        true
                    }
                    _ => false,
                }
            }

            fn word(&mut self, word: &str) -> bool {
                match self.0.strip_prefix(word.as_bytes()) {
                    Some(rest) => {
                        self.0 = rest;
                        true
                    }
                    None => false,
                }
            }

            fn number(&mut self, signed: bool) -> bool {
                if signed {
                    self.any_of(b"+-");
                }
                let n = self.0.iter().take_while(|b| b.is_ascii_digit()).count();
                self.0 = &self.0[n..];
                n > 0
            }

            fn notation(&mut self, notation: Notation) -> bool {
                match notation {
                    Notation::Square => self.number(true) && self.blanks() > 0 && self.number(true),
                    Notation::Line => {
                        self.any_of(b"hHvV")
                            && self.blanks() > 0
                            && self.number(true)
                            && self.blanks() > 0
                            && self.number(true)
                    }
                    Notation::Checkers => {
                        if !self.number(false) {
                            return false;
                        }
                        if self.any_of(b"-") {
                            return self.number(false);
                        }
                        let mut jumps = 0;
                        while self.any_of(b"xX") {
                            if !self.number(false) {
                                return false;
                            }
                            jumps += 1;
                        }
                        jumps > 0
                    }
                }
            }
        }

        /// Whether the whole of `line` is blanks, what `body` reads, and blanks.
        fn whole(line: &str, body: impl Fn(&mut Cursor) -> bool) -> bool {
            let mut cursor = Cursor(line.as_bytes());
            cursor.blanks();
            body(&mut cursor) && {
                cursor.blanks();
                cursor.0.is_empty()
            }
        }

        pub(super) fn read(line: &str, notation: Notation) -> Reading {
            if whole(line, |c| c.word("resign")) {
                Reading::Resign
            } else if whole(line, |c| c.word("draw")) {
                Reading::AcceptDraw
            } else if whole(line, |c| {
                c.notation(notation) && c.blanks() > 0 && c.word("draw")
            }) {
                Reading::Move { offers_draw: true }
            } else if whole(line, |c| c.notation(notation)) {
                Reading::Move { offers_draw: false }
            } else {
                Reading::NotAMove
            }
        }
    }

    /// How the referee reads `line` as an answer to `turn` in a new game of `spec`: the
    /// protocol's reply, then the game's notation.
    fn referee_reads(spec: &GameSpec, line: &str) -> documented::Reading {
        use documented::Reading;
        match Reply::parse(line) {
            Err(_) => Reading::NotAMove,
            Ok(Reply::Resign) => Reading::Resign,
            Ok(Reply::AcceptDraw) => Reading::AcceptDraw,
            Ok(Reply::Move { text, offers_draw }) => match spec.new_game().play_text(&text) {
                Err(crate::games::MoveError::NotAMove(_)) => Reading::NotAMove,
                Ok(_) | Err(crate::games::MoveError::Illegal(_)) => Reading::Move { offers_draw },
            },
        }
    }

    /// Pieces of answers: the notations' own, and characters that look like blanks or line
    /// ends but are neither.
    fn piece() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "0",
            "7",
            "11",
            "15",
            "32",
            "99999999999999999999",
            "+",
            "-",
            "x",
            "X",
            "h",
            "V",
            "draw",
            "resign",
            " ",
            " ",
            " ",
            "\t",
            "  ",
            "\r",
            "\u{b}",
            "\u{c}",
            "\u{a0}",
            "\u{3000}",
            "\u{2003}",
            "\u{85}",
            "\0",
            "\u{1b}",
            "\n",
            ",",
            ".",
            "a",
        ])
    }

    proptest! {
        /// Whatever a bot answers, the referee reads it as protocol.md says: a move exactly
        /// when the documented grammar says so, and anything that looks like a blank but is
        /// not a space or a tab makes it no move.
        #[test]
        fn the_parser_reads_what_protocol_md_documents(
            pieces in prop::collection::vec(piece(), 0..8),
        ) {
            use documented::Notation;
            let line = pieces.concat();
            for (game, notation) in [
                ("gomoku", Notation::Square),
                ("checkers", Notation::Checkers),
                ("dots", Notation::Line),
            ] {
                let spec = GameSpec::from_words::<&str>(game, &[]).unwrap();
                prop_assert_eq!(
                    referee_reads(&spec, &line),
                    documented::read(&line, notation),
                    "{} {:?}", game, line
                );
            }
        }
    }
}
