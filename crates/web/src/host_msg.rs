//! The messages between the page and the engine's side when the engine runs in a Web Worker:
//! what the page asks ([`ToHost`]) and what the worker answers ([`FromHost`]), as bytes
//! ([`encode`], [`decode`]: [`crate::wire`]'s form, which keeps every float exactly, infinities
//! included).
//! In the page itself the same calls are made directly ([`crate::host_link`]).
//!
//! ```text
//!  page ──ToHost (Build, Frame, Step, Seek, Why, Intervene, …)──▶ worker: EngineHost
//!       ◀──FromHost { frame: FrameOut?, events, known } ──────────┘
//! ```

use crate::ctx::LoopState;
use crate::host::{Build, EngineHost, FrameOut, FrameTimes, HostEvent, Intervened};
use crate::runs::Side;
use crate::stepping::StepTarget;
use crate::why_state::BranchItem;
use crate::wire::{Reader, Wire, WireError};

/// What the page asks of the engine's side.
#[derive(Clone, Debug)]
pub enum ToHost {
    /// Build the runs anew.
    Build(Box<Build>),
    /// One animation frame, with what the page shows.
    Frame(Box<LoopState>, FrameTimes),
    /// Step the run on a side to a target, reading its events at an animation time (tokens
    /// when motion is on).
    Step(Side, StepTarget, f64, bool),
    /// Seek to an instant (simulated seconds).
    Seek(f64),
    /// Stop the seek under way.
    CancelSeek,
    /// Seek to the newest event before the clock on a side.
    StepBack(Side),
    /// The why panel on an event of a side.
    Why(Side, u64),
    /// The why panel on the Reconcile running at the clock on a side (of a key, when given).
    WhyNow(Side, Option<String>),
    /// An intervention (the engine's `--do` words) asked for with a number, on the side shown,
    /// with the branches the page knows.
    Intervene(u64, Side, String, Vec<BranchItem>),
    /// Put the runs on a branch.
    SwitchBranch(u32),
}

/// What the engine's side keeps the page told of after every answer, so the page can read it
/// at once (the command bar's completion and checks, the clock).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Known {
    /// The shared clock (simulated seconds), once the runs are built.
    pub now_s: Option<f64>,
    /// Whether a seek is under way.
    pub seeking: bool,
    /// The branch A's run is on.
    pub branch: u32,
    /// The first custom resources' keys of the side shown, in key order (at most 64), when they
    /// changed since the last answer (`None`: as last told; the page keeps the last ones).
    pub keys: Option<Vec<String>>,
}

/// What the engine's side answers.
#[derive(Clone, Debug, Default)]
pub struct FromHost {
    /// The frame's views, when the message was a frame.
    pub frame: Option<FrameOut>,
    /// What happened, oldest first.
    pub events: Vec<HostEvent>,
    /// What the page reads at once.
    pub known: Known,
}

impl EngineHost {
    /// Carries out `msg` for the page whose side shown is `side`, and answers.
    pub fn handle(&mut self, msg: ToHost, side: Side) -> FromHost {
        let frame = match msg {
            ToHost::Build(b) => {
                self.build(*b);
                None
            }
            ToHost::Frame(ui, times) => Some(self.frame(&ui, times)),
            ToHost::Step(side, target, anim_ms, motion) => {
                self.step(side, target, anim_ms, motion);
                None
            }
            ToHost::Seek(t_s) => {
                if self.start_seek(t_s) {
                    self.emit(HostEvent::SeekReached);
                }
                None
            }
            ToHost::CancelSeek => {
                self.cancel_seek();
                None
            }
            ToHost::StepBack(side) => {
                if let Some(at) = self.previous_event_s(side) {
                    if self.start_seek(at) {
                        self.emit(HostEvent::SeekReached);
                    }
                }
                None
            }
            ToHost::Why(side, id) => {
                self.why(side, id);
                None
            }
            ToHost::WhyNow(side, key) => {
                self.why_now(side, key.as_deref());
                None
            }
            ToHost::Intervene(asked, side, text, known) => {
                let outcome = match self.missing_object(side, &text) {
                    Some((key, one)) => Intervened::NoSuchObject(key, one),
                    None => self
                        .intervene(&text, &known)
                        .map_or_else(Intervened::Refused, Intervened::Done),
                };
                self.emit(HostEvent::Intervened(asked, outcome));
                None
            }
            ToHost::SwitchBranch(id) => {
                self.switch_branch(id);
                None
            }
        };
        FromHost {
            frame,
            events: self.take_events(),
            known: self.known(side),
        }
    }

