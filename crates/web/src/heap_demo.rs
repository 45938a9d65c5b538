//! A small Go-heap sawtooth used by the foundation page: a live heap that allocates at a steady
//! rate and is collected whenever it reaches the GC goal `live + live · GOGC/100` (never below
//! 4 MiB), as the Go GC guide describes (golang/website `_content/doc/gc-guide.html`).

/// The heap minimum below which the GC goal is never set (4 MiB at GOGC=100).
pub const HEAP_MINIMUM_BYTES: f64 = 4.0 * 1024.0 * 1024.0;

/// Allowed GOGC values on the page's slider.
pub const GOGC_RANGE: std::ops::RangeInclusive<u32> = 25..=400;

/// Heap state sampled once per tick.
#[derive(Clone, Debug, PartialEq)]
pub struct HeapDemo {
    /// GOGC in percent.
    pub gogc: u32,
    /// Bytes that survive each collection.
    pub live_bytes: f64,
    /// Bytes allocated per tick.
    pub alloc_bytes_per_tick: f64,
    /// The heap right now (live plus garbage).
    pub heap_bytes: f64,
    /// Collections so far.
    pub gc_count: u64,
    /// `(tick, heap MiB)` samples, newest last, at most [`HeapDemo::MAX_POINTS`].
    pub series: Vec<(f64, f64)>,
    tick: u64,
}

impl HeapDemo {
    /// Number of samples kept for the chart.
    pub const MAX_POINTS: usize = 300;

    /// A heap with 8 MiB live data allocating 1 MiB per tick.
    pub fn new(gogc: u32) -> HeapDemo {
        let live_bytes = 8.0 * 1024.0 * 1024.0;
        HeapDemo {
            gogc: gogc.clamp(*GOGC_RANGE.start(), *GOGC_RANGE.end()),
            live_bytes,
            alloc_bytes_per_tick: 1024.0 * 1024.0,
            heap_bytes: live_bytes,
            gc_count: 0,
            series: Vec::new(),
            tick: 0,
        }
    }

    /// The heap size at which the next collection starts.
    pub fn goal_bytes(&self) -> f64 {
        (self.live_bytes * (1.0 + f64::from(self.gogc) / 100.0)).max(HEAP_MINIMUM_BYTES)
    }

    /// Allocates for one tick, collecting when the goal is reached, and records a sample.
    pub fn tick(&mut self) {
        self.tick += 1;
        self.heap_bytes += self.alloc_bytes_per_tick;
        if self.heap_bytes >= self.goal_bytes() {
            self.heap_bytes = self.live_bytes;
            self.gc_count += 1;
        }
        self.series
            .push((self.tick as f64, self.heap_bytes / (1024.0 * 1024.0)));
        if self.series.len() > Self::MAX_POINTS {
            self.series.remove(0);
        }
    }

    /// Changes GOGC (clamped to [`GOGC_RANGE`]).
    pub fn set_gogc(&mut self, gogc: u32) {
        self.gogc = gogc.clamp(*GOGC_RANGE.start(), *GOGC_RANGE.end());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_goal_is_live_heap_plus_gogc_percent_of_it() {
        let h = HeapDemo::new(100);
        assert_eq!(h.goal_bytes(), 16.0 * 1024.0 * 1024.0);
        assert_eq!(HeapDemo::new(50).goal_bytes(), 12.0 * 1024.0 * 1024.0);
    }

    #[test]
    fn the_heap_saws_between_live_and_goal() {
        let mut h = HeapDemo::new(100);
        for _ in 0..40 {
            h.tick();
        }
        assert_eq!(
            h.gc_count, 5,
            "8 MiB of garbage at 1 MiB per tick collects every 8 ticks"
        );
        let max = h.series.iter().map(|p| p.1).fold(0.0, f64::max);
        assert!((15.0..16.0).contains(&max), "max {max}");
    }

    #[test]
    fn a_larger_gogc_collects_less_often() {
        let (mut a, mut b) = (HeapDemo::new(100), HeapDemo::new(200));
        for _ in 0..100 {
            a.tick();
            b.tick();
        }
        assert!(b.gc_count < a.gc_count);
    }

    #[test]
    fn the_series_is_bounded() {
        let mut h = HeapDemo::new(100);
        for _ in 0..(HeapDemo::MAX_POINTS + 50) {
            h.tick();
        }
        assert_eq!(h.series.len(), HeapDemo::MAX_POINTS);
    }
}
