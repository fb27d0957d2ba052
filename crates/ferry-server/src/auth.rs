//! Password authentication for tcp and tls connections: a TOML user file holding salted Argon2id
//! hashes (PHC strings), checked at connect.
//!
//! ```toml
//! [users]
//! alice = "$argon2id$v=19$m=19456,t=2,p=1$...salt...$...hash..."
//! ```
//!
//! Hashes are made by `ferry qm user add` (or [`hash_password`]); the password itself is never
//! stored. Connections over the local socket are not asked for a password: the socket file is
//! readable only by the queue manager's user and group.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use rand_core::OsRng;
use serde::{Deserialize, Serialize};

/// The user file's contents.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserFile {
    /// User name to PHC-format password hash.
    #[serde(default)]
    pub users: BTreeMap<String, String>,
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
        let Some(hash) = self.users.get(user) else {
            // Spend the same effort for unknown users, so timing does not reveal who exists.
            let _ = Argon2::default()
                .hash_password(password.as_bytes(), &SaltString::generate(&mut OsRng));
            return false;
        };
        PasswordHash::new(hash).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
    }
}

/// A salted Argon2id hash of `password` in PHC string format.
pub fn hash_password(password: &str) -> Result<String, String> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| format!("cannot hash the password: {e}"))
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
    }
}
