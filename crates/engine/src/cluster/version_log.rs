//! Which event wrote or delivered each resourceVersion: a map from version to event id, kept in
//! chunks that copies share.
//!
//! ```text
//!   chunks, oldest first, sorted by version (shared with checkpoints until one is written)
//!   [ Rc: 41 ✗ 43 44 ✗ … ][ Rc: 301 302 ✗ … ] … [ Rc: 9001 9002 ]  ◀── insert (nearly always here)
//!        ▲ front: the first entry still held           ✗ removed, skipped, dropped with its chunk
//! ```
//!
//! The versions a cluster records arrive in increasing order (the API server commits one write
//! at a time), so an insert is a push at the back; the oldest is forgotten at the front, and a
//! version taken out in between is marked removed where it lies. A persistent ordered map paid
//! a path of tree nodes for each of these; here each is a store into a chunk, and a checkpoint
//! copies the chunks' pointers, a later write copying the one chunk it changes. A version that
//! arrives out of order is inserted in its place all the same, and lookups binary-search the
//! chunks' last versions (kept side by side, so that finding the chunk of an old version reads a
//! few words instead of a line of every chunk it passes), then the chunk. When removed entries outnumber the held ones, the chunks are rebuilt
//! with the held ones only.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::sim::EventId;

/// Entries per chunk built at the back (a chunk that took an out-of-order version holds more).
const CHUNK: usize = 256;

/// An entry's id when the entry was removed.
const REMOVED: u64 = u64::MAX;

/// `(resourceVersion, event id or REMOVED)`.
type Entry = (u64, u64);

/// A map from resourceVersion to the event that wrote or delivered it, ordered by version.
#[derive(Clone, Debug, Default)]
pub struct VersionLog {
    /// Entries by increasing version, in chunks; none empty but a last one kept for its room.
    chunks: VecDeque<Rc<Vec<Entry>>>,
    /// Each chunk's last version (0 for the empty one), side by side: a lookup searches these
    /// few words, not a line of each chunk, to find its chunk. A chunk's last version changes
    /// only when it is pushed to (an out-of-order version goes before a chunk's last).
    lasts: Vec<u64>,
    /// The first entry of the first chunk that is still held: the ones before it are gone. While
    /// any entry is held, the entry there is held (not removed).
    front: usize,
    /// Entries held.
    held: usize,
    /// Entries marked removed from `front` on.
    removed: usize,
}

impl VersionLog {
    /// Versions held.
    pub fn len(&self) -> usize {
        self.held
    }

    /// Forgets every version.
    pub fn clear(&mut self) {
        *self = VersionLog::default();
    }

    /// The event of version `rv`.
    pub fn get(&self, rv: u64) -> Option<EventId> {
        let (c, i) = self.find(rv).ok()?;
        let id = self.chunks[c][i].1;
        (id != REMOVED).then_some(EventId(id))
    }

    /// Records that event `id` wrote or delivered version `rv` (replacing what it held).
    pub fn insert(&mut self, rv: u64, id: EventId) {
        debug_assert_ne!(id.0, REMOVED, "an event id below u64::MAX");
        let last = self.chunks.back().and_then(|c| c.last());
        if last.is_none_or(|&(at, _)| at < rv) {
            self.push_back((rv, id.0));
            self.held += 1;
            return;
        }
        match self.find(rv) {
            Ok((c, i)) => {
                let entry = &mut crate::sim::cow::make_mut(&mut self.chunks[c])[i];
                if entry.1 == REMOVED {
                    self.held += 1;
                    self.removed -= 1;
                }
                entry.1 = id.0;
            }
            Err((c, i)) => {
                self.insert_at(c, i, (rv, id.0));
                self.held += 1;
            }
        }
    }

    /// Takes version `rv` out; returns its event.
    pub fn remove(&mut self, rv: u64) -> Option<EventId> {
        let (c, i) = self.find(rv).ok()?;
        let entry = &mut crate::sim::cow::make_mut(&mut self.chunks[c])[i];
        if entry.1 == REMOVED {
            return None;
        }
        let id = std::mem::replace(&mut entry.1, REMOVED);
        self.held -= 1;
        self.removed += 1;
        self.settle();
        Some(EventId(id))
    }

