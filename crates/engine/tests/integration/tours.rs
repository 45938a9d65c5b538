//! Guided tours (issue 19): every step of every tour runs headless, reaches its condition within
//! its limit, points at a part the page has, and shows the answer its question declares.

use flywheel_engine::tour::{self, run_step, TOUR_IDS};

#[test]
fn every_step_of_every_tour_reaches_its_condition_and_shows_its_declared_answer() {
    for id in TOUR_IDS {
        let t = tour::load(id).unwrap_or_else(|e| panic!("tour {id}: {e}"));
        assert_eq!(t.id, *id);
        for (i, step) in t.steps.iter().enumerate() {
            let (_, outcome) = run_step(step).unwrap_or_else(|e| panic!("tour {id} step {i}: {e}"));
            let kinds: Vec<_> = outcome.markers.iter().map(|m| m.kind.as_str()).collect();
            assert!(
                outcome.reached_at.is_some(),
                "tour {id} step {i}: its condition never held (verdict {}, markers {kinds:?})",
                outcome.verdict
            );
            if let Some(q) = &step.question {
                for (c, choice) in q.choices.iter().enumerate() {
                    assert_eq!(
                        outcome.shows(&choice.shows),
                        c == q.answer,
                        "tour {id} step {i} choice {c} ({}): verdict {}, markers {kinds:?}",
                        choice.shows,
                        outcome.verdict
                    );
                }
            }
        }
    }
}

#[test]
fn a_tour_with_an_unknown_part_setting_marker_or_missing_language_is_refused_by_field() {
    let good = tour::text("flywheel").expect("tour");
    let cases = [
        (
            "point = \"pipeline.loop\"",
            "point = \"pipeline.nowhere\"",
            "steps[0].point",
        ),
        (
            "until = { marker = \"first-self-triggered\" }",
            "until = { marker = \"first-panic\" }",
            "steps[0].until.marker",
        ),
        (
            "preset = \"subresource-only\"\nseek",
            "preset = \"subresource-only\"\nset = { \"controller.wokers\" = \"2\" }\nseek",
            "steps[2].set.controller.wokers",
        ),
        ("zh = \"死亡飞轮及其四种修复\"", "zh = \"\"", "title.zh"),
        ("answer = 1\n", "answer = 7\n", "steps[1].question.answer"),
    ];
    for (from, to, field) in cases {
        assert!(good.contains(from), "{from}");
        let bad = good.replacen(from, to, 1);
        let err = tour::parse(&bad).expect_err(field);
        assert_eq!(err.field, field, "{err:?}");
    }
    let err = tour::parse(&good.replacen("point =", "pointer =", 1)).expect_err("unknown field");
    assert!(err.message.contains("pointer"), "{err:?}");
}
