//! The "why did this run?" panel in words, English and 简体中文: each hop of a chain and each
//! change of a fix. Kubernetes names (Reconcile, rv, MODIFIED, GenerationChangedPredicate) stay
//! as the API spells them in both languages.

use flywheel_engine::cluster::loop_report::LoopCut;
use flywheel_engine::cluster::why::Link;
use flywheel_engine::sim::CauseNote;

use crate::i18n::{Lang, Msg};
use crate::why_view::Hop;

/// A hop of a chain in words.
pub fn hop_text(hop: &Hop, lang: Lang) -> String {
    let t = |m: Msg| m.text(lang);
    match &hop.link {
        Link::Reconcile { key, .. } => t(Msg::HopReconcile).replace("{}", key.as_ref()),
        Link::Write {
            verb,
            rv,
            own,
            generation,
            ..
        } => {
            let m = if *own {
                Msg::HopOwnWrite
            } else {
                Msg::HopWrite
            };
            let mut s = t(m)
                .replace("{rv}", &rv.to_string())
                .replace("{verb}", verb.as_str());
            if let Some((a, b)) = generation {
                s += &t(Msg::HopGeneration)
                    .replace("{a}", &a.to_string())
                    .replace("{b}", &b.to_string());
            }
            s
        }
        Link::Watch { event_type, .. } => t(Msg::HopWatch).replace("{}", event_type.as_str()),
        Link::Pop { note, .. } if *note == CauseNote::Sync => t(Msg::HopSync).to_owned(),
        Link::Pop { note, .. } if *note == CauseNote::Relist => t(Msg::HopRelist).to_owned(),
        Link::Pop { deltas, .. } => t(Msg::HopDelta).replace("{}", &deltas.to_string()),
        Link::Enqueue { predicates, .. } if predicates.is_empty() => {
            t(Msg::HopNoPredicate).to_owned()
        }
        Link::Enqueue { predicates, .. } => {
            t(Msg::HopAdmitted).replace("{}", &predicates.join(", "))
        }
        Link::Requeue { result, .. } => t(Msg::HopRequeue).replace("{}", result),
        Link::UserAction { action, .. } => format!("kubectl {action:?}"),
        Link::Created { .. } => t(Msg::HopCreated).to_owned(),
        Link::List { .. } => t(Msg::HopList).to_owned(),
        Link::Other { what, .. } => format!("{} {}", what.0, what.1),
        Link::FellOut { .. } => t(Msg::HopFellOut).to_owned(),
    }
}

/// A change a fix makes, in words.
pub fn cut_text(cut: LoopCut, lang: Lang) -> &'static str {
    match cut {
        LoopCut::GenerationChangedPredicate => Msg::CutPredicate,
        LoopCut::StatusSubresource => Msg::CutStatus,
        LoopCut::ObservedGenerationGuard => Msg::CutGuard,
        LoopCut::NoRequeue => Msg::CutNoRequeue,
        LoopCut::IdempotentStatus => Msg::CutIdempotent,
    }
    .text(lang)
}

/// A fix (a set of changes, all needed) in words.
pub fn fix_text(changes: &[LoopCut], lang: Lang) -> String {
    changes
        .iter()
        .map(|c| cut_text(*c, lang))
        .collect::<Vec<_>>()
        .join(Msg::CutAnd.text(lang))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fix_of_two_changes_names_both_in_either_language() {
        let fix = [
            LoopCut::StatusSubresource,
            LoopCut::GenerationChangedPredicate,
        ];
        let en = fix_text(&fix, Lang::En);
        assert!(
            en.contains("/status") && en.contains("GenerationChangedPredicate"),
            "{en}"
        );
        let zh = fix_text(&fix, Lang::Zh);
        assert!(zh.contains("子资源"), "{zh}");
    }
}
