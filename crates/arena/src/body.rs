//! [`Body`]: a request's JSON body, or the API's own refusal saying what is wrong with it in
//! a sentence (`{"error": "..."}`): the framework's `Json` answered in plain text, with the
//! parser's words ('Failed to deserialize the JSON body into the target type: invalid length
//! 0, expected struct Credentials with 3 elements at line 1 column 2').

use crate::api::{refuse, ApiError};
use axum::body::Bytes;
use axum::extract::{FromRequest, OptionalFromRequest, Request};
use axum::http::{header, HeaderMap, StatusCode};
use referee_web::address::in_words;
use serde::de::DeserializeOwned;

/// A JSON object sent as the request's body, read into `T`.
pub struct Body<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        if !is_json(request.headers()) {
            return Err(refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the body as a JSON object, with the header Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| refuse(rejection.status(), "the body could not be read"))?;
        read(&bytes).map(Body)
    }
}

/// No body at all (no `Content-Type`) is `None`; any other body is read as [`Body`] is.
impl<T: DeserializeOwned, S: Send + Sync> OptionalFromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Option<Self>, ApiError> {
        if !request.headers().contains_key(header::CONTENT_TYPE) {
            return Ok(None);
        }
        <Self as FromRequest<S>>::from_request(request, state)
            .await
            .map(Some)
    }
}

/// Whether `headers` say the body is JSON (`application/json`, `application/x+json`, with
/// or without parameters).
fn is_json(headers: &HeaderMap) -> bool {
    let Some(kind) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let kind = kind.split(';').next().unwrap_or_default().trim();
    let kind = kind.to_ascii_lowercase();
    kind == "application/json" || (kind.starts_with("application/") && kind.ends_with("+json"))
}

/// `bytes` read as a `T`, or why not in a sentence naming the field at fault.
fn read<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let unprocessable = |text: String| refuse(StatusCode::UNPROCESSABLE_ENTITY, text);
    let value: serde_json::Value = serde_json::from_slice(bytes).map_err(|error| {
        refuse(
            StatusCode::BAD_REQUEST,
            format!(
                "the body is not JSON (line {}, column {})",
                error.line(),
                error.column()
            ),
        )
    })?;
    if !value.is_object() {
        return Err(unprocessable("the body must be a JSON object".into()));
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        let field = error.path().to_string();
        unprocessable(said(&field, &error.into_inner().to_string()))
    })
}

/// The sentence for serde's `message` about `field` (its path, `.` for the body itself).
fn said(field: &str, message: &str) -> String {
    if let Some(missing) = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.strip_suffix('`'))
    {
        return format!("the field '{missing}' is missing");
    }
    if let Some(unknown) = message
        .strip_prefix("unknown variant `")
        .and_then(|rest| rest.split_once("`, expected "))
    {
        let shown = referee_rules::quote::shorten(unknown.0, 40);
        return format!(
            "the field '{field}' cannot be '{shown}': it is {}",
            unknown.1
        );
    }
    match message.split_once(", expected ") {
        Some((_, wanted)) if !wanted.starts_with("struct ") => {
            format!("the field '{field}' must be {}", in_words(wanted))
        }
        _ => format!("the field '{field}' is not what this request takes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    struct Credentials {
        name: String,
        password: String,
        count: Option<u32>,
    }

    fn refusal(body: &str) -> (StatusCode, String) {
        let error = read::<Credentials>(body.as_bytes()).unwrap_err();
        (error.status(), error.text().to_string())
    }

    #[test]
    fn a_wrong_body_is_told_in_a_sentence_naming_the_field_and_no_type() {
        let cases = [
            (
                "",
                StatusCode::BAD_REQUEST,
                "the body is not JSON (line 1, column 0)",
            ),
            (
                "{",
                StatusCode::BAD_REQUEST,
                "the body is not JSON (line 1, column 1)",
            ),
            (
                "[]",
                StatusCode::UNPROCESSABLE_ENTITY,
                "the body must be a JSON object",
            ),
            (
                "\"x\"",
                StatusCode::UNPROCESSABLE_ENTITY,
                "the body must be a JSON object",
            ),
            (
                r#"{"name": "a"}"#,
                StatusCode::UNPROCESSABLE_ENTITY,
                "the field 'password' is missing",
            ),
            (
                r#"{"name": 1, "password": "b"}"#,
                StatusCode::UNPROCESSABLE_ENTITY,
                "the field 'name' must be a string",
            ),
            (
                r#"{"name": "a", "password": "b", "count": -1}"#,
                StatusCode::UNPROCESSABLE_ENTITY,
                "the field 'count' must be a whole number (0 or more)",
            ),
        ];
        for (body, status, text) in cases {
            assert_eq!(refusal(body), (status, text.to_string()), "{body}");
        }
        assert!(read::<Credentials>(br#"{"name": "a", "password": "b", "x": 1}"#).is_ok());
    }
}
