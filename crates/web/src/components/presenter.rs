//! Presenter mode, for a projector: one key (`P`) or the button enlarges the text and the
//! pipeline, hides the side panels and uses a high-contrast theme (`.presenter` in
//! `www/style.css`). The keyboard keeps control: → / ← / PageDown / PageUp / `.` step the tour,
//! `B` blanks the screen, `F` goes full screen. Nothing moves unless playing.

use yew::prelude::*;

use crate::ctx::{Ctx, LoopState};
use crate::i18n::Msg;
use crate::state::Action;
use crate::tour::TourAction;

/// What a key does in presenter mode or while a tour is open.
#[derive(Clone, Debug, PartialEq)]
pub enum PresenterKey {
    /// A change of the page's state.
    Act(Action),
    /// Enter or leave full screen.
    FullScreen,
}

impl PresenterKey {
    /// Does it.
    pub fn act(self, ctx: &Ctx) {
        match self {
            PresenterKey::Act(a) => ctx.dispatch(a),
            PresenterKey::FullScreen => toggle_full_screen(),
        }
    }
}

/// The meaning of `key` for presenter mode and the tour; `None` leaves it to the page (the
/// timeline keeps ← and → when no tour is open).
pub fn key_of(state: &LoopState, key: &str) -> Option<PresenterKey> {
    let tour = |a| Some(PresenterKey::Act(Action::Tour(a)));
    let touring = state.touring;
    match key {
        "p" | "P" => Some(PresenterKey::Act(Action::TogglePresenter)),
        "b" | "B" if state.presenter => Some(PresenterKey::Act(Action::ToggleBlank)),
        "f" | "F" if state.presenter => Some(PresenterKey::FullScreen),
        "ArrowRight" | "Right" | "PageDown" | "." if touring => tour(TourAction::Next),
        "ArrowLeft" | "Left" | "PageUp" if touring => tour(TourAction::Back),
        "Escape" if touring => tour(TourAction::Close),
        _ => None,
    }
}

/// Enters full screen, or leaves it.
pub fn toggle_full_screen() {
    let doc = gloo::utils::document();
    if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    } else if let Some(root) = doc.document_element() {
        let _ = root.request_fullscreen();
    }
}

/// The button that enters or leaves presenter mode.
pub fn presenter_button(ctx: &Ctx) -> Html {
    let lang = ctx.state.lang;
    let toggle = {
        let ctx = ctx.clone();
        Callback::from(move |_: MouseEvent| ctx.dispatch(Action::TogglePresenter))
    };
    html! {
        <button id="presenter-button" aria-keyshortcuts="p" aria-pressed={ctx.state.presenter.to_string()}
            title={Msg::PresenterHint.text(lang)} onclick={toggle}>{ Msg::Presenter.text(lang) }</button>
    }
}

/// The blank screen (`B`), and the keys' hint along the bottom in presenter mode.
pub fn presenter_overlay(ctx: &Ctx) -> Html {
    let s = &ctx.state;
    if !s.presenter {
        return Html::default();
    }
    html! {
        <>
            <p id="presenter-hint" class="presenter-hint">{ Msg::PresenterHint.text(s.lang) }</p>
            if s.blank {
                <div id="blank" class="blank" role="status">
                    <span class="visually-hidden">{ Msg::Blanked.text(s.lang) }</span>
                </div>
            }
        </>
    }
}
