//! The speed the page really achieves: simulated seconds per wall second, smoothed over about a
//! second. The speed slider asks for a speed; a large scenario may not reach it, because each
//! frame gives the engine a budget and the engine simulates every object. The control bar
//! shows the achieved speed when it falls short, so the clock never claims a speed it is not
//! running at.
//!
//! The budget itself depends on whether the runs keep up: a run that reaches each frame's instant
//! gets [`FRAME_BUDGET_MS`] of a 60 Hz frame; one that fell short in the frame before gets
//! [`CATCH_UP_BUDGET_MS`], so it draws every other display frame and the engine has about three
//! quarters of the main thread instead of half (BENCHMARKS.md, "The incident in the page"). While
//! the rest of a frame is heavy (the page's first renders, its canvases' first uploads), the
//! catch-up budget shrinks so that the frame's task stays within [`FRAME_TASK_TARGET_MS`]. An
//! embed keeps the 60 Hz budget: a documentation page's embeds share one main thread.

/// How long the smoothing remembers, in wall milliseconds.
pub const SMOOTHING_MS: f64 = 1000.0;
/// How long the pace must have been measured before it is shown, in wall milliseconds.
pub const MEASURED_MS: f64 = 1000.0;
/// The achieved speed is shown when it is below this share of the requested one.
pub const SHORT_SHARE: f64 = 0.9;
/// Wall-clock ms the simulation may use in an animation frame while the runs keep up.
pub const FRAME_BUDGET_MS: f64 = 9.0;
/// Wall-clock ms the simulation may use in a frame after one that ended short of the clock's
/// instant: two display frames (33.3 ms) less the page's drawing and the browser's own part
/// (style, paint, the canvases), so the page draws at 30 Hz while it cannot keep up, and no task
/// comes near 50 ms.
pub const CATCH_UP_BUDGET_MS: f64 = 24.0;
/// The longest a catch-up frame's task should take, the engine, the page's drawing and the
/// browser's commit together: a margin under the 50 ms that makes a long task.
pub const FRAME_TASK_TARGET_MS: f64 = 44.0;

/// The achieved simulated time per wall time at one requested speed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Pace {
    requested: f64,
    rate: f64,
    measured_ms: f64,
    behind: bool,
    /// The engine's wall ms in the last frame.
    engine_ms: f64,
    /// Of the wall time between the last two frames, what the engine did not use: the page's
    /// drawing, the browser's commit and other tasks (and idle time, when there was some).
    others_ms: f64,
}

impl Pace {
    /// Records one frame: the simulation advanced `sim_s` seconds in `wall_ms` of wall time, asked
    /// to run at `requested`×. A new requested speed starts a new measurement.
    pub fn record(&mut self, requested: f64, sim_s: f64, wall_ms: f64) {
        if requested != self.requested {
            *self = Pace {
                requested,
                ..Pace::default()
            };
        }
        if wall_ms <= 0.0 {
            return;
        }
        let rate = sim_s / (wall_ms / 1000.0);
        self.rate = if self.measured_ms == 0.0 {
            rate
        } else {
            let weight = (wall_ms / SMOOTHING_MS).min(1.0);
            self.rate + (rate - self.rate) * weight
        };
        self.measured_ms += wall_ms;
    }

    /// Starts a frame that comes `wall_ms` after the last one: what the last frame's engine did
    /// not use of that time went to the rest of the frame.
    pub fn begin_frame(&mut self, wall_ms: f64) {
        self.others_ms = (wall_ms - self.engine_ms).max(0.0);
    }

    /// Records whether the frame reached the clock's instant before its budget ran out, and how
    /// long its engine ran.
    pub fn record_reached(&mut self, reached: bool, engine_ms: f64) {
        self.behind = !reached;
        self.engine_ms = engine_ms;
    }

    /// The engine's budget for this frame: after a frame that ended short of its instant, what
    /// [`FRAME_TASK_TARGET_MS`] leaves beside the rest of the last frame, at least
    /// [`FRAME_BUDGET_MS`] and at most [`CATCH_UP_BUDGET_MS`]; else [`FRAME_BUDGET_MS`]. An embed
    /// always gets [`FRAME_BUDGET_MS`]: the embeds of one documentation page share its main
    /// thread and draw in the same task, so two catch-up budgets would make one long task.
    pub fn budget_ms(&self, embed: bool) -> f64 {
        if self.behind && !embed {
            (FRAME_TASK_TARGET_MS - self.others_ms).clamp(FRAME_BUDGET_MS, CATCH_UP_BUDGET_MS)
        } else {
            FRAME_BUDGET_MS
        }
    }

