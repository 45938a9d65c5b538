//! Fuzzing the messages between the page and its engine's Worker natively with proptest: any
//! bytes, and real answers and requests cut, flipped or spliced, are read as a message or refused,
//! never a panic; and whatever is read writes back to bytes that read back to the same bytes.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::OnceLock;

use flywheel_web::config::RunConfig;
use flywheel_web::ctx::LoopState;
use flywheel_web::host::{Build, EngineHost, FrameTimes};
use flywheel_web::host_msg::{decode, encode, encode_ask, FromHost, ToHost};
use flywheel_web::runs::Side;
use flywheel_web::stepping::StepTarget;
use proptest::prelude::*;

/// Cases per fuzzer: `FLYWHEEL_FUZZ_CASES` (set by `tests/fuzz.sh`), else CI's quick 1500.
fn cases() -> u32 {
    std::env::var("FLYWHEEL_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1500)
}

/// Real messages as bytes: the flywheel's answers to a build, frames with the inspect panel
/// open, a why, a step and a seek; and the page's requests.
fn samples() -> &'static [Vec<u8>] {
    static SAMPLES: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    SAMPLES.get_or_init(|| {
        let mut host = EngineHost::default();
        let build = ToHost::Build(Box::new(Build {
            config: RunConfig::preset("flywheel"),
            compare: Some(flywheel_engine::scenario::variant::Variant::of(
                &flywheel_engine::scenario::presets::load("fixed", &[]).expect("a preset"),
            )),
            dos: Vec::new(),
            t_s: None,
            tour: None,
        }));
        let mut out = vec![encode_ask(&build, Side::A)];
        out.push(encode(&host.handle(build, Side::A)));
        let ui = LoopState {
            playing: true,
            speed: 100.0,
            inspecting: true,
            ..LoopState::default()
        };
        for i in 1..=30 {
            let ts = f64::from(i) * 16.0;
            let times = FrameTimes {
                ts,
                wall_ms: 16.0,
                dt: 16.0,
                anim_ms: ts,
            };
            let frame = ToHost::Frame(Box::new(ui.clone()), times);
            if i == 30 {
                out.push(encode_ask(&frame, Side::B));
            }
            out.push(encode(&host.handle(frame, Side::A)));
            while host.pump(1000.0) {}
        }
        for ask in [
            ToHost::WhyNow(Side::A, None),
            ToHost::Step(Side::B, StepTarget::Write, 0.0, true),
            ToHost::Seek(1.0),
        ] {
            out.push(encode_ask(&ask, Side::A));
            out.push(encode(&host.handle(ask, Side::A)));
        }
        out
    })
}

/// Reads `bytes` both ways a message is read; whatever reads writes back to bytes that read
/// back and write back the same.
fn read_or_refuse(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Ok(answer) = decode::<FromHost>(bytes) {
        let again = encode(&answer);
        let back = decode::<FromHost>(&again).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(encode(&back), again);
    }
    if let Ok((ask, side)) = decode::<(ToHost, Side)>(bytes) {
        let again = encode_ask(&ask, side);
        let (back, side) =
            decode::<(ToHost, Side)>(&again).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(encode_ask(&back, side), again);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, .. ProptestConfig::default() })]

    #[test]
    fn any_bytes_are_read_as_a_message_or_refused(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        read_or_refuse(&bytes)?;
    }

    #[test]
    fn a_damaged_message_is_read_as_a_message_or_refused(
        pick in any::<prop::sample::Index>(),
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        splice in proptest::option::of((any::<prop::sample::Index>(), any::<prop::sample::Index>(), any::<prop::sample::Index>())),
    ) {
        let all = samples();
        let mut bytes = pick.get(all).clone();
        for (at, value) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *value;
        }
        if let Some((from, start, len)) = splice {
            // a run of another message's bytes put in at a place of this one's
            let other = from.get(all);
            let s = start.index(other.len());
            let piece = &other[s..s + len.index(other.len() - s + 1)];
            let at = start.index(bytes.len() + 1);
            bytes.splice(at..at, piece.iter().copied());
        }
        let keep = cut.index(bytes.len() + 1);
        read_or_refuse(&bytes)?;
        read_or_refuse(&bytes[..keep])?;
    }
}

#[test]
fn every_sample_reads_back_whole_and_no_cut_of_it_does() {
    for bytes in samples() {
        let answer = decode::<FromHost>(bytes).is_ok();
        let ask = decode::<(ToHost, Side)>(bytes).is_ok();
        assert!(answer || ask, "a real message reads back");
        // every cut of a short message, a thousand spread over a long one
        for cut in (0..bytes.len()).step_by((bytes.len() / 1000).max(1)) {
            let part = &bytes[..cut];
            let refused = if answer {
                decode::<FromHost>(part).is_err()
            } else {
                decode::<(ToHost, Side)>(part).is_err()
            };
            assert!(
                refused,
                "a message cut at {cut} of {} bytes is refused",
                bytes.len()
            );
        }
    }
}
