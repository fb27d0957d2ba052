//! What a refused API request gets: an HTTP status and, as JSON, MQ's reason (code and name,
//! when MQ has one) with a sentence a person can act on:
//!
//! ```json
//! {"error": {"reason": 2085, "name": "MQRC_UNKNOWN_OBJECT_NAME", "text": "AMQ8147E: QUEUE NO.SUCH.Q not found."}}
//! ```

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use ferry_core::{MqError, Reason};

/// A refused request.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// MQ's reason, when there is one.
    pub reason: Option<Reason>,
    /// What went wrong and what to do.
    pub text: String,
}

impl ApiError {
    /// A refusal with an HTTP status and a sentence, without an MQ reason.
    pub fn new(status: StatusCode, text: impl Into<String>) -> ApiError {
        ApiError {
            status,
            reason: None,
            text: text.into(),
        }
    }

    /// A refusal for MQ's `reason`, with the HTTP status that fits it.
    pub fn reason(reason: Reason, text: impl Into<String>) -> ApiError {
        ApiError {
            status: status_of(reason),
            reason: Some(reason),
            text: text.into(),
        }
    }

    /// 400: the request itself is wrong (MQRC 2067 attribute value error unless said).
    pub fn bad(text: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, text)
    }

    /// 401: no login.
    pub fn unauthenticated(text: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::UNAUTHORIZED,
            reason: Some(Reason::NotAuthorized),
            text: text.into(),
        }
    }
}

/// The HTTP status an MQ reason maps to.
fn status_of(reason: Reason) -> StatusCode {
    match reason {
        Reason::NotAuthorized => StatusCode::FORBIDDEN,
        Reason::UnknownObjectName | Reason::NoMsgAvailable => StatusCode::NOT_FOUND,
        Reason::ObjectAlreadyExists | Reason::ObjectInUse | Reason::QNotEmpty => {
            StatusCode::CONFLICT
        }
        Reason::QFull | Reason::StorageNotAvailable | Reason::MaxConnsLimitReached => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        Reason::QMgrQuiescing | Reason::QMgrStopping => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// A request body that is not the JSON asked for: 413 when it is over the limit, else 400 with
/// what was expected (`wanted`) and what was wrong.
pub(crate) fn bad_json(e: axum::extract::rejection::JsonRejection, wanted: &str) -> ApiError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the request body is larger than the console accepts (4 MiB); put larger messages with ferry put or an application",
        );
    }
    ApiError::bad(format!("{wanted}: {}", e.body_text()))
}

impl From<MqError> for ApiError {
    fn from(e: MqError) -> ApiError {
        ApiError::reason(e.reason, e.detail)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut error = serde_json::json!({ "text": self.text });
        if let Some(r) = self.reason {
            error["reason"] = r.code().into();
            error["name"] = r.name().into();
        }
        let mut res = (
            self.status,
            axum::Json(serde_json::json!({ "error": error })),
        )
            .into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            // Not `Basic`: a browser would show its own password box instead of the page's.
            res.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("FerryLogin realm=\"ferrymq\""),
            );
        }
        res
    }
}
