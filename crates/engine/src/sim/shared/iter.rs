//! Walking a [`SharedMap`](super::SharedMap) in key order ([`Iter`], from its first entry or from
//! a range's start), and letting one go in steps ([`Freeing`]).

use std::borrow::Borrow;
use std::ops::Bound;
use std::rc::Rc;

use super::{Head, Node};

/// A branch's children, and the place of the next one to visit.
type Level<'a, K, V> = (&'a [Rc<Node<K, V>>], usize);

/// The entries of a map (or of a range of it) in key order.
pub struct Iter<'a, K, V> {
    /// The branches above the current leaf.
    stack: Vec<Level<'a, K, V>>,
    /// The current leaf's entries not yet visited.
    leaf: std::slice::Iter<'a, (K, V)>,
    /// The first entry past the range (none: to the map's end).
    end: Option<&'a (K, V)>,
}

impl<'a, K, V> Iter<'a, K, V> {
    /// From the first entry of the tree under `root`.
    pub(super) fn first(root: Option<&'a Node<K, V>>) -> Self {
        let mut iter = Iter {
            stack: Vec::new(),
            leaf: [].iter(),
            end: None,
        };
        if let Some(root) = root {
            iter.descend(root);
        }
        iter
    }

    /// Goes down the first children from `node` to a leaf, which becomes the current one.
    fn descend(&mut self, mut node: &'a Node<K, V>) {
        loop {
            match node {
                Node::Leaf(entries) => {
                    self.leaf = entries.iter();
                    return;
                }
                Node::Branch(b) => {
                    self.stack.push((&b.children, 1));
                    node = &b.children[0];
                }
            }
        }
    }

    /// Moves to the next leaf; false at the end of the tree.
    fn next_leaf(&mut self) -> bool {
        while let Some((children, next)) = self.stack.last_mut() {
            let children: &'a [Rc<Node<K, V>>] = children;
            if let Some(child) = children.get(*next) {
                *next += 1;
                self.descend(child);
                return true;
            }
            self.stack.pop();
        }
        false
    }
}

impl<'a, K: Ord, V> Iter<'a, K, V> {
    /// The entries of the tree under `root` from `start` to `end`.
    pub(super) fn range<Q>(root: Option<&'a Node<K, V>>, start: Bound<&Q>, end: Bound<&Q>) -> Self
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        let mut iter = Iter::from(root, start);
        iter.end = match end {
            Bound::Unbounded => None,
            Bound::Included(key) => Iter::from(root, Bound::Excluded(key)).peek(),
            Bound::Excluded(key) => Iter::from(root, Bound::Included(key)).peek(),
        };
        // a start past the end: nothing (the walk would never meet the end's entry)
        if let (Some(end), Some(first)) = (iter.end, iter.clone().peek()) {
            if first.0 > end.0 {
                return Iter::first(None);
            }
        }
        iter
    }

    /// From the first entry at or after `start`.
    fn from<Q>(root: Option<&'a Node<K, V>>, start: Bound<&Q>) -> Self
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        let (key, inclusive) = match start {
            Bound::Unbounded => return Iter::first(root),
            Bound::Included(key) => (key, true),
            Bound::Excluded(key) => (key, false),
        };
        let mut iter = Iter::first(None);
        let Some(mut node) = root else {
            return iter;
        };
        loop {
            match node {
                Node::Branch(b) => {
                    let i = b.child_for(key.head(), key);
                    iter.stack.push((&b.children, i + 1));
                    node = &b.children[i];
                }
                Node::Leaf(entries) => {
                    let at = entries.partition_point(|(k, _)| match k.borrow().cmp(key) {
                        std::cmp::Ordering::Less => true,
                        std::cmp::Ordering::Equal => !inclusive,
                        std::cmp::Ordering::Greater => false,
                    });
                    iter.leaf = entries[at..].iter();
                    return iter;
                }
            }
        }
    }

    /// The entry `next` would give.
    fn peek(mut self) -> Option<&'a (K, V)> {
        loop {
            if let Some(entry) = self.leaf.next() {
                return Some(entry);
            }
            if !self.next_leaf() {
                return None;
            }
        }
    }
}

impl<K, V> Clone for Iter<'_, K, V> {
    /// The same place in the same map (no bound on `K` or `V`: only references are copied).
    fn clone(&self) -> Self {
        Iter {
            stack: self.stack.clone(),
            leaf: self.leaf.clone(),
            end: self.end,
        }
    }
}

impl<'a, K, V> Iterator for Iter<'a, K, V> {
    type Item = (&'a K, &'a V);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(entry) = self.leaf.next() {
                if self.end.is_some_and(|end| std::ptr::eq(end, entry)) {
                    self.stack.clear();
                    self.leaf = [].iter();
                    return None;
                }
                return Some((&entry.0, &entry.1));
            }
            if !self.next_leaf() {
                return None;
            }
        }
    }
}

/// A map let go a budget of entries at a time ([`SharedMap::into_freeing`](super::SharedMap::into_freeing)):
/// the nodes it alone holds are walked, last first, and their entries dropped; a node a copy of
/// the map still holds (a checkpoint's) is let go at once, by its reference count, with nothing
/// under it read.
#[derive(Clone)]
pub struct Freeing<K, V> {
    /// Nodes not reached yet; the last is reached first.
    pending: Vec<Rc<Node<K, V>>>,
    /// The entries left of the leaf reached last, dropped from its end.
    leaf: Vec<(K, V)>,
}

impl<K, V> Freeing<K, V> {
    /// The tree under `root`, to be let go.
    pub(super) fn new(root: Option<Rc<Node<K, V>>>) -> Self {
        Freeing {
            pending: root.into_iter().collect(),
            leaf: Vec::new(),
        }
    }

    /// Drops up to `budget` entries of the nodes no copy holds, and lets go of the nodes a copy
    /// holds on the way; returns whether nothing is left.
    pub fn free_some(&mut self, budget: usize) -> bool {
        let mut left = budget;
        loop {
            let dropped = left.min(self.leaf.len());
            self.leaf.truncate(self.leaf.len() - dropped);
            left -= dropped;
            if left == 0 {
                return self.is_empty();
            }
            let Some(node) = self.pending.pop() else {
                return true;
            };
            match Rc::try_unwrap(node) {
                Ok(Node::Leaf(entries)) => self.leaf = entries,
                Ok(Node::Branch(branch)) => self.pending.extend(branch.children),
                // a copy holds it: letting go of this reference is all there is to do
                Err(_shared) => {}
            }
        }
    }

    /// Whether nothing is left to let go.
    pub fn is_empty(&self) -> bool {
        self.leaf.is_empty() && self.pending.is_empty()
    }
}
