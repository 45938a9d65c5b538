//! Values let go a batch at a time.
//!
//! A value that leaves a long queue (the watch cache's oldest event) often holds the last
//! reference to an object no cache has held for a while: dropped at once, each drop waits for
//! its own miss on the object's reference count. Kept until [`BATCH`] have left and dropped
//! together, the processor waits for several misses at once. What a batch holds is outside
//! every view: a copy of its owner (a checkpoint's) starts with an empty batch.

/// How many values leave together.
pub const BATCH: usize = 64;

/// Values that have left their owner and are not yet dropped.
pub struct BatchDrop<T>(Vec<T>);

impl<T> BatchDrop<T> {
    /// Lets `value` go: it is dropped with the next [`BATCH`] − 1 others.
    pub fn push(&mut self, value: T) {
        if self.0.capacity() == 0 {
            self.0.reserve_exact(BATCH);
        }
        self.0.push(value);
        if self.0.len() >= BATCH {
            self.0.clear();
        }
    }

    /// Whether every value let go has been dropped.
    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T> Default for BatchDrop<T> {
    fn default() -> Self {
        BatchDrop(Vec::new())
    }
}

impl<T> Clone for BatchDrop<T> {
    /// An empty batch: the values let go belong to no copy.
    fn clone(&self) -> Self {
        BatchDrop::default()
    }
}

impl<T> std::fmt::Debug for BatchDrop<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "BatchDrop({} waiting)", self.0.len())
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;

    #[test]
    fn values_are_dropped_a_whole_batch_at_a_time_and_a_copy_holds_none() {
        let shared = Rc::new(());
        let mut batch = BatchDrop::default();
        for _ in 0..BATCH - 1 {
            batch.push(Rc::clone(&shared));
        }
        assert_eq!(Rc::strong_count(&shared), BATCH, "still waiting");
        assert!(batch.clone().is_empty());
        batch.push(Rc::clone(&shared));
        assert_eq!(Rc::strong_count(&shared), 1, "the batch left together");
        assert!(batch.is_empty());
    }
}
