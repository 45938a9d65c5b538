//! Why the page refused a URL parameter, a stored value or a settings file, in English and
//! 简体中文. A refused value is quoted only when it is short, readable text: bytes that are not
//! text are described, never echoed.

use std::fmt;

use crate::i18n::Lang;

/// Longest value quoted back to the user, in characters.
pub const MAX_QUOTED: usize = 40;

/// Why something was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// `preset=` names no preset.
    UnknownPreset(String),
    /// `v=` or `b=` holds an unknown fix token.
    UnknownFix(String),
    /// `profile=` is neither `seed` nor `modern`.
    UnknownProfile(String),
    /// Not a whole number ≥ 0 (`seed=-3`, `seed=1.5`).
    NotWholeNumber(String),
    /// A whole number above the largest the field holds.
    TooLarge {
        /// What was given.
        raw: String,
        /// The largest accepted value.
        max: String,
    },
    /// Not a number at all (`speed=abc`, `NaN`, `inf`).
    NotANumber(String),
    /// A number outside the accepted range.
    OutOfRange {
        /// What was given.
        raw: String,
        /// Smallest accepted.
        min: String,
        /// Largest accepted.
        max: String,
    },
    /// `lang=` names no language of the page.
    UnknownLang(String),
    /// `theme=` is not `auto`, `light` or `dark`.
    UnknownTheme(String),
    /// `tab=` names no panel.
    UnknownTab(String),
    /// A flag (`embed`, `autoplay`) that is not `0` or `1`.
    NotAFlag(String),
    /// A parameter the page does not know.
    UnknownParameter,
    /// A settings file or stored value larger than the page reads.
    TooManyBytes {
        /// Its size.
        bytes: u64,
        /// The most the page reads.
        max: u64,
    },
    /// Binary data where text was expected.
    NotText,
    /// Nothing at all.
    Empty,
    /// The first line is not the settings format line (what it was, when readable).
    NoFormatLine(String),
    /// More lines after the settings line.
    ExtraLines,
    /// Embed flags in stored settings.
    EmbedNotStored,
    /// One setting of a settings file was refused.
    Setting {
        /// The setting's key.
        key: String,
        /// Why.
        why: Box<Reason>,
    },
    /// The browser could not read the file.
    Unreadable,
    /// Refused by the validation the CLI and scenario files share, in its words (`field: must
    /// be … (got …)`).
    Refused(String),
}

/// `raw` quoted for a message: `'abc'`, shortened with `…`; `None` when it is not readable text
/// (control characters, or bytes that were not UTF-8).
pub fn quoted(raw: &str) -> Option<String> {
    if raw
        .chars()
        .any(|c| c == '\u{fffd}' || (c.is_control() && c != '\t'))
    {
        return None;
    }
    let mut s: String = raw.chars().take(MAX_QUOTED).collect();
    if raw.chars().count() > MAX_QUOTED {
        s.push('…');
    }
    Some(format!("'{s}'"))
}

