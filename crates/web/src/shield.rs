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
//!   most [`WebSettings::max_connections`] at once and [`WebSettings::max_connections_per_peer`]
//!   from one address (its own oldest closed to make room for its new one); when the server is
//!   full, the oldest connection still sending its first header is closed to make room, or else
//!   the oldest of the address holding the most, so that neither slow connections nor held
//!   ones (event streams, idle keep-alives) can keep a person out.
//! - Answers: none may be framed by another site's page (`X-Frame-Options`, CSP
//!   `frame-ancestors`) or read as another type than it says (`nosniff`); an error's text
//!   (the framework's own, which may quote the request) is escaped to printable ASCII and cut
//!   short, so nothing a visitor sent comes back raw.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::collections::{BTreeMap, HashMap};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::task::AbortHandle;
use tower::ServiceExt;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// Whether `name` can be a name the pages are opened by (`--allow-host`, an arena's
/// `allowed_hosts`): a host name or address with an optional port. An empty or spaced one made
/// the address printed for the pages unusable (`http://:8300/`).
pub fn check_allowed_host(name: &str) -> Result<(), String> {
    let fine = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_' | ':' | '[' | ']'));
    if fine {
        Ok(())
    } else {
        Err(format!(
            "'{name}' is not a host name: give NAME or NAME:PORT, e.g. myhost.lan or 192.168.1.5"
        ))
    }
}

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
    /// Connections at once from one address: a person's browser opens at most six to a server
    /// (each tab's event stream holds one), so this leaves room for several people behind one
    /// address while one client alone cannot fill the server.
    pub max_connections_per_peer: usize,
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
            max_connections_per_peer: 64,
            max_header_bytes: 16 << 10,
            max_body_bytes: 64 << 10,
        }
    }
}

/// What a server lets in: its hosts, and its pages' token.
#[derive(Clone, Debug)]
pub struct Shield {
    hosts: Arc<Vec<String>>,
    /// The address to give people (see [`Shield::shown_host`]).
    shown: Arc<String>,
    page_token: Arc<String>,
    /// A request with a bearer token and no cookie needs no page token (see
    /// [`Shield::accepting_bearer_tokens`]).
    bearer: bool,
}

