//! The controller's `MaxConcurrentReconciles` worker slots, each idle or running a [`Job`], and
//! which of them are idle, kept together so that the two cannot disagree. Handing out ready keys
//! visits the idle slots only: with 200 workers, nearly all waiting on a write, each look at the
//! queue would otherwise step over 200 busy slots to find none.
//!
//! A slot's index is its worker's: the lowest idle worker is handed the next key, as a scan of
//! the slots in order would.

use super::worker::Job;

/// The workers' slots: a job each, or idle.
#[derive(Clone, Debug, Default)]
pub struct WorkerSlots {
    /// The job of each worker; `None` is idle.
    jobs: Vec<Option<Job>>,
    /// Which of `jobs` are `None`.
    idle: IdleSlots,
}

impl WorkerSlots {
    /// `n` idle workers.
    pub fn new(n: usize) -> WorkerSlots {
        WorkerSlots {
            jobs: (0..n).map(|_| None).collect(),
            idle: IdleSlots::all(n),
        }
    }

    /// How many workers there are.
    pub fn len(&self) -> usize {
        self.jobs.len()
    }

    /// Whether there is no worker at all.
    pub fn is_empty(&self) -> bool {
        self.jobs.is_empty()
    }

    /// How many workers run a job.
    pub fn busy(&self) -> usize {
        self.jobs.len() - self.idle.count()
    }

    /// Worker `i`'s job, if it runs one.
    pub fn get(&self, i: usize) -> Option<&Job> {
        self.jobs.get(i)?.as_ref()
    }

    /// Worker `i`'s job, to step it.
    pub fn get_mut(&mut self, i: usize) -> Option<&mut Job> {
        self.jobs.get_mut(i)?.as_mut()
    }

    /// The jobs running, in worker order.
    pub fn jobs(&self) -> impl Iterator<Item = &Job> {
        self.jobs.iter().flatten()
    }

    /// Every slot, in worker order.
    pub fn as_slice(&self) -> &[Option<Job>] {
        &self.jobs
    }

    /// The lowest idle worker at `from` or above.
    pub fn first_idle_from(&self, from: usize) -> Option<usize> {
        self.idle.first_from(from)
    }

    /// Worker `i` (idle) starts `job`.
    pub fn start(&mut self, i: usize, job: Job) {
        if let Some(slot) = self.jobs.get_mut(i) {
            *slot = Some(job);
            self.idle.set_busy(i);
        }
    }

    /// Worker `i` is done: its job, if it ran one.
    pub fn finish(&mut self, i: usize) -> Option<Job> {
        let job = self.jobs.get_mut(i)?.take();
        self.idle.set_idle(i);
        job
    }
}

/// Bits of one word.
const WORD_BITS: usize = u64::BITS as usize;

/// A set of worker indices (idle ones), lowest first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct IdleSlots {
    /// Bit `i % 64` of word `i / 64` is set when worker `i` is idle.
    words: Vec<u64>,
    /// Workers.
    len: usize,
}

impl IdleSlots {
    /// `n` workers, all idle.
    fn all(n: usize) -> IdleSlots {
        let mut slots = IdleSlots {
            words: vec![0; n.div_ceil(WORD_BITS)],
            len: n,
        };
        (0..n).for_each(|i| slots.set_idle(i));
        slots
    }

    /// The lowest idle worker at `from` or above.
    fn first_from(&self, from: usize) -> Option<usize> {
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
    fn set_busy(&mut self, i: usize) {
        self.flip(i, false);
    }

    /// Worker `i` is done with its key.
    fn set_idle(&mut self, i: usize) {
        self.flip(i, true);
    }

    /// Idle workers.
    fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn flip(&mut self, i: usize, idle: bool) {
        if i >= self.len {
            return;
        }
        let Some(word) = self.words.get_mut(i / WORD_BITS) else {
            return;
        };
        let bit = 1u64 << (i % WORD_BITS);
        if idle {
            *word |= bit;
        } else {
            *word &= !bit;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::key::Key;
    use crate::time::SimTime;

    #[test]
    fn a_worker_that_finishes_is_idle_again_and_the_lowest_idle_is_handed_out_first() {
        let job = |k: &str| Job::new(Key::from(k), SimTime::ZERO);
        let mut workers = WorkerSlots::new(3);
        workers.start(0, job("default/a"));
        workers.start(1, job("default/b"));
        assert_eq!((workers.busy(), workers.first_idle_from(0)), (2, Some(2)));
        assert_eq!(workers.get(1).map(|j| j.key.as_str()), Some("default/b"));
        let done = workers.finish(0).map(|j| j.key);
        assert_eq!(done.as_ref().map(Key::as_str), Some("default/a"));
        assert_eq!((workers.busy(), workers.first_idle_from(0)), (1, Some(0)));
        assert!(
            workers.finish(0).is_none(),
            "an idle worker has nothing to finish"
        );
        assert_eq!(workers.busy(), 1);
        let running: Vec<&str> = workers.jobs().map(|j| j.key.as_str()).collect();
        assert_eq!(running, ["default/b"]);
    }

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
