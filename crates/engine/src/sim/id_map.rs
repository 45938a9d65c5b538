//! A map from ids handed out in increasing order, for entries that mostly leave in about the
//! order they came: the requests on their way, the APF tickets of requests being served.
//!
//! ```text
//!   overflow (sorted vector)      window: one slot per id from `base` on
//!   { 17: v, 40: v }              [ None, Some(v), Some(v), None, Some(v) ]
//!   every id below `base`          ▲ base = 52                       ▲ newest id
//! ```
//!
//! A new id lands in the window's slot for it, a lookup indexes the window, and a removal empties
//! a slot and lets the empty slots at the front go, so the common operations touch no tree. An id
//! that stays while later ones come and go (a request waiting long in an APF queue) would keep
//! the window from moving: when the window is more than twice as long as what it holds, its front
//! entries move to the overflow. An id inserted below the window goes there too. Every id in
//! the overflow is below `base`, so walking the overflow and then the window visits the ids in
//! increasing order, as an ordered map of them would.

use std::collections::VecDeque;

use crate::vec_map::VecMap;

/// Empty slots a window may hold beyond twice its entries before its front moves out.
const SLACK: usize = 32;

/// Values by `u64` id, in id order (see the module's notes).
#[derive(Clone, Debug)]
pub(crate) struct IdMap<V> {
    /// The id of the window's first slot; every id in `overflow` is below it.
    base: u64,
    /// A slot per id from `base` on.
    window: VecDeque<Option<V>>,
    /// The filled slots of `window`.
    in_window: usize,
    /// Entries below the window.
    overflow: VecMap<u64, V>,
}

impl<V> Default for IdMap<V> {
    fn default() -> Self {
        IdMap {
            base: 0,
            window: VecDeque::new(),
            in_window: 0,
            overflow: VecMap::new(),
        }
    }
}

impl<V> IdMap<V> {
    /// An empty map.
    pub(crate) fn new() -> IdMap<V> {
        IdMap::default()
    }

    /// The number of entries.
    pub(crate) fn len(&self) -> usize {
        self.in_window + self.overflow.len()
    }

    /// Whether it holds no entry.
    pub(crate) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The window slot of `id`, if `id` is in the window's range.
    fn slot(&self, id: u64) -> Option<usize> {
        let ahead = usize::try_from(id.checked_sub(self.base)?).ok()?;
        (ahead < self.window.len()).then_some(ahead)
    }

    /// The value of `id`.
    pub(crate) fn get(&self, id: u64) -> Option<&V> {
        match self.slot(id) {
            Some(i) => self.window[i].as_ref(),
            None => self.overflow.get(&id),
        }
    }

    /// The value of `id`, to change.
    pub(crate) fn get_mut(&mut self, id: u64) -> Option<&mut V> {
        match self.slot(id) {
            Some(i) => self.window[i].as_mut(),
            None => self.overflow.get_mut(&id),
        }
    }

    /// Sets `id`'s value; returns the value it replaced.
    pub(crate) fn insert(&mut self, id: u64, value: V) -> Option<V> {
        if id < self.base {
            return self.overflow.insert(id, value);
        }
        if self.window.is_empty() {
            self.base = id;
        }
        let ahead = usize::try_from(id - self.base).unwrap_or(usize::MAX);
        if ahead > 2 * self.window.len() + SLACK {
            // far past the window: start a new one there, what the old one held moves below it
            self.move_window_to_overflow();
            self.base = id;
            return self.insert(id, value);
        }
        if ahead == self.window.len() {
            // the next id (nearly every insert): it goes on the end
            self.window.push_back(Some(value));
            self.in_window += 1;
            self.keep_window_dense();
            return None;
        }
        if ahead > self.window.len() {
            self.window.resize_with(ahead + 1, || None);
        }
        let replaced = self.window[ahead].replace(value);
        if replaced.is_none() {
            self.in_window += 1;
            self.keep_window_dense();
        }
        replaced
    }

    /// Removes `id`; returns its value.
    pub(crate) fn remove(&mut self, id: u64) -> Option<V> {
        let Some(i) = self.slot(id) else {
            return self.overflow.remove(&id);
        };
        let removed = self.window[i].take();
        if removed.is_some() {
            self.in_window -= 1;
            self.drop_empty_front();
        }
        removed
    }

