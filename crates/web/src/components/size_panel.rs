//! "Size it": the user's counts for the list-full-scan and incident families, run by the engine
//! ([`crate::size_run`]) a piece at a time between frames with a progress bar and Cancel, then
//! the projected numbers ([`super::size_results`]) and "Open as scenario".

use std::cell::RefCell;
use std::rc::Rc;

use flywheel_engine::sizing::Family;
use gloo::timers::callback::Timeout;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::size_results::size_results;
use super::use_ctx;
use crate::config::RunConfig;
use crate::i18n::Msg;
use crate::size_fields::{field_of, input_of, preset_value, FieldError, FIELDS};
use crate::size_run::{as_config, SizeRun};
use crate::state::Action;
use crate::web;
use flywheel_engine::float_text::shortest;
use flywheel_engine::sizing::SizeReport;

/// Wall time a piece of the run may take before the page draws again (ms).
const PIECE_BUDGET_MS: f64 = 12.0;

/// The family a preset belongs to, if it is one the panel sizes.
pub fn family_of(preset: &str) -> Option<Family> {
    if preset.starts_with("list-full-scan") {
        Some(Family::ListFullScan)
    } else if preset == Family::Incident.preset() {
        Some(Family::Incident)
    } else {
        None
    }
}

/// What the panel shows under its fields.
#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    Running(f64),
    Refused(FieldError),
    Done(Box<SizeReport>, RunConfig),
}

/// Runs pieces of `run` between frames until it is done or `generation` moves on.
fn pump(
    run: Rc<RefCell<SizeRun>>,
    family: Family,
    generation: Rc<RefCell<u32>>,
    mine: u32,
    status: UseStateHandle<Status>,
) {
    Timeout::new(0, move || {
        if *generation.borrow() != mine {
            return;
        }
        let start = web::now_ms();
        let done = run
            .borrow_mut()
            .advance(|| web::now_ms() - start > PIECE_BUDGET_MS);
        if done {
            let r = run.borrow();
            status.set(Status::Done(
                Box::new(r.numbers()),
                as_config(family, r.scenario()),
            ));
        } else {
            status.set(Status::Running(run.borrow().progress()));
            pump(run.clone(), family, generation, mine, status);
        }
    })
    .forget();
}

/// The panel, for the family of the page's preset.
#[function_component(SizePanel)]
pub fn size_panel() -> Html {
    crate::renders::count("SizePanel");
    let ctx = use_ctx();
    let lang = ctx.state.lang;
    let preset = ctx.state.url.config.preset.clone();
    let typed = use_state(|| vec![String::new(); FIELDS.len()]);
    let status = use_state(|| Status::Idle);
    let generation = use_mut_ref(|| 0u32);
    let family = family_of(&preset);
    // the family preset's values, read once per family (building a preset is not free)
    let defaults = use_memo(family, |family| {
        family.map(|f| flywheel_engine::settings::current(&RunConfig::preset(f.preset()).base()))
    });
    let (Some(family), Some(defaults)) = (family, (*defaults).clone()) else {
        return html! {};
    };
    let run = {
        let (typed, status, generation, defaults) = (
            typed.clone(),
            status.clone(),
            generation.clone(),
            defaults.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let value = |path: &str| preset_value(&defaults, path);
            let started = input_of(family, &typed, &value)
                .and_then(|input| SizeRun::start(&input).map_err(|e| field_of(&e)));
            *generation.borrow_mut() += 1;
            match started {
                Err(e) => status.set(Status::Refused(e)),
                Ok(r) => {
                    status.set(Status::Running(0.0));
                    let mine = *generation.borrow();
                    pump(
                        Rc::new(RefCell::new(r)),
                        family,
                        generation.clone(),
                        mine,
                        status.clone(),
                    );
                }
            }
        })
    };
    let cancel = {
        let (status, generation) = (status.clone(), generation.clone());
        Callback::from(move |_: MouseEvent| {
            *generation.borrow_mut() += 1;
            status.set(Status::Idle);
        })
    };
    let refused = match &*status {
        Status::Refused(e) => Some(e.clone()),
        _ => None,
    };
    let fields = FIELDS.iter().enumerate().map(|(i, f)| {
        let on_input = {
            let typed = typed.clone();
            Callback::from(move |e: InputEvent| {
                let el: HtmlInputElement = e.target_unchecked_into();
                let mut t = (*typed).clone();
                t[i] = el.value();
                typed.set(t);
            })
        };
        let error = refused.as_ref().filter(|e| e.id == f.id);
        html! {
            <label for={f.id}>
                <span>{ f.label.text(lang) }</span>
                <input id={f.id} type="text" translate="no" value={typed[i].clone()} placeholder={defaults.get(f.path).cloned().unwrap_or_default()}
                    aria-invalid={error.map(|_| "true")} oninput={on_input} />
                if let Some(e) = error {
                    <small class="refused" role="alert">
                        { e.why.map_or_else(|| e.engine.clone().unwrap_or_default(), |m| m.text(lang).to_owned()) }
                    </small>
                }
            </label>
        }
    });
    let open = |config: RunConfig| {
        let st = ctx.state.clone();
        Callback::from(move |_: MouseEvent| {
            let mut url = st.url.clone();
            url.config = config.clone();
            url.t = None;
            st.dispatch(Action::ImportSettings(url));
        })
    };
    html! {
        <details id="size-it" class="panel size-panel" data-family={family.as_str()}>
            <summary>{ Msg::SizeIt.text(lang) }</summary>
            <p class="hint">{ Msg::SizeHint.text(lang) }</p>
            <div class="size-fields">{ for fields }</div>
            <div class="row">
                <button id="size-run" onclick={run} disabled={matches!(*status, Status::Running(_))}>{ Msg::SizeRun.text(lang) }</button>
                if let Status::Running(p) = &*status {
                    <progress id="size-progress" max="1" value={shortest(*p)} aria-label={Msg::SizeRunning.text(lang)} />
                    <button id="size-cancel" onclick={cancel}>{ Msg::SizeCancel.text(lang) }</button>
                }
            </div>
            if let Status::Done(numbers, config) = &*status {
                { size_results(numbers, lang) }
                <button id="size-open" onclick={open(config.clone())}>{ Msg::SizeOpen.text(lang) }</button>
            }
        </details>
    }
}
