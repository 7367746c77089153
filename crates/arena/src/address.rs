//! [`Address`]: the values a route's address holds (a game's number, a ladder's name), or the
//! API's own refusal saying which part is wrong in a sentence (`{"error": "..."}`): the
//! framework's `Path` answered in plain text naming Rust's types ('Invalid URL: Cannot parse
//! `abc` to a `i64`').

use crate::api::{refuse, ApiError};
use crate::body::in_words;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// The address's values, read into `T`.
pub struct Address<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Address<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(values)| Address(values))
            .map_err(|rejection| refuse(StatusCode::BAD_REQUEST, said(&rejection)))
    }
}

/// Why the address could not be read, in a sentence quoting (shortened) what it holds.
fn said(rejection: &PathRejection) -> String {
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