    /// The lowest version held and its event.
    #[cfg(test)]
    fn first(&self) -> Option<(u64, EventId)> {
        let &(rv, id) = self.chunks.front()?.get(self.front)?;
        Some((rv, EventId(id)))
    }

    /// Forgets the lowest version held: the entry at the front, marked where it lies without a
    /// search for its version. (`remove`'s marking written out again: shared through one helper
    /// indexing the chunks, the two ran 0.17 % more of the flywheel's instructions.)
    pub fn remove_first(&mut self) {
        let front = self.front;
        let Some(chunk) = self.chunks.front_mut() else {
            return;
        };
        if chunk.get(front).is_none_or(|&(_, id)| id == REMOVED) {
            return;
        }
        crate::sim::cow::make_mut(chunk)[front].1 = REMOVED;
        self.held -= 1;
        self.removed += 1;
        self.settle();
    }

    fn push_back(&mut self, entry: Entry) {
        match (self.chunks.back_mut(), self.lasts.last_mut()) {
            (Some(chunk), Some(last)) if chunk.len() < CHUNK => {
                crate::sim::cow::make_mut(chunk).push(entry);
                *last = entry.0;
            }
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(entry);
                self.chunks.push_back(Rc::new(chunk));
                self.lasts.push(entry.0);
            }
        }
    }

    /// Puts `entry` at place `i` of chunk `c` (as `find` gave it, for a version not held).
    fn insert_at(&mut self, c: usize, i: usize, entry: Entry) {
        if c == 0 && i == self.front && self.front > 0 {
            // before the first held entry: the place of a forgotten one is free
            self.front -= 1;
            crate::sim::cow::make_mut(&mut self.chunks[0])[self.front] = entry;
        } else {
            crate::sim::cow::make_mut(&mut self.chunks[c]).insert(i, entry);
        }
    }

    /// Where version `rv` is (`Ok`), or where it would go (`Err`), among the held range:
    /// `(chunk, place in it)`.
    fn find(&self, rv: u64) -> Result<(usize, usize), (usize, usize)> {
        let Some(last) = self.chunks.len().checked_sub(1) else {
            return Err((0, 0));
        };
        // most versions looked up are recent: the last chunk first
        let c = match last.checked_sub(1) {
            Some(before) if self.lasts[before] >= rv => {
                self.lasts.partition_point(|&at| at < rv).min(last)
            }
            _ => last,
        };
        let from = if c == 0 { self.front } else { 0 };
        let chunk = &self.chunks[c];
        // the API server numbers its writes one after another, so a chunk's versions are mostly
        // consecutive: the place `rv`'s distance from the chunk's first gives is tried first
        if let Some(&(first, _)) = chunk.first() {
            let guess = usize::try_from(rv.wrapping_sub(first)).unwrap_or(usize::MAX);
            if guess >= from && chunk.get(guess).is_some_and(|&(at, _)| at == rv) {
                return Ok((c, guess));
            }
        }
        match chunk[from..].binary_search_by_key(&rv, |&(at, _)| at) {
            Ok(i) => Ok((c, from + i)),
            Err(i) => Err((c, from + i)),
        }
    }

    /// Moves the front past removed entries, dropping chunks left behind, and rebuilds the
    /// chunks once removed entries outnumber held ones.
    fn settle(&mut self) {
        while let Some(chunk) = self.chunks.front() {
            match chunk.get(self.front) {
                Some(&(_, REMOVED)) => {
                    self.front += 1;
                    self.removed -= 1;
                }
                Some(_) => break,
                None => {
                    // the last chunk, once wholly gone, is kept for its room unless shared
                    let kept = self.chunks.len() == 1;
                    self.front = 0;
                    match self.chunks.front_mut().and_then(Rc::get_mut) {
                        Some(room) if kept => {
                            room.clear();
                            self.lasts[0] = 0;
                            break;
                        }
                        _ => {
                            self.chunks.pop_front();
                            self.lasts.remove(0);
                        }
                    }
                }
            }
        }
        if self.removed > self.held + CHUNK {
            self.rebuild();
        }
    }

    /// The held entries alone, in full chunks.
    fn rebuild(&mut self) {
        let held: Vec<Entry> = self
            .chunks
            .iter()
            .enumerate()
            .flat_map(|(c, chunk)| chunk[if c == 0 { self.front } else { 0 }..].iter())
            .filter(|&&(_, id)| id != REMOVED)
            .copied()
            .collect();
        *self = VersionLog::default();
        for entry in held {
            self.push_back(entry);
            self.held += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// A bounded log and a `BTreeMap` taken through the same operations hold the same versions.
    fn check_against_a_map(ops: impl Iterator<Item = (u8, u64)>, bound: usize) {
        let mut log = VersionLog::default();
        let mut map: BTreeMap<u64, EventId> = BTreeMap::new();
        let mut checkpoints = Vec::new();
        for (n, (op, rv)) in ops.enumerate() {
            let id = EventId(n as u64);
            match op % 4 {
                0 | 1 => {
                    log.insert(rv, id);
                    map.insert(rv, id);
                    if map.len() > bound {
                        map.pop_first();
                        log.remove_first();
                    }
                }
                2 => assert_eq!(log.remove(rv), map.remove(&rv), "removing {rv}"),
                _ => assert_eq!(log.get(rv), map.get(&rv).copied(), "reading {rv}"),
            }
            assert_eq!(log.len(), map.len());
            let lasts: Vec<u64> = log
                .chunks
                .iter()
                .map(|c| c.last().map_or(0, |e| e.0))
                .collect();
            assert_eq!(log.lasts, lasts, "each chunk's last version kept beside it");
            assert_eq!(
                log.first(),
                map.first_key_value().map(|(&rv, &id)| (rv, id))
            );
            if n % 97 == 0 {
                checkpoints.push((log.clone(), map.clone()));
            }
        }
        // copies taken along the way were not changed by the writes after them
        for (log, map) in checkpoints {
            for rv in 0..=map.last_key_value().map_or(0, |(&rv, _)| rv) {
                assert_eq!(log.get(rv), map.get(&rv).copied());
            }
        }
    }

    #[test]
    fn versions_arriving_in_order_are_found_until_removed_or_forgotten() {
        // the cluster's shape: increasing versions, most taken out soon after, some read
        let ops = (0..5_000u64).flat_map(|rv| {
            let back = rv.saturating_sub(rv % 7 + 1);
            [(0, rv), (3, rv), (if rv % 5 == 0 { 3 } else { 2 }, back)]
        });
        check_against_a_map(ops, 300);
    }

    #[test]
    fn versions_with_gaps_are_found_where_their_distance_from_a_chunks_first_misleads() {
        // the API server numbers the writes of every kind, so one log's versions have gaps: a
        // version's distance from its chunk's first overshoots its place, and a missing one's
        // place holds a later version
        let ops = (0..6_000u64)
            .filter(|rv| rv % 3 != 1)
            .flat_map(|rv| [(0, rv), (3, rv), (3, rv + 1), (2, rv.saturating_sub(40))]);
        check_against_a_map(ops, 500);
    }

    #[test]
    fn versions_arriving_out_of_order_are_kept_in_order() {
        let mut x = 11u64;
        let ops = std::iter::from_fn(move || {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            Some(((x >> 60) as u8, (x >> 33) % 2_000))
        })
        .take(20_000);
        check_against_a_map(ops, 700);
    }

    #[test]
    fn removed_entries_do_not_pile_up_behind_one_held_entry() {
        let mut log = VersionLog::default();
        log.insert(0, EventId(0)); // held for ever
        for rv in 1..100_000 {
            log.insert(rv, EventId(rv));
            log.remove(rv);
        }
        let entries: usize = log.chunks.iter().map(|c| c.len()).sum();
        assert!(
            entries <= 2 * CHUNK + 1,
            "{entries} entries kept for 1 held"
        );
        assert_eq!(log.get(0), Some(EventId(0)));
    }
}
