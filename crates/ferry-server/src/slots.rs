//! Connection slots, so no one client can take them all: network sockets (TCP, TLS and the
//! LISTENER objects' ports) and local sockets draw on separate pools; a few local slots are
//! kept for the queue manager's administrators, so the owner can always get in to look; and
//! each network address may hold only so many sockets that have not yet opened a
//! conversation (the ones that cost nothing to make and prove nothing).
//!
//! A socket refused a slot is answered MQRC_MAX_CONNS_LIMIT_REACHED (2025) after its
//! handshake by a small pool of refusers with short deadlines, or closed at once when even
//! they are busy.
//!
//! Invariant: `unopened[ip]` counts the live [`Unopened`] guards for `ip`; an entry is removed
//! when its count reaches zero.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use parking_lot::Mutex;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Local slots only administrators may take, when the ordinary ones are gone.
pub const ADMIN_RESERVE: usize = 4;
/// Refusals answered at once; beyond them a refused socket is simply closed.
const REFUSERS: usize = 16;

/// The pools.
#[derive(Debug)]
pub(crate) struct Slots {
    network: Arc<Semaphore>,
    clients: Arc<Semaphore>,
    channels: Arc<Semaphore>,
    local: Arc<Semaphore>,
    admin_reserve: Arc<Semaphore>,
    refusers: Arc<Semaphore>,
    max_unopened_per_address: usize,
    unopened: Mutex<HashMap<IpAddr, usize>>,
}

/// A slot held for the life of a socket.
#[derive(Debug)]
pub(crate) struct Slot {
    _permit: OwnedSemaphorePermit,
    /// For a network socket: counted against its address until a conversation opens.
    pub(crate) unopened: Option<Unopened>,
}

/// A network socket with no open conversation yet, counted against its address until
/// [`Unopened::opened`] or drop.
#[derive(Debug)]
pub(crate) struct Unopened {
    slots: Arc<Slots>,
    ip: IpAddr,
}

