//! Walking a [`SharedMap`](super::SharedMap) in key order: by reference ([`Iter`], from its first
//! entry or from a range's start) and by value ([`ConsumingIter`], from either end).

use std::borrow::Borrow;
use std::collections::VecDeque;
use std::ops::Bound;
use std::rc::Rc;

use super::Node;

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
        Q: Ord + ?Sized,
    {
        let mut iter = Iter::from(root, start);
        iter.end = match end {
            Bound::Unbounded => None,
            Bound::Included(key) => Iter::from(root, Bound::Excluded(key)).peek(),
            Bound::Excluded(key) => Iter::from(root, Bound::Included(key)).peek(),
        };
        // a start past the end: nothing (the walk would never meet the end's entry)
        if let (Some(end), Some(first)) = (iter.end, Iter::from(root, start).peek()) {
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
        Q: Ord + ?Sized,
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
                    let i = b.child_for(key);
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

/// The entries of a map by value, in key order from the front or the back: the leaves wait
/// whole until their entries are taken (a leaf a copy of the map still holds is copied then).
#[derive(Clone)]
pub struct ConsumingIter<K, V> {
    /// The leaves not started, in key order.
    leaves: VecDeque<Rc<Node<K, V>>>,
    /// The leaf taken from the front, its entries not yet given.
    front: std::vec::IntoIter<(K, V)>,
    /// The leaf taken from the back, its entries not yet given.
    back: std::vec::IntoIter<(K, V)>,
    /// Entries not yet given.
    len: usize,
}

impl<K: Clone, V: Clone> ConsumingIter<K, V> {
    /// The entries of the tree under `root` (`len` of them); its branches are let go now.
    pub(super) fn new(root: Option<Rc<Node<K, V>>>, len: usize) -> Self {
        let mut leaves = VecDeque::new();
        let mut pending: Vec<Rc<Node<K, V>>> = root.into_iter().collect();
        while let Some(node) = pending.pop() {
            if let Node::Leaf(_) = *node {
                leaves.push_front(node);
                continue;
            }
            match Rc::try_unwrap(node) {
                Ok(Node::Branch(b)) => pending.extend(b.children),
                Ok(leaf) => leaves.push_front(Rc::new(leaf)),
                Err(shared) => {
                    if let Node::Branch(b) = &*shared {
                        pending.extend(b.children.iter().cloned());
                    }
                }
            }
        }
        ConsumingIter {
            leaves,
            front: Vec::new().into_iter(),
            back: Vec::new().into_iter(),
            len,
        }
    }

    /// Entries not yet given.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether every entry was given.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A leaf's entries, taken from it when no copy holds it, else copied.
fn entries_of<K: Clone, V: Clone>(leaf: Rc<Node<K, V>>) -> Vec<(K, V)> {
    match Rc::try_unwrap(leaf) {
        Ok(Node::Leaf(entries)) => entries,
        Err(shared) => match &*shared {
            Node::Leaf(entries) => entries.clone(),
            Node::Branch(_) => Vec::new(),
        },
        // only leaves are queued (`ConsumingIter::new`)
        Ok(Node::Branch(_)) => Vec::new(),
    }
}

impl<K: Clone, V: Clone> Iterator for ConsumingIter<K, V> {
    type Item = (K, V);

    fn next(&mut self) -> Option<(K, V)> {
        loop {
            if let Some(entry) = self.front.next() {
                self.len -= 1;
                return Some(entry);
            }
            match self.leaves.pop_front() {
                Some(leaf) => self.front = entries_of(leaf).into_iter(),
                None => {
                    let entry = self.back.next()?;
                    self.len -= 1;
                    return Some(entry);
                }
            }
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.len, Some(self.len))
    }
}

impl<K: Clone, V: Clone> DoubleEndedIterator for ConsumingIter<K, V> {
    fn next_back(&mut self) -> Option<(K, V)> {
        loop {
            if let Some(entry) = self.back.next_back() {
                self.len -= 1;
                return Some(entry);
            }
            match self.leaves.pop_back() {
                Some(leaf) => self.back = entries_of(leaf).into_iter(),
                None => {
                    let entry = self.front.next_back()?;
                    self.len -= 1;
                    return Some(entry);
                }
            }
        }
    }
}
