//! The page's state as a reducer: what the user chose, changed by [`Action`]s. The runs live
//! outside, in [`crate::runs::Runs`], and what they show now in [`crate::live::LiveView`].

use std::rc::Rc;

use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::scenario::Profile;
use yew::Reducible;

use crate::config::{Ignored, RunConfig, Theme, UrlState, MAX_SPEED, MIN_SPEED};
use crate::i18n::Lang;
use crate::reasons::Reason;
use crate::runs::Side;
use crate::stepping::StepReport;

/// The panel shown under the charts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Tab {
    /// The narration.
    #[default]
    Explain,
    /// The Go code.
    Code,
    /// An object's YAML.
    Inspect,
    /// The event log.
    Log,
    /// The "myth vs upstream" cards.
    Myths,
}

impl Tab {
    /// Every tab, in the tab bar's order.
    pub const ALL: [Tab; 5] = [Tab::Explain, Tab::Code, Tab::Inspect, Tab::Log, Tab::Myths];

    /// The name in the URL (`tab=`) and in the tab's element id (`tab-…`).
    pub fn as_str(self) -> &'static str {
        match self {
            Tab::Explain => "explain",
            Tab::Code => "code",
            Tab::Inspect => "inspect",
            Tab::Log => "log",
            Tab::Myths => "myths",
        }
    }

    /// Parses [`Tab::as_str`]'s names.
    pub fn parse(s: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

/// A message shown above the page until dismissed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// A URL parameter that was ignored.
    Ignored(Ignored),
    /// The scenario rejected a setting.
    Invalid(String),
    /// The stored settings were unreadable and set aside (why).
    StoredSetAside(Reason),
    /// An imported settings file was refused (why).
    ImportFailed(Reason),
}

/// The page's state.
#[derive(Clone, Debug, PartialEq)]
pub struct AppState {
    /// What the URL carries.
    pub url: UrlState,
    /// The language in effect.
    pub lang: Lang,
    /// Whether the clock runs.
    pub playing: bool,
    /// Bumped to rebuild the runs (reset, or a change of what they run).
    pub epoch: u64,
    /// Bumped when texts arrive (labels, narrations), so everything redraws in their words.
    pub redraws: u64,
    /// The keyboard help overlay is open.
    pub help: bool,
    /// The embed dialog is open.
    pub embed_dialog: bool,
    /// The inspected object.
    pub selected: Option<String>,
    /// Which run the inspect panel and the event log show when comparing.
    pub side: Side,
    /// The panel shown.
    pub tab: Tab,
    /// Notices.
    pub notices: Vec<Notice>,
    /// "Copied" feedback on the copy-link button.
    pub copied: bool,
    /// What the last step did (shown while paused).
    pub step_note: Option<StepReport>,
    /// Steps reported so far (each report arrives from the engine's side after its step).
    pub steps_reported: u64,
    /// The last value the engine refused, shown on its control.
    pub rejected: Option<Rejected>,
    /// The why panel, the command bar and the branches.
    pub why: crate::why_state::WhyState,
    /// The guided tour open, if any.
    pub tour: Option<crate::tour::TourAt>,
    /// Presenter mode: large text, no side panels, high contrast.
    pub presenter: bool,
    /// The screen is blanked (presenter mode's `B`).
    pub blank: bool,
}

/// A setting's value the engine refused: the control keeps showing it, with the message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// The setting's path.
    pub path: String,
    /// What the user typed.
    pub raw: String,
    /// The engine's message.
    pub message: String,
}

impl AppState {
    /// The state a URL describes, in `browser_lang` unless the URL names a language.
    pub fn from_url(url: UrlState, ignored: Vec<Ignored>, browser_lang: Lang) -> AppState {
        let mut state = AppState {
            lang: url.lang.unwrap_or(browser_lang),
            playing: !url.embed || url.autoplay,
            tab: url.tab.unwrap_or_default(),
            url,
            epoch: 0,
            redraws: 0,
            help: false,
            embed_dialog: false,
            selected: None,
            side: Side::A,
            notices: ignored.into_iter().map(Notice::Ignored).collect(),
            copied: false,
            step_note: None,
            steps_reported: 0,
            rejected: None,
            why: Default::default(),
            tour: None,
            presenter: false,
            blank: false,
        };
        if let Some((id, n)) = state.url.tour.clone() {
            state.reduce_tour(crate::tour::TourAction::Open(id, n));
        }
        state
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState::from_url(UrlState::default(), Vec::new(), Lang::En)
    }
}

/// The speeds `+` and `−` step through.
pub const SPEED_STEPS: &[f64] = &[
    0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0, 2000.0, 5000.0,
    10000.0,
];

/// The next speed step above (`up`) or below `speed`.
pub fn step_speed(speed: f64, up: bool) -> f64 {
    let next = if up {
        SPEED_STEPS.iter().find(|s| **s > speed * 1.0001)
    } else {
        SPEED_STEPS.iter().rev().find(|s| **s < speed * 0.9999)
    };
    next.copied().unwrap_or(speed)
}

