//! Accounts: users with argon2id password hashes, sessions (cookie tokens) and API tokens,
//! both stored as SHA-256 hashes only, and the sign-up policy.

use crate::settings::{Settings, Signup};
use crate::store::{self, Pool};
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// How long a session lasts, in seconds.
pub const SESSION_SECONDS: i64 = 30 * 24 * 3600;
/// The shortest password taken.
pub const MIN_PASSWORD: usize = 8;
/// The longest password, in bytes: argon2 reads all of it, so a megabyte-long one would make
/// each attempt a burden on the server.
pub const MAX_PASSWORD: usize = 1024;
/// Passwords hashed at once: each hash takes a processor for tens of milliseconds, so a flood
/// of log-ins waits its turn here instead of taking every worker the pages need.
const HASHES_AT_ONCE: usize = 2;

/// Runs `hash` (an argon2 hash or check) on a blocking thread, at most [`HASHES_AT_ONCE`] at
/// a time.
async fn hashing<T: Send + 'static>(hash: impl FnOnce() -> T + Send + 'static) -> T {
    static TURNS: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(HASHES_AT_ONCE);
    let _turn = TURNS
        .acquire()
        .await
        .expect("the semaphore is never closed");
    tokio::task::spawn_blocking(hash)
        .await
        .expect("hashing does not panic")
}

/// The hash a log-in under a name that has no password is checked against: the same work as
/// a real check, so that timing does not tell which names exist.
fn stand_in_hash() -> &'static str {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password(&new_token()))
}

/// A user as a request knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// An administrator.
    pub is_admin: bool,
}

// Read by hand: the flag is an INTEGER 0/1 in both databases, which the `any` driver does not
// decode as a bool.
impl sqlx::FromRow<'_, sqlx::any::AnyRow> for User {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            is_admin: row.try_get::<i64, _>("is_admin")? != 0,
        })
    }
}

/// Why an account request is refused: said to the user.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    /// Sign-up is closed, or the invitation code is wrong.
    #[error("{0}")]
    Refused(&'static str),
    /// A name that is not valid, a password too short.
    #[error("{0}")]
    Invalid(String),
    /// A name that someone has (or has but for case).
    #[error("{0}")]
    Taken(String),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] sqlx::Error),
}

/// A new random token: 32 bytes, hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The hash a token is stored as.
pub fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The argon2id hash of `password`, as a PHC string.
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashes any password")
        .to_string()
}

/// Whether `password` matches the PHC string `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok()
    })
}

/// Signs up `name` as the settings allow, returning the new user.
pub async fn sign_up(
    pool: &Pool,
    settings: &Settings,
    name: &str,
    password: &str,
    code: Option<&str>,
) -> Result<User, AccountError> {
    match settings.signup {
        Signup::Open => {}
        Signup::Closed => return Err(AccountError::Refused("sign-up is closed on this arena")),
        Signup::Invitation => {
            let given = code.unwrap_or_default();
            if settings.invitation_code.is_empty() || given != settings.invitation_code {
                return Err(AccountError::Refused(
                    "sign-up needs this arena's invitation code",
                ));
            }
        }
    }
    if password.chars().count() < MIN_PASSWORD {
        return Err(AccountError::Invalid(format!(
            "a password has at least {MIN_PASSWORD} characters"
        )));
    }
    if password.len() > MAX_PASSWORD {
        return Err(AccountError::Invalid(format!(
            "a password has at most {MAX_PASSWORD} bytes"
        )));
    }
    let password = password.to_string();
    let hash = hashing(move || hash_password(&password)).await;
    create_user(pool, name, Some(&hash), false).await
}

