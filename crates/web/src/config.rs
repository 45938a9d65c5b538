//! What the page runs and shows, and its form in the URL: the whole state (scenario, toggles,
//! parameters, profile, seed, speed, language, theme, comparison) lives in the query string, and a
//! bad parameter falls back to its default with a notice naming it.

use flywheel_engine::controller::program::WriteVerb;
use flywheel_engine::float_text::fixed;
use flywheel_engine::scenario::variant::Variant;
use flywheel_engine::scenario::{presets, Profile, Scenario, ScenarioError};
use flywheel_engine::vec_map::VecMap;

use crate::i18n::Lang;
use crate::params::{set_heavy_logic, LOGIC_KEY};
use crate::reasons::Reason;
use crate::state::Tab;

/// The preset shown when the URL names none.
pub const DEFAULT_PRESET: &str = "flywheel";
/// The default speed (virtual seconds per wall second).
pub const DEFAULT_SPEED: f64 = 10.0;
/// Slowest speed.
pub const MIN_SPEED: f64 = 0.1;
/// Fastest speed.
pub const MAX_SPEED: f64 = 10_000.0;

/// Light, dark, or following the system.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// `prefers-color-scheme`.
    #[default]
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The URL / attribute value.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::Auto => "auto",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Parses `auto`, `light`, `dark`.
    pub fn parse(s: &str) -> Option<Theme> {
        [Theme::Auto, Theme::Light, Theme::Dark]
            .into_iter()
            .find(|t| t.as_str() == s)
    }

    /// The next theme of the switch.
    pub fn next(self) -> Theme {
        match self {
            Theme::Auto => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::Auto,
        }
    }
}

/// Everything that decides a run: two configs with equal fields give the same run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunConfig {
    /// The preset's name.
    pub preset: String,
    /// The fixes (toggles).
    pub variant: Variant,
    /// Settings changed from the preset's, by path (`controller.workers`), each as `--set`
    /// takes it (`4`, `64Ki`, `field_index`); absent ⇒ the preset's value.
    pub params: VecMap<String, String>,
    /// Version profile.
    pub profile: Profile,
    /// Seed of the random source.
    pub seed: u64,
}

impl RunConfig {
    /// A preset with its own toggles, parameters, profile and seed.
    pub fn preset(name: &str) -> RunConfig {
        let s = load(name);
        RunConfig {
            preset: s.name.clone(),
            variant: Variant::of(&s),
            params: VecMap::new(),
            profile: s.profile,
            seed: s.seed,
        }
    }

    /// The scenario to run with `variant` (A's or B's), its settings applied and checked by the
    /// engine's validation (that of `--set` and a scenario file), so a value is accepted or
    /// refused as there, with the same message.
    pub fn scenario_with(&self, variant: Variant) -> Result<Scenario, ScenarioError> {
        let sets: Vec<(String, String)> = self
            .params
            .iter()
            .filter(|(k, v)| *k != LOGIC_KEY && !v.is_empty())
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut s = flywheel_engine::settings::apply(&presets::load(&self.preset, &[])?, &sets)?;
        s.profile = self.profile;
        if let Some(raw) = self.params.get(LOGIC_KEY) {
            set_heavy_logic(&mut s, raw).map_err(|message| ScenarioError {
                field: LOGIC_KEY.to_owned(),
                message,
            })?;
        }
        variant.apply(&mut s);
        s.seed = self.seed;
        s.validate()?;
        Ok(s)
    }

    /// The scenario of the A side.
    pub fn scenario(&self) -> Result<Scenario, ScenarioError> {
        self.scenario_with(self.variant)
    }

    /// The preset's scenario with the profile applied (what the controls show when not changed).
    pub fn base(&self) -> Scenario {
        let mut s = load(&self.preset);
        s.profile = self.profile;
        s
    }

    /// This config with `path` set to `raw`, when the engine accepts it; else its error.
    pub fn with_setting(&self, path: &str, raw: &str) -> Result<RunConfig, ScenarioError> {
        let mut config = self.clone();
        config.params.insert(path.to_owned(), raw.to_owned());
        config.scenario()?;
        Ok(config)
    }
}

