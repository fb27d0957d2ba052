//! This machine's user accounts and groups, as the security checks need them: who a local
//! socket's peer is (by its uid), which groups a user belongs to, and who owns the queue
//! manager.

use nix::unistd::{getgrouplist, Gid, Group, Uid, User};

/// A user account with the names of its groups (primary first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The login name.
    pub name: String,
    /// The user id.
    pub uid: u32,
    /// The primary group id.
    pub gid: u32,
    /// The names of its groups, primary first.
    pub groups: Vec<String>,
}

fn account(u: User) -> Account {
    let groups = group_names(&u.name, u.gid);
    Account {
        name: u.name,
        uid: u.uid.as_raw(),
        gid: u.gid.as_raw(),
        groups,
    }
}

/// The names of the groups `name` (primary group `gid`) belongs to, primary first.
fn group_names(name: &str, gid: Gid) -> Vec<String> {
    let mut ids = std::ffi::CString::new(name)
        .ok()
        .and_then(|c| getgrouplist(&c, gid).ok())
        .unwrap_or_else(|| vec![gid]);
    ids.sort_by_key(|g| (*g != gid, g.as_raw()));
    ids.dedup();
    ids.into_iter()
        .filter_map(|g| group_name(g.as_raw()))
        .collect()
}

/// The account with user id `uid`.
pub fn by_uid(uid: u32) -> Option<Account> {
    User::from_uid(Uid::from_raw(uid))
        .ok()
        .flatten()
        .map(account)
}

/// The account called `name`.
pub fn by_name(name: &str) -> Option<Account> {
    User::from_name(name).ok().flatten().map(account)
}

/// The name of group `gid`.
pub fn group_name(gid: u32) -> Option<String> {
    Group::from_gid(Gid::from_raw(gid))
        .ok()
        .flatten()
        .map(|g| g.name)
}

/// The account this process runs as (its effective user).
pub fn current() -> Option<Account> {
    by_uid(Uid::effective().as_raw())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_has_an_account_in_its_own_primary_group() {
        let me = current().expect("the test runs as a known user");
        assert_eq!(by_name(&me.name).map(|a| a.uid), Some(me.uid));
        assert_eq!(me.groups.first(), group_name(me.gid).as_ref());
        assert!(by_name("no-such-user-ferrymq").is_none());
    }
}
