//! The "why did this run?" panel: the chain of causes of a clicked Reconcile — one ordered list
//! per add the workqueue merged into it, each hop with its time — whether it is self-triggered,
//! and the fixes that would cut its loop; for another event, what it caused forward.

use flywheel_engine::float_text::{fixed, Fixed};
use yew::prelude::*;

use super::use_ctx;
use crate::i18n::{Lang, Msg};
use crate::state::Action;
use crate::why_state::WhyAction;
use crate::why_view::{Direction, Hop, WhyView};
use crate::why_words::{fix_text, hop_text};

fn hop_item(hop: &Hop, lang: Lang) -> Html {
    let at = hop
        .at_s
        .map_or(String::new(), |t| format!("{} s", Fixed(t, 3)));
    let own = matches!(
        hop.link,
        flywheel_engine::cluster::why::Link::Write { own: true, .. }
    );
    html! {
        <li class={classes!("hop", own.then_some("own"))} data-event={hop.id.to_string()}>
            <span class="hop-at">{ at }</span>
            <span class="hop-what">{ hop_text(hop, lang) }</span>
            if !hop.key.is_empty() { <span class="hop-key">{ hop.key.clone() }</span> }
        </li>
    }
}

fn heading(v: &WhyView, lang: Lang) -> String {
    let at = fixed(v.at_s, 3);
    match v.direction {
        Direction::Causes => Msg::WhyOf
            .text(lang)
            .replace("{key}", &v.key)
            .replace("{at}", &at),
        Direction::Effects => {
            let what = v.chains.first().and_then(|c| c.first());
            let what = what.map(|h| hop_text(h, lang)).unwrap_or_default();
            Msg::WhyEffectsOf
                .text(lang)
                .replace("{what}", &what)
                .replace("{at}", &at)
        }
    }
}

fn verdict(v: &WhyView, lang: Lang) -> Html {
    if v.direction == Direction::Effects {
        return html! {};
    }
    let said = if v.self_triggered {
        Msg::WhySelf
    } else {
        Msg::WhyNotSelf
    };
    let fixes = v
        .fixes
        .iter()
        .map(|f| html! { <li>{ fix_text(f, lang) }</li> });
    html! {
        <>
            <p id="why-verdict" class={classes!("why-verdict", v.self_triggered.then_some("self"))}>
                { said.text(lang) }
            </p>
            if v.delayed { <p class="muted small">{ Msg::WhyDelayed.text(lang) }</p> }
            if let Some(p) = v.period_s {
                <p class="small">{ Msg::WhyPeriod.text(lang).replace("{}", &fixed(p, 3)) }</p>
            }
            if !v.fixes.is_empty() {
                <p class="small">{ Msg::WhyFixes.text(lang) }</p>
                <ul id="why-fixes" class="why-fixes">{ for fixes }</ul>
            }
        </>
    }
}

/// The panel (shown while the state holds a view).
#[function_component(WhyPanel)]
pub fn why_panel() -> Html {
    crate::renders::count("WhyPanel");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let section = use_node_ref();
    {
        // the panel takes the focus when it opens on an event, so a keyboard user is in it
        let section = section.clone();
        let shown = ctx.state.why.view.as_ref().map(|v| v.id);
        use_effect_with(shown, move |shown| {
            if shown.is_some() {
                if let Some(el) = section.cast::<web_sys::HtmlElement>() {
                    let _ = el.focus();
                }
            }
        });
    }
    let Some(v) = ctx.state.why.view.clone() else {
        return html! {};
    };
    let close = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::Why(WhyAction::Show(None))))
    };
    let title = match v.direction {
        Direction::Causes => Msg::WhyTitle,
        Direction::Effects => Msg::WhyEffects,
    };
    let many = v.chains.len() > 1;
    let chains = v.chains.iter().enumerate().map(|(i, chain)| {
        html! {
            <li class="why-chain">
                if many { <span class="small muted">{ Msg::WhyChain.text(lang).replace("{}", &(i + 1).to_string()) }</span> }
                <ol class="hops">{ for chain.iter().map(|h| hop_item(h, lang)) }</ol>
            </li>
        }
    });
    html! {
        <section id="why" ref={section} class="why" tabindex="-1" aria-labelledby="why-title">
            <header class="why-head">
                <h2 id="why-title">{ title.text(lang) }</h2>
                <button id="why-close" onclick={close}>{ Msg::WhyClose.text(lang) }</button>
            </header>
            <div class="why-body">
                <div class="why-causes">
                    <p class="why-of">{ heading(&v, lang) }</p>
                    if v.direction == Direction::Causes && many {
                        <p class="small">{ Msg::WhyAdds.text(lang).replace("{}", &v.chains.len().to_string()) }</p>
                    }
                    <ol id="why-chains" class="why-chains">{ for chains }</ol>
                </div>
                <div class="why-said">{ verdict(&v, lang) }</div>
            </div>
        </section>
    }
}