    /// Forgets the measurement (the run paused, finished or was rebuilt).
    pub fn reset(&mut self) {
        *self = Pace::default();
    }

    /// The achieved speed, when it has been measured for a second and falls short of the
    /// requested one.
    pub fn short_of_requested(&self) -> Option<f64> {
        let short = self.rate < SHORT_SHARE * self.requested;
        (self.measured_ms >= MEASURED_MS && short).then_some(self.rate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `frames` frames of 16 ms, each advancing the simulation by `sim_per_frame` seconds.
    fn run(pace: &mut Pace, requested: f64, frames: usize, sim_per_frame: f64) {
        for _ in 0..frames {
            pace.record(requested, sim_per_frame, 16.0);
        }
    }

    #[test]
    fn a_run_that_keeps_up_shows_no_achieved_speed() {
        let mut p = Pace::default();
        run(&mut p, 100.0, 120, 1.6);
        assert_eq!(p.short_of_requested(), None);
    }

    #[test]
    fn a_run_that_falls_short_shows_what_it_achieves_after_a_second() {
        let mut p = Pace::default();
        run(&mut p, 10_000.0, 30, 0.256);
        assert_eq!(
            p.short_of_requested(),
            None,
            "measured for less than a second"
        );
        run(&mut p, 10_000.0, 60, 0.256);
        let achieved = p.short_of_requested().expect("short");
        assert!((achieved - 16.0).abs() < 1e-9, "{achieved}");
    }

    #[test]
    fn a_new_requested_speed_starts_a_new_measurement() {
        let mut p = Pace::default();
        run(&mut p, 10_000.0, 120, 0.256);
        assert!(p.short_of_requested().is_some());
        run(&mut p, 10.0, 1, 0.16);
        assert_eq!(p.short_of_requested(), None);
    }

    #[test]
    fn a_run_that_keeps_up_gets_a_sixty_hertz_frames_budget() {
        let mut p = Pace::default();
        assert_eq!(p.budget_ms(false), FRAME_BUDGET_MS, "before any frame");
        p.record_reached(true, 9.0);
        assert_eq!(p.budget_ms(false), FRAME_BUDGET_MS);
    }

    #[test]
    fn a_frame_that_ends_short_of_its_instant_gives_the_next_the_catch_up_budget() {
        let mut p = Pace::default();
        p.record_reached(false, 9.0);
        assert_eq!(p.budget_ms(false), CATCH_UP_BUDGET_MS);
        p.record_reached(true, 9.0);
        assert_eq!(
            p.budget_ms(false),
            FRAME_BUDGET_MS,
            "caught up: back to 60 Hz"
        );
        p.record_reached(false, 9.0);
        p.reset();
        assert_eq!(
            p.budget_ms(false),
            FRAME_BUDGET_MS,
            "paused: the next play starts at 60 Hz"
        );
    }

    #[test]
    fn a_heavy_rest_of_the_frame_shrinks_the_catch_up_budget_to_keep_the_task_short() {
        let mut p = Pace::default();
        // at 30 Hz with light drawing: 24 ms of engine, 9.3 ms for the rest
        p.record_reached(false, CATCH_UP_BUDGET_MS);
        p.begin_frame(33.3);
        assert_eq!(p.budget_ms(false), CATCH_UP_BUDGET_MS);
        // the first renders and uploads: 33 ms beside the engine's 24
        p.record_reached(false, CATCH_UP_BUDGET_MS);
        p.begin_frame(57.0);
        let budget = p.budget_ms(false);
        assert!(
            (budget - (FRAME_TASK_TARGET_MS - 33.0)).abs() < 1e-9,
            "{budget}"
        );
        // a stall of the whole page: never below the 60 Hz budget
        p.record_reached(false, budget);
        p.begin_frame(500.0);
        assert_eq!(p.budget_ms(false), FRAME_BUDGET_MS);
    }

    #[test]
    fn an_embed_keeps_the_sixty_hertz_budget_when_it_falls_behind() {
        let mut p = Pace::default();
        p.record_reached(false, 9.0);
        assert_eq!(p.budget_ms(true), FRAME_BUDGET_MS);
        assert_eq!(p.budget_ms(false), CATCH_UP_BUDGET_MS);
    }

    #[test]
    fn the_smoothing_follows_a_change_within_a_few_seconds() {
        let mut p = Pace::default();
        run(&mut p, 10_000.0, 120, 0.256);
        // the engine gets slower (a relist): 8× instead of 16×
        run(&mut p, 10_000.0, 4 * 63, 0.128);
        let achieved = p.short_of_requested().expect("short");
        assert!((achieved - 8.0).abs() < 0.2, "{achieved}");
    }
}
