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

/// How a game ended, from the receiving bot's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Win,
    Loss,
    Draw,
}

impl GameResult {
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
    Referee { version: u32 },
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
    /// `turn MS`: the bot must answer with one move within MS milliseconds.
    Turn { ms: u64 },
    /// `result win|loss|draw REASON [DETAIL]`: the game is over.
    Result {
        result: GameResult,
        reason: Termination,
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
            RefereeMessage::Turn { ms } => write!(f, "turn {ms}"),
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
    #[error("unknown message '{0}'")]
    Unknown(String),
    #[error("malformed '{keyword}' line: {line}")]
    Malformed { keyword: String, line: String },
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
            "turn" => RefereeMessage::Turn { ms: number(rest)? },
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
    pub name: String,
    pub version: String,
    /// The bot can play several games in one process (it is sent the next game's setup
    /// instead of `quit`).
    pub multi_game: bool,
}

/// Why a `ready` line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expected 'ready NAME VERSION' or 'ready NAME VERSION multi', got '{0}'")]
pub struct ReadyError(pub String);

impl Ready {
    pub fn parse(line: &str) -> Result<Ready, ReadyError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            ["ready", name, version] => Ok(Ready {
                name: name.to_string(),
                version: version.to_string(),
                multi_game: false,
            }),
            ["ready", name, version, "multi"] => Ok(Ready {
                name: name.to_string(),
                version: version.to_string(),
                multi_game: true,
            }),
            _ => Err(ReadyError(line.to_string())),
        }
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
    Move { text: String, offers_draw: bool },
}

impl Reply {
    pub fn parse(line: &str) -> Reply {
        let line = line.trim();
        match line {
            "resign" => Reply::Resign,
            "draw" => Reply::AcceptDraw,
            _ => match line.strip_suffix(" draw") {
                Some(text) => Reply::Move {
                    text: text.trim().to_string(),
                    offers_draw: true,
                },
                None => Reply::Move {
                    text: line.to_string(),
                    offers_draw: false,
                },
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Ending;

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
            RefereeMessage::Turn { ms: 950 },
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
        assert_eq!(RefereeMessage::Turn { ms: 1000 }.to_string(), "turn 1000");
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
        assert_eq!(Reply::parse("resign"), Reply::Resign);
        assert_eq!(Reply::parse(" draw "), Reply::AcceptDraw);
        assert_eq!(
            Reply::parse("4 4"),
            Reply::Move {
                text: "4 4".into(),
                offers_draw: false
            }
        );
        assert_eq!(
            Reply::parse("9x18x27  draw"),
            Reply::Move {
                text: "9x18x27".into(),
                offers_draw: true
            }
        );
    }
}
