//! A key-ordered map that shares its structure between copies, so a checkpoint of a run is a
//! pointer copy instead of a walk over every object the run holds.
//!
//! ```text
//!   run ──clone()──▶ checkpoint        both point at the same tree nodes
//!    │                                 (reference-counted, single-threaded)
//!    └─ insert(k) ──▶ copies only the nodes on the path to k; the checkpoint keeps the old ones
//! ```
//!
//! [`SharedMap`] is a B+ tree whose nodes are reference-counted: the entries live in the leaves,
//! in key order, and a branch keeps its children's separating keys. Taking a copy is O(1); the
//! first write to a shared node after a copy copies that node (at most [`NODE_CAPACITY`] entries
//! or children) once, by `Rc::make_mut` on the way down. It iterates in key order, like the
//! `BTreeMap` it stands in for, so the trace does not change with it. The pointer kind is `Rc`: a
//! run is single-threaded, here and in wasm32.
//!
//! Its nodes are wide (64, where a general-purpose persistent map keeps 16): the stores holding
//! an entry per object (150 000 in the incident) are mostly read and rewritten in place, so a
//! shallower tree saves a cold node per lookup, and objects created in key order fill their
//! leaves (a leaf that overflows at its end keeps its entries and starts a new one). A map let
//! go in steps ([`Freeing`]: a dead operator's cache, a checkpoint the timeline drops) walks only
//! the nodes it alone holds; a node a copy still holds goes by its reference count.

mod iter;

use std::borrow::Borrow;
use std::fmt;
use std::ops::RangeBounds;
use std::rc::Rc;

pub use iter::{Freeing, Iter};

/// Most entries a leaf holds, and most children a branch has.
pub const NODE_CAPACITY: usize = 64;

/// A node left with fewer entries or children than this by a removal is merged with a
/// neighbour when the two fit in one.
const NODE_LOW: usize = NODE_CAPACITY / 4;

/// A number for a key's first bytes, kept beside each separator of a branch: a lookup among
/// 150 000 keys passes two branches on its way to a leaf, and comparing there two numbers held in
/// the branch is a few instructions where comparing two keys' texts reads a cold allocation.
///
/// `a.head() < b.head()` must imply `a < b`; equal heads say nothing (the keys are then compared).
/// The default, one number for every key, is always right and saves nothing.
pub trait Head {
    /// This key's head.
    fn head(&self) -> u128 {
        0
    }
}

/// An unsigned number is its own head.
macro_rules! unsigned_head {
    ($($t:ty),*) => {
        $(impl Head for $t {
            fn head(&self) -> u128 {
                u128::from(*self)
            }
        })*
    };
}

unsigned_head!(u8, u16, u32, u64);

impl Head for str {
    fn head(&self) -> u128 {
        crate::key::text_head(self.as_bytes())
    }
}

impl Head for String {
    fn head(&self) -> u128 {
        self.as_str().head()
    }
}

impl<T: Head + ?Sized> Head for &T {
    fn head(&self) -> u128 {
        (**self).head()
    }
}

impl Head for (crate::time::SimTime, u64) {
    /// The time in the high half, the sequence in the low: the number orders as the pair does.
    fn head(&self) -> u128 {
        (u128::from(self.0.as_nanos()) << 64) | u128::from(self.1)
    }
}

/// A key-ordered map whose copies share structure (`BTreeMap`'s order and operations).
pub struct SharedMap<K, V> {
    root: Option<Rc<Node<K, V>>>,
    len: usize,
}

/// A node of the tree: entries in key order, or children.
#[derive(Clone)]
enum Node<K, V> {
    Leaf(Vec<(K, V)>),
    Branch(Branch<K, V>),
}

/// A branch: `children`, and between each two the key that separates them: `seps[j]` is above
/// every key of `children[j]` and not above any key of `children[j + 1]`. Each separator is kept
/// with its [`Head`], so that a lookup passing through reads a separator's key only where the
/// heads are equal.
#[derive(Clone)]
struct Branch<K, V> {
    seps: Vec<(u128, K)>,
    children: Vec<Rc<Node<K, V>>>,
}

/// What an insert below a node did.
enum Inserted<K, V> {
    /// The key was there: its entry was replaced and this was its value.
    Replaced(V),
    /// A new entry; the node split off this separator and right part when it overflowed.
    Added(Option<(K, Rc<Node<K, V>>)>),
}