impl Drop for Unopened {
    fn drop(&mut self) {
        let mut map = self.slots.unopened.lock();
        if let Some(n) = map.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

impl Slot {
    /// Still in the pool of sockets that have not opened a conversation.
    pub(crate) fn is_unopened(&self) -> bool {
        self.unopened.is_some()
    }
}

impl Slots {
    /// Pools with no kind limits beyond the network pool's size (the tests').
    #[cfg(test)]
    pub(crate) fn new(network: usize, local: usize, max_unopened_per_address: usize) -> Arc<Slots> {
        Slots::with_kinds(network, local, max_unopened_per_address, (network, network))
    }

    /// As [`Slots::new`], with the pools network sockets move to when their first conversation
    /// opens: (client applications, queue managers' message channels).
    pub(crate) fn with_kinds(
        network: usize,
        local: usize,
        max_unopened_per_address: usize,
        (clients, channels): (usize, usize),
    ) -> Arc<Slots> {
        Arc::new(Slots {
            network: Arc::new(Semaphore::new(network)),
            clients: Arc::new(Semaphore::new(clients)),
            channels: Arc::new(Semaphore::new(channels)),
            local: Arc::new(Semaphore::new(local)),
            admin_reserve: Arc::new(Semaphore::new(ADMIN_RESERVE)),
            refusers: Arc::new(Semaphore::new(REFUSERS)),
            max_unopened_per_address,
            unopened: Mutex::new(HashMap::new()),
        })
    }

    /// A slot for a network socket from `ip`, or why not.
    pub(crate) fn network(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, String> {
        let unopened = {
            let mut map = self.unopened.lock();
            let n = map.entry(ip).or_insert(0);
            if *n >= self.max_unopened_per_address {
                return Err(format!(
                    "{ip} already has {n} sockets that have not opened a conversation (max_unopened_per_address)"
                ));
            }
            *n += 1;
            Unopened {
                slots: self.clone(),
                ip,
            }
        };
        let permit = self
            .network
            .clone()
            .try_acquire_owned()
            .map_err(|_| "every network connection slot is taken (max_sockets)".to_string())?;
        Ok(Slot {
            _permit: permit,
            unopened: Some(unopened),
        })
    }

    /// A slot for a local socket; an administrator may take a reserved one when the others
    /// are gone (`is_admin` is asked only then).
    pub(crate) fn local(&self, is_admin: impl FnOnce() -> bool) -> Result<Slot, String> {
        let permit = match self.local.clone().try_acquire_owned() {
            Ok(p) => p,
            Err(_) if is_admin() => {
                self.admin_reserve
                    .clone()
                    .try_acquire_owned()
                    .map_err(|_| {
                        "even the administrators' reserved local slots are taken".to_string()
                    })?
            }
            Err(_) => return Err("every local connection slot is taken (max_local_sockets)".into()),
        };
        Ok(Slot {
            _permit: permit,
            unopened: None,
        })
    }

    /// A network socket whose first conversation opens leaves the pool of sockets that have
    /// not (and its address's count) for the pool of its kind — client applications or message
    /// channels — so neither kind can take the other's slots; or why not.
    pub(crate) fn opened(&self, slot: Slot, channel: bool) -> Result<Slot, String> {
        let (pool, name) = match channel {
            true => (
                &self.channels,
                "every message channel slot is taken (max_channel_sockets)",
            ),
            false => (
                &self.clients,
                "every client slot is taken (max_client_sockets)",
            ),
        };
        let permit = pool
            .clone()
            .try_acquire_owned()
            .map_err(|_| name.to_string())?;
        drop(slot);
        Ok(Slot {
            _permit: permit,
            unopened: None,
        })
    }

    /// A refuser's permit, if one is free.
    pub(crate) fn refuser(&self) -> Option<OwnedSemaphorePermit> {
        self.refusers.clone().try_acquire_owned().ok()
    }

    /// Sockets from `ip` that have not opened a conversation.
    #[cfg(test)]
    fn unopened_from(&self, ip: IpAddr) -> usize {
        self.unopened.lock().get(&ip).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_holds_only_so_many_unopened_sockets_and_gets_them_back() {
        let slots = Slots::new(10, 1, 2);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let a = slots.network(ip).unwrap();
        let mut b = slots.network(ip).unwrap();
        assert!(slots.network(ip).is_err());
        assert!(slots.network("10.0.0.2".parse().unwrap()).is_ok());
        b.unopened = None;
        assert_eq!(slots.unopened_from(ip), 1);
        let _c = slots.network(ip).unwrap();
        drop(a);
        assert_eq!(slots.unopened_from(ip), 1);
    }

    #[test]
    fn maxinst_and_maxinstc_bound_a_channels_instances() {
        let inst = Arc::new(Instances::default());
        let a: Option<IpAddr> = Some("10.0.0.1".parse().unwrap());
        let b: Option<IpAddr> = Some("10.0.0.2".parse().unwrap());
        let one = inst.start("APP.SVRCONN", a, (3, 2)).unwrap();
        let _two = inst.start("APP.SVRCONN", a, (3, 2)).unwrap();
        assert!(inst
            .start("APP.SVRCONN", a, (3, 2))
            .unwrap_err()
            .contains("MAXINSTC"));
        let _three = inst.start("APP.SVRCONN", b, (3, 2)).unwrap();
        assert!(inst
            .start("APP.SVRCONN", b, (3, 2))
            .unwrap_err()
            .contains("MAXINST("));
        drop(one);
        assert!(inst.start("APP.SVRCONN", b, (3, 2)).is_ok());
    }

    #[test]
    fn an_opened_socket_moves_to_its_kinds_pool() {
        let slots = Slots::with_kinds(2, 1, 2, (1, 1));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let client = slots.opened(slots.network(ip).unwrap(), false).unwrap();
        assert_eq!(
            slots.unopened_from(ip),
            0,
            "opened: no longer counted against its address"
        );
        // The client pool is full; the network pool has room again for channels.
        assert!(slots.opened(slots.network(ip).unwrap(), false).is_err());
        let _channel = slots.opened(slots.network(ip).unwrap(), true).unwrap();
        drop(client);
        assert!(slots.opened(slots.network(ip).unwrap(), false).is_ok());
    }

    #[test]
    fn the_reserve_is_for_administrators() {
        let slots = Slots::new(1, 1, 1);
        let _held = slots.local(|| false).unwrap();
        assert!(slots.local(|| false).is_err());
        let reserved: Vec<_> = (0..ADMIN_RESERVE)
            .map(|_| slots.local(|| true).unwrap())
            .collect();
        assert!(slots.local(|| true).is_err());
        drop(reserved);
    }
}

/// The instances of server-connection channels running now: (channel → sockets, and sockets per
/// client address), bounded by each definition's MAXINST and MAXINSTC.
#[derive(Debug, Default)]
pub(crate) struct Instances {
    running: Mutex<HashMap<String, Counts>>,
}

/// One channel's instances: in all, and per client address (none for a local peer).
type Counts = (u32, HashMap<Option<IpAddr>, u32>);

/// One socket's instance of a server-connection channel, counted until dropped.
#[derive(Debug)]
pub(crate) struct Instance {
    instances: Arc<Instances>,
    channel: String,
    from: Option<IpAddr>,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let mut running = self.instances.running.lock();
        if let Some((total, by_addr)) = running.get_mut(&self.channel) {
            *total -= 1;
            if let Some(n) = by_addr.get_mut(&self.from) {
                *n -= 1;
                if *n == 0 {
                    by_addr.remove(&self.from);
                }
            }
            if *total == 0 {
                running.remove(&self.channel);
            }
        }
    }
}

impl Instance {
    /// The channel this is an instance of.
    pub(crate) fn channel(&self) -> &str {
        &self.channel
    }
}

impl Instances {
    /// A new instance of `channel` from `from`, or why not (MAXINST, then MAXINSTC).
    pub(crate) fn start(
        self: &Arc<Self>,
        channel: &str,
        from: Option<IpAddr>,
        (max, max_client): (u32, u32),
    ) -> Result<Instance, String> {
        let mut running = self.running.lock();
        let (total, by_addr) = running.entry(channel.to_owned()).or_default();
        if *total >= max {
            return Err(format!(
                "channel {channel} already runs {total} instances (MAXINST({max}))"
            ));
        }
        let here = by_addr.entry(from).or_insert(0);
        if *here >= max_client {
            return Err(format!(
                "channel {channel} already runs {here} instances from this address (MAXINSTC({max_client}))"
            ));
        }
        *here += 1;
        *total += 1;
        Ok(Instance {
            instances: self.clone(),
            channel: channel.to_owned(),
            from,
        })
    }
}
