//! Which of the controller's workers are idle, so that handing out ready keys visits the idle
//! ones only: with `MaxConcurrentReconciles` at 200 and every worker waiting on a write, each
//! look at the queue would otherwise step over 200 busy slots to find none.
//!
//! A slot's index is its worker's: the lowest idle worker is handed the next key, as a scan of
//! the slots in order would.

/// Bits of one word.
const WORD_BITS: usize = u64::BITS as usize;

/// A set of worker indices (idle ones), lowest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdleSlots {
    /// Bit `i % 64` of word `i / 64` is set when worker `i` is idle.
    words: Vec<u64>,
    /// Idle workers.
    count: usize,
    /// Workers.
    len: usize,
}

impl IdleSlots {
    /// `n` workers, all idle.
    pub fn all(n: usize) -> IdleSlots {
        let mut slots = IdleSlots {
            words: vec![0; n.div_ceil(WORD_BITS)],
            count: 0,
            len: n,
        };
        (0..n).for_each(|i| slots.set_idle(i));
        slots
    }

    /// The lowest idle worker at `from` or above.
    pub fn first_from(&self, from: usize) -> Option<usize> {
        let mut w = from / WORD_BITS;
        let mut bits = self.words.get(w)? & (u64::MAX << (from % WORD_BITS));
        loop {
            if bits != 0 {
                return Some(w * WORD_BITS + bits.trailing_zeros() as usize);
            }
            w += 1;
            bits = *self.words.get(w)?;
        }
    }

    /// Worker `i` took a key.
    pub fn set_busy(&mut self, i: usize) {
        self.flip(i, false);
    }

    /// Worker `i` is done with its key.
    pub fn set_idle(&mut self, i: usize) {
        self.flip(i, true);
    }

    /// Idle workers.
    pub fn count(&self) -> usize {
        self.count
    }

    fn flip(&mut self, i: usize, idle: bool) {
        if i >= self.len {
            return;
        }
        let Some(word) = self.words.get_mut(i / WORD_BITS) else {
            return;
        };
        let bit = 1u64 << (i % WORD_BITS);
        if (*word & bit != 0) == idle {
            return;
        }
        *word ^= bit;
        if idle {
            self.count += 1;
        } else {
            self.count -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_idle_worker_at_or_after_a_slot_is_found_across_words() {
        let mut slots = IdleSlots::all(200);
        assert_eq!(slots.count(), 200);
        (0..150).for_each(|i| slots.set_busy(i));
        slots.set_busy(151);
        assert_eq!(slots.first_from(0), Some(150));
        assert_eq!(slots.first_from(151), Some(152));
        slots.set_idle(3);
        assert_eq!(slots.first_from(0), Some(3));
        assert_eq!(slots.first_from(4), Some(150));
        (150..200).for_each(|i| slots.set_busy(i));
        assert_eq!(slots.first_from(4), None);
        assert_eq!(slots.count(), 1);
    }

    #[test]
    fn marking_a_worker_twice_counts_it_once_and_slots_past_the_end_are_ignored() {
        let mut slots = IdleSlots::all(3);
        slots.set_busy(1);
        slots.set_busy(1);
        slots.set_idle(7);
        assert_eq!(slots.count(), 2);
        assert_eq!(slots.first_from(1), Some(2));
        assert_eq!(slots.first_from(3), None);
        assert_eq!(IdleSlots::all(0).first_from(0), None);
    }
}
