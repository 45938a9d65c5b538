//! Large collections copied and freed a bounded number of entries at a time.
//!
//! At the incident's scale a checkpoint holds hash maps and queues of 150 000 keys (the causes
//! of the workqueue's pending adds, the DeltaFIFO's queue; the FIFOs' indexes of places hold no
//! key and are copied whole). Copying or freeing one touches every
//! key's reference count: a random access per entry, about 300–400 ns each in a browser tab, so
//! one map is a 45–70 ms task. Here each is
//! copied or freed in steps of a budget of entries, a browser task each; nothing else runs
//! between the steps of a copy, so the source does not change under it.
//!
//! ```text
//!  live part ──take large collections out──▶ clone the rest (small) ──put them back──▶ skeleton
//!  step 1: entries 0..budget of collection 0 ──▶ skeleton's collection 0
//!  step 2: entries budget..2·budget …           (then collection 1, …)    ──▶ a complete copy
//! ```
//!
//! A structure names its large collections through [`LargeParts`], always in the same order, so
//! the live structure and its skeleton list theirs pairwise. A hash map ([`ItemMap`]) goes a
//! whole shard at a time, each copied with its layout (no key hashed again), so a copy is the
//! original to the last bucket; queues and ordered maps go entry by entry, in their order.

use std::any::Any;
use std::collections::{BTreeMap, VecDeque};
use std::hash::Hash;

use super::shared::{Freeing, SharedMap};
use crate::workqueue::set::{ItemMap, Shard};

/// A collection that can be copied and freed in steps.
pub trait Large: Any {
    /// How many entries it holds.
    fn entries(&self) -> usize;
    /// Copies up to `budget` entries, from the `from`-th in this collection's iteration order,
    /// into `into` (a collection of the same type); returns how many it copied. The order is
    /// fixed while the collection is not modified.
    fn copy_into(&self, into: &mut dyn Large, from: usize, budget: usize) -> usize;
    /// Moves the collection out, leaving an empty one.
    fn take_out(&mut self) -> Box<dyn Large>;
    /// The collection, to be freed in steps.
    fn into_free(self: Box<Self>) -> Box<dyn Free>;
    /// Puts back what [`Large::take_out`] moved out.
    fn put_back(&mut self, from: Box<dyn Large>);
    /// For [`Large::copy_into`] and [`Large::put_back`]: the concrete collection.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// For [`Large::put_back`].
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

/// A collection being freed in steps.
pub trait Free {
    /// Frees up to `budget` entries; returns whether it is empty now.
    fn free_some(&mut self, budget: usize) -> bool;
}

/// A structure that holds large collections.
pub trait LargeParts {
    /// Pushes its large collections, always in the same order.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>);
}

/// The collection of `into`'s type, which the callers pair by construction.
fn same<T: 'static>(into: &mut dyn Large) -> &mut T {
    into.as_any_mut()
        .downcast_mut::<T>()
        .expect("a collection is copied into one of its own type")
}

/// The methods of [`Large`] that do not depend on the collection's kind (`@moves`: all but
/// [`Large::into_free`], for a collection freed otherwise than by its own [`Free`]).
macro_rules! moves {
    () => {
        moves!(@moves);

        fn into_free(self: Box<Self>) -> Box<dyn Free> {
            self
        }
    };
    (@moves) => {
        fn take_out(&mut self) -> Box<dyn Large> {
            Box::new(std::mem::take(self))
        }

        fn put_back(&mut self, from: Box<dyn Large>) {
            *self = *from
                .into_any()
                .downcast::<Self>()
                .expect("a collection is put back where it was taken");
        }

        fn as_any_mut(&mut self) -> &mut dyn Any {
            self
        }

        fn into_any(self: Box<Self>) -> Box<dyn Any> {
            self
        }
    };
}

impl<K: Clone + Hash + Eq + 'static, V: Clone + 'static> Large for ItemMap<K, V> {
    fn entries(&self) -> usize {
        self.len()
    }

    /// Copies whole shards (each keeps its layout: no key is hashed again), from the shard
    /// where `from` entries end, while fewer than `budget` entries are copied: at least one.
    fn copy_into(&self, into: &mut dyn Large, from: usize, budget: usize) -> usize {
        let into = same::<Self>(into);
        let mut start = 0;
        let mut copied = 0;
        for (shard, target) in self.shards().iter().zip(into.shards_mut()) {
            if start >= from {
                if copied >= budget && !shard.is_empty() {
                    break;
                }
                target.clone_from(shard);
                copied += shard.len();
            }
            start += shard.len();
        }
        copied
    }

    moves!();
}

impl<K: Clone + Hash + Eq + 'static, V: Clone + 'static> Free for ItemMap<K, V> {
    /// Frees whole shards, the last first, while fewer than `budget` entries are freed: at
    /// least one.
    fn free_some(&mut self, budget: usize) -> bool {
        let mut freed = 0;
        for shard in self.shards_mut().iter_mut().rev() {
            if shard.is_empty() {
                continue;
            }
            if freed >= budget {
                return false;
            }
            freed += shard.len();
            *shard = Shard::default();
        }
        true
    }
}

