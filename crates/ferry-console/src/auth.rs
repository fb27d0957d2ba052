//! Who a request is: a login's cookie, or HTTP Basic credentials checked on the request.
//!
//! Logins are random 256-bit tokens held in memory (at most `max_logins`; the one idle longest
//! gives way; one unused for `login_idle` is forgotten), so a restart logs everybody out. The
//! cookie is `HttpOnly` and `SameSite=Strict`, `Secure` over TLS. A request that changes
//! anything must also carry the header `X-Ferry-Request` (any value): a page of another site
//! cannot add it without the browser asking first, and the console never answers that ask, so
//! a forged form post is refused (403) whatever cookies the browser sends.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, Method, StatusCode};
use ferry_core::model::security::Principal;
use parking_lot::Mutex;

use crate::{ApiError, Console, Peer};

/// The login cookie's name.
pub(crate) const COOKIE: &str = "ferry_console";
/// The header a changing request carries.
pub(crate) const REQUEST_HEADER: &str = "x-ferry-request";

struct Login {
    who: Arc<Principal>,
    last: Instant,
}

/// The logins held.
pub(crate) struct Logins {
    held: Mutex<HashMap<String, Login>>,
    max: usize,
    idle: Duration,
}

impl Logins {
    pub(crate) fn new(max: usize, idle: Duration) -> Logins {
        Logins {
            held: Mutex::new(HashMap::new()),
            max: max.max(1),
            idle,
        }
    }

    /// A new login for `who`; its token.
    pub(crate) fn create(&self, who: Principal) -> String {
        let token = random_token();
        let now = Instant::now();
        let mut held = self.held.lock();
        held.retain(|_, l| now.duration_since(l.last) < self.idle);
        while held.len() >= self.max {
            let Some(oldest) = held
                .iter()
                .min_by_key(|(_, l)| l.last)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            held.remove(&oldest);
        }
        held.insert(
            token.clone(),
            Login {
                who: Arc::new(who),
                last: now,
            },
        );
        debug_assert!(held.len() <= self.max);
        token
    }

    /// The principal of a live login (and it is used now).
    pub(crate) fn find(&self, token: &str) -> Option<Arc<Principal>> {
        let now = Instant::now();
        let mut held = self.held.lock();
        let live = held
            .get(token)
            .is_some_and(|l| now.duration_since(l.last) < self.idle);
        if !live {
            held.remove(token);
            return None;
        }
        let l = held.get_mut(token)?;
        l.last = now;
        Some(l.who.clone())
    }

    pub(crate) fn remove(&self, token: &str) {
        self.held.lock().remove(token);
    }

    /// Logins held now.
    pub(crate) fn count(&self) -> usize {
        self.held.lock().len()
    }
}

fn random_token() -> String {
    use ring::rand::SecureRandom;
    let mut bytes = [0u8; 32];
    ring::rand::SystemRandom::new()
        .fill(&mut bytes)
        .expect("the system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The request's principal.
#[derive(Debug, Clone)]
pub(crate) struct Who(pub(crate) Arc<Principal>);

impl Who {
    pub(crate) fn user(&self) -> &str {
        self.0.user.as_str()
    }
}

impl FromRequestParts<Arc<Console>> for Who {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        console: &Arc<Console>,
    ) -> Result<Who, ApiError> {
        let changing = !matches!(parts.method, Method::GET | Method::HEAD);
        if changing && !parts.headers.contains_key(REQUEST_HEADER) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "a request that changes something must carry the header X-Ferry-Request \
                 (the console's page sends it; a script adds -H 'X-Ferry-Request: 1')",
            ));
        }
        if let Some(who) = cookie(&parts.headers, COOKIE).and_then(|t| console.logins.find(t)) {
            return Ok(Who(who));
        }
        if let Some((user, password)) = basic(&parts.headers) {
            let peer = parts.extensions.get::<Peer>().map(|p| p.0);
            let peer = peer.unwrap_or_else(|| ([0, 0, 0, 0], 0).into());
            return admit(console, user, password, peer).await.map(Who);
        }
        Err(ApiError::unauthenticated(
            "log in first: the page's login, POST /api/v1/login with {\"user\": …, \"password\": …}, \
             or HTTP Basic credentials on each request",
        ))
    }
}

/// Checks a password through the server's gate, then that the user may connect to the queue
/// manager at all (+connect), as a client must.
pub(crate) async fn admit(
    console: &Console,
    user: String,
    password: String,
    peer: std::net::SocketAddr,
) -> Result<Arc<Principal>, ApiError> {
    if user.is_empty() || password.is_empty() {
        return Err(ApiError::unauthenticated(
            "give a user name and its password",
        ));
    }
    let who = console
        .gate
        .admit(user.clone(), password, peer)
        .await
        .map_err(|why| {
            tracing::warn!(user, peer = %peer, why, "console login refused");
            ApiError::unauthenticated(format!("user {user} was not authenticated: {why}"))
        })?;
    let qm = &console.qm;
    qm.check_authority(
        &who,
        ferry_core::model::security::AuthObjType::QMgr,
        qm.name().as_str(),
        ferry_core::model::security::Authority::CONNECT,
    )?;
    Ok(Arc::new(who))
}

/// A cookie's value from the request's Cookie headers.
pub(crate) fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// HTTP Basic credentials (RFC 7617), when given.
fn basic(headers: &HeaderMap) -> Option<(String, String)> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, data) = v.trim().split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let text = String::from_utf8(base64_decode(data.trim())?).ok()?;
    let (user, password) = text.split_once(':')?;
    Some((user.to_owned(), password.to_owned()))
}

/// Standard base64 with padding; `None` for anything else.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let bytes = s.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    for chunk in bytes.chunks(4) {
        let pad = chunk.iter().rev().take_while(|c| **c == b'=').count();
        if pad > 2 {
            return None;
        }
        let mut n = 0u32;
        for &c in &chunk[..4 - pad] {
            n = n << 6 | value(c)?;
        }
        n <<= 6 * pad as u32;
        let got = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&got[..3 - pad]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_decode() {
        assert_eq!(base64_decode("YWxpY2U6czNjcmV0").unwrap(), b"alice:s3cret");
        assert_eq!(base64_decode("YQ==").unwrap(), b"a");
        assert_eq!(base64_decode("YWI=").unwrap(), b"ab");
        assert!(base64_decode("YQ=").is_none());
        assert!(base64_decode("Y!==").is_none());
    }

    #[test]
    fn logins_are_bounded_and_forget_the_idlest() {
        let l = Logins::new(2, Duration::from_secs(60));
        let a = l.create(Principal::owner("a"));
        let b = l.create(Principal::owner("b"));
        assert!(l.find(&a).is_some());
        let c = l.create(Principal::owner("c"));
        assert_eq!(l.count(), 2);
        assert!(l.find(&b).is_none(), "b was idle longest");
        assert!(l.find(&a).is_some() && l.find(&c).is_some());
        l.remove(&a);
        assert!(l.find(&a).is_none());
    }
}