impl<K, V> SharedMap<K, V> {
    /// An empty map.
    pub fn new() -> Self {
        SharedMap { root: None, len: 0 }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the map has no entry.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every entry (the nodes a copy still holds stay with it).
    pub fn clear(&mut self) {
        *self = SharedMap::new();
    }

    /// The map, to be let go in steps ([`Freeing`]).
    pub fn into_freeing(self) -> Freeing<K, V> {
        Freeing::new(self.root)
    }

    /// The entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter::first(self.root.as_deref())
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.iter().map(|(k, _)| k)
    }

    /// The values in key order.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.iter().map(|(_, v)| v)
    }

    /// The entry with the smallest key.
    pub fn get_min(&self) -> Option<&(K, V)> {
        let mut node = self.root.as_deref()?;
        loop {
            match node {
                Node::Leaf(entries) => return entries.first(),
                Node::Branch(b) => node = &b.children[0],
            }
        }
    }
}

impl<K: Ord, V> SharedMap<K, V> {
    /// The value at `key`.
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        let mut node = self.root.as_deref()?;
        let head = node.head_of(key);
        loop {
            match node {
                Node::Branch(b) => node = &b.children[b.child_for(head, key)],
                Node::Leaf(entries) => {
                    return search(entries, key).ok().map(|i| &entries[i].1);
                }
            }
        }
    }

    /// The value of the entry `order` finds equal, `order(k)` being where `k` lies against the
    /// key sought (`k.cmp(sought)`): a lookup whose comparison is not `Q`'s `Ord`, e.g. a text
    /// compared a word at a time ([`crate::key::compare_bytes`]), which orders as `str::cmp`
    /// does. The branches' heads are not used.
    pub fn get_by(&self, order: impl Fn(&K) -> std::cmp::Ordering) -> Option<&V> {
        let mut node = self.root.as_deref()?;
        loop {
            match node {
                Node::Branch(b) => {
                    let i = match find(&b.seps, |(_, sep)| order(sep)) {
                        Ok(i) => i + 1,
                        Err(i) => i,
                    };
                    node = &b.children[i];
                }
                Node::Leaf(entries) => {
                    return find(entries, |(k, _)| order(k)).ok().map(|i| &entries[i].1);
                }
            }
        }
    }

    /// Whether there is an entry at `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        self.get(key).is_some()
    }

    /// The entries whose keys lie in `range`, in key order.
    pub fn range<R, Q>(&self, range: R) -> Iter<'_, K, V>
    where
        R: RangeBounds<Q>,
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        Iter::range(self.root.as_deref(), range.start_bound(), range.end_bound())
    }
}

impl<K: Ord + Clone + Head, V: Clone> SharedMap<K, V> {
    /// The value at `key` to change in place; the nodes on its path that a copy shares are
    /// copied first.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        let mut node = crate::sim::cow::make_mut(self.root.as_mut()?);
        let head = node.head_of(key);
        loop {
            match node {
                Node::Branch(b) => {
                    let i = b.child_for(head, key);
                    node = crate::sim::cow::make_mut(&mut b.children[i]);
                }
                Node::Leaf(entries) => {
                    let i = search(entries, key).ok()?;
                    return Some(&mut entries[i].1);
                }
            }
        }
    }

    /// Stores `value` at `key`, replacing the entry there (key and value) if any; returns the
    /// replaced value.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        let Some(root) = self.root.as_mut() else {
            self.root = Some(Rc::new(Node::Leaf(vec![(key, value)])));
            self.len = 1;
            return None;
        };
        let head = root.head_of(&key);
        let split = match crate::sim::cow::make_mut(root).insert(head, key, value) {
            Inserted::Replaced(old) => return Some(old),
            Inserted::Added(split) => split,
        };
        self.len += 1;
        if let Some((sep, right)) = split {
            // the root split: a new root above its two parts
            self.root = self.root.take().map(|left| {
                Rc::new(Node::Branch(Branch {
                    seps: vec![(sep.head(), sep)],
                    children: vec![left, right],
                }))
            });
        }
        None
    }

    /// Removes the entry at `key`; returns its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        self.remove_with_key(key).map(|(_, v)| v)
    }

    /// Removes the entry at `key`; returns it.
    pub fn remove_with_key<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        let root = crate::sim::cow::make_mut(self.root.as_mut()?);
        let removed = root.remove(root.head_of(key), key)?;
        self.len -= 1;
        while let Some(root) = self.root.as_mut() {
            match crate::sim::cow::make_mut(root) {
                Node::Leaf(entries) if entries.is_empty() => self.root = None,
                Node::Branch(b) if b.children.len() == 1 => self.root = b.children.pop(),
                _ => break,
            }
        }
        Some(removed)
    }
}