/// Something that happens to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Texts arrived: everything redraws once in their words.
    Redraw,
    /// Every run reached its end.
    Finished,
    /// Play or pause.
    TogglePlay,
    /// Pause (step does this).
    Pause,
    /// Set the speed (clamped to 0.1…10 000).
    SetSpeed(f64),
    /// One step faster (`true`) or slower.
    StepSpeed(bool),
    /// Start the runs over.
    Reset,
    /// Change the seed (restarts).
    SetSeed(u64),
    /// Load a preset (its toggles, parameters and profile).
    SetPreset(String),
    /// Set A's fixes.
    SetVariant(Variant),
    /// Set a setting (its path, and its value as `--set` takes it); a value the engine refuses
    /// is kept in [`AppState::rejected`] and the run keeps the last accepted configuration.
    SetSetting(String, String),
    /// Show or hide each control's setting path.
    ShowPaths(bool),
    /// Put every slider back to the preset's value.
    ResetParams,
    /// Set the version profile.
    SetProfile(Profile),
    /// Compare with a B variant, or stop comparing.
    SetCompare(Option<Variant>),
    /// Switch language.
    SetLang(Lang),
    /// Next theme.
    CycleTheme,
    /// Open or close the keyboard help.
    ToggleHelp,
    /// Open or close the embed dialog.
    ToggleEmbedDialog,
    /// Close any dialog.
    CloseDialogs,
    /// Inspect an object.
    Select(String),
    /// Show run A or B in the inspect panel and the event log.
    SetSide(Side),
    /// Show a panel.
    SetTab(Tab),
    /// Add a notice.
    Notify(Notice),
    /// Dismiss the notice at this index.
    Dismiss(usize),
    /// The link was copied.
    Copied(bool),
    /// The runs were sent to this instant (simulated seconds): they pause there.
    Seeked(f64),
    /// A step ran (the run pauses and the line says what the step did).
    Stepped(StepReport),
    /// Settings imported from a file (the page's embed flags stay).
    ImportSettings(UrlState),
    /// The why panel, the command bar or the branches change.
    Why(crate::why_state::WhyAction),
    /// Something done to the guided tour.
    Tour(crate::tour::TourAction),
    /// Enter or leave presenter mode.
    TogglePresenter,
    /// Blank or show the screen.
    ToggleBlank,
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::Redraw => s.redraws += 1,
            Action::Finished => s.playing = false,
            Action::Seeked(t) => {
                s.playing = false;
                s.step_note = None;
                s.url.t = Some(crate::config::round_instant_s(t));
            }
            Action::TogglePlay => {
                s.playing = !s.playing;
                if s.playing {
                    s.url.t = None;
                }
                s.step_note = None;
            }
            Action::Stepped(report) => {
                s.playing = false;
                s.step_note = Some(report);
                s.steps_reported += 1;
            }
            Action::Pause => s.playing = false,
            Action::SetSpeed(v) => s.url.speed = v.clamp(MIN_SPEED, MAX_SPEED),
            Action::StepSpeed(up) => s.url.speed = step_speed(s.url.speed, up),
            Action::Reset => s.restart(),
            Action::SetSeed(seed) => {
                s.url.config.seed = seed;
                s.restart();
            }
            Action::SetPreset(name) => {
                s.url.config = RunConfig::preset(&name);
                s.rejected = None;
                s.selected = None;
                s.restart();
            }
            Action::SetVariant(v) => {
                s.url.config.variant = v;
                s.restart();
            }
            Action::SetSetting(path, raw) => s.set_setting(path, raw),
            Action::ShowPaths(on) => s.url.paths = on,
            Action::ResetParams => {
                s.url.config.params.clear();
                s.rejected = None;
                s.restart();
            }
            Action::SetProfile(p) => {
                s.url.config.profile = p;
                s.restart();
            }
            Action::SetCompare(b) => {
                s.url.compare = b;
                s.restart();
            }
            Action::ImportSettings(url) => {
                s.lang = url.lang.unwrap_or(s.lang);
                s.url = UrlState {
                    embed: s.url.embed,
                    autoplay: s.url.autoplay,
                    ..url
                };
                s.selected = None;
                s.restart();
            }
            Action::Tour(a) => s.reduce_tour(a),
            Action::TogglePresenter => {
                s.presenter = !s.presenter;
                s.blank = false;
            }
            Action::ToggleBlank => s.blank = !s.blank,
            other => s.reduce_view(other),
        }
        Rc::new(s)
    }
}

impl AppState {
    /// Rebuilds the runs from the start.
    pub(crate) fn restart(&mut self) {
        self.epoch += 1;
        self.step_note = None;
        self.url.t = None;
        self.url.dos.clear();
        self.why = Default::default();
    }

