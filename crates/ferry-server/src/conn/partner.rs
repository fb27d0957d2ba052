//! Who may start a receiver channel: the partner proves it is the queue manager the receiver's
//! definition names, and a refusal tells it nothing (docs/security.md, "Channels").
//!
//! A conversation that connected as a channel (`connect_flags::CHANNEL`) carries nothing but
//! ChannelStart and ChannelBatch. At ChannelStart the receiver's definition decides:
//!
//! * SSLCIPH set: the partner came over TLS and presented a certificate the client CA signed;
//!   SSLPEER, when set, must match the certificate's subject. SSLPEER or RQMNAME must be set, so
//!   that not every certificate the CA signed can start the channel.
//! * SSLCIPH blank: the partner gave a user and password that the user file verified, and that
//!   user is the channel's MCAUSER (which must be set). A certificate matching SSLPEER is
//!   accepted too.
//! * The partner's queue manager name — what the channel records as its remote queue manager —
//!   must be RQMNAME when set; otherwise the certificate's CN; with neither (a password partner
//!   and no RQMNAME) the start is refused.
//!
//! Pure logic: the caller hands in what the transport and the connect established.

use ferry_model::channel::MAX_CHANNEL_NAME;
use ferry_model::dn::DistinguishedName;
use ferry_model::objects::{ChannelAttrs, ChannelType};
use ferry_model::status::ConnMode;

/// What the transport and the Connect established about a channel's partner.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Credentials<'a> {
    /// The connection's transport.
    pub mode: ConnMode,
    /// The verified subject of its TLS certificate.
    pub cert: Option<&'a DistinguishedName>,
    /// The user whose password the user file verified at Connect.
    pub user: Option<&'a str>,
}

/// Checks that the partner may start channel `def` claiming to be queue manager `claimed`.
/// `Ok` carries how it proved itself (for the log); `Err` the whole reason, for the error log
/// only — the partner is told nothing but that the channel is not available.
pub(crate) fn authorize(
    channel: &str,
    def: Option<&ChannelAttrs>,
    claimed: &str,
    who: Credentials<'_>,
) -> Result<String, String> {
    let Some(def) = def else {
        return Err(format!("channel {channel} is not defined here (define it with DEFINE CHANNEL({channel}) CHLTYPE(RCVR))"));
    };
    if def.channel_type != ChannelType::Receiver {
        return Err(format!(
            "channel {channel} is a {:?} channel, not a receiver (CHLTYPE(RCVR))",
            def.channel_type
        ));
    }
    let how = if !def.ssl_cipher.is_empty() {
        by_certificate(channel, def, who)?
    } else if let Some(how) = certificate_matching_sslpeer(def, who) {
        how
    } else {
        by_password(channel, def, who)?
    };
    check_name(channel, def, claimed, who.cert)?;
    Ok(how)
}

/// SSLCIPH set: a TLS certificate, matching SSLPEER when it is set.
fn by_certificate(
    channel: &str,
    def: &ChannelAttrs,
    who: Credentials<'_>,
) -> Result<String, String> {
    if !matches!(who.mode, ConnMode::Tls | ConnMode::Quic) {
        return Err(format!(
            "channel {channel} has SSLCIPH({}) but the partner connected without TLS",
            def.ssl_cipher
        ));
    }
    let Some(cert) = who.cert else {
        return Err(format!("channel {channel} has SSLCIPH({}) but the partner presented no client certificate (the TLS listener needs [server] tls_client_ca)", def.ssl_cipher));
    };
    if def.ssl_peer.is_empty() && def.remote_qmgr.is_empty() {
        return Err(format!("channel {channel} has SSLCIPH but neither SSLPEER nor RQMNAME, so any certificate the CA signed would do; set SSLPEER('CN=...') or RQMNAME (partner certificate '{cert}')"));
    }
    if !def.ssl_peer.is_empty() && !matches_peer(&def.ssl_peer, cert) {
        return Err(format!(
            "the partner's certificate '{cert}' does not match SSLPEER('{}') of channel {channel}",
            def.ssl_peer
        ));
    }
    Ok(format!("certificate '{cert}'"))
}

/// A certificate that matches a non-blank SSLPEER, on a channel without SSLCIPH.
fn certificate_matching_sslpeer(def: &ChannelAttrs, who: Credentials<'_>) -> Option<String> {
    let cert = who.cert?;
    (!def.ssl_peer.is_empty() && matches_peer(&def.ssl_peer, cert))
        .then(|| format!("certificate '{cert}'"))
}

/// SSLCIPH blank: the user the partner authenticated as must be MCAUSER.
fn by_password(channel: &str, def: &ChannelAttrs, who: Credentials<'_>) -> Result<String, String> {
    if def.mca_user.is_empty() {
        return Err(format!("channel {channel} has neither SSLCIPH nor MCAUSER, so no partner can prove who it is; set SSLCIPH and SSLPEER (TLS), or MCAUSER and give the sender USERID and PASSWORD of that user"));
    }
    match who.user {
        None => Err(format!(
            "channel {channel} needs its partner to authenticate as MCAUSER('{}'), but it gave no password the user file verified",
            def.mca_user
        )),
        Some(u) if u != def.mca_user => Err(format!(
            "the partner authenticated as user '{u}', but channel {channel} accepts only MCAUSER('{}')",
            def.mca_user
        )),
        Some(u) => Ok(format!("user '{u}'")),
    }
}

