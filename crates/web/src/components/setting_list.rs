//! What every setting control of the sidebar shares: the values the run holds (by path, as
//! `--set` takes them), the value the engine refused, the language, whether paths are shown, and
//! one callback that hands a new value to the reducer.

use std::rc::Rc;

use flywheel_engine::settings::{current, Setting};
use flywheel_engine::vec_map::VecMap;
use yew::prelude::*;

use super::setting::SettingControl;
use super::use_ctx;
use crate::config::RunConfig;
use crate::i18n::Lang;
use crate::params::{heavy_logic_ms, LOGIC_KEY};
use crate::state::{Action, Rejected};

/// The shared part of the sidebar's setting controls.
#[derive(Clone, PartialEq)]
pub struct SettingsView {
    /// Each setting's value in the run (the preset's where unchanged).
    pub values: Rc<VecMap<&'static str, String>>,
    /// The value the engine refused last.
    pub rejected: Option<Rejected>,
    /// The page's language.
    pub lang: Lang,
    /// Whether controls show their paths.
    pub show_path: bool,
    /// Sets a value.
    pub on_set: Callback<(&'static str, String)>,
}

/// Every setting's value in the run `config` describes (the preset's when it does not build).
fn values_of(config: &RunConfig) -> VecMap<&'static str, String> {
    let scenario = config.scenario().unwrap_or_else(|_| config.base());
    let mut values = current(&scenario);
    if let Some(ms) = heavy_logic_ms(&scenario) {
        values.insert(LOGIC_KEY, crate::config::trim_float(ms));
    }
    values
}

/// The view of the page's current run, recomputed only when the run's configuration changes.
#[hook]
pub fn use_settings_view() -> SettingsView {
    let ctx = use_ctx();
    let s = &ctx.state;
    let values = use_memo(s.url.config.clone(), values_of);
    let on_set = use_callback(
        ctx.state.dispatcher(),
        |(path, raw): (&'static str, String), dispatcher| {
            dispatcher.dispatch(Action::SetSetting(path.to_owned(), raw));
        },
    );
    SettingsView {
        values,
        rejected: s.rejected.clone(),
        lang: s.lang,
        show_path: s.url.paths,
        on_set,
    }
}

impl SettingsView {
    /// The control of `setting`.
    pub fn control(&self, setting: &'static Setting) -> Html {
        let refused = self.rejected.as_ref().filter(|r| r.path == setting.path);
        let value = refused
            .map(|r| r.raw.clone())
            .or_else(|| self.values.get(setting.path).cloned());
        html! {
            <SettingControl key={setting.path} setting={setting} value={value}
                rejected={refused.map(|r| r.message.clone())} lang={self.lang}
                show_path={self.show_path} on_set={self.on_set.clone()} />
        }
    }
}