/// The URL key that reads as a setting's path (a path itself, the heavy-logic time, or an old
/// key); `seed` and `profile` have their own keys.
fn setting_key(key: &str, raw: &str) -> Option<(String, String)> {
    if key == LOGIC_KEY
        || (flywheel_engine::settings::find(key).is_some() && key != "seed" && key != "profile")
    {
        return Some((key.to_owned(), raw.to_owned()));
    }
    crate::old_keys::translate(key, raw).map(|(p, v)| (p.to_owned(), v))
}

fn load(name: &str) -> Scenario {
    presets::load(name, &[])
        .or_else(|_| presets::load(DEFAULT_PRESET, &[]))
        .expect("the default preset loads (tested)")
}

/// The write verbs in the order of the picker, with their URL names.
pub const WRITE_VERBS: &[(WriteVerb, &str, &str)] = &[
    (WriteVerb::Update, "update", "r.Update"),
    (
        WriteVerb::StatusUpdate,
        "status-update",
        "r.Status().Update",
    ),
    (WriteVerb::StatusPatch, "status-patch", "r.Status().Patch"),
    (WriteVerb::Patch, "patch", "r.Patch"),
];

/// A variant as a URL token list: `sub.status-patch.pred.guard.ts`.
pub fn variant_to_str(v: &Variant) -> String {
    let mut parts = Vec::new();
    if v.status_subresource {
        parts.push("sub");
    }
    parts.push(verb_name(v.write));
    if v.generation_predicate {
        parts.push("pred");
    }
    if v.observed_generation_guard {
        parts.push("guard");
    }
    if v.timestamp {
        parts.push("ts");
    }
    parts.join(".")
}

/// The URL name of a write verb.
pub fn verb_name(w: WriteVerb) -> &'static str {
    WRITE_VERBS
        .iter()
        .find(|(v, _, _)| *v == w)
        .map_or("update", |(_, n, _)| n)
}

/// Parses [`variant_to_str`]'s form; `Err` holds the first unknown token.
pub fn variant_from_str(s: &str) -> Result<Variant, String> {
    let mut v = Variant {
        status_subresource: false,
        write: WriteVerb::Update,
        generation_predicate: false,
        observed_generation_guard: false,
        timestamp: false,
    };
    for token in s.split('.').filter(|t| !t.is_empty()) {
        match token {
            "sub" => v.status_subresource = true,
            "pred" => v.generation_predicate = true,
            "guard" => v.observed_generation_guard = true,
            "ts" => v.timestamp = true,
            other => match WRITE_VERBS.iter().find(|(_, n, _)| *n == other) {
                Some((w, _, _)) => v.write = *w,
                None => return Err(other.to_owned()),
            },
        }
    }
    Ok(v)
}

/// The latest instant `t=` accepts (simulated seconds; a seek past a run's end stops at it).
pub const MAX_INSTANT_S: f64 = 1_000_000.0;

/// An instant as the URL keeps it: to a tenth of a second, rounded down (so a link never opens
/// after the event it names).
pub fn round_instant_s(t: f64) -> f64 {
    (t * 10.0 + 1e-6).floor() / 10.0
}

/// The page state that the URL carries.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    /// The run.
    pub config: RunConfig,
    /// The B side's fixes when comparing.
    pub compare: Option<Variant>,
    /// Speed.
    pub speed: f64,
    /// Language, when chosen (else the browser's).
    pub lang: Option<Lang>,
    /// Theme.
    pub theme: Theme,
    /// The compact layout for iframes.
    pub embed: bool,
    /// Start playing on load (embeds only; the full page always starts playing).
    pub autoplay: bool,
    /// The panel opened (`tab=`); an embed shows it under its charts, and none when absent.
    pub tab: Option<Tab>,
    /// The instant shown (`t=`, simulated seconds): the page opens paused there.
    pub t: Option<f64>,
    /// Each control shows its setting's path (`paths=1`).
    pub paths: bool,
    /// The interventions of the branch shown (`do=12.4:delete:1`, repeated), oldest first.
    pub dos: Vec<crate::do_steps::DoStep>,
    /// The guided tour open, and its step counted from 1 (`tour=flywheel&step=3`).
    pub tour: Option<(String, usize)>,
}

