//! Publish/subscribe: the topic index (`index`), and — being built — subscriptions and the
//! delivery of publications to their queues.

pub mod index;
