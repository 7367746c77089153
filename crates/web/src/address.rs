//! A route's address read into values (a game's number, a source's name), and when it cannot
//! be, a sentence saying which part is wrong: the framework's own words named Rust's types
//! ('Invalid URL: Cannot parse value at index 1 with value `abc` to a `u32`').

use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// The address's values, read into `T`; refused in plain text (400) with [`said`].
pub struct Address<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Address<T> {
    type Rejection = (StatusCode, String);

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(values)| Address(values))
            .map_err(|rejection| (StatusCode::BAD_REQUEST, format!("{}\n", said(&rejection))))
    }
}

/// Why the address could not be read, in a sentence quoting (shortened) what it holds.
pub fn said(rejection: &PathRejection) -> String {
    let kind = match rejection {
        PathRejection::FailedToDeserializePathParams(error) => error.kind(),
        _ => return "this address cannot be read".into(),
    };
    let shown = |value: &str| referee_rules::quote::shorten(value, 40);
    match kind {
        ErrorKind::ParseErrorAtKey {
            value,
            expected_type,
            ..
        }
        | ErrorKind::ParseErrorAtIndex {
            value,
            expected_type,
            ..
        }
        | ErrorKind::ParseError {
            value,
            expected_type,
        } => format!(
            "the address has '{}' where {} goes",
            shown(value),
            in_words(expected_type)
        ),
        ErrorKind::InvalidUtf8InPathParam { .. } => {
            "the address holds bytes that are not UTF-8 text".into()
        }
        _ => "this address cannot be read".into(),
    }
}

/// serde's name of a wanted type (`u32`, `a string`) in words.
pub fn in_words(wanted: &str) -> &str {
    match wanted {
        "u8" | "u16" | "u32" | "u64" | "usize" => "a whole number (0 or more)",
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number",
        "f32" | "f64" => "a number",
        other => other,
    }
}