impl Default for UrlState {
    fn default() -> Self {
        UrlState {
            config: RunConfig::preset(DEFAULT_PRESET),
            compare: None,
            speed: DEFAULT_SPEED,
            lang: None,
            theme: Theme::Auto,
            embed: false,
            autoplay: false,
            tab: None,
            t: None,
            paths: false,
            dos: Vec::new(),
            tour: None,
        }
    }
}

/// A URL parameter that was ignored, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    /// The parameter's name.
    pub key: String,
    /// Why.
    pub reason: Reason,
}

fn ignored(key: &str, reason: Reason) -> Ignored {
    Ignored {
        key: key.to_owned(),
        reason,
    }
}

impl UrlState {
    /// Reads a query string (with or without its `?`); every bad parameter falls back to its
    /// default and is listed.
    pub fn from_query(query: &str) -> (UrlState, Vec<Ignored>) {
        let pairs = parse_query(query);
        let mut bad = Vec::new();
        let get = |k: &str| {
            pairs
                .iter()
                .rev()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        let mut st = UrlState::default();
        if let Some(name) = get("preset") {
            let name = name.replace(' ', "+");
            if presets::exists(&name) {
                st.config = RunConfig::preset(&name);
            } else {
                bad.push(ignored("preset", Reason::UnknownPreset(name)));
            }
        }
        st.read_run(&get, &mut bad);
        st.read_settings(&pairs, &mut bad);
        st.read_view(&get, &mut bad);
        st.dos = crate::do_steps::read(&pairs, &mut |why| bad.push(ignored("do", why)));
        let known = [
            "preset", "v", "b", "profile", "seed", "speed", "lang", "theme", "embed", "autoplay",
            "tab", "t", "paths", "do", "tour", "step",
        ];
        for (k, v) in &pairs {
            if !known.contains(&k.as_str()) && setting_key(k, v).is_none() {
                bad.push(ignored(k, Reason::UnknownParameter));
            }
        }
        (st, bad)
    }

    fn read_run<'a>(&mut self, get: &impl Fn(&str) -> Option<&'a str>, bad: &mut Vec<Ignored>) {
        if let Some(v) = get("v") {
            match variant_from_str(v) {
                Ok(v) => self.config.variant = v,
                Err(e) => bad.push(ignored("v", Reason::UnknownFix(e))),
            }
        }
        if let Some(v) = get("b") {
            match variant_from_str(v) {
                Ok(v) => self.compare = Some(v),
                Err(e) => bad.push(ignored("b", Reason::UnknownFix(e))),
            }
        }
        if let Some(p) = get("profile") {
            match Profile::parse(p) {
                Ok(p) => self.config.profile = p,
                Err(_) => bad.push(ignored("profile", Reason::UnknownProfile(p.to_owned()))),
            }
        }
        if let Some(s) = get("seed") {
            match Reason::whole_number(s) {
                Ok(s) => self.config.seed = s,
                Err(why) => bad.push(ignored("seed", why)),
            }
        }
    }

    /// Reads the settings in the order the query gives them; each is checked by the engine's
    /// validation, as a file's or `--set`'s would be, and a refused one is named with its message.
    fn read_settings(&mut self, pairs: &[(String, String)], bad: &mut Vec<Ignored>) {
        for (key, raw) in pairs {
            let Some((path, value)) = setting_key(key, raw) else {
                continue;
            };
            if value.is_empty() {
                continue;
            }
            match self.config.with_setting(&path, &value) {
                Ok(config) => self.config = config,
                Err(e) => bad.push(ignored(key, Reason::Refused(e.to_string()))),
            }
        }
    }

