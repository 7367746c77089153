//! [`Address`]: the values a route's address holds (a game's number, a ladder's name), or the
//! API's own refusal saying which part is wrong in a sentence (`{"error": "..."}`): the
//! framework's `Path` answered in plain text naming Rust's types ('Invalid URL: Cannot parse
//! `abc` to a `i64`').

use crate::api::{refuse, ApiError};
use axum::extract::{FromRequestParts, Path, Query};
use axum::http::request::Parts;
use axum::http::StatusCode;
use referee_web::address::said;
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

/// The address's query (`?ladder=...&name=...`), read into `T`.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(values)| Params(values))
            .map_err(|rejection| {
                refuse(StatusCode::BAD_REQUEST, query_said(&rejection.body_text()))
            })
    }
}

/// The sentence for the framework's `text` about a query it could not read ('Failed to
/// deserialize query string: limit: invalid digit found in string').
fn query_said(text: &str) -> String {
    let text = text
        .strip_prefix("Failed to deserialize query string: ")
        .unwrap_or(text);
    if let Some(missing) = text
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return format!("the parameter '{missing}' is missing (as ?{missing}=...)");
    }
    match text.split_once(": ") {
        Some((name, why)) if !name.contains(' ') => format!(
            "the parameter '{}' cannot be read: {}",
            referee_rules::quote::shorten(name, 40),
            referee_rules::quote::shorten(why, 80)
        ),
        _ => "the address's parameters cannot be read".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_that_cannot_be_read_is_told_by_its_parameter() {
        assert_eq!(
            query_said("Failed to deserialize query string: missing field `ladder`"),
            "the parameter 'ladder' is missing (as ?ladder=...)"
        );
        assert_eq!(
            query_said("Failed to deserialize query string: limit: invalid digit found in string"),
            "the parameter 'limit' cannot be read: invalid digit found in string"
        );
    }
}
