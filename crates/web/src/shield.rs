//! The web layer every page server of the referee stands behind (`referee serve`, `referee
//! play --browser`), against what another site's page, a DNS-rebinding name or a flood of
//! connections would otherwise do:
//!
//! - Hosts: a request must name the server as it listens (its address, `localhost` or
//!   `127.0.0.1` and `[::1]` on a loopback address, with the port) or by a name the user
//!   allowed; any other `Host` (a rebinding page's) is refused with 421 before any work.
//! - State-changing requests (any method but GET and HEAD) come from the server's own page
//!   only: an `Origin`, when sent, must be one of the allowed hosts, and the request must carry
//!   the page's token (header [`PAGE_TOKEN_HEADER`]), which the server writes into the page it
//!   serves and which no other site's page can read or guess.
//! - Connections: a request's header must arrive within [`WebSettings::header_timeout`] and
//!   hold at most [`WebSettings::max_header_bytes`]; a body at most
//!   [`WebSettings::max_body_bytes`]; an answer within [`WebSettings::request_timeout`]; at
//!   most [`WebSettings::max_connections`] at once, the oldest one still sending its first
//!   header closed to make room for a new one, so that slow connections cannot keep a person
//!   out.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::task::AbortHandle;
use tower::ServiceExt;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// The header a page sends its token in with every state-changing request.
pub const PAGE_TOKEN_HEADER: &str = "x-referee-page";

/// How much a connection and a request may take: every default once.
#[derive(Clone, Copy, Debug)]
pub struct WebSettings {
    /// Time to send a request's whole header.
    pub header_timeout: Duration,
    /// Time to answer a request once its header is in (a stream of events, once begun, is
    /// not limited).
    pub request_timeout: Duration,
    /// Connections at once.
    pub max_connections: usize,
    /// A request's header, in bytes.
    pub max_header_bytes: usize,
    /// A request's body, in bytes.
    pub max_body_bytes: usize,
}

impl Default for WebSettings {
    fn default() -> Self {
        WebSettings {
            header_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            max_connections: 512,
            max_header_bytes: 16 << 10,
            max_body_bytes: 64 << 10,
        }
    }
}

/// What a server lets in: its hosts, and its pages' token.
#[derive(Clone, Debug)]
pub struct Shield {
    hosts: Arc<Vec<String>>,
    page_token: Arc<String>,
    /// A request with a bearer token and no cookie needs no page token (see
    /// [`Shield::accepting_bearer_tokens`]).
    bearer: bool,
}

impl Shield {
    /// The shield of a server listening on `bound`, also answering to the names in `extra`
    /// (`NAME` or `NAME:PORT`; a name without a port takes the bound one).
    pub fn new(bound: SocketAddr, extra: &[String]) -> Shield {
        let port = bound.port();
        let mut hosts = vec![bound.to_string()];
        if bound.ip().is_loopback() {
            hosts.extend([
                format!("localhost:{port}"),
                format!("127.0.0.1:{port}"),
                format!("[::1]:{port}"),
            ]);
        }
        for name in extra {
            let name = name.trim().to_ascii_lowercase();
            match name
                .rsplit_once(':')
                .filter(|(_, p)| p.parse::<u16>().is_ok())
            {
                Some(_) if !name.starts_with('[') || name.contains("]:") => hosts.push(name),
                _ => hosts.push(format!("{name}:{port}")),
            }
        }
        Shield {
            hosts: Arc::new(hosts),
            page_token: Arc::new(crate::server::new_token()),
            bearer: false,
        }
    }

    /// The same shield, letting through a state-changing request that carries an
    /// `Authorization: Bearer` header and no cookie without the page token: a command-line
    /// client's, which the server then authenticates by its token alone. No other site's page
    /// can send one (the header needs a CORS preflight, which this server never grants), and
    /// with no cookie the request carries no authority of the browser's, so the page token
    /// (which guards against exactly that) has nothing to guard. The `Origin` is still checked.
    pub fn accepting_bearer_tokens(mut self) -> Shield {
        self.bearer = true;
        self
    }

    /// The host to give people in the server's address: the address listened on, or for one
    /// listening on every network, the first name allowed.
    pub fn shown_host(&self) -> &str {
        let unspecified = |host: &str| host.starts_with("0.0.0.0:") || host.starts_with("[::]:");
        self.hosts
            .iter()
            .find(|host| !unspecified(host))
            .unwrap_or(&self.hosts[0])
    }

    /// The token the server writes into its pages.
    pub fn page_token(&self) -> &str {
        &self.page_token
    }

    /// The page's HTML with its token in it, for the page's script to send back.
    pub fn page(&self, html: &str) -> String {
        html.replacen(
            "<head>",
            &format!(
                "<head>\n<meta name=\"{PAGE_TOKEN_HEADER}\" content=\"{}\">",
                self.page_token
            ),
            1,
        )
    }