    /// What the page reads at once, for the side shown.
    pub fn known(&mut self, side: Side) -> Known {
        let keys = (!self.object_keys_are(side, &self.keys_told)).then(|| {
            let keys = self.object_keys(side);
            self.keys_told.clone_from(&keys);
            keys
        });
        Known {
            now_s: self.now_s(),
            seeking: self.seeking(),
            branch: self.current_branch(),
            keys,
        }
    }
}

/// A message as bytes.
pub fn encode<T: Wire>(msg: &T) -> Vec<u8> {
    let mut out = Vec::new();
    msg.put(&mut out);
    out
}

/// What the page asks, with the side it shows, as bytes: read back as `(ToHost, Side)`.
pub fn encode_ask(msg: &ToHost, side: Side) -> Vec<u8> {
    let mut out = Vec::new();
    msg.put(&mut out);
    side.put(&mut out);
    out
}

/// A message read back from [`encode`]'s bytes.
pub fn decode<T: Wire>(bytes: &[u8]) -> Result<T, WireError> {
    Reader::whole(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::host::Intervened;

    fn build(preset: &str) -> ToHost {
        ToHost::Build(Box::new(Build {
            config: RunConfig::preset(preset),
            compare: None,
            dos: Vec::new(),
            t_s: None,
            tour: None,
        }))
    }

    fn playing() -> LoopState {
        LoopState {
            playing: true,
            speed: 100.0,
            motion: true,
            dirty: true,
            ..LoopState::default()
        }
    }

    fn frame(ts: f64) -> ToHost {
        let times = FrameTimes {
            ts,
            wall_ms: 16.0,
            dt: 16.0,
            anim_ms: ts,
        };
        ToHost::Frame(Box::new(playing()), times)
    }

    /// Plays `frames` frames of 16 ms at 100× on `host` and answers the last.
    fn played(host: &mut EngineHost, frames: u32) -> FromHost {
        host.handle(build("flywheel"), Side::A);
        let mut last = FromHost::default();
        for i in 1..=frames {
            last = host.handle(frame(f64::from(i) * 16.0), Side::A);
            while host.pump(1000.0) {}
        }
        last
    }

    #[test]
    fn a_frames_answer_reads_back_from_its_bytes_as_it_was_sent() {
        let answer = played(&mut EngineHost::default(), 200);
        let frame = answer.frame.as_ref().expect("a frame");
        assert!(!frame.pipes.is_empty() && frame.live.is_some());
        let bytes = encode(&answer);
        let back: FromHost = decode(&bytes).expect("read back");
        assert_eq!(encode(&back), bytes, "nothing lost or changed");
        let back_frame = back.frame.expect("a frame");
        assert_eq!(back_frame.pipes, frame.pipes);
        let (sent, got) = (
            frame.live.as_ref().expect("sent"),
            back_frame.live.expect("read back"),
        );
        assert_eq!(
            (got.now_s, got.lanes.clone()),
            (sent.now_s, sent.lanes.clone())
        );
        assert_eq!(back.known, answer.known);
        // the flashes that never happened are minus infinity, and stay so
        assert_eq!(back_frame.pipes[0].flashes, frame.pipes[0].flashes);
    }

    #[test]
    fn the_inspected_object_reads_back_with_its_spec_and_status() {
        let mut host = EngineHost::default();
        played(&mut host, 100);
        let ui = LoopState {
            inspecting: true,
            ..playing()
        };
        let answer = host.handle(ToHost::Frame(Box::new(ui), FrameTimes::default()), Side::A);
        let live = answer.frame.and_then(|f| f.live).expect("a live view");
        let inspect = live.inspect.clone().expect("the inspect panel's object");
        let object = inspect.yaml.as_ref().expect("an object");
        assert!(
            object.0.iter().any(|l| l.starts_with("spec:")),
            "{:?}",
            object.0
        );
        let back: FromHost = decode(&encode(&FromHost {
            frame: Some(FrameOut {
                live: Some(live.clone()),
                ..FrameOut::default()
            }),
            ..FromHost::default()
        }))
        .expect("read back");
        let got = back
            .frame
            .and_then(|f| f.live)
            .and_then(|l| l.inspect)
            .expect("inspect");
        assert_eq!(got.yaml.as_ref(), Some(object));
        assert_eq!(got.keys, inspect.keys);
    }

    #[test]
    fn every_presets_answers_read_back_from_their_bytes() {
        for preset in flywheel_engine::scenario::presets::names() {
            let mut host = EngineHost::default();
            host.handle(build(preset), Side::A);
            let ui = LoopState {
                inspecting: true,
                speed: 2000.0,
                ..playing()
            };
            let mut answers = Vec::new();
            for i in 1..=20 {
                let times = FrameTimes {
                    ts: f64::from(i) * 16.0,
                    wall_ms: 16.0,
                    dt: 16.0,
                    anim_ms: f64::from(i) * 16.0,
                };
                answers.push(host.handle(ToHost::Frame(Box::new(ui.clone()), times), Side::A));
            }
            answers.push(host.handle(ToHost::WhyNow(Side::A, None), Side::A));
            answers.push(host.handle(ToHost::Step(Side::A, StepTarget::Write, 0.0, true), Side::A));
            answers.push(host.handle(ToHost::Seek(1.0), Side::A));
            for answer in answers {
                let bytes = encode(&answer);
                let back: FromHost = decode(&bytes)
                    .unwrap_or_else(|e| panic!("{preset}: {e} in {:?}", answer.events));
                assert_eq!(encode(&back), bytes, "{preset}");
            }
        }
    }

    #[test]
    fn damaged_bytes_are_refused_without_a_panic() {
        let answer = played(&mut EngineHost::default(), 60);
        let bytes = encode(&answer);
        let step = (bytes.len() / 400).max(1);
        for cut in (0..bytes.len()).step_by(step) {
            assert!(decode::<FromHost>(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for at in (0..bytes.len()).step_by(step) {
            let mut bad = bytes.clone();
            bad[at] ^= 0xff;
            // a flipped byte reads as another answer or is refused; it never panics
            let _ = decode::<FromHost>(&bad);
        }
        let msg = encode(&(frame(16.0), Side::A));
        assert!(decode::<(ToHost, Side)>(&msg[..msg.len() - 1]).is_err());
    }

    #[test]
    fn random_bytes_and_huge_lengths_are_refused_without_a_panic_or_a_huge_allocation() {
        let mut rng = flywheel_engine::sim::Rng::seeded(15);
        for _ in 0..5_000 {
            let len = rng.below(64) as usize;
            let bytes: Vec<u8> = (0..len).map(|_| rng.below(256) as u8).collect();
            // read back as something or refused; never a panic
            let _ = decode::<FromHost>(&bytes);
            let _ = decode::<(ToHost, Side)>(&bytes);
        }
        // a frame whose list of pipelines claims 2^40 of them (a well-formed varint): refused when
        // the bytes run out, without reserving room for them first
        let huge = [1u8, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20];
        assert!(decode::<FromHost>(&huge).is_err());
    }

    #[test]
    fn the_pages_messages_read_back_from_their_bytes() {
        for msg in [build("seed-000-incident"), frame(16.0), ToHost::Seek(12.5)] {
            let bytes = encode(&(msg.clone(), Side::B));
            let (back, side): (ToHost, Side) = decode(&bytes).expect("read back");
            assert_eq!(side, Side::B);
            assert_eq!(encode(&(back, side)), bytes);
        }
    }

    #[test]
    fn a_pumped_hosts_frame_only_reads_the_runs_and_the_pump_takes_them_to_its_deadline() {
        let mut worker = EngineHost::pumped();
        worker.handle(build("flywheel"), Side::A);
        let answer = worker.handle(frame(16.0), Side::A);
        assert_eq!(answer.known.now_s, Some(0.0), "the frame moved nothing");
        assert!(worker.wants_pump());
        while worker.pump(1000.0) {}
        // 16 ms of wall time at 100×: 1.6 simulated seconds
        let now = worker.now_s().expect("built");
        assert!((now - 1.6).abs() < 1e-9, "{now}");
        let mut direct =
            crate::runs::Runs::new(&RunConfig::preset("flywheel"), None).expect("runs");
        direct.advance(flywheel_engine::SimTime::from_secs_f64(1.6), &mut || false);
        let run = |r: &crate::runs::Runs| (r.a.run.events(), r.a.run.snapshot());
        assert_eq!(
            run(worker.runs().expect("built")),
            run(&direct),
            "the same run"
        );
    }

    #[test]
    fn a_seek_stops_the_pump_until_a_frame_says_the_page_paused() {
        let mut worker = EngineHost::pumped();
        played(&mut worker, 100);
        worker.handle(frame(10_000.0), Side::A);
        assert!(worker.wants_pump());
        let answer = worker.handle(ToHost::Seek(0.5), Side::A);
        assert!(answer.events.contains(&HostEvent::Seeked(0.5)));
        assert!(!worker.wants_pump(), "a seek pauses");
        worker.handle(frame(10_016.0), Side::A);
        assert!(
            !worker.wants_pump(),
            "a frame sent before the page heard still says playing"
        );
        let paused = LoopState {
            playing: false,
            ..playing()
        };
        worker.handle(
            ToHost::Frame(Box::new(paused), FrameTimes::default()),
            Side::A,
        );
        worker.handle(frame(10_032.0), Side::A);
        assert!(worker.wants_pump(), "playing again after the page paused");
    }

    #[test]
    fn an_answer_tells_the_keys_again_once_an_object_is_gone_and_not_before() {
        let mut host = EngineHost::default();
        played(&mut host, 10);
        let told = host.keys_told.clone();
        assert!(told.len() > 1, "the flywheel's objects were told");
        assert!(host.object_keys_are(Side::A, &told));
        assert!(!host.object_keys_are(Side::A, &told[1..]));
        assert_eq!(
            host.known(Side::A).keys,
            None,
            "unchanged keys are not told again"
        );
        let gone = told[0].clone();
        let delete = ToHost::Intervene(1, Side::A, format!("delete:{gone}"), Vec::new());
        host.handle(delete, Side::A);
        let keys = (11..=60).find_map(|i| {
            let answer = host.handle(frame(f64::from(i) * 16.0), Side::A);
            while host.pump(1000.0) {}
            answer.known.keys
        });
        assert_eq!(keys.as_deref(), Some(&told[1..]), "the keys without {gone}");
        assert_eq!(host.known(Side::A).keys, None);
    }

    #[test]
    fn an_intervention_answers_the_number_it_was_asked_with() {
        let mut host = EngineHost::default();
        played(&mut host, 60);
        let missing = host.handle(
            ToHost::Intervene(7, Side::A, "delete:ns-0/nope".into(), Vec::new()),
            Side::A,
        );
        assert!(
            matches!(&missing.events[..], [HostEvent::Intervened(7, Intervened::NoSuchObject(k, Some(_)))] if k == "ns-0/nope"),
            "{:?}",
            missing.events
        );
        let done = host.handle(
            ToHost::Intervene(8, Side::A, "kill_operator".into(), Vec::new()),
            Side::A,
        );
        let at = host.now_s().expect("built");
        assert!(
            done.events.iter().any(|e| matches!(e, HostEvent::Intervened(8, Intervened::Done(t)) if (t - at).abs() < 0.001)),
            "{:?}",
            done.events
        );
        assert!(done
            .events
            .iter()
            .any(|e| matches!(e, HostEvent::Branches(..))));
    }
}
