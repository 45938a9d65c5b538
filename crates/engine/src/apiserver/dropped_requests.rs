//! The `Retry-After` that API Priority and Fairness puts on its 429s, from apiserver
//! `pkg/util/flowcontrol/dropped_requests_tracker.go`.
//!
//! Drops are counted per whole second. When the first drop of a new second arrives, the previous
//! second's count joins the history and `retryAfter` is reconsidered: if the drops of the last
//! `retryAfter` seconds (the new second excluded) are at least `3·retryAfter` and `retryAfter`
//! seconds passed since the last raise, it doubles (cap 32 s); else if they are fewer than
//! `retryAfter`, it shrinks by one. Nothing changes between drops.

use crate::time::SimTime;

/// Cap of the suggested retry (`maxRetryAfter`).
pub const MAX_RETRY_AFTER_S: u64 = 32;

/// One priority level's drop statistics (`droppedRequestsStats`).
#[derive(Clone, Debug)]
pub struct DroppedRequestsTracker {
    /// `(second, drops)` of completed seconds, oldest first.
    history: Vec<(u64, u64)>,
    /// The second currently being counted; `None` before the first drop (upstream starts at Unix
    /// second 0, which a real clock never reads but virtual time does).
    current_second: Option<u64>,
    current_count: u64,
    retry_after_s: u64,
    /// Second of the last raise; `None` = never (upstream: 0).
    retry_after_update_second: Option<u64>,
}

impl Default for DroppedRequestsTracker {
    fn default() -> Self {
        DroppedRequestsTracker::new()
    }
}

impl DroppedRequestsTracker {
    /// A tracker suggesting 1 s.
    pub fn new() -> DroppedRequestsTracker {
        DroppedRequestsTracker {
            history: Vec::new(),
            current_second: None,
            current_count: 0,
            retry_after_s: 1,
            retry_after_update_second: None,
        }
    }

    /// The current suggestion, in whole seconds (`GetRetryAfter`).
    pub fn retry_after_s(&self) -> u64 {
        self.retry_after_s
    }

    /// Records one rejected request at `now` (`RecordDroppedRequest`).
    pub fn record_dropped_request(&mut self, now: SimTime) {
        let second = now.as_nanos() / 1_000_000_000;
        if self.current_second == Some(second) {
            self.current_count += 1;
            return;
        }
        if let Some(previous) = self.current_second {
            self.update_history(previous, self.current_count);
        }
        self.current_second = Some(second);
        self.current_count = 1;
        self.update_retry_after(second);
    }

    /// Appends a finished second and forgets seconds older than `min(2·retryAfter, 32)`.
    fn update_history(&mut self, second: u64, count: u64) {
        self.history.push((second, count));
        let max_history = (2 * self.retry_after_s).min(MAX_RETRY_AFTER_S);
        let keep_from = self
            .history
            .iter()
            .position(|&(s, _)| second.saturating_sub(s) <= max_history)
            .unwrap_or(self.history.len());
        self.history.drain(..keep_from);
    }

    fn update_retry_after(&mut self, second: u64) {
        let retry_after = self.retry_after_s;
        let dropped: u64 = self
            .history
            .iter()
            .rev()
            .take_while(|&&(s, _)| second.saturating_sub(s) <= retry_after)
            .filter(|&&(s, _)| s < second)
            .map(|&(_, n)| n)
            .sum();
        let since_raise_ok = self
            .retry_after_update_second
            .is_none_or(|last| second.saturating_sub(last) >= retry_after);
        if since_raise_ok && dropped >= 3 * retry_after {
            self.retry_after_s = (retry_after * 2).min(MAX_RETRY_AFTER_S);
            self.retry_after_update_second = Some(second);
        } else if dropped < retry_after && retry_after > 1 {
            self.retry_after_s = retry_after - 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mirrors dropped_requests_tracker_test.go TestDroppedRequestsTracker, step for step.
    #[test]
    fn retry_after_follows_the_upstream_table_of_drops_per_second() {
        let steps: [(u64, u64, u64); 11] = [
            (0, 5, 1),
            (1, 11, 2),
            (2, 1, 2),
            (3, 11, 4),
            (4, 1, 4),
            (7, 1, 8),
            (11, 1, 8),
            (15, 1, 7),
            (17, 1, 6),
            (21, 14, 5),
            (22, 1, 10),
        ];
        let mut t = DroppedRequestsTracker::new();
        for (second, drops, expected) in steps {
            for _ in 0..drops {
                t.record_dropped_request(SimTime::from_millis(second * 1000 + 250));
            }
            assert_eq!(t.retry_after_s(), expected, "at second {second}");
        }
    }

    #[test]
    fn retry_after_never_exceeds_thirty_two_seconds() {
        let mut t = DroppedRequestsTracker::new();
        for second in 0..400 {
            for _ in 0..200 {
                t.record_dropped_request(SimTime::from_millis(second * 1000));
            }
        }
        assert_eq!(t.retry_after_s(), MAX_RETRY_AFTER_S);
    }
}