/// The claimed queue manager name must be RQMNAME, or else the certificate's CN.
fn check_name(
    channel: &str,
    def: &ChannelAttrs,
    claimed: &str,
    cert: Option<&DistinguishedName>,
) -> Result<(), String> {
    let claimed = claimed.trim();
    if claimed.is_empty() || claimed.len() > MAX_CHANNEL_NAME * 2 {
        return Err(format!(
            "the partner of channel {channel} gave no queue manager name"
        ));
    }
    let expected = if !def.remote_qmgr.is_empty() {
        def.remote_qmgr.as_str()
    } else if let Some(cn) = cert.and_then(DistinguishedName::common_name) {
        cn
    } else {
        return Err(format!("channel {channel} has no RQMNAME and its partner no certificate CN, so the partner's claim to be queue manager '{claimed}' cannot be checked; set RQMNAME({claimed}) if that is right"));
    };
    if !claimed.eq_ignore_ascii_case(expected) {
        return Err(format!(
            "the partner of channel {channel} claims to be queue manager '{claimed}', but only '{expected}' may start it ({})",
            if def.remote_qmgr.is_empty() { "its certificate's CN" } else { "RQMNAME" }
        ));
    }
    Ok(())
}

/// Whether `cert` matches the SSLPEER pattern (an unparsable pattern matches nothing).
fn matches_peer(pattern: &str, cert: &DistinguishedName) -> bool {
    DistinguishedName::parse(pattern).is_ok_and(|p| cert.matches(&p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rcvr(f: impl FnOnce(&mut ChannelAttrs)) -> ChannelAttrs {
        let mut d = ChannelAttrs {
            channel_type: ChannelType::Receiver,
            ..Default::default()
        };
        f(&mut d);
        d
    }

    fn tls(cert: &DistinguishedName) -> Credentials<'_> {
        Credentials {
            mode: ConnMode::Tls,
            cert: Some(cert),
            user: None,
        }
    }

    #[test]
    fn certificates() {
        let qm2 = DistinguishedName::parse("CN=QM2,O=Ferry").unwrap();
        let app = DistinguishedName::parse("CN=APP1,O=Ferry").unwrap();
        let d = rcvr(|d| {
            d.ssl_cipher = "ANY_TLS13".into();
            d.ssl_peer = "CN=QM2,O=Ferry".into();
        });
        assert!(authorize("C", Some(&d), "QM2", tls(&qm2)).is_ok());
        assert!(authorize("C", Some(&d), "QM2", tls(&app)).is_err());
        assert!(
            authorize("C", Some(&d), "QM9", tls(&qm2)).is_err(),
            "claims another name"
        );
        let plain = Credentials {
            mode: ConnMode::Tcp,
            cert: None,
            user: Some("x"),
        };
        assert!(authorize("C", Some(&d), "QM2", plain).is_err());
        let open = rcvr(|d| d.ssl_cipher = "ANY_TLS13".into());
        let e = authorize("C", Some(&open), "APP1", tls(&app)).unwrap_err();
        assert!(e.contains("SSLPEER"), "{e}");
        let named = rcvr(|d| {
            d.ssl_cipher = "ANY_TLS13".into();
            d.remote_qmgr = "QM2".into();
        });
        assert!(authorize("C", Some(&named), "QM2", tls(&app)).is_ok());
        assert!(authorize("C", Some(&named), "APP1", tls(&app)).is_err());
    }

    #[test]
    fn passwords_and_definitions() {
        let d = rcvr(|d| {
            d.mca_user = "qm2chl".into();
            d.remote_qmgr = "QM2".into();
        });
        let as_user = |u| Credentials {
            mode: ConnMode::Tcp,
            cert: None,
            user: u,
        };
        assert!(authorize("C", Some(&d), "QM2", as_user(Some("qm2chl"))).is_ok());
        assert!(authorize("C", Some(&d), "qm2", as_user(Some("qm2chl"))).is_ok());
        assert!(authorize("C", Some(&d), "QM2", as_user(Some("alice"))).is_err());
        assert!(authorize("C", Some(&d), "QM2", as_user(None)).is_err());
        assert!(authorize("C", Some(&d), "QM3", as_user(Some("qm2chl"))).is_err());
        let no_name = rcvr(|d| d.mca_user = "qm2chl".into());
        assert!(authorize("C", Some(&no_name), "QM2", as_user(Some("qm2chl"))).is_err());
        let nothing = rcvr(|_| {});
        assert!(authorize("C", Some(&nothing), "QM2", as_user(Some("qm2chl"))).is_err());
        assert!(authorize("C", None, "QM2", as_user(Some("qm2chl"))).is_err());
        let sdr = ChannelAttrs::default();
        assert!(authorize("C", Some(&sdr), "QM2", as_user(Some("qm2chl"))).is_err());
    }
}