/// Makes the user `name`.
pub async fn create_user(
    pool: &Pool,
    name: &str,
    password_hash: Option<&str>,
    admin: bool,
) -> Result<User, AccountError> {
    if !store::valid_name(name) {
        return Err(AccountError::Invalid(
            "a name is 1 to 40 letters, digits, '-', '_' or '.'".into(),
        ));
    }
    let mut tx = store::write(pool).await?;
    let taken: Option<(String,)> =
        sqlx::query_as("SELECT name FROM users WHERE LOWER(name) = LOWER($1) ORDER BY id LIMIT 1")
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?;
    if let Some((taken,)) = taken {
        return Err(name_taken(name, &taken));
    }
    let id = store::next_id(&mut tx, "users", "id").await?;
    sqlx::query(
        "INSERT INTO users (id, name, password_hash, is_admin, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(id)
    .bind(name)
    .bind(password_hash)
    .bind(i64::from(admin))
    .bind(store::now())
    .execute(&mut *tx)
    .await
    .map_err(|error| {
        // Taken by a sign-up at once (the index holds it, whoever writes).
        if store::is_unique_violation(&error) {
            name_taken(name, name)
        } else {
            error.into()
        }
    })?;
    tx.commit().await?;
    Ok(User {
        id,
        name: name.into(),
        is_admin: admin,
    })
}

/// Why `name` cannot be had: `taken` has it, or has it but for case.
fn name_taken(name: &str, taken: &str) -> AccountError {
    AccountError::Taken(if name == taken {
        format!("the name '{name}' is taken")
    } else {
        format!(
            "the name '{name}' is taken (by '{taken}': names that differ only in upper and lower \
             case are the same name)"
        )
    })
}

/// The user `name`, made if needed (an administrator if `admin`), with a new API token.
pub async fn token_for(pool: &Pool, name: &str, admin: bool) -> Result<String, AccountError> {
    let user = match find_user(pool, name).await? {
        Some(user) => {
            if admin && !user.is_admin {
                sqlx::query("UPDATE users SET is_admin = 1 WHERE id = $1")
                    .bind(user.id)
                    .execute(pool)
                    .await?;
            }
            user
        }
        None => create_user(pool, name, None, admin).await?,
    };
    new_api_token(pool, user.id).await
}

/// A new API token of user `user_id`.
pub async fn new_api_token(pool: &Pool, user_id: i64) -> Result<String, AccountError> {
    let token = new_token();
    sqlx::query("INSERT INTO api_tokens (token_hash, user_id, created_at) VALUES ($1, $2, $3)")
        .bind(token_hash(&token))
        .bind(user_id)
        .bind(store::now())
        .execute(pool)
        .await?;
    Ok(token)
}

/// The user named `name`.
pub async fn find_user(pool: &Pool, name: &str) -> Result<Option<User>, sqlx::Error> {
    sqlx::query_as("SELECT id, name, is_admin FROM users WHERE name = $1")
        .bind(name)
        .fetch_optional(pool)
        .await
}

/// Logs `name` in: a new session token, or none when the name or password is wrong.
pub async fn log_in(
    pool: &Pool,
    name: &str,
    password: &str,
) -> Result<Option<String>, sqlx::Error> {
    let row: Option<(i64, Option<String>)> =
        sqlx::query_as("SELECT id, password_hash FROM users WHERE name = $1")
            .bind(name)
            .fetch_optional(pool)
            .await?;
    if password.len() > MAX_PASSWORD {
        return Ok(None);
    }
    // A missing user costs one check too, as a real one does, so that timing does not tell
    // names.
    let (id, hash) = match row {
        Some((id, Some(hash))) => (Some(id), Some(hash)),
        _ => (None, None),
    };
    let password = password.to_string();
    let matches = hashing(move || match &hash {
        Some(hash) => verify_password(&password, hash),
        None => verify_password(&password, stand_in_hash()),
    })
    .await;
    let Some(id) = id.filter(|_| matches) else {
        return Ok(None);
    };
    let token = new_token();
    // Sessions that ended go at each log-in, so that the table holds only live ones.
    sqlx::query("DELETE FROM sessions WHERE expires_at <= $1")
        .bind(store::now())
        .execute(pool)
        .await?;
    sqlx::query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, $3)")
        .bind(token_hash(&token))
        .bind(id)
        .bind(store::now() + SESSION_SECONDS)
        .execute(pool)
        .await?;
    Ok(Some(token))
}

/// Ends the session `token`.
pub async fn log_out(pool: &Pool, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash(token))
        .execute(pool)
        .await?;
    Ok(())
}

/// The user of a session token, if it is current.
pub async fn session_user(pool: &Pool, token: &str) -> Result<Option<User>, sqlx::Error> {
    sqlx::query_as(
        "SELECT users.id, users.name, users.is_admin FROM sessions \
         JOIN users ON users.id = sessions.user_id WHERE token_hash = $1 AND expires_at > $2",
    )
    .bind(token_hash(token))
    .bind(store::now())
    .fetch_optional(pool)
    .await
}