    /// Keeps the entries for which `keep` is true.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(&u64, &mut V) -> bool) {
        self.overflow.retain(|id, v| keep(id, v));
        for (offset, slot) in (0u64..).zip(self.window.iter_mut()) {
            if slot
                .as_mut()
                .is_some_and(|v| !keep(&(self.base + offset), v))
            {
                *slot = None;
                self.in_window -= 1;
            }
        }
        self.drop_empty_front();
    }

    /// Every entry in increasing id order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u64, &V)> {
        let window = (self.base..)
            .zip(&self.window)
            .filter_map(|(id, slot)| slot.as_ref().map(|v| (id, v)));
        self.overflow.iter().map(|(id, v)| (*id, v)).chain(window)
    }

    /// Lets the empty slots at the window's front go.
    fn drop_empty_front(&mut self) {
        while matches!(self.window.front(), Some(None)) {
            self.window.pop_front();
            self.base += 1;
        }
    }

    /// Moves the window's front entries to the overflow while the window is more than twice as
    /// long as what it holds. The check is in line at each insert; the move, rare, is not.
    #[inline]
    fn keep_window_dense(&mut self) {
        if self.window.len() > 2 * self.in_window + SLACK {
            self.thin_window();
        }
    }

    /// [`IdMap::keep_window_dense`]'s move, once the window is too sparse.
    #[inline(never)]
    fn thin_window(&mut self) {
        while self.window.len() > 2 * self.in_window + SLACK {
            if let Some(Some(v)) = self.window.pop_front() {
                self.overflow.insert(self.base, v);
                self.in_window -= 1;
            }
            self.base += 1;
            self.drop_empty_front();
        }
    }

    /// Moves every window entry to the overflow, leaving the window empty.
    fn move_window_to_overflow(&mut self) {
        for (id, slot) in (self.base..).zip(self.window.drain(..)) {
            if let Some(v) = slot {
                self.overflow.insert(id, v);
            }
        }
        self.in_window = 0;
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// Applies the same operations to an `IdMap` and a `BTreeMap` and checks they agree.
    fn agree(ops: &[(u8, u64)]) {
        let mut map = IdMap::new();
        let mut model = BTreeMap::new();
        for (step, &(op, id)) in ops.iter().enumerate() {
            match op % 4 {
                0 | 1 => assert_eq!(map.insert(id, step), model.insert(id, step)),
                2 => assert_eq!(map.remove(id), model.remove(&id)),
                _ => {
                    if let Some(v) = map.get_mut(id) {
                        *v += 1000;
                    }
                    if let Some(v) = model.get_mut(&id) {
                        *v += 1000;
                    }
                }
            }
            assert_eq!(map.len(), model.len(), "after step {step}");
            assert_eq!(map.get(id), model.get(&id));
            let walked: Vec<(u64, usize)> = map.iter().map(|(id, v)| (id, *v)).collect();
            let expected: Vec<(u64, usize)> = model.iter().map(|(id, v)| (*id, *v)).collect();
            assert_eq!(walked, expected, "after step {step}");
        }
    }

    #[test]
    fn requests_that_leave_in_order_are_found_walked_and_removed_as_in_an_ordered_map() {
        let mut ops = Vec::new();
        for id in 0..200u64 {
            ops.push((0, id));
            if id >= 3 {
                ops.push((2, id - 3));
            }
            ops.push((3, id.saturating_sub(1)));
        }
        agree(&ops);
    }

    #[test]
    fn an_entry_that_stays_while_many_later_ones_leave_moves_below_the_window() {
        let mut map = IdMap::new();
        map.insert(0, "stays");
        for id in 1..1_000u64 {
            map.insert(id, "leaves");
            map.remove(id);
        }
        assert!(map.window.len() <= SLACK + 2, "{} slots", map.window.len());
        assert_eq!(map.get(0), Some(&"stays"));
        assert_eq!(map.len(), 1);
        assert_eq!(map.iter().map(|(id, _)| id).collect::<Vec<_>>(), vec![0]);
    }

    #[test]
    fn old_ids_far_jumps_and_retain_behave_as_in_an_ordered_map() {
        let ops = [
            (0, 10),
            (0, 11),
            (0, 5),
            (0, 1_000_000),
            (0, 12),
            (2, 10),
            (0, 10),
            (3, 5),
            (2, 1_000_000),
            (0, 1_000_001),
            (2, 5),
            (1, 11),
            (2, 7),
        ];
        agree(&ops);
        let mut map = IdMap::new();
        for id in 0..100u64 {
            map.insert(id, id);
        }
        map.retain(|id, _| id % 3 == 0);
        let kept: Vec<u64> = map.iter().map(|(id, _)| id).collect();
        assert_eq!(kept, (0..100).filter(|id| id % 3 == 0).collect::<Vec<_>>());
        assert_eq!(map.len(), 34);
    }

    #[test]
    fn a_pseudo_random_mix_of_operations_agrees_with_an_ordered_map() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut ops = Vec::new();
        let mut newest = 0u64;
        for _ in 0..5_000 {
            let r = next();
            let op = (r % 4) as u8;
            let id = if op == 0 {
                newest += 1 + (r >> 8) % 3;
                newest
            } else {
                newest.saturating_sub((r >> 16) % 80)
            };
            ops.push((op, id));
        }
        agree(&ops);
    }
}
