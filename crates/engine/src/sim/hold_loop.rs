//! The bare discrete-event hold loop the benchmarks hold the engine against: a binary heap of
//! `(time, sequence)` entries, each event popping the earliest and pushing one later, with
//! nothing else done per event. It is the most a discrete-event kernel can do per event, so
//! `flywheel bench` (natively) and the page's benchmark (in V8) time it beside the engine on the
//! same host; the engine's own queue is [`super::EventQueue`]. No clock here: callers time it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A heap of pending `(time, sequence)` entries, filled from a fixed xorshift sequence so that
/// every loop of one size does the same work.
pub struct HoldLoop {
    heap: BinaryHeap<Reverse<(u64, u64)>>,
    x: u64,
    seq: u64,
}

impl HoldLoop {
    /// A heap of `pending` entries (filling it is not part of what [`HoldLoop::run`] does).
    pub fn new(pending: u64) -> HoldLoop {
        let mut held = HoldLoop {
            heap: BinaryHeap::with_capacity(pending as usize + 1),
            x: 0x9E37_79B9_7F4A_7C15,
            seq: 0,
        };
        for seq in 0..pending {
            let t = held.next();
            held.heap.push(Reverse((t, seq)));
        }
        held.seq = pending;
        held
    }

    fn next(&mut self) -> u64 {
        self.x ^= self.x << 13;
        self.x ^= self.x >> 7;
        self.x ^= self.x << 17;
        self.x % 1_000_000
    }

    /// Runs `events` hold steps (pop the earliest, push one later) and returns the heap's length,
    /// which stays what it was: a value the caller keeps so the loop is not optimized away.
    pub fn run(&mut self, events: u64) -> usize {
        for _ in 0..events {
            if let Some(Reverse((t, _))) = self.heap.pop() {
                let later = t + 1 + self.next();
                self.heap.push(Reverse((later, self.seq)));
                self.seq += 1;
            }
        }
        std::hint::black_box(self.heap.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hold_loop_keeps_its_pending_entries() {
        assert_eq!(HoldLoop::new(64).run(10_000), 64);
        assert_eq!(HoldLoop::new(5).run(0), 5);
        assert_eq!(
            HoldLoop::new(0).run(3),
            0,
            "an empty heap has nothing to hold"
        );
    }
}
