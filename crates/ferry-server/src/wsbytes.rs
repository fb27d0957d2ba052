//! MQTT over WebSocket (MQTT 3.1.1 §6, MQTT 5 §6): the server side of the handshake, which
//! must name the `mqtt` subprotocol, then the connection as a byte stream — each binary message
//! read is bytes of the MQTT stream (a packet may span messages, a message hold several), each
//! write one binary message — so the MQTT session runs over it unchanged.
//!
//! Bounded: a message or frame larger than the MQTT packet limit (and a little) is refused by
//! the WebSocket layer; text messages end the connection (MQTT's rule); pings are answered by
//! the WebSocket layer as it is read and flushed.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, Bytes};
use futures_util::{Sink, Stream};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::http::{HeaderValue, StatusCode};
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};
use tokio_tungstenite::WebSocketStream;

/// The subprotocol MQTT clients ask for.
const SUBPROTOCOL: &str = "mqtt";

/// A WebSocket connection read and written as the bytes of one stream.
pub(crate) struct WsBytes<S> {
    ws: WebSocketStream<S>,
    /// What is left of the binary message being read.
    rest: Bytes,
}

/// Accepts the WebSocket handshake on `stream` if the client asks for the `mqtt` subprotocol
/// (refused with 400 otherwise); messages and frames above `max_message` bytes are refused.
pub(crate) async fn accept<S>(stream: S, max_message: usize) -> Result<WsBytes<S>, WsError>
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let config = WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message));
    let ws =
        tokio_tungstenite::accept_hdr_async_with_config(stream, choose_mqtt, Some(config)).await?;
    Ok(WsBytes {
        ws,
        rest: Bytes::new(),
    })
}

/// The handshake's header check: the `mqtt` subprotocol among those asked for, answered.
fn choose_mqtt(req: &Request, mut resp: Response) -> Result<Response, ErrorResponse> {
    let asked = req
        .headers()
        .get_all("Sec-WebSocket-Protocol")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|p| p.trim().eq_ignore_ascii_case(SUBPROTOCOL));
    if !asked {
        let mut refusal = ErrorResponse::new(Some(
            "MQTT over WebSocket needs the subprotocol \"mqtt\" (Sec-WebSocket-Protocol)".into(),
        ));
        *refusal.status_mut() = StatusCode::BAD_REQUEST;
        return Err(refusal);
    }
    resp.headers_mut().insert(
        "Sec-WebSocket-Protocol",
        HeaderValue::from_static(SUBPROTOCOL),
    );
    Ok(resp)
}

fn io_error(e: WsError) -> io::Error {
    match e {
        WsError::Io(e) => e,
        other => io::Error::new(io::ErrorKind::InvalidData, other),
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for WsBytes<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            if !self.rest.is_empty() {
                let n = self.rest.len().min(buf.remaining());
                buf.put_slice(&self.rest[..n]);
                self.rest.advance(n);
                return Poll::Ready(Ok(()));
            }
            match Pin::new(&mut self.ws).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                // The end of the stream: a read of nothing.
                Poll::Ready(None) | Poll::Ready(Some(Ok(Message::Close(_)))) => {
                    return Poll::Ready(Ok(()))
                }
                Poll::Ready(Some(Ok(Message::Binary(b)))) => self.rest = b,
                Poll::Ready(Some(Ok(Message::Text(_)))) => {
                    return Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a text message on an MQTT WebSocket (MQTT is carried in binary messages)",
                    )))
                }
                // Pings are answered by the WebSocket layer; pongs and raw frames carry nothing.
                Poll::Ready(Some(Ok(_))) => {}
                Poll::Ready(Some(Err(e))) => return Poll::Ready(Err(io_error(e))),
            }
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for WsBytes<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let ws = Pin::new(&mut self.ws);
        match ws.poll_ready(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(Err(e)) => return Poll::Ready(Err(io_error(e))),
            Poll::Ready(Ok(())) => {}
        }
        let message = Message::Binary(Bytes::copy_from_slice(data));
        match Pin::new(&mut self.ws).start_send(message) {
            Ok(()) => Poll::Ready(Ok(data.len())),
            Err(e) => Poll::Ready(Err(io_error(e))),
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.ws).poll_flush(cx).map_err(io_error)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.ws).poll_close(cx).map_err(io_error)
    }
}
