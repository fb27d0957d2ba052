//! Which subscriptions a publication's topic reaches: a trie of topic-based filters by level,
//! and a list of the character-based ones.
//!
//! Layout: each trie node has its literal children by level text, a `+` child and a `#`
//! child, and the subscriptions whose filter ends there. A publication walks the trie level by
//! level: the literal child, the `+` child, and the `#` child — which may eat zero or more
//! levels, so from it the walk goes on at every later level. The `$` rule of
//! [`ferry_model::topic`] is kept at the root: a topic whose first level begins with `$` skips
//! the root's `+` and `#` children. Character-based filters (rare: `*` crosses levels) are
//! matched one by one.
//!
//! Cost: a publication visits the nodes on its path and its wildcard branches, not the
//! subscriptions that do not match: fan-out to N subscribers of one topic is one walk and N
//! pushes. A filter with several `#` may reach one subscription by more than one path; the
//! result is sorted and deduplicated.
//!
//! Invariants: a subscription is in the index once per (filter, id) inserted and not removed;
//! a node with no subscription and no child is removed with the last subscription under it.

use std::collections::HashMap;

use ferry_model::topic::{hides_system, Filter, Level};

#[derive(Debug)]
struct Node<T> {
    children: HashMap<Box<str>, Node<T>>,
    one: Option<Box<Node<T>>>,
    any: Option<Box<Node<T>>>,
    here: Vec<T>,
}

impl<T> Default for Node<T> {
    fn default() -> Self {
        Node {
            children: HashMap::new(),
            one: None,
            any: None,
            here: Vec::new(),
        }
    }
}

impl<T> Node<T> {
    fn is_empty(&self) -> bool {
        self.here.is_empty() && self.children.is_empty() && self.one.is_none() && self.any.is_none()
    }
}

/// Subscriptions (identified by `T`) by topic filter.
#[derive(Debug)]
pub struct TopicIndex<T> {
    root: Node<T>,
    chars: Vec<(Filter, T)>,
    len: usize,
}