impl<K, V> Node<K, V> {
    /// `key`'s [`Head`] for a lookup from this node: none is computed for a tree that is one
    /// leaf (a map of a few entries, whose lookups no separator shortens).
    fn head_of<Q: Head + ?Sized>(&self, key: &Q) -> u128 {
        match self {
            Node::Leaf(_) => 0,
            Node::Branch(_) => key.head(),
        }
    }
}

impl<K: Ord + Clone + Head, V: Clone> Node<K, V> {
    /// Entries (of a leaf) or children (of a branch).
    fn len(&self) -> usize {
        match self {
            Node::Leaf(entries) => entries.len(),
            Node::Branch(b) => b.children.len(),
        }
    }

    /// Stores the entry below this node, copying the shared nodes on its path (`head` is `key`'s).
    fn insert(&mut self, head: u128, key: K, value: V) -> Inserted<K, V> {
        match self {
            Node::Leaf(entries) => match search(entries, &key) {
                Ok(i) => Inserted::Replaced(std::mem::replace(&mut entries[i], (key, value)).1),
                Err(i) => {
                    insert_within_capacity(entries, i, (key, value));
                    let split = split_off(entries, i).map(|right| {
                        let sep = right[0].0.clone();
                        (sep, Rc::new(Node::Leaf(right)))
                    });
                    Inserted::Added(split)
                }
            },
            Node::Branch(b) => {
                let i = b.child_for(head, &key);
                match crate::sim::cow::make_mut(&mut b.children[i]).insert(head, key, value) {
                    Inserted::Added(Some((sep, right))) => {
                        insert_within_capacity(&mut b.seps, i, (sep.head(), sep));
                        insert_within_capacity(&mut b.children, i + 1, right);
                        Inserted::Added(b.split(i + 1))
                    }
                    done => done,
                }
            }
        }
    }

    /// Removes the entry at `key` (whose head is `head`) below this node, mending the child it
    /// came from.
    fn remove<Q>(&mut self, head: u128, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Ord + Head + ?Sized,
    {
        match self {
            Node::Leaf(entries) => search(entries, key).ok().map(|i| entries.remove(i)),
            Node::Branch(b) => {
                let i = b.child_for(head, key);
                let removed = crate::sim::cow::make_mut(&mut b.children[i]).remove(head, key)?;
                b.mend(i);
                Some(removed)
            }
        }
    }

    /// Appends `right`'s entries or children after this node's, `sep` between them.
    fn absorb(&mut self, sep: K, right: Rc<Node<K, V>>) {
        let right = Rc::try_unwrap(right).unwrap_or_else(|shared| (*shared).clone());
        match (self, right) {
            (Node::Leaf(entries), Node::Leaf(more)) => entries.extend(more),
            (Node::Branch(b), Node::Branch(more)) => {
                b.seps.push((sep.head(), sep));
                b.seps.extend(more.seps);
                b.children.extend(more.children);
            }
            // two nodes at one depth are alike: a tree grows and shrinks at its root
            _ => debug_assert!(false, "nodes at one depth differ"),
        }
    }
}

impl<K: Ord, V> Branch<K, V> {
    /// The child whose keys `key` (whose head is `head`) falls among: the separators' heads
    /// decide where they differ from `head`, the keys where they are equal.
    fn child_for<Q>(&self, head: u128, key: &Q) -> usize
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        // the child's index is the number of separators at or below `key`
        self.seps
            .partition_point(|(h, sep)| *h < head || (*h == head && sep.borrow() <= key))
    }
}

