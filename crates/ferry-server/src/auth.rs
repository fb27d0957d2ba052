//! Password authentication for tcp and tls connections: a TOML user file holding salted Argon2id
//! hashes (PHC strings), checked at connect.
//!
//! ```toml
//! [users]
//! alice = "$argon2id$v=19$m=19456,t=2,p=1$...salt...$...hash..."
//!
//! [groups]
//! apps = ["alice"]
//! ```
//!
//! Hashes are made by `ferry qm user add` (or [`hash_password`]); the password itself is never
//! stored. Groups name who authority records granted to a GROUP apply to (besides the groups a
//! user has on this machine, if it has an account here). The file is AUTHINFO
//! AUTHTYPE(IDPWFILE)'s store; the server reads it again when it changes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand_core::OsRng;
use serde::{Deserialize, Serialize};

/// The user file's contents.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserFile {
    /// User name to PHC-format password hash.
    #[serde(default)]
    pub users: BTreeMap<String, String>,
    /// Group name to its members.
    #[serde(default)]
    pub groups: BTreeMap<String, Vec<String>>,
}

impl UserFile {
    /// Reads and checks a user file: every entry must be a well-formed hash.
    pub fn load(path: &Path) -> Result<UserFile, String> {
        ferry_host::private::refuse_if_public(path, "user file")?;
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the user file {}: {e}", path.display()))?;
        let f: UserFile = toml::from_str(&text)
            .map_err(|e| format!("the user file {} is not valid: {e}", path.display()))?;
        for (user, hash) in &f.users {
            PasswordHash::new(hash).map_err(|e| {
                format!(
                    "the password hash for user {user} in {} is not valid: {e}",
                    path.display()
                )
            })?;
        }
        Ok(f)
    }

    /// The groups the file puts `user` in.
    pub fn groups_of<'a>(&'a self, user: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.groups
            .iter()
            .filter(move |(_, members)| members.iter().any(|m| m == user))
            .map(|(g, _)| g.as_str())
    }

    /// Writes the user file (readable by its owner only).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        use std::os::unix::fs::PermissionsExt;
        let text = toml::to_string_pretty(self)
            .map_err(|e| format!("cannot encode the user file: {e}"))?;
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("cannot restrict {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Whether `password` is `user`'s password. Deliberately slow (Argon2id).
    pub fn verify(&self, user: &str, password: &str) -> bool {
        self.verify_in(user, password, &mut Vec::new())
    }

    /// As [`UserFile::verify`], hashing in `memory` (grown to the hash's memory cost and kept
    /// by the caller, so a verifier thread allocates it once: Argon2's 19 MiB a hash, freed
    /// and taken again, is what makes a server's memory climb under a guessing attack).
    /// Unknown users cost the same work, so timing does not say who exists.
    pub fn verify_in(&self, user: &str, password: &str, memory: &mut Vec<Block>) -> bool {
        match self.users.get(user) {
            Some(stored) => matches_hash(stored, password, memory).unwrap_or(false),
            None => {
                let _ = matches_hash(decoy_hash(), password, memory);
                false
            }
        }
    }
}

/// Whether `password` hashes to the PHC string `stored`, hashing in `memory`.
fn matches_hash(stored: &str, password: &str, memory: &mut Vec<Block>) -> Option<bool> {
    let parsed = PasswordHash::new(stored).ok()?;
    let algorithm = Algorithm::try_from(parsed.algorithm).ok()?;
    let version = match parsed.version {
        Some(v) => Version::try_from(v).ok()?,
        None => Version::default(),
    };
    let params = Params::try_from(&parsed).ok()?;
    let mut salt = [0u8; 64];
    let salt = parsed.salt?.decode_b64(&mut salt).ok()?;
    let expected = parsed.hash?;
    let mut out = vec![0u8; expected.len()];
    memory.resize(params.block_count(), Block::default());
    Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, &mut memory[..])
        .ok()?;
    // Constant time: every byte compared whatever the first difference.
    let diff = out
        .iter()
        .zip(expected.as_bytes())
        .fold(0u8, |d, (a, b)| d | (a ^ b));
    Some(diff == 0 && out.len() == expected.len())
}

/// A hash with the default parameters that no password matches usefully: what an unknown
/// user's attempt is checked against.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| hash_password("decoy").unwrap_or_default())
}

/// A salted Argon2id hash of `password` in PHC string format.
pub fn hash_password(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
}

/// A user file read when first needed and again whenever it changes on disk (so `ferry qm user
/// add` takes effect on a running queue manager). A file that does not exist holds no users; one
/// that cannot be read keeps the last good contents, and the log says why.
#[derive(Debug)]
pub struct UserStore {
    path: Option<PathBuf>,
    cache: parking_lot::Mutex<(Option<std::time::SystemTime>, Arc<UserFile>)>,
}

impl UserStore {
    /// The store for the file at `path` (`None`: no user file, nobody has a password).
    pub fn new(path: Option<PathBuf>) -> UserStore {
        UserStore {
            path,
            cache: parking_lot::Mutex::new((None, Arc::new(UserFile::default()))),
        }
    }

    /// The file's current contents.
    pub fn current(&self) -> Arc<UserFile> {
        let Some(path) = &self.path else {
            return self.cache.lock().1.clone();
        };
        let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
        let mut cache = self.cache.lock();
        if modified != cache.0 {
            match modified {
                None => *cache = (None, Arc::new(UserFile::default())),
                Some(_) => match UserFile::load(path) {
                    Ok(f) => *cache = (modified, Arc::new(f)),
                    Err(e) => {
                        tracing::error!(error = %e, "the user file was not reloaded; the last good one stays in force")
                    }
                },
            }
        }
        cache.1.clone()
    }

    /// Whether a user file is configured and holds at least one user.
    pub fn has_users(&self) -> bool {
        !self.current().users.is_empty()
    }
}

/// The user file of the queue manager in `qm_dir`.
pub fn user_file_path(qm_dir: &Path) -> PathBuf {
    qm_dir.join("users.toml")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_verify_only_against_their_own_salted_hash() {
        let mut f = UserFile::default();
        let h1 = hash_password("s3cret").unwrap();
        let h2 = hash_password("s3cret").unwrap();
        assert_ne!(h1, h2, "each hash has its own salt");
        assert!(h1.starts_with("$argon2id$"));
        f.users.insert("alice".into(), h1);
        assert!(f.verify("alice", "s3cret"));
        assert!(!f.verify("alice", "wrong"));
        assert!(!f.verify("bob", "s3cret"));
        let mut memory = Vec::new();
        assert!(f.verify_in("alice", "s3cret", &mut memory));
        let size = memory.len();
        assert!(size > 0 && !f.verify_in("alice", "s3cres", &mut memory));
        assert_eq!(memory.len(), size, "the memory is reused");
    }
}