    /// `router` behind the shield: hosts and origins checked first, bodies bounded, answers
    /// timed; an address it has no route for gets [`unknown_address`].
    pub fn guard(&self, router: Router, settings: &WebSettings) -> Router {
        router
            .fallback(unknown_address)
            .layer(RequestBodyLimitLayer::new(settings.max_body_bytes))
            .layer(TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                settings.request_timeout,
            ))
            .layer(middleware::from_fn_with_state(self.clone(), check))
    }

    fn allows_host(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.hosts.contains(&host)
    }

    /// Why a request is refused, if it is.
    fn refusal(&self, method: &Method, headers: &HeaderMap) -> Option<(StatusCode, &'static str)> {
        let text = |name: &str| headers.get(name).and_then(|value| value.to_str().ok());
        if !text(header::HOST.as_str()).is_some_and(|host| self.allows_host(host)) {
            return Some((
                StatusCode::MISDIRECTED_REQUEST,
                "this server answers only to the address it printed (or a name given with --allow-host)\n",
            ));
        }
        if matches!(*method, Method::GET | Method::HEAD) {
            return None;
        }
        let origin_allowed = match text(header::ORIGIN.as_str()) {
            None => true,
            Some(origin) => origin
                .strip_prefix("http://")
                .or_else(|| origin.strip_prefix("https://"))
                .is_some_and(|host| self.allows_host(host)),
        };
        let bearer = self.bearer
            && !headers.contains_key(header::COOKIE)
            && text(header::AUTHORIZATION.as_str())
                .is_some_and(|value| value.starts_with("Bearer "));
        let token_given =
            bearer || text(PAGE_TOKEN_HEADER).is_some_and(|token| token == *self.page_token);
        (!origin_allowed || !token_given).then_some((
            StatusCode::FORBIDDEN,
            "only this server's own page may do that\n",
        ))
    }
}

async fn check(State(shield): State<Shield>, request: Request, next: Next) -> Response {
    match shield.refusal(request.method(), request.headers()) {
        Some((status, why)) => (status, why).into_response(),
        None => next.run(request).await,
    }
}

/// The connections open now, those still sending their first request's header by age.
#[derive(Default)]
struct Connections {
    open: usize,
    next: u64,
    waiting: BTreeMap<u64, AbortHandle>,
}

/// Serves `app` (already behind a [`Shield`]) on `listener` with `settings`, until the
/// listener fails.
pub async fn serve(listener: TcpListener, app: Router, settings: WebSettings) {
    let connections = Arc::new(Mutex::new(Connections::default()));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, most often: wait for some to close.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let mut open = lock(&connections);
        if open.open >= settings.max_connections {
            match open.waiting.pop_first() {
                Some((_, oldest)) => oldest.abort(),
                // Every connection is busy with a request: the new one waits no more.
                None => continue,
            }
        }
        open.open += 1;
        open.next += 1;
        let id = open.next;
        let started = Arc::clone(&connections);
        let service = TowerToHyperService::new(app.clone().map_request(
            move |request: axum::http::Request<Incoming>| {
                lock(&started).waiting.remove(&id);
                request
            },
        ));
        let closed = Arc::clone(&connections);
        // Spawned under the lock, so that the task cannot count itself out before it is in.
        let task = tokio::spawn(async move {
            let _closed = OnDrop(Some(move || {
                let mut open = lock(&closed);
                open.open -= 1;
                open.waiting.remove(&id);
            }));
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(settings.header_timeout)
                .max_buf_size(settings.max_header_bytes.max(8192));
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
        });
        open.waiting.insert(id, task.abort_handle());
    }
}

fn lock(connections: &Mutex<Connections>) -> std::sync::MutexGuard<'_, Connections> {
    connections
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Runs its closure when dropped: a connection's task is counted out however it ends,
/// aborted included.
struct OnDrop<F: FnOnce()>(Option<F>);

impl<F: FnOnce()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        if let Some(on_drop) = self.0.take() {
            on_drop();
        }
    }
}

/// The page for an address that names no page: the browser's own error page for an empty 404
/// is a dead end for someone who mistyped or followed an old link, so it says so and links to
/// the start page. Nothing of the request is shown back.
const UNKNOWN_ADDRESS_HTML: &str = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>No such page</title>\
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:32rem;padding:0 1rem}</style>\
</head><body><h1>No such page</h1><p>Nothing is served at this address: go to \
<a href=\"/\">the start page</a>.</p></body></html>\n";