impl<T: Clone + 'static> Large for VecDeque<T> {
    fn entries(&self) -> usize {
        self.len()
    }

    fn copy_into(&self, into: &mut dyn Large, from: usize, budget: usize) -> usize {
        let into = same::<Self>(into);
        if from == 0 {
            into.reserve(self.len());
        }
        let before = into.len();
        into.extend(self.range(from.min(self.len())..).take(budget).cloned());
        into.len() - before
    }

    moves!();
}

impl<T: Clone + 'static> Free for VecDeque<T> {
    fn free_some(&mut self, budget: usize) -> bool {
        if self.len() <= budget {
            *self = VecDeque::new();
            return true;
        }
        self.drain(..budget);
        false
    }
}

impl<K: Clone + Ord + 'static, V: Clone + 'static> Large for BTreeMap<K, V> {
    fn entries(&self) -> usize {
        self.len()
    }

    fn copy_into(&self, into: &mut dyn Large, from: usize, budget: usize) -> usize {
        let into = same::<Self>(into);
        let before = into.len();
        into.extend(
            self.iter()
                .skip(from)
                .take(budget)
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        into.len() - before
    }

    moves!();
}

impl<K: Clone + Ord + 'static, V: Clone + 'static> Free for BTreeMap<K, V> {
    fn free_some(&mut self, budget: usize) -> bool {
        for _ in 0..budget {
            if self.pop_first().is_none() {
                break;
            }
        }
        self.is_empty()
    }
}

/// A persistent map: its copies share nodes, so a copy is whole at once; freeing walks the nodes
/// it alone holds ([`Freeing`]), and lets go of a node another copy still holds by its reference
/// count, without reading what is under it.
impl<K: Clone + Ord + 'static, V: Clone + 'static> Large for SharedMap<K, V> {
    fn entries(&self) -> usize {
        self.len()
    }

    /// The whole map (sharing its nodes), whatever the budget.
    fn copy_into(&self, into: &mut dyn Large, from: usize, _budget: usize) -> usize {
        if from > 0 {
            return 0;
        }
        same::<Self>(into).clone_from(self);
        self.len()
    }

    fn into_free(self: Box<Self>) -> Box<dyn Free> {
        Box::new((*self).into_freeing())
    }

    moves!(@moves);
}

impl<K: 'static, V: 'static> Free for Freeing<K, V> {
    fn free_some(&mut self, budget: usize) -> bool {
        Freeing::free_some(self, budget)
    }
}

impl<K: Clone + Hash + Eq + 'static, V: Clone + 'static> LargeParts for ItemMap<K, V> {
    /// The map itself.
    fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
        out.push(self);
    }
}

/// A copy of `live` without its large collections (each empty in the copy), to be filled by a
/// [`StepCopy`].
pub fn clone_without_large<T: Clone + LargeParts>(live: &mut T) -> T {
    let taken: Vec<Box<dyn Large>> = parts_of(live).into_iter().map(Large::take_out).collect();
    let skeleton = live.clone();
    for (part, moved) in parts_of(live).into_iter().zip(taken) {
        part.put_back(moved);
    }
    skeleton
}

fn parts_of<T: LargeParts>(value: &mut T) -> Vec<&mut dyn Large> {
    let mut parts = Vec::new();
    value.large_parts(&mut parts);
    parts
}

/// How far a copy in steps has come: which large collection, and how many of its entries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepCopy {
    part: usize,
    done: usize,
}

impl StepCopy {
    /// Copies up to `budget` more entries from `live`'s large collections into `copy`'s (a
    /// [`clone_without_large`] of `live`, which has not changed since); returns whether the
    /// copy is complete.
    pub fn step<T: LargeParts>(&mut self, live: &mut T, copy: &mut T, budget: usize) -> bool {
        let sources = parts_of(live);
        let mut targets = parts_of(copy);
        let mut left = budget.max(1);
        while let (Some(source), Some(target)) =
            (sources.get(self.part), targets.get_mut(self.part))
        {
            if left == 0 {
                return false;
            }
            let copied = source.copy_into(&mut **target, self.done, left);
            self.done += copied;
            left = left.saturating_sub(copied);
            if self.done >= source.entries() {
                self.part += 1;
                self.done = 0;
            }
        }
        true
    }
}

/// Large collections set aside to be freed in steps.
#[derive(Default)]
pub struct StepFree {
    parts: Vec<Box<dyn Free>>,
}

impl StepFree {
    /// Moves `value`'s large collections out to be freed in steps; what is left of `value` is
    /// small.
    pub fn take_from<T: LargeParts>(&mut self, value: &mut T) {
        self.parts.extend(
            parts_of(value)
                .into_iter()
                .filter(|part| part.entries() > 0)
                .map(|part| part.take_out().into_free()),
        );
    }

    /// Frees up to `budget` entries; returns whether anything was left to free.
    pub fn step(&mut self, budget: usize) -> bool {
        let Some(last) = self.parts.last_mut() else {
            return false;
        };
        if last.free_some(budget.max(1)) {
            self.parts.pop();
        }
        true
    }

    /// Whether nothing is left to free.
    pub fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::rc::{Rc, Weak};