/// Whether `text` looks like binary data rather than text: a NUL, bytes that were not UTF-8
/// (decoded as U+FFFD), or control characters other than tabs and line ends.
pub fn looks_binary(text: &str) -> bool {
    text.chars().any(|c| {
        c == '\0' || c == '\u{fffd}' || (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
    })
}

fn q(raw: &str, lang: Lang) -> String {
    quoted(raw).unwrap_or_else(|| {
        match lang {
            Lang::En => "the value (not readable text)",
            Lang::Zh => "该值（不是可读的文本）",
        }
        .to_owned()
    })
}

impl Reason {
    /// The message in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        match self {
            Reason::UnknownPreset(r) if zh => format!("没有名为 {} 的预设场景", q(r, lang)),
            Reason::UnknownPreset(r) => format!("unknown preset {}", q(r, lang)),
            Reason::UnknownFix(r) if zh => format!("未知的修复项 {}", q(r, lang)),
            Reason::UnknownFix(r) => format!("unknown fix {}", q(r, lang)),
            Reason::UnknownProfile(r) if zh => {
                format!("未知的版本配置 {}（可用：seed、modern）", q(r, lang))
            }
            Reason::UnknownProfile(r) => format!("unknown profile {} (seed, modern)", q(r, lang)),
            Reason::NotWholeNumber(r) if zh => format!("{} 不是 ≥ 0 的整数", q(r, lang)),
            Reason::NotWholeNumber(r) => format!("{} is not a whole number ≥ 0", q(r, lang)),
            Reason::TooLarge { raw, max } if zh => {
                format!("{} 太大（最大为 {max}）", q(raw, lang))
            }
            Reason::TooLarge { raw, max } => {
                format!("{} is too large (the largest is {max})", q(raw, lang))
            }
            Reason::Refused(m) if zh => format!("不被接受：{m}"),
            Reason::Refused(m) => m.clone(),
            Reason::NotANumber(r) if zh => format!("{} 不是数字", q(r, lang)),
            Reason::NotANumber(r) => format!("{} is not a number", q(r, lang)),
            Reason::OutOfRange { raw, min, max } if zh => {
                format!("{} 超出范围 {min} 到 {max}", q(raw, lang))
            }
            Reason::OutOfRange { raw, min, max } => {
                format!("{} is outside {min} to {max}", q(raw, lang))
            }
            Reason::UnknownLang(r) if zh => format!("未知的语言 {}（可用：en、zh）", q(r, lang)),
            Reason::UnknownLang(r) => format!("unknown language {} (en, zh)", q(r, lang)),
            Reason::UnknownTheme(r) if zh => {
                format!("未知的主题 {}（可用：auto、light、dark）", q(r, lang))
            }
            Reason::UnknownTheme(r) => {
                format!("unknown theme {} (auto, light, dark)", q(r, lang))
            }
            Reason::UnknownTab(r) if zh => format!(
                "未知的面板 {}（可用：explain、code、inspect、log、myths）",
                q(r, lang)
            ),
            Reason::UnknownTab(r) => format!(
                "unknown tab {} (explain, code, inspect, log, myths)",
                q(r, lang)
            ),
            Reason::NotAFlag(r) if zh => format!("{} 不是 0 或 1", q(r, lang)),
            Reason::NotAFlag(r) => format!("{} is not 0 or 1", q(r, lang)),
            Reason::UnknownParameter if zh => "未知的参数".to_owned(),
            Reason::UnknownParameter => "unknown parameter".to_owned(),
            Reason::TooManyBytes { bytes, max } if zh => {
                format!("文件有 {bytes} 字节，超过了 {max} 字节的上限")
            }
            Reason::TooManyBytes { bytes, max } => {
                format!("{bytes} bytes, more than the {max} bytes a settings file may have")
            }
            Reason::NotText if zh => format!(
                "这不是设置文件：它包含二进制数据而不是文本（第一行应为 {}）",
                crate::persist::FORMAT
            ),
            Reason::NotText => format!(
                "not a settings file: it holds binary data, not text (its first line should be {})",
                crate::persist::FORMAT
            ),
            Reason::Empty if zh => "文件是空的".to_owned(),
            Reason::Empty => "empty".to_owned(),
            Reason::NoFormatLine(first) => {
                let got = quoted(first).filter(|_| !first.is_empty());
                match (zh, got) {
                    (true, Some(g)) => {
                        format!("第一行应为 {}（实际为 {g}）", crate::persist::FORMAT)
                    }
                    (true, None) => format!("第一行应为 {}", crate::persist::FORMAT),
                    (false, Some(g)) => format!(
                        "expected {} on the first line (got {g})",
                        crate::persist::FORMAT
                    ),
                    (false, None) => {
                        format!("expected {} on the first line", crate::persist::FORMAT)
                    }
                }
            }
            Reason::ExtraLines if zh => "设置行之后还有多余的行".to_owned(),
            Reason::ExtraLines => "unexpected lines after the settings".to_owned(),
            Reason::EmbedNotStored if zh => "嵌入模式的设置不会被保存".to_owned(),
            Reason::EmbedNotStored => "embed settings are not stored".to_owned(),
            Reason::Setting { key, why } => format!("{key}: {}", why.text(lang)),
            Reason::Unreadable if zh => "浏览器无法读取该文件".to_owned(),
            Reason::Unreadable => "the browser could not read the file".to_owned(),
        }
    }

    /// Reads `raw` as a whole number ≥ 0 that fits in a `u64`.
    pub fn whole_number(raw: &str) -> Result<u64, Reason> {
        let t = raw.trim();
        match t.parse::<u64>() {
            Ok(v) => Ok(v),
            Err(_)
                if !t.is_empty()
                    && t.trim_start_matches('+')
                        .bytes()
                        .all(|b| b.is_ascii_digit()) =>
            {
                Err(Reason::TooLarge {
                    raw: raw.to_owned(),
                    max: u64::MAX.to_string(),
                })
            }
            Err(_) => Err(Reason::NotWholeNumber(raw.to_owned())),
        }
    }

    /// Reads `raw` as a finite number within `min..=max`.
    pub fn number_in(raw: &str, min: f64, max: f64) -> Result<f64, Reason> {
        match raw.trim().parse::<f64>() {
            Ok(v) if !v.is_finite() => Err(Reason::NotANumber(raw.to_owned())),
            Ok(v) if (min..=max).contains(&v) => Ok(v),
            Ok(_) => Err(Reason::OutOfRange {
                raw: raw.to_owned(),
                min: crate::config::trim_float(min),
                max: crate::config::trim_float(max),
            }),
            Err(_) => Err(Reason::NotANumber(raw.to_owned())),
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_too_large_is_called_too_large_not_negative() {
        let e = Reason::whole_number("99999999999999999999999").expect_err("refused");
        assert!(e.to_string().contains("too large"), "{e}");
        assert!(e.to_string().contains("18446744073709551615"), "{e}");
        assert!(Reason::whole_number("-3")
            .expect_err("refused")
            .to_string()
            .contains("not a whole number"));
        assert_eq!(Reason::whole_number("42"), Ok(42));
    }

    #[test]
    fn text_that_is_no_number_is_called_no_number() {
        for raw in ["abc", "NaN", "inf", ""] {
            let e = Reason::number_in(raw, 0.1, 10_000.0).expect_err("refused");
            assert!(e.to_string().contains("not a number"), "{raw}: {e}");
        }
        let e = Reason::number_in("1e9", 0.1, 10_000.0).expect_err("refused");
        assert_eq!(e.to_string(), "'1e9' is outside 0.1 to 10000");
    }

    #[test]
    fn unreadable_bytes_are_described_not_echoed() {
        let e = Reason::NoFormatLine("\u{0}\u{fffd}PNG".into());
        assert_eq!(
            e.to_string(),
            "expected flywheel-settings/1 on the first line"
        );
        assert!(looks_binary("\u{fffd}PNG\r\n\u{1a}\n"));
        assert!(!looks_binary("flywheel-settings/1\r\npreset=fixed\n"));
        assert_eq!(quoted(&"x".repeat(50)).map(|s| s.chars().count()), Some(43));
    }

    #[test]
    fn every_reason_reads_in_both_languages() {
        let r = Reason::Setting {
            key: "seed".into(),
            why: Box::new(Reason::NotANumber("abc".into())),
        };
        assert_eq!(r.text(Lang::En), "seed: 'abc' is not a number");
        assert_eq!(r.text(Lang::Zh), "seed: 'abc' 不是数字");
    }
}