/// What an address without a route gets: for a page, [`UNKNOWN_ADDRESS_HTML`]; for the API
/// (`/api/...`), which scripts read, a line of text.
async fn unknown_address(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return (StatusCode::NOT_FOUND, "no such address\n").into_response();
    }
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        UNKNOWN_ADDRESS_HTML,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        map
    }

    /// The status, content type and body of a GET of `path` with `host`, from `app`.
    async fn fetch(app: &Router, path: &str, host: &str) -> (StatusCode, String, String) {
        let request = axum::http::Request::get(path)
            .header(header::HOST, host)
            .body(axum::body::Body::empty())
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map_or(String::new(), |v| v.to_str().unwrap().to_string());
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 1 << 16)
            .await
            .unwrap();
        (status, kind, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn an_unknown_address_gets_a_page_with_a_way_back_and_shows_nothing_of_the_request() {
        let shield = Shield::new("127.0.0.1:8300".parse().unwrap(), &[]);
        let routes = Router::new().route("/", axum::routing::get(|| async { "start" }));
        let app = shield.guard(routes, &WebSettings::default());
        let host = "127.0.0.1:8300";
        assert_eq!(fetch(&app, "/", host).await.2, "start");
        let (status, kind, body) = fetch(&app, "/%3Cscript%3Ealert(1)%3C/script%3E", host).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(kind.starts_with("text/html"), "{kind}");
        assert!(body.contains("<a href=\"/\">"), "{body}");
        assert!(body.contains("name=\"viewport\""), "{body}");
        assert!(
            !body.contains("script") && !body.contains("alert"),
            "{body}"
        );
        let (status, kind, body) = fetch(&app, "/api/nothing", host).await;
        assert_eq!(
            (status, kind.as_str()),
            (StatusCode::NOT_FOUND, "text/plain; charset=utf-8")
        );
        assert_eq!(body, "no such address\n");
        let (status, ..) = fetch(&app, "/nothing", "attacker.example").await;
        assert_eq!(status, StatusCode::MISDIRECTED_REQUEST, "behind the shield");
    }

    #[test]
    fn only_the_servers_own_names_are_answered() {
        let shield = Shield::new("127.0.0.1:8300".parse().unwrap(), &["box.lan".into()]);
        for host in [
            "127.0.0.1:8300",
            "localhost:8300",
            "LOCALHOST:8300",
            "[::1]:8300",
            "box.lan:8300",
        ] {
            assert_eq!(
                shield.refusal(&Method::GET, &headers(&[("host", host)])),
                None,
                "{host}"
            );
        }
        for host in [
            "attacker.example",
            "attacker.example:8300",
            "127.0.0.1:8301",
            "box.lan",
        ] {
            let refused = shield.refusal(&Method::GET, &headers(&[("host", host)]));
            assert_eq!(
                refused.map(|r| r.0),
                Some(StatusCode::MISDIRECTED_REQUEST),
                "{host}"
            );
        }
        assert!(
            shield.refusal(&Method::GET, &HeaderMap::new()).is_some(),
            "no Host"
        );
        let everywhere = Shield::new("0.0.0.0:80".parse().unwrap(), &["10.0.0.5".into()]);
        assert_eq!(everywhere.shown_host(), "10.0.0.5:80");
    }

    #[test]
    fn a_change_needs_the_pages_token_and_no_other_origin() {
        let shield = Shield::new("127.0.0.1:8300".parse().unwrap(), &[]);
        let token = shield.page_token().to_string();
        let post = |pairs: &[(&str, &str)]| {
            let mut all = vec![("host", "127.0.0.1:8300")];
            all.extend_from_slice(pairs);
            shield.refusal(&Method::POST, &headers(&all)).map(|r| r.0)
        };
        assert_eq!(post(&[(PAGE_TOKEN_HEADER, &token)]), None);
        assert_eq!(
            post(&[
                ("origin", "http://127.0.0.1:8300"),
                (PAGE_TOKEN_HEADER, &token)
            ]),
            None
        );
        let forbidden = Some(StatusCode::FORBIDDEN);
        assert_eq!(post(&[]), forbidden, "no token");
        assert_eq!(post(&[(PAGE_TOKEN_HEADER, "guess")]), forbidden);
        assert_eq!(
            post(&[
                ("origin", "http://evil.example"),
                (PAGE_TOKEN_HEADER, &token)
            ]),
            forbidden
        );
        assert!(shield.page("<html><head></head>").contains(&token));
        // A bearer token stands for the page token only where the server takes them, and only
        // without a cookie.
        let bearer = [("authorization", "Bearer t0ken")];
        assert_eq!(post(&bearer), forbidden);
        let shield = shield.accepting_bearer_tokens();
        let post = |pairs: &[(&str, &str)]| {
            let mut all = vec![("host", "127.0.0.1:8300")];
            all.extend_from_slice(pairs);
            shield.refusal(&Method::POST, &headers(&all)).map(|r| r.0)
        };
        assert_eq!(post(&bearer), None);
        assert_eq!(post(&[bearer[0], ("cookie", "s=1")]), forbidden);
        assert_eq!(
            post(&[bearer[0], ("origin", "http://evil.example")]),
            forbidden
        );
    }
}
