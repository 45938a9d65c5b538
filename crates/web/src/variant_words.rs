//! A variant (the fixes) in words, for captions: `r.Update, no /status` or
//! `/status + Status().Patch + predicate + guard`.

use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::scenario::variant::Variant;

use crate::i18n::Lang;

/// The fixes of `v` in a few words.
pub fn variant_words(v: &Variant, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let verb = match v.write {
        WriteVerb::Update => "r.Update",
        WriteVerb::StatusUpdate => "r.Status().Update",
        WriteVerb::StatusPatch => "r.Status().Patch",
        WriteVerb::Patch => "r.Patch",
    };
    let mut s = if v.status_subresource {
        format!("/status + {}", verb.trim_start_matches("r."))
    } else if zh {
        format!("{verb}，无 /status")
    } else {
        format!("{verb}, no /status")
    };
    if v.generation_predicate {
        s.push_str(" + predicate");
    }
    if v.observed_generation_guard {
        s.push_str(if zh { " + 守卫" } else { " + guard" });
    }
    if !v.timestamp {
        s.push_str(if zh {
            "，无时间戳"
        } else {
            ", no timestamp"
        });
    }
    s
}

/// A side's caption: `A: r.Update, no /status`.
pub fn side_caption(side: &str, v: &Variant, lang: Lang) -> String {
    let colon = if lang == Lang::Zh { "：" } else { ": " };
    format!("{side}{colon}{}", variant_words(v, lang))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;

    #[test]
    fn the_seed_and_the_fix_read_as_the_issue_names_them() {
        let broken = RunConfig::preset("flywheel").variant;
        assert_eq!(
            side_caption("A", &broken, Lang::En),
            "A: r.Update, no /status"
        );
        let fixed = RunConfig::preset("fixed").variant;
        assert_eq!(
            side_caption("B", &fixed, Lang::En),
            "B: /status + Status().Patch + predicate + guard"
        );
        assert_eq!(
            side_caption("B", &fixed, Lang::Zh),
            "B：/status + Status().Patch + predicate + 守卫"
        );
        let idempotent = RunConfig::preset("idempotent-status").variant;
        assert!(variant_words(&idempotent, Lang::En).ends_with(", no timestamp"));
    }
}
