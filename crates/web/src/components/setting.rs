//! One control drawn from a setting of the registry: a checkbox for a switch, a select for a
//! choice, checkboxes for a list of choices, a slider and a number box for a number. Its label
//! and help are the registry's in the page's language; a value the engine refused stays shown,
//! marked, with the engine's message.

use flywheel_engine::settings::{Choice, Kind, Number, Scale, Setting};
use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use crate::i18n::{self, Lang, Msg};
use flywheel_engine::float_text::shortest;

/// Positions of a log slider.
const LOG_STEPS: f64 = 1000.0;

/// Props of [`SettingControl`].
#[derive(Properties, PartialEq, Clone)]
pub struct SettingProps {
    /// The setting drawn.
    pub setting: &'static Setting,
    /// What the control shows, as `--set` takes it (`None`: the scenario leaves it out).
    pub value: Option<String>,
    /// The engine's message when `value` was refused.
    pub rejected: Option<String>,
    /// The page's language.
    pub lang: Lang,
    /// Whether the path is shown next to the label.
    pub show_path: bool,
    /// Called with the setting's path and the new value.
    pub on_set: Callback<(&'static str, String)>,
}

/// The element id of a setting's control (`set-controller-workers`).
pub fn control_id(path: &str) -> String {
    format!("set-{}", path.replace('.', "-"))
}

/// A setting's control.
#[function_component(SettingControl)]
pub fn setting_control(props: &SettingProps) -> Html {
    let s = props.setting;
    let id = control_id(s.path);
    let body = match s.kind {
        Kind::Bool => bool_control(props, &id),
        Kind::Choice(choices) => choice_control(props, &id, choices),
        Kind::ChoiceList(choices) => list_control(props, &id, choices),
        Kind::Number(n) => html! {
            <NumberControl setting={s} value={props.value.clone()} rejected={props.rejected.clone()}
                lang={props.lang} show_path={props.show_path} on_set={props.on_set.clone()} number={n} />
        },
    };
    let kind = match s.kind {
        Kind::Bool => "bool",
        Kind::Choice(_) => "choice",
        Kind::ChoiceList(_) => "list",
        Kind::Number(_) => "number",
    };
    html! {
        <div class={classes!("setting", props.rejected.is_some().then_some("rejected"))}
            data-path={s.path} data-kind={kind}>
            { body }
            <span id={format!("{id}-help")} class="visually-hidden">{ help(props) }</span>
            if let Some(m) = &props.rejected {
                <p id={format!("{id}-error")} class="setting-error" role="alert">
                    { format!("{} {m}", Msg::Rejected.text(props.lang)) }
                </p>
            }
        </div>
    }
}

fn help(props: &SettingProps) -> &'static str {
    i18n::setting_words(props.setting, props.lang).1
}

fn label_text(props: &SettingProps) -> &'static str {
    i18n::setting_words(props.setting, props.lang).0
}

/// The label's words, with the path when shown.
fn label(props: &SettingProps) -> Html {
    html! {
        <>
            <span class="setting-label">{ label_text(props) }</span>
            if props.show_path { <code class="setting-path">{ props.setting.path }</code> }
        </>
    }
}

/// `aria-describedby`: the help, and the engine's message when refused.
fn described_by(props: &SettingProps, id: &str) -> String {
    match props.rejected {
        Some(_) => format!("{id}-help {id}-error"),
        None => format!("{id}-help"),
    }
}

fn invalid(props: &SettingProps) -> &'static str {
    if props.rejected.is_some() {
        "true"
    } else {
        "false"
    }
}

fn bool_control(props: &SettingProps, id: &str) -> Html {
    let (path, on_set) = (props.setting.path, props.on_set.clone());
    let change = Callback::from(move |e: Event| {
        let el: HtmlInputElement = e.target_unchecked_into();
        on_set.emit((path, el.checked().to_string()));
    });
    html! {
        <label class="toggle" for={id.to_owned()} title={help(props)}>
            <input type="checkbox" id={id.to_owned()} checked={props.value.as_deref() == Some("true")}
                onchange={change} aria-invalid={invalid(props)}
                aria-describedby={described_by(props, id)} />
            { label(props) }
        </label>
    }
}