impl Shield {
    /// The shield of a server listening on `bound`, also answering to the names in `extra`
    /// (`NAME` or `NAME:PORT`; a name without a port takes the bound one). Every name is also
    /// answered without its port (a browser leaves out port 80, a proxy may pass the bare
    /// name): a rebinding page's `Host` names its own domain either way. An unspecified
    /// address (`0.0.0.0`) is no name: a request naming it was not typed by a person.
    pub fn new(bound: SocketAddr, extra: &[String]) -> Shield {
        let port = bound.port();
        let mut hosts = Vec::new();
        if !bound.ip().is_unspecified() {
            hosts.push(bound.to_string());
        }
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
        let shown = hosts.first().cloned().unwrap_or_else(|| bound.to_string());
        let bare: Vec<String> = hosts.iter().filter_map(|host| without_port(host)).collect();
        hosts.extend(bare);
        Shield {
            hosts: Arc::new(hosts),
            shown: Arc::new(shown),
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
        &self.shown
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

    /// Why a request that names its server twice is refused: two `Host` headers (which a
    /// proxy and this server might read differently), or an absolute address naming another
    /// server than its `Host`.
    fn refusal_of_target(&self, request: &Request) -> Option<(StatusCode, &'static str)> {
        if request.headers().get_all(header::HOST).iter().count() > 1 {
            return Some((StatusCode::BAD_REQUEST, "one Host header, please\n"));
        }
        let authority = request.uri().authority()?;
        (!self.allows_host(authority.as_str())).then_some((
            StatusCode::MISDIRECTED_REQUEST,
            "this server answers only to the address it printed (or a name given with --allow-host)\n",
        ))
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

/// `host` without its `:PORT`, if it has one (`[::1]:8300` gives `[::1]`).
fn without_port(host: &str) -> Option<String> {
    let (name, port) = host.rsplit_once(':')?;
    let bracketed = !name.starts_with('[') || name.ends_with(']');
    (port.parse::<u16>().is_ok() && bracketed).then(|| name.to_string())
}

async fn check(State(shield): State<Shield>, request: Request, next: Next) -> Response {
    let refused = match shield.refusal_of_target(&request) {
        Some(refusal) => Some(refusal),
        None => shield.refusal(request.method(), request.headers()),
    };
    let mut response = match refused {
        Some((status, why)) => (status, why).into_response(),
        None => escaped_error(next.run(request).await).await,
    };
    let headers = response.headers_mut();
    for (name, value) in [
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "same-origin"),
    ] {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            header::HeaderValue::from_static("frame-ancestors 'none'"),
        );
    }
    response
}

/// The longest error text passed on, in characters once escaped.
const ERROR_TEXT: usize = 300;

/// `response` with its text, when it is an error in plain text (the framework's rejections
/// quote the path or the body they could not read), escaped to printable ASCII and cut to
/// [`ERROR_TEXT`]: a visitor's bytes never come back raw (an ESC for the terminal of whoever
/// reads it with curl, markup for a browser that would sniff it).
async fn escaped_error(response: Response) -> Response {
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|value| value.starts_with("text/plain"));
    if !response.status().is_client_error() || !plain {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = match axum::body::to_bytes(body, 16 << 10).await {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(_) => String::new(),
    };
    let text = format!(
        "{}\n",
        referee_rules::quote::shorten(text.trim_end_matches('\n'), ERROR_TEXT)
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(text))
}

/// The connections open now, by age (their ids grow), each with its peer's address and
/// whether it is still sending its first request's header.
#[derive(Default)]
struct Connections {
    next: u64,
    open: BTreeMap<u64, Connection>,
    per_peer: HashMap<IpAddr, usize>,
}

struct Connection {
    peer: IpAddr,
    waiting: bool,
    task: AbortHandle,
}

impl Connections {
    /// The connection to close to let one more from `peer` in, if one must go: the peer's
    /// own oldest when it holds its share; when the server is full, the oldest still sending
    /// its first header, or else the oldest of the peer holding the most.
    fn to_close(&self, peer: IpAddr, settings: &WebSettings) -> Option<u64> {
        let oldest_of = |peer: IpAddr| {
            self.open
                .iter()
                .find(|(_, connection)| connection.peer == peer)
                .map(|(&id, _)| id)
        };
        if self.per_peer.get(&peer).copied().unwrap_or(0) >= settings.max_connections_per_peer {
            return oldest_of(peer);
        }
        if self.open.len() < settings.max_connections {
            return None;
        }
        let waiting = self.open.iter().find(|(_, connection)| connection.waiting);
        match waiting {
            Some((&id, _)) => Some(id),
            None => {
                let heaviest = self.per_peer.iter().max_by_key(|(_, &count)| count)?;
                oldest_of(*heaviest.0)
            }
        }
    }

    /// Counts a connection out, closed or closing (its task's end will find it gone).
    fn remove(&mut self, id: u64) -> Option<Connection> {
        let connection = self.open.remove(&id)?;
        if let Some(count) = self.per_peer.get_mut(&connection.peer) {
            *count -= 1;
            if *count == 0 {
                self.per_peer.remove(&connection.peer);
            }
        }
        Some(connection)
    }
}

/// Serves `app` (already behind a [`Shield`]) on `listener` with `settings`, until the
/// listener fails.
pub async fn serve(listener: TcpListener, app: Router, settings: WebSettings) {
    let connections = Arc::new(Mutex::new(Connections::default()));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of file descriptors, most often: wait for some to close.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let peer = peer.ip();
        let mut open = lock(&connections);
        if let Some(id) = open.to_close(peer, &settings) {
            if let Some(closed) = open.remove(id) {
                closed.task.abort();
            }
        }
        open.next += 1;
        let id = open.next;
        let started = Arc::clone(&connections);
        let service = TowerToHyperService::new(app.clone().map_request(
            move |request: axum::http::Request<Incoming>| {
                if let Some(connection) = lock(&started).open.get_mut(&id) {
                    connection.waiting = false;
                }
                request
            },
        ));
        let closed = Arc::clone(&connections);
        // Spawned under the lock, so that the task cannot count itself out before it is in.
        let task = tokio::spawn(async move {
            let _closed = OnDrop(Some(move || {
                lock(&closed).remove(id);
            }));
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(settings.header_timeout)
                .max_buf_size(settings.max_header_bytes.max(8192));
            let _ = http.serve_connection(TokioIo::new(stream), service).await;
        });
        let task = task.abort_handle();
        *open.per_peer.entry(peer).or_insert(0) += 1;
        open.open.insert(
            id,
            Connection {
                peer,
                waiting: true,
                task,
            },
        );
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
            // Without the port, as a browser sends it for port 80 or a proxy passes it.
            "box.lan",
            "localhost",
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
            "box.lan:8301",
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
        for (host, refused) in [("10.0.0.5", false), ("0.0.0.0:80", true), ("0.0.0.0", true)] {
            let refusal = everywhere.refusal(&Method::GET, &headers(&[("host", host)]));
            assert_eq!(refusal.is_some(), refused, "{host}");
        }
    }

    /// A request to `app` for `uri` with the `Host` headers `hosts`: its answer's status,
    /// headers and text.
    async fn send(app: &Router, uri: &str, hosts: &[&str]) -> (StatusCode, HeaderMap, String) {
        let mut request = axum::http::Request::get(uri);
        for host in hosts {
            request = request.header(header::HOST, *host);
        }
        let response = app
            .clone()
            .oneshot(request.body(axum::body::Body::empty()).unwrap())
            .await
            .unwrap();
        let (parts, body) = response.into_parts();
        let body = axum::body::to_bytes(body, 1 << 16).await.unwrap();
        (
            parts.status,
            parts.headers,
            String::from_utf8(body.to_vec()).unwrap(),
        )
    }

    #[tokio::test]
    async fn errors_show_nothing_raw_and_no_answer_can_be_framed() {
        let shield = Shield::new("127.0.0.1:8300".parse().unwrap(), &[]);
        let routes = Router::new().route(
            "/api/n/{n}",
            axum::routing::get(
                |axum::extract::Path(n): axum::extract::Path<u32>| async move { n.to_string() },
            ),
        );
        let app = shield.guard(routes, &WebSettings::default());
        let host = ["127.0.0.1:8300"];
        let (status, headers, body) = send(&app, "/api/n/7", &host).await;
        assert_eq!((status, body.as_str()), (StatusCode::OK, "7"));
        for (name, value) in [
            ("x-frame-options", "DENY"),
            ("x-content-type-options", "nosniff"),
            ("content-security-policy", "frame-ancestors 'none'"),
        ] {
            assert_eq!(headers[name], value, "{name}");
        }
        // The framework's rejection quotes the path segment it could not read: escaped.
        let (status, headers, body) = send(&app, "/api/n/%1b%5b2J%3Cb%3E%07", &host).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body.contains("\\x1b[2J<b>\\x07"), "{body:?}");
        assert!(
            !body.chars().any(|c| c.is_control() && c != '\n'),
            "{body:?}"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        // Two Hosts, or an absolute address naming another server, are refused.
        let two = ["127.0.0.1:8300", "evil.example"];
        assert_eq!(
            send(&app, "/api/n/7", &two).await.0,
            StatusCode::BAD_REQUEST
        );
        let absolute = send(&app, "http://evil.example/api/n/7", &host).await;
        assert_eq!(absolute.0, StatusCode::MISDIRECTED_REQUEST);
    }

    /// Connections of `peers` (by their last address byte), oldest first, the first
    /// `waiting` of them still sending their first header.
    fn connections(peers: &[u8], waiting: usize) -> Connections {
        let mut connections = Connections::default();
        for (i, &peer) in peers.iter().enumerate() {
            let peer = IpAddr::from([10, 0, 0, peer]);
            let task = tokio::spawn(std::future::pending::<()>()).abort_handle();
            *connections.per_peer.entry(peer).or_insert(0) += 1;
            connections.open.insert(
                i as u64,
                Connection {
                    peer,
                    waiting: i < waiting,
                    task,
                },
            );
        }
        connections
    }

    #[tokio::test]
    async fn a_full_server_makes_room_at_the_expense_of_who_holds_the_most() {
        let settings = WebSettings {
            max_connections: 6,
            max_connections_per_peer: 3,
            ..WebSettings::default()
        };
        let peer = |byte| IpAddr::from([10, 0, 0, byte]);
        // Room left: nothing closes.
        assert_eq!(
            connections(&[1, 1, 2], 0).to_close(peer(3), &settings),
            None
        );
        // A peer at its share closes its own oldest.
        assert_eq!(
            connections(&[2, 1, 1, 1], 0).to_close(peer(1), &settings),
            Some(1)
        );
        // Full: the oldest still sending its header goes first ...
        let full = [1, 2, 2, 3, 3, 3];
        assert_eq!(connections(&full, 2).to_close(peer(4), &settings), Some(0));
        // ... else the oldest of the peer holding the most (held event streams, say).
        assert_eq!(connections(&full, 0).to_close(peer(4), &settings), Some(3));
        let mut open = connections(&full, 0);
        open.remove(3);
        assert_eq!(open.per_peer[&peer(3)], 2);
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