impl<K: Ord + Clone + Head, V: Clone> Branch<K, V> {
    /// Splits an overflowing branch after the child at `grown` grew by one: gives the
    /// separator and the right part.
    fn split(&mut self, grown: usize) -> Option<(K, Rc<Node<K, V>>)> {
        let right_children = split_off(&mut self.children, grown)?;
        let right_seps = self.seps.split_off(self.children.len());
        let (_, sep) = self.seps.pop().expect("a branch of two or more children");
        let right = Branch {
            seps: right_seps,
            children: right_children,
        };
        Some((sep, Rc::new(Node::Branch(right))))
    }

    /// After a removal below `children[i]`: drops it when empty, or merges it with a neighbour
    /// when it ran low and the two fit in one node.
    fn mend(&mut self, i: usize) {
        let left = self.children[i].len();
        if left == 0 {
            self.children.remove(i);
            if !self.seps.is_empty() {
                self.seps.remove(i.saturating_sub(1));
            }
            return;
        }
        if left >= NODE_LOW || self.children.len() < 2 {
            return;
        }
        let l = if i + 1 < self.children.len() {
            i
        } else {
            i - 1
        };
        if self.children[l].len() + self.children[l + 1].len() > NODE_CAPACITY {
            return;
        }
        let right = self.children.remove(l + 1);
        let (_, sep) = self.seps.remove(l);
        crate::sim::cow::make_mut(&mut self.children[l]).absorb(sep, right);
    }
}

/// Where `key` is among `entries` (`Ok`), or where it would go (`Err`).
fn search<K, V, Q>(entries: &[(K, V)], key: &Q) -> Result<usize, usize>
where
    K: Borrow<Q>,
    Q: Ord + ?Sized,
{
    find(entries, |(k, _)| k.borrow().cmp(key))
}

/// A binary search that stops at the first item `order` finds equal: a key comparison reads
/// text, so the search saves the comparisons `slice::binary_search_by` makes after a match (it
/// goes on to a fixed number of steps). A separator is made from the first key of the child
/// after it, so a lookup of that key meets it in the branch.
fn find<T>(items: &[T], order: impl Fn(&T) -> std::cmp::Ordering) -> Result<usize, usize> {
    let (mut low, mut high) = (0, items.len());
    while low < high {
        let mid = low + (high - low) / 2;
        match order(&items[mid]) {
            std::cmp::Ordering::Less => low = mid + 1,
            std::cmp::Ordering::Greater => high = mid,
            std::cmp::Ordering::Equal => return Ok(mid),
        }
    }
    Err(low)
}

/// Inserts `item` at `at`, growing `items` by no more than a node holds (a `Vec` doubles its
/// buffer, which would leave a full node with room for twice its entries).
fn insert_within_capacity<T>(items: &mut Vec<T>, at: usize, item: T) {
    if items.len() == items.capacity() {
        let wanted = (items.len() * 2).clamp(4, NODE_CAPACITY + 1);
        items.reserve_exact(wanted.saturating_sub(items.len()).max(1));
    }
    items.insert(at, item);
}

/// The right part of `items` when they overflow a node, `grown` being the place that grew: the
/// last item alone when that was the last (appending in key order fills each node), else half.
fn split_off<T>(items: &mut Vec<T>, grown: usize) -> Option<Vec<T>> {
    if items.len() <= NODE_CAPACITY {
        return None;
    }
    let at = if grown + 1 == items.len() {
        NODE_CAPACITY
    } else {
        items.len() / 2
    };
    Some(items.split_off(at))
}

impl<K, V> Clone for SharedMap<K, V> {
    /// A copy sharing every node.
    fn clone(&self) -> Self {
        SharedMap {
            root: self.root.clone(),
            len: self.len,
        }
    }
}

impl<K, V> Default for SharedMap<K, V> {
    fn default() -> Self {
        SharedMap::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SharedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: PartialEq, V: PartialEq> PartialEq for SharedMap<K, V> {
    /// The same entries in the same order; two copies sharing their root without reading them.
    fn eq(&self, other: &Self) -> bool {
        let same_root = match (&self.root, &other.root) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_root || (self.len == other.len && self.iter().eq(other.iter()))
    }
}

impl<K: Ord + Clone + Head, V: Clone> FromIterator<(K, V)> for SharedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut map = SharedMap::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<'a, K, V> IntoIterator for &'a SharedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

#[cfg(test)]
mod tests;
