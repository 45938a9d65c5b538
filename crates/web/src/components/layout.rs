//! The page's layout: full (sidebar, pipeline, charts, panels) or compact for iframes.

use yew::prelude::*;

use super::charts::Charts;
use super::controls::Controls;
use super::dialogs::HelpOverlay;
use super::embed_caption::embed_caption;
use super::embed_dialog::EmbedDialog;
use super::header::Header;
use super::pipelines::Pipelines;
use super::presenter::presenter_overlay;
use super::scenario::ScenarioPanel;
use super::size_panel::SizePanel;
use super::tabs::tabs;
use super::timeline::Timeline;
use super::tour::TourPlayer;
use crate::ctx::Ctx;
use crate::i18n::Msg;
use crate::web;

/// The widths at which the page is laid out for a phone (the settings fold).
pub const NARROW: &str = "(max-width: 700px)";

/// The whole page.
pub fn layout(ctx: &Ctx) -> Html {
    let s = &ctx.state;
    let lang = s.lang;
    if s.url.embed {
        return html! {
            <div class={classes!("app", "embed", s.url.compare.is_some().then_some("ab"))}>
                { embed_caption(ctx) }
                <Controls />
                <Timeline />
                <Pipelines />
                <Charts />
                if s.url.tab.is_some() { { tabs(ctx) } }
                if s.help { <HelpOverlay /> }
            </div>
        };
    }
    html! {
        <div class={classes!("app", s.presenter.then_some("presenter"), s.tour.is_some().then_some("touring"))}>
            <a class="skip" href="#pipelines">{ Msg::SkipToContent.text(lang) }</a>
            <Header />
            <div class="workspace">
                <aside class="sidebar" aria-label={Msg::Scenario.text(lang)}>
                    if web::prefers(NARROW) {
                        // at phone width the settings fold under the pipeline
                        <details id="settings" class="settings">
                            <summary>{ Msg::Settings.text(lang) }</summary>
                            <ScenarioPanel />
                        </details>
                    } else {
                        <ScenarioPanel />
                    }
                    <super::later::Later><SizePanel /></super::later::Later>
                </aside>
                <main class="main">
                    <Controls />
                    <Pipelines />
                    <super::command_bar::CommandBar />
                    <super::why::WhyPanel />
                    <div class="below">
                        { tabs(ctx) }
                        <Charts />
                    </div>
                </main>
            </div>
            <footer class="footer">
                { format!("Flywheel {} · ", crate::version()) }
                <span>{ Msg::Footer.text(lang) }</span>
            </footer>
            if s.help { <HelpOverlay /> }
            if s.embed_dialog { <EmbedDialog /> }
            <TourPlayer />
            { presenter_overlay(ctx) }
        </div>
    }
}