    fn read_view<'a>(&mut self, get: &impl Fn(&str) -> Option<&'a str>, bad: &mut Vec<Ignored>) {
        if let Some(s) = get("speed") {
            match Reason::number_in(s, MIN_SPEED, MAX_SPEED) {
                // kept at the precision the URL writes ([`trim_float`]), so it reads back equal
                Ok(v) => self.speed = (v * 1000.0).round() / 1000.0,
                Err(why) => bad.push(ignored("speed", why)),
            }
        }
        if let Some(l) = get("lang") {
            match Lang::parse(l) {
                Some(l) => self.lang = Some(l),
                None => bad.push(ignored("lang", Reason::UnknownLang(l.to_owned()))),
            }
        }
        if let Some(t) = get("theme") {
            match Theme::parse(t) {
                Some(t) => self.theme = t,
                None => bad.push(ignored("theme", Reason::UnknownTheme(t.to_owned()))),
            }
        }
        if let Some(t) = get("tab") {
            match Tab::parse(t) {
                Some(t) => self.tab = Some(t),
                None => bad.push(ignored("tab", Reason::UnknownTab(t.to_owned()))),
            }
        }
        if let Some(t) = get("t") {
            match Reason::number_in(t, 0.0, MAX_INSTANT_S) {
                Ok(v) => self.t = Some(round_instant_s(v)),
                Err(why) => bad.push(ignored("t", why)),
            }
        }
        self.tour = crate::tour::from_url(get("tour"), get("step"), bad);
        self.embed = flag(get("embed"), "embed", bad);
        self.autoplay = flag(get("autoplay"), "autoplay", bad);
        self.paths = flag(get("paths"), "paths", bad);
    }

    /// The query string (without `?`) that reproduces this state.
    pub fn to_query(&self) -> String {
        let c = &self.config;
        let mut q: Vec<(String, String)> = vec![("preset".into(), c.preset.clone())];
        let preset = RunConfig::preset(&c.preset);
        if c.variant != preset.variant {
            q.push(("v".into(), variant_to_str(&c.variant)));
        }
        if let Some(b) = &self.compare {
            q.push(("b".into(), variant_to_str(b)));
        }
        if c.profile != preset.profile {
            q.push(("profile".into(), c.profile.as_str().into()));
        }
        if c.seed != preset.seed {
            q.push(("seed".into(), c.seed.to_string()));
        }
        for (path, v) in &c.params {
            q.push((path.clone(), v.clone()));
        }
        if self.speed != DEFAULT_SPEED {
            q.push(("speed".into(), trim_float(self.speed)));
        }
        if let Some(l) = self.lang {
            q.push((
                "lang".into(),
                if l == Lang::Zh { "zh" } else { "en" }.into(),
            ));
        }
        if self.theme != Theme::Auto {
            q.push(("theme".into(), self.theme.as_str().into()));
        }
        if let Some(t) = self.tab {
            q.push(("tab".into(), t.as_str().into()));
        }
        if let Some(t) = self.t {
            q.push(("t".into(), trim_float(t)));
        }
        for step in &self.dos {
            q.push(("do".into(), step.to_string()));
        }
        if self.paths {
            q.push(("paths".into(), "1".into()));
        }
        if let Some((id, step)) = &self.tour {
            q.push(("tour".into(), id.clone()));
            q.push(("step".into(), step.to_string()));
        }
        if self.embed {
            q.push(("embed".into(), "1".into()));
        }
        if self.autoplay {
            q.push(("autoplay".into(), "1".into()));
        }
        q.iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect::<Vec<_>>()
            .join("&")
    }
}

fn flag(raw: Option<&str>, key: &str, bad: &mut Vec<Ignored>) -> bool {
    match raw {
        None | Some("0") | Some("false") => false,
        Some("1") | Some("true") | Some("") => true,
        Some(other) => {
            bad.push(ignored(key, Reason::NotAFlag(other.to_owned())));
            false
        }
    }
}

/// A number without a useless `.0`, at most 3 decimals.
pub fn trim_float(v: f64) -> String {
    let s = fixed(v, 3);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.to_owned()
    }
}

/// Splits a query string into decoded `(key, value)` pairs. `+` stays `+` (preset names use it).
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(p), String::new()),
        })
        .collect()
}