/// A value as a screen reader says it: as written in English (`5m`, `4Ki`), with the units in
/// words in Chinese (`5 分钟`, `4 KiB`); a value it cannot read stays as written.
fn spoken(text: &str, lang: Lang) -> String {
    if lang == Lang::En {
        return text.to_owned();
    }
    let unit_word = |u: &str| {
        Some(match u {
            "" => "",
            "ns" => " 纳秒",
            "us" | "µs" => " 微秒",
            "ms" => " 毫秒",
            "s" => " 秒",
            "m" => " 分钟",
            "h" => " 小时",
            "Ki" => " KiB",
            "Mi" => " MiB",
            "Gi" => " GiB",
            "Ti" => " TiB",
            _ => return None,
        })
    };
    let mut out: Vec<String> = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(digits);
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (unit, next) = tail.split_at(unit_len);
        match unit_word(unit) {
            Some(word) if !number.is_empty() => out.push(format!("{number}{word}")),
            _ => return text.to_owned(),
        }
        rest = next;
    }
    out.join(" ")
}

/// A choice as an option shows it: in English its name (what a file or `--set` writes) and its
/// meaning; in Chinese its meaning only, as an option cannot mark the name as code.
fn choice_words(c: &Choice, lang: Lang) -> String {
    match lang {
        Lang::Zh => c.zh.to_owned(),
        Lang::En if c.en == c.name => c.en.to_owned(),
        Lang::En => format!("{} — {}", c.name, c.en),
    }
}

/// A choice next to a checkbox: its name, as code, and its meaning when that says more.
fn choice_html(c: &Choice, lang: Lang) -> Html {
    let meaning = if lang == Lang::Zh { c.zh } else { c.en };
    if meaning == c.name {
        html! { <code>{ c.name }</code> }
    } else {
        html! { <><code>{ c.name }</code>{ format!(" — {meaning}") }</> }
    }
}

fn choice_control(props: &SettingProps, id: &str, choices: &'static [Choice]) -> Html {
    let (path, on_set) = (props.setting.path, props.on_set.clone());
    let change = Callback::from(move |e: Event| {
        let el: HtmlSelectElement = e.target_unchecked_into();
        on_set.emit((path, el.value()));
    });
    let value = props.value.as_deref();
    html! {
        <label class="select" for={id.to_owned()} title={help(props)}>
            <span>{ label(props) }</span>
            <select id={id.to_owned()} onchange={change} aria-invalid={invalid(props)}
                aria-describedby={described_by(props, id)}>
                if value.is_none() {
                    <option value="" selected=true disabled=true>{ Msg::NotSet.text(props.lang) }</option>
                }
                { for choices.iter().map(|c| html! {
                    <option value={c.name} selected={value == Some(c.name)}>{ choice_words(c, props.lang) }</option>
                }) }
            </select>
        </label>
    }
}

/// The names in a list as the file writes it (`["a", "b"]`).
fn list_names(raw: &str) -> Vec<String> {
    raw.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// A list of names as the file writes it.
fn list_text(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

fn list_control(props: &SettingProps, id: &str, choices: &'static [Choice]) -> Html {
    let chosen = list_names(props.value.as_deref().unwrap_or_default());
    let boxes = choices.iter().map(|c| {
        let (path, on_set, chosen) = (props.setting.path, props.on_set.clone(), chosen.clone());
        let name = c.name;
        let on = chosen.iter().any(|n| n == name);
        let change = Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            let names: Vec<String> = choices
                .iter()
                .filter(|o| {
                    if o.name == name {
                        el.checked()
                    } else {
                        chosen.iter().any(|n| n == o.name)
                    }
                })
                .map(|o| o.name.to_owned())
                .collect();
            on_set.emit((path, list_text(&names)));
        });
        let box_id = format!("{id}-{name}");
        html! {
            <label class="toggle" for={box_id.clone()}>
                <input type="checkbox" id={box_id} checked={on}
                    onchange={change} />
                <span>{ choice_html(c, props.lang) }</span>
            </label>
        }
    });
    html! {
        <fieldset id={id.to_owned()} class="setting-list" title={help(props)}
            aria-invalid={invalid(props)} aria-describedby={described_by(props, id)}>
            <legend>{ label(props) }</legend>
            { for boxes }
        </fieldset>
    }
}