/// The user of an API token.
pub async fn token_user(pool: &Pool, token: &str) -> Result<Option<User>, sqlx::Error> {
    sqlx::query_as(
        "SELECT users.id, users.name, users.is_admin FROM api_tokens \
         JOIN users ON users.id = api_tokens.user_id WHERE token_hash = $1",
    )
    .bind(token_hash(token))
    .fetch_optional(pool)
    .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_argon2id_and_verified() {
        let hash = hash_password("correct horse");
        assert!(hash.starts_with("$argon2id$"), "{hash}");
        assert!(verify_password("correct horse", &hash));
        assert!(!verify_password("wrong horse", &hash));
        assert!(!verify_password("correct horse", "not a hash"));
        assert_ne!(hash, hash_password("correct horse"), "salted");
        assert_eq!(new_token().len(), 64);
        assert_ne!(token_hash("a"), token_hash("b"));
    }

    #[tokio::test]
    async fn accounts_sessions_and_tokens() {
        let dir = tempfile::tempdir().unwrap();
        let pool = store::open(dir.path()).await.unwrap();
        let mut settings = Settings::default();
        let alice = sign_up(&pool, &settings, "alice", "password1", None)
            .await
            .unwrap();
        assert!(!alice.is_admin);
        assert!(sign_up(&pool, &settings, "alice", "password1", None)
            .await
            .is_err());
        // Nor in other case, which would pass for alice on a leaderboard.
        let refused = sign_up(&pool, &settings, "Alice", "password1", None)
            .await
            .unwrap_err();
        assert_eq!(
            refused.to_string(),
            "the name 'Alice' is taken (by 'alice': names that differ only in upper and lower \
             case are the same name)"
        );
        // The database holds it too, whatever writes there at once.
        let twin = sqlx::query("INSERT INTO users (id, name, created_at) VALUES (99, 'ALICE', 0)")
            .execute(&pool)
            .await
            .unwrap_err();
        assert!(store::is_unique_violation(&twin), "{twin}");
        assert!(sign_up(&pool, &settings, "bob", "short", None)
            .await
            .is_err());
        let long = "x".repeat(MAX_PASSWORD + 1);
        assert!(sign_up(&pool, &settings, "bob", &long, None).await.is_err());
        assert_eq!(log_in(&pool, "alice", &long).await.unwrap(), None);
        assert!(sign_up(&pool, &settings, "../x", "password1", None)
            .await
            .is_err());
        let session = log_in(&pool, "alice", "password1").await.unwrap().unwrap();
        assert_eq!(
            session_user(&pool, &session).await.unwrap(),
            Some(alice.clone())
        );
        assert_eq!(log_in(&pool, "alice", "password2").await.unwrap(), None);
        assert_eq!(log_in(&pool, "nobody", "password1").await.unwrap(), None);
        log_out(&pool, &session).await.unwrap();
        assert_eq!(session_user(&pool, &session).await.unwrap(), None);
        // An expired session is gone at the next log-in.
        sqlx::query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ('old', $1, 1)")
            .bind(alice.id)
            .execute(&pool)
            .await
            .unwrap();
        log_in(&pool, "alice", "password1").await.unwrap().unwrap();
        let (sessions,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sessions")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(sessions, 1, "the live session only");
        let token = token_for(&pool, "root", true).await.unwrap();
        let root = token_user(&pool, &token).await.unwrap().unwrap();
        assert!(root.is_admin && root.name == "root");
        assert_eq!(token_user(&pool, "guess").await.unwrap(), None);
        settings.signup = Signup::Invitation;
        settings.invitation_code = "sesame".into();
        assert!(
            sign_up(&pool, &settings, "carol", "password1", Some("nope"))
                .await
                .is_err()
        );
        assert!(
            sign_up(&pool, &settings, "carol", "password1", Some("sesame"))
                .await
                .is_ok()
        );
        settings.signup = Signup::Closed;
        assert!(sign_up(&pool, &settings, "dave", "password1", None)
            .await
            .is_err());
    }
}