/// Percent-encodes everything but unreserved characters.
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Percent-decodes (invalid escapes are kept as written; invalid UTF-8 is replaced).
pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_state_has_a_short_url() {
        assert_eq!(UrlState::default().to_query(), "preset=flywheel");
    }

    #[test]
    fn a_full_state_round_trips() {
        let mut st = UrlState::default();
        st.config.variant.status_subresource = true;
        st.config.variant.write = WriteVerb::StatusPatch;
        st.config
            .params
            .insert("controller.workers".into(), "4".into());
        st.config
            .params
            .insert("objects.size_bytes".into(), "64Ki".into());
        st.paths = true;
        st.config.seed = 7;
        st.config.profile = Profile::Modern;
        st.compare = Some(RunConfig::preset("fixed").variant);
        st.speed = 250.0;
        st.lang = Some(Lang::Zh);
        st.theme = Theme::Dark;
        st.tab = Some(Tab::Myths);
        let (back, bad) = UrlState::from_query(&st.to_query());
        assert_eq!(bad, vec![]);
        assert_eq!(back, st);
    }

    #[test]
    fn preset_names_with_plus_survive() {
        let (st, bad) = UrlState::from_query("?preset=subresource%2Bpredicate");
        assert!(bad.is_empty());
        assert_eq!(st.config.preset, "subresource+predicate");
        let (st, _) = UrlState::from_query("preset=subresource+predicate");
        assert_eq!(st.config.preset, "subresource+predicate");
    }

    #[test]
    fn bad_parameters_fall_back_and_are_named() {
        let (st, bad) = UrlState::from_query(
            "preset=nope&workers=0&speed=1e9&seed=-3&v=sub.bogus&lang=fr&embed=2&zzz=1&objects=abc",
        );
        let keys: Vec<_> = bad.iter().map(|b| b.key.as_str()).collect();
        assert_eq!(
            keys,
            ["preset", "v", "seed", "workers", "objects", "speed", "lang", "embed", "zzz"]
        );
        assert_eq!(st.config, RunConfig::preset(DEFAULT_PRESET));
        assert_eq!(st.speed, DEFAULT_SPEED);
        assert!(!st.embed);
    }

    #[test]
    fn a_bad_setting_is_named_in_the_words_the_engine_uses() {
        let (st, bad) = UrlState::from_query("controller.workers=1.5&objects.count=150000");
        assert_eq!(bad.len(), 1, "{bad:?}");
        assert_eq!(bad[0].key, "controller.workers");
        let said = "controller.workers: must be a whole number from 1 to 1000 (got 1.5)";
        assert_eq!(bad[0].reason, Reason::Refused(said.to_owned()));
        assert_eq!(st.config.scenario().expect("valid").objects.count, 150_000);
    }

    #[test]
    fn an_old_permalink_key_still_sets_its_setting() {
        let (st, bad) = UrlState::from_query("preset=flywheel&workers=7&size=64&objects=2000");
        assert!(bad.is_empty(), "{bad:?}");
        let s = st.config.scenario().expect("valid");
        assert_eq!(s.controller.workers, 7);
        assert_eq!(s.objects.size_bytes, 64 * 1024);
        assert_eq!(s.objects.count, 2000);
        assert!(st.to_query().contains("controller.workers=7"));
    }

    #[test]
    fn a_setting_path_in_the_url_sets_it() {
        let (st, bad) = UrlState::from_query("preset=flywheel&controller.workers=3&logic=50");
        assert!(bad.is_empty(), "{bad:?}");
        let s = st.config.scenario().expect("valid");
        assert_eq!(s.controller.workers, 3);
        assert_eq!(crate::params::heavy_logic_ms(&s), Some(50.0));
    }

    #[test]
    fn every_preset_builds_a_valid_scenario() {
        for name in presets::names() {
            let c = RunConfig::preset(name);
            c.scenario().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }

    #[test]
    fn percent_coding_round_trips() {
        for s in ["a b", "x+y", "中文", "100%"] {
            assert_eq!(decode(&encode(s)), s);
        }
        assert_eq!(decode("%zz"), "%zz");
    }
}