    fn set_setting(&mut self, path: String, raw: String) {
        match self.url.config.with_setting(&path, &raw) {
            Ok(config) => {
                self.url.config = config;
                self.rejected = None;
                self.restart();
            }
            Err(e) => {
                self.rejected = Some(Rejected {
                    path,
                    raw,
                    message: e.to_string(),
                })
            }
        }
    }

    fn reduce_view(&mut self, action: Action) {
        match action {
            Action::SetLang(l) => {
                self.lang = l;
                self.url.lang = Some(l);
            }
            Action::CycleTheme => self.url.theme = self.url.theme.next(),
            Action::ToggleHelp => self.help = !self.help,
            Action::ToggleEmbedDialog => self.embed_dialog = !self.embed_dialog,
            Action::CloseDialogs => {
                self.help = false;
                self.embed_dialog = false;
                self.why.command = false;
            }
            Action::Select(key) => {
                self.selected = Some(key);
                self.show_tab(Tab::Inspect);
            }
            Action::SetTab(t) => self.show_tab(t),
            Action::SetSide(side) => self.side = side,
            Action::Notify(n) if !self.notices.contains(&n) => self.notices.push(n),
            Action::Dismiss(i) if i < self.notices.len() => {
                self.notices.remove(i);
            }
            Action::Copied(c) => self.copied = c,
            Action::Why(a) => self.why.reduce(&mut self.url, a),
            _ => {}
        }
    }

    /// Shows panel `t`; the URL carries it so a permalink opens the same panel.
    fn show_tab(&mut self, t: Tab) {
        self.tab = t;
        self.url.tab = Some(t);
    }

    /// The theme in effect, given whether the system prefers dark.
    pub fn dark(&self, system_dark: bool) -> bool {
        match self.url.theme {
            Theme::Auto => system_dark,
            Theme::Light => false,
            Theme::Dark => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(actions: &[Action]) -> Rc<AppState> {
        actions
            .iter()
            .fold(Rc::new(AppState::default()), |s, a| s.reduce(a.clone()))
    }

    #[test]
    fn speed_steps_and_clamps() {
        assert_eq!(step_speed(10.0, true), 20.0);
        assert_eq!(step_speed(10.0, false), 5.0);
        assert_eq!(step_speed(10000.0, true), 10000.0);
        assert_eq!(step_speed(0.1, false), 0.1);
        assert_eq!(step_speed(7.0, true), 10.0);
        let s = run(&[Action::SetSpeed(1e9)]);
        assert_eq!(s.url.speed, MAX_SPEED);
    }

    #[test]
    fn changing_what_runs_restarts_but_view_changes_do_not() {
        let s = run(&[Action::SetSeed(9)]);
        assert_eq!((s.epoch, s.url.config.seed), (1, 9));
        let s = run(&[
            Action::SetLang(Lang::Zh),
            Action::CycleTheme,
            Action::ToggleHelp,
        ]);
        assert_eq!(s.epoch, 0);
        assert_eq!(s.lang, Lang::Zh);
        assert_eq!(s.url.theme, Theme::Light);
        assert!(s.help);
    }

    #[test]
    fn a_bad_param_is_refused() {
        let s = run(&[Action::SetSetting("controller.workers".into(), "0".into())]);
        assert!(s.url.config.params.is_empty());
        let rejected = s.rejected.clone().expect("marked rejected");
        assert_eq!(rejected.path, "controller.workers");
        assert_eq!(rejected.raw, "0");
        assert!(
            rejected.message.contains("controller.workers"),
            "{}",
            rejected.message
        );
        let s = run(&[
            Action::SetSetting("controller.workers".into(), "4".into()),
            Action::ResetParams,
        ]);
        assert!(s.url.config.params.is_empty());
        assert_eq!(s.epoch, 2);
    }

    #[test]
    fn loading_a_preset_takes_its_toggles() {
        let s = run(&[Action::SetPreset("fixed".into())]);
        assert!(s.url.config.variant.status_subresource);
        assert!(s.url.config.variant.generation_predicate);
    }

    #[test]
    fn embeds_wait_for_play_unless_autoplay() {
        let (u, _) = UrlState::from_query("embed=1");
        assert!(!AppState::from_url(u, vec![], Lang::En).playing);
        let (u, _) = UrlState::from_query("embed=1&autoplay=1");
        assert!(AppState::from_url(u, vec![], Lang::En).playing);
    }

    #[test]
    fn imported_settings_replace_the_state_but_keep_the_embed_flags() {
        let (embedded, _) = UrlState::from_query("embed=1");
        let s = Rc::new(AppState::from_url(embedded, vec![], Lang::En));
        let (imported, _) = UrlState::from_query("preset=fixed&workers=3&lang=zh");
        let s = s.reduce(Action::ImportSettings(imported.clone()));
        assert_eq!(s.url.config, imported.config);
        assert!(s.url.embed, "the page stays an embed");
        assert_eq!(s.lang, Lang::Zh);
        assert_eq!(s.epoch, 1, "the runs restart");
    }
}