/// Props of [`NumberControl`]: the setting's, and its number.
#[derive(Properties, PartialEq, Clone)]
struct NumberProps {
    setting: &'static Setting,
    value: Option<String>,
    rejected: Option<String>,
    lang: Lang,
    show_path: bool,
    on_set: Callback<(&'static str, String)>,
    number: Number,
}

impl NumberProps {
    fn setting_props(&self) -> SettingProps {
        SettingProps {
            setting: self.setting,
            value: self.value.clone(),
            rejected: self.rejected.clone(),
            lang: self.lang,
            show_path: self.show_path,
            on_set: self.on_set.clone(),
        }
    }
}

/// The lower end of a log slider (a range from 0 starts its factors at one step).
fn log_floor(n: &Number) -> f64 {
    if n.min > 0.0 {
        n.min
    } else {
        n.step.max(1.0).min(n.max)
    }
}

/// A value's slider position: the value itself on a linear slider, 0…1000 on a log one.
fn position(n: &Number, v: f64) -> f64 {
    match n.scale {
        Scale::Linear => crate::clamp::clamp(v, n.min, n.max),
        Scale::Log if v < log_floor(n) => 0.0,
        Scale::Log => {
            let lo = log_floor(n);
            ((v.ln() - lo.ln()) / (n.max.ln() - lo.ln()) * LOG_STEPS).round()
        }
    }
}

/// The value at a slider position, snapped to the step.
fn value_at(n: &Number, pos: f64) -> f64 {
    let v = match n.scale {
        Scale::Linear => pos,
        Scale::Log if pos <= 0.0 => n.min,
        Scale::Log => {
            let lo = log_floor(n);
            (lo.ln() + pos / LOG_STEPS * (n.max.ln() - lo.ln())).exp()
        }
    };
    snap(n, v)
}

fn snap(n: &Number, v: f64) -> f64 {
    crate::clamp::clamp((v / n.step).round() * n.step, n.min, n.max)
}

/// A slider and a number box; the box takes what the file takes (`4Ki`, `200ms`) and moves by
/// the step with the arrow keys.
#[function_component(NumberControl)]
fn number_control(props: &NumberProps) -> Html {
    let sp = props.setting_props();
    let n = props.number;
    let path = props.setting.path;
    let id = control_id(path);
    let box_id = format!("{id}-box");
    // the slider being dragged stays where it is, and shows its value in the box, until released
    let draft = use_state(|| None::<(String, f64)>);
    {
        let draft = draft.clone();
        use_effect_with(props.value.clone(), move |_| draft.set(None));
    }
    let shown = (*draft)
        .as_ref()
        .map(|(text, _)| text.clone())
        .or_else(|| props.value.clone())
        .unwrap_or_default();
    let v = props
        .value
        .as_deref()
        .and_then(|t| n.parse(t))
        .unwrap_or(n.min);
    let (slider_min, slider_max, slider_step) = match n.scale {
        Scale::Linear => (n.min, n.max, n.step),
        Scale::Log => (0.0, LOG_STEPS, 1.0),
    };
    let slide = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            if let Ok(pos) = el.value().parse::<f64>() {
                draft.set(Some((n.write(value_at(&n, pos)), pos)));
            }
        })
    };
    let release = {
        let on_set = props.on_set.clone();
        Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            if let Ok(pos) = el.value().parse::<f64>() {
                on_set.emit((path, n.write(value_at(&n, pos))));
            }
        })
    };
    let typed = {
        let on_set = props.on_set.clone();
        Callback::from(move |e: Event| {
            let el: HtmlInputElement = e.target_unchecked_into();
            on_set.emit((path, el.value().trim().to_owned()));
        })
    };
    let keys = {
        let on_set = props.on_set.clone();
        Callback::from(move |e: KeyboardEvent| {
            let by = match e.key().as_str() {
                "ArrowUp" => n.step,
                "ArrowDown" => -n.step,
                _ => return,
            };
            e.prevent_default();
            let el: HtmlInputElement = e.target_unchecked_into();
            let now = n.parse(&el.value()).unwrap_or(v);
            let next = n.write(snap(&n, now + by));
            el.set_value(&next);
            on_set.emit((path, next));
        })
    };
    let placeholder = Msg::NotSet.text(props.lang);
    html! {
        <div class="param">
            <label for={box_id.clone()} title={help(&sp)}>{ label(&sp) }</label>
            <div class="number">
                <input type="range" id={id.clone()} min={shortest(slider_min)} max={shortest(slider_max)}
                    step={shortest(slider_step)} value={shortest(draft.as_ref().map_or_else(|| position(&n, v), |d| d.1))}
                    aria-label={label_text(&sp)} aria-valuetext={spoken(&shown, props.lang)}
                    oninput={slide} onchange={release} />
                <input type="text" id={box_id} class="number-box" value={shown} placeholder={placeholder}
                    inputmode={if n.is_whole() { "numeric" } else { "text" }} spellcheck="false"
                    autocomplete="off" aria-invalid={invalid(&sp)}
                    aria-describedby={described_by(&sp, &id)} title={help(&sp)}
                    onchange={typed} onkeydown={keys} />
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flywheel_engine::settings::{find, SETTINGS};

    fn number(path: &str) -> Number {
        match find(path).expect("a setting").kind {
            Kind::Number(n) => n,
            _ => panic!("{path} is a number"),
        }
    }

    #[test]
    fn a_value_is_spoken_with_its_units_in_words_in_chinese() {
        assert_eq!(spoken("5m", Lang::Zh), "5 分钟");
        assert_eq!(spoken("1h30m", Lang::Zh), "1 小时 30 分钟");
        assert_eq!(spoken("1700Mi", Lang::Zh), "1700 MiB");
        assert_eq!(spoken("0.5", Lang::Zh), "0.5");
        assert_eq!(spoken("2us", Lang::Zh), "2 微秒");
        assert_eq!(spoken("5m", Lang::En), "5m");
        assert_eq!(spoken("abc", Lang::Zh), "abc");
    }

    #[test]
    fn a_log_slider_reaches_both_ends_of_its_range() {
        for s in SETTINGS {
            let Kind::Number(n) = s.kind else { continue };
            if n.scale == Scale::Log {
                assert_eq!(value_at(&n, 0.0), n.min, "{}", s.path);
                assert_eq!(value_at(&n, LOG_STEPS), snap(&n, n.max), "{}", s.path);
                assert_eq!(position(&n, n.max), LOG_STEPS, "{}", s.path);
            }
        }
    }

    #[test]
    fn the_objects_slider_holds_the_incidents_hundred_and_fifty_thousand() {
        let n = number("objects.count");
        let pos = position(&n, 150_000.0);
        assert!(pos < LOG_STEPS, "{pos}");
        let back = value_at(&n, pos);
        assert!((back - 150_000.0).abs() / 150_000.0 < 0.01, "{back}");
    }

    #[test]
    fn a_list_reads_back_what_it_writes() {
        let names = vec!["generation_changed".to_owned(), "label_changed".to_owned()];
        assert_eq!(list_names(&list_text(&names)), names);
        assert!(list_names("[]").is_empty());
    }
}
