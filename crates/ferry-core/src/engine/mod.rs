//! Layer 1, the queue engine: one queue's messages (`store`), its waiting getters (`waiter`),
//! the queue and its lock with the put and get steps (`queue`), the [`Journal`] trait that
//! is all a queue knows of persistence (`journal`) and the [`Spill`] trait for non-persistent
//! messages beyond the memory budget (`spill`), and a publication's persistent copies to
//! several queues logged as one record (`fanout`).
//!
//! It imports nothing else of this crate: the queue manager (layer 2) builds on it, and the
//! durable layer (3) implements its `Journal` and `Spill`.

pub mod budget;
pub mod fanout;
mod get;
pub mod inbox;
pub mod journal;
pub mod queue;
pub mod spill;
pub mod store;
pub mod waiter;

pub use budget::MemoryBudget;
pub use get::{GetSpec, GetStep};
pub use inbox::QueueGuard;
pub use journal::{Append, Journal, Logged};
pub use queue::{Placed, Queue, QueueState};
pub use spill::Spill;
pub use store::{Match, OnDisk, Pos, SlotState, Store, UowId};
pub use waiter::{DeferWakes, Delivery, Room, WaitOutcome, Waiter, Waiters};