impl<T> Default for TopicIndex<T> {
    fn default() -> Self {
        TopicIndex {
            root: Node::default(),
            chars: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Copy + Ord> TopicIndex<T> {
    /// Subscriptions indexed.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is indexed.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds subscription `id` with `filter`.
    pub fn insert(&mut self, filter: &Filter, id: T) {
        self.len += 1;
        let Some(levels) = filter.levels() else {
            self.chars.push((filter.clone(), id));
            return;
        };
        let mut node = &mut self.root;
        for l in levels {
            node = match l {
                Level::Lit(s) => node.children.entry(s.clone()).or_default(),
                Level::One => node.one.get_or_insert_with(Default::default),
                Level::Any => node.any.get_or_insert_with(Default::default),
            };
        }
        node.here.push(id);
    }

    /// Removes subscription `id` with `filter`; whether it was there.
    pub fn remove(&mut self, filter: &Filter, id: T) -> bool {
        let removed = match filter.levels() {
            None => match self.chars.iter().position(|(f, i)| *i == id && f == filter) {
                Some(at) => {
                    self.chars.swap_remove(at);
                    true
                }
                None => false,
            },
            Some(levels) => remove_at(&mut self.root, levels, id),
        };
        if removed {
            self.len -= 1;
        }
        removed
    }

    /// The subscriptions a publication on `topic` reaches, sorted, each once.
    pub fn matches(&self, topic: &str, out: &mut Vec<T>) {
        out.clear();
        let levels: Vec<&str> = topic.split('/').collect();
        walk(&self.root, &levels, 0, hides_system(topic), out);
        for (f, id) in &self.chars {
            if f.matches(topic) {
                out.push(*id);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// Visits `node` with `levels[i..]` still to match.
fn walk<T: Copy>(node: &Node<T>, levels: &[&str], i: usize, system: bool, out: &mut Vec<T>) {
    let at_root = i == 0;
    if let Some(any) = node.any.as_deref().filter(|_| !(at_root && system)) {
        // `#` eats zero or more levels: go on from every later position.
        for j in i..=levels.len() {
            walk(any, levels, j, false, out);
        }
    }
    let Some(level) = levels.get(i) else {
        out.extend_from_slice(&node.here);
        return;
    };
    if let Some(child) = node.children.get(*level) {
        walk(child, levels, i + 1, false, out);
    }
    if let Some(one) = node.one.as_deref().filter(|_| !(at_root && system)) {
        walk(one, levels, i + 1, false, out);
    }
}

fn remove_at<T: Copy + Eq>(node: &mut Node<T>, levels: &[Level], id: T) -> bool {
    let Some((first, rest)) = levels.split_first() else {
        return match node.here.iter().position(|i| *i == id) {
            Some(at) => {
                node.here.swap_remove(at);
                true
            }
            None => false,
        };
    };
    match first {
        Level::Lit(s) => {
            let Some(child) = node.children.get_mut(s) else {
                return false;
            };
            let removed = remove_at(child, rest, id);
            if child.is_empty() {
                node.children.remove(s);
            }
            removed
        }
        Level::One | Level::Any => {
            let slot = if matches!(first, Level::One) {
                &mut node.one
            } else {
                &mut node.any
            };
            let Some(child) = slot.as_deref_mut() else {
                return false;
            };
            let removed = remove_at(child, rest, id);
            if child.is_empty() {
                *slot = None;
            }
            removed
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ferry_model::topic::Wildcards;
    use proptest::prelude::*;

    fn level() -> impl Strategy<Value = &'static str> {
        prop_oneof![Just("a"), Just("b"), Just(""), Just("$x")]
    }

    fn filter() -> impl Strategy<Value = (String, Wildcards)> {
        prop_oneof![
            prop::collection::vec(prop_oneof![level(), Just("+"), Just("#")], 1..5)
                .prop_map(|l| (l.join("/"), Wildcards::Topic)),
            "[ab/*?]{1,6}".prop_map(|s| (s, Wildcards::Char)),
        ]
    }

    proptest! {
        /// The index reaches exactly the subscriptions whose filter matches, as the filters
        /// say one by one, through inserts and removals.
        #[test]
        fn the_index_agrees_with_matching_each_filter(
            filters in prop::collection::vec(filter(), 1..24),
            remove in prop::collection::vec(any::<bool>(), 24),
            topics in prop::collection::vec(prop::collection::vec(level(), 1..6), 1..12),
        ) {
            let subs: Vec<(Filter, u32)> = filters
                .iter()
                .enumerate()
                .filter(|(_, (f, _))| !f.is_empty())
                .map(|(i, (f, w))| (Filter::parse(f, *w).unwrap(), i as u32))
                .collect();
            let mut ix = TopicIndex::default();
            for (f, id) in &subs {
                ix.insert(f, *id);
            }
            let mut live = Vec::new();
            for ((f, id), gone) in subs.iter().zip(&remove) {
                if *gone {
                    prop_assert!(ix.remove(f, *id));
                } else {
                    live.push((f, *id));
                }
            }
            prop_assert_eq!(ix.len(), live.len());
            let mut got = Vec::new();
            for t in topics {
                let topic = t.join("/");
                if topic.is_empty() {
                    continue;
                }
                ix.matches(&topic, &mut got);
                let want: Vec<u32> = live.iter().filter(|(f, _)| f.matches(&topic)).map(|(_, id)| *id).collect();
                prop_assert_eq!(&got, &want, "topic {}", topic);
            }
        }
    }

    #[test]
    fn removing_the_last_subscription_prunes_its_branch() {
        let mut ix = TopicIndex::default();
        let f = Filter::parse("a/+/c/#", Wildcards::Topic).unwrap();
        ix.insert(&f, 1u32);
        assert!(ix.remove(&f, 1));
        assert!(!ix.remove(&f, 1));
        assert!(ix.root.is_empty() && ix.is_empty());
    }
}
