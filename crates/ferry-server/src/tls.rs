//! TLS for the `tls://` listener: TLS 1.3 only (rustls with the ring provider), a server
//! certificate chain and key from PEM files, and optionally a CA whose client certificates are
//! required (client-certificate authentication).

use std::path::PathBuf;
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::server::WebPkiClientVerifier;

use crate::StartError;
use ferry_model::dn::DistinguishedName;

/// Where the TLS listener finds its certificates.
#[derive(Debug, Clone)]
pub struct TlsSettings {
    /// PEM file with the server's certificate chain, leaf first.
    pub cert_chain: PathBuf,
    /// PEM file with the server's private key.
    pub key: PathBuf,
    /// PEM file with the CA certificates that sign acceptable client certificates. When set,
    /// every TLS client must present a certificate signed by one of them.
    pub client_ca: Option<PathBuf>,
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn certs(path: &PathBuf, what: &str) -> Result<Vec<CertificateDer<'static>>, StartError> {
    let certs: Vec<_> = CertificateDer::pem_file_iter(path)
        .map_err(|e| StartError(format!("cannot read the {what} {}: {e}", path.display())))?
        .collect::<Result<_, _>>()
        .map_err(|e| {
            StartError(format!(
                "the {what} {} is not valid PEM: {e}",
                path.display()
            ))
        })?;
    if certs.is_empty() {
        return Err(StartError(format!(
            "the {what} {} holds no certificate",
            path.display()
        )));
    }
    Ok(certs)
}

/// Builds the rustls server configuration.
pub(crate) fn server_config(s: &TlsSettings) -> Result<Arc<rustls::ServerConfig>, StartError> {
    server_config_owned(s).map(Arc::new)
}

/// As [`server_config`], a client certificate (with a client CA) only asked for when
/// `optional`: a client without one is let through to authenticate otherwise.
pub(crate) fn server_config_client_auth(
    s: &TlsSettings,
    optional: bool,
) -> Result<Arc<rustls::ServerConfig>, StartError> {
    config_with(s, optional).map(Arc::new)
}

/// As [`server_config`], not yet shared (QUIC sets its protocol name on it).
pub(crate) fn server_config_owned(s: &TlsSettings) -> Result<rustls::ServerConfig, StartError> {
    config_with(s, false)
}

fn config_with(s: &TlsSettings, optional: bool) -> Result<rustls::ServerConfig, StartError> {
    let chain = certs(&s.cert_chain, "certificate chain")?;
    ferry_host::private::refuse_if_public(&s.key, "TLS private key").map_err(StartError)?;
    let key = PrivateKeyDer::from_pem_file(&s.key).map_err(|e| {
        StartError(format!(
            "cannot read the private key {}: {e}",
            s.key.display()
        ))
    })?;
    let builder = rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| StartError(format!("TLS 1.3 is not available: {e}")))?;
    let builder = match &s.client_ca {
        None => builder.with_no_client_auth(),
        Some(ca) => {
            let mut roots = rustls::RootCertStore::empty();
            for c in certs(ca, "client CA file")? {
                roots.add(c).map_err(|e| {
                    StartError(format!(
                        "the client CA in {} is not usable: {e}",
                        ca.display()
                    ))
                })?;
            }
            let mut verifier =
                WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider());
            if optional {
                verifier = verifier.allow_unauthenticated();
            }
            let verifier = verifier.build().map_err(|e| {
                StartError(format!("cannot build the client certificate verifier: {e}"))
            })?;
            builder.with_client_cert_verifier(verifier)
        }
    };
    let config = builder.with_single_cert(chain, key).map_err(|e| {
        StartError(format!(
            "the server certificate and key do not fit together: {e}"
        ))
    })?;
    Ok(config)
}

/// A TLS 1.3 configuration with a self-signed certificate made now (QUIC needs one; partners
/// that do not check it still get an encrypted link).
pub(crate) fn self_signed_config() -> Result<rustls::ServerConfig, StartError> {
    let made = rcgen::generate_simple_self_signed(vec!["ferrymq".to_owned()])
        .map_err(|e| StartError(format!("cannot make a self-signed certificate: {e}")))?;
    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(made.signing_key.serialize_der());
    rustls::ServerConfig::builder_with_provider(provider())
        .with_protocol_versions(&[&rustls::version::TLS13])
        .map_err(|e| StartError(format!("TLS 1.3 is not available: {e}")))?
        .with_no_client_auth()
        .with_single_cert(vec![made.cert.der().clone()], key.into())
        .map_err(|e| StartError(format!("the self-signed certificate is not usable: {e}")))
}

/// The subject of the partner's certificate (the first of its chain), which the handshake has
/// already verified against the client CA; `None` without a certificate or when it cannot be
/// parsed (then the partner has no certificate identity).
pub(crate) fn peer_dn(chain: Option<&[CertificateDer<'_>]>) -> Option<DistinguishedName> {
    use x509_parser::prelude::{FromDer, X509Certificate};
    let leaf = chain?.first()?;
    let (_, cert) = X509Certificate::from_der(leaf.as_ref()).ok()?;
    let reg = x509_parser::objects::oid_registry();
    let pairs = cert.subject().iter_attributes().filter_map(|a| {
        let attr = x509_parser::objects::oid2abbrev(a.attr_type(), reg).ok()?;
        Some((attr.to_owned(), a.as_str().ok()?.to_owned()))
    });
    Some(DistinguishedName::from_pairs(pairs))
}