    use super::*;

    #[derive(Clone, Default)]
    struct Holder {
        name: &'static str,
        map: ItemMap<u32, String>,
        queue: VecDeque<u32>,
        tree: BTreeMap<u32, u32>,
    }

    impl LargeParts for Holder {
        fn large_parts<'a>(&'a mut self, out: &mut Vec<&'a mut dyn Large>) {
            out.push(&mut self.map);
            out.push(&mut self.queue);
            out.push(&mut self.tree);
        }
    }

    fn holder(n: u32) -> Holder {
        Holder {
            name: "live",
            map: (0..n).map(|i| (i, format!("v{i}"))).collect(),
            queue: (0..n).rev().collect(),
            tree: (0..n).map(|i| (i, i * 2)).collect(),
        }
    }

    #[test]
    fn a_copy_in_steps_of_seven_entries_equals_the_original_and_leaves_it_unchanged() {
        let mut live = holder(100);
        let mut copy = clone_without_large(&mut live);
        assert_eq!(copy.name, "live");
        assert!(
            copy.map.is_empty() && copy.queue.is_empty(),
            "the skeleton is small"
        );
        assert_eq!(
            live.map.len(),
            100,
            "the live structure keeps its collections"
        );
        let mut progress = StepCopy::default();
        let mut steps = 1;
        while !progress.step(&mut live, &mut copy, 7) {
            steps += 1;
        }
        // The map goes a whole shard a step (about 100 / 16 entries), the others 7 entries.
        assert!(
            steps > (100 + 100) / 7,
            "{steps} steps copy 300 entries, at most 7 a step but for a shard"
        );
        assert_eq!(copy.map, live.map);
        assert_eq!(copy.queue, live.queue);
        assert_eq!(copy.tree, live.tree);
    }

    #[test]
    fn a_map_is_copied_a_whole_shard_at_a_time_each_keeping_its_layout() {
        let live: ItemMap<u32, u32> = (0..1_000).map(|i| (i, i)).collect();
        let mut copy = ItemMap::default();
        let mut done = 0;
        while done < live.len() {
            let copied = live.copy_into(&mut copy, done, 1);
            assert!(copied > 0, "at least one shard a step");
            done += copied;
        }
        for (original, copied) in live.shards().iter().zip(copy.shards()) {
            let original: Vec<_> = original.iter().collect();
            let copied: Vec<_> = copied.iter().collect();
            assert_eq!(original, copied, "same entries in the same order");
        }
    }

    #[test]
    fn a_free_in_steps_frees_a_budget_per_step_until_nothing_is_left() {
        let mut value = holder(10);
        let mut free = StepFree::default();
        free.take_from(&mut value);
        assert!(value.map.is_empty() && value.tree.is_empty(), "moved out");
        let mut steps = 0;
        while free.step(4) {
            steps += 1;
        }
        // 10 each in the queue and the tree: 3 + 3 steps of at most 4; the map's ten keys a
        // shard or more a step.
        assert!((7..=6 + 10).contains(&steps), "{steps} steps");
        assert!(free.is_empty());
        let mut empty = Holder::default();
        free.take_from(&mut empty);
        assert!(!free.step(4), "empty collections are not kept to be freed");
    }

    /// The map of `n` entries, and a probe of each value's life.
    fn shared_map(n: u32) -> (SharedMap<u32, Rc<u32>>, Vec<Weak<u32>>) {
        let map: SharedMap<u32, Rc<u32>> = (0..n).map(|i| (i, Rc::new(i))).collect();
        let probes = map.values().map(Rc::downgrade).collect();
        (map, probes)
    }

    fn alive(probes: &[Weak<u32>]) -> usize {
        probes.iter().filter(|p| p.strong_count() > 0).count()
    }

    #[test]
    fn a_persistent_map_freed_in_steps_drops_a_budget_of_entries_per_step() {
        let (mut map, probes) = shared_map(1_000);
        let mut free = Box::new(std::mem::take(&mut map)).into_free();
        let mut steps = 0;
        while !free.free_some(300) {
            steps += 1;
            assert_eq!(alive(&probes), 1_000 - 300 * steps, "after step {steps}");
        }
        assert_eq!((steps, alive(&probes)), (3, 0));
    }

    #[test]
    fn freeing_a_persistent_map_in_steps_leaves_its_copies_whole() {
        let (map, probes) = shared_map(1_000);
        let kept = map.clone();
        let mut copy = SharedMap::default();
        assert_eq!(
            map.copy_into(&mut copy, 0, 1),
            1_000,
            "a copy is whole at once"
        );
        let mut free = Box::new(map).into_free();
        while !free.free_some(64) {}
        assert_eq!(alive(&probes), 1_000);
        assert_eq!(kept.len(), 1_000);
        assert!(kept.iter().all(|(k, v)| **v == *k));
        assert_eq!(kept, copy);
    }

    #[test]
    fn an_empty_structure_is_copied_in_one_step() {
        let mut live = Holder::default();
        let mut copy = clone_without_large(&mut live);
        assert!(StepCopy::default().step(&mut live, &mut copy, 1));
    }
}
