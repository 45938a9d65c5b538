//! A canvas's text state (font, alignment, baseline) set only when it changes during a drawing
//! pass. Each setting crosses from WebAssembly to JavaScript with its text decoded, and the
//! pipeline draws a few dozen labels a frame, most in the state the previous one left.
//!
//! The state is remembered only inside a [`Pass`] (one canvas drawn from start to end with
//! nothing else drawing on it meanwhile); outside a pass every setting is applied.

use std::cell::RefCell;

use web_sys::CanvasRenderingContext2d;

/// The text settings last applied in the current pass (`None`: not known).
#[derive(Debug, Default, PartialEq)]
pub struct TextState {
    font: Option<String>,
    align: Option<String>,
    baseline: Option<String>,
}

impl TextState {
    /// Which of `font`, `align` and `baseline` differ from what was applied, remembering them
    /// as applied.
    pub fn changes<'a>(
        &mut self,
        font: &'a str,
        align: &'a str,
        baseline: &'a str,
    ) -> [Option<&'a str>; 3] {
        [
            changed(&mut self.font, font),
            changed(&mut self.align, align),
            changed(&mut self.baseline, baseline),
        ]
    }
}

fn changed<'a>(last: &mut Option<String>, now: &'a str) -> Option<&'a str> {
    if last.as_deref() == Some(now) {
        return None;
    }
    *last = Some(now.to_owned());
    Some(now)
}

thread_local! {
    /// The state of the canvas being drawn, while a pass is open.
    static CURRENT: RefCell<Option<TextState>> = const { RefCell::new(None) };
}

/// A drawing pass over one canvas: text settings are remembered until it is dropped.
pub struct Pass(());

impl Pass {
    /// Opens a pass; the canvas's state is not known yet, so the first settings are applied.
    pub fn begin() -> Pass {
        CURRENT.with_borrow_mut(|c| *c = Some(TextState::default()));
        Pass(())
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        CURRENT.with_borrow_mut(|c| *c = None);
    }
}

/// Sets `ctx`'s font, alignment and baseline, skipping those a pass already applied.
pub fn set(ctx: &CanvasRenderingContext2d, font: &str, align: &str, baseline: &str) {
    let [font, align, baseline] = CURRENT.with_borrow_mut(|c| match c {
        Some(state) => state.changes(font, align, baseline),
        None => [Some(font), Some(align), Some(baseline)],
    });
    if let Some(font) = font {
        ctx.set_font(font);
    }
    if let Some(align) = align {
        ctx.set_text_align(align);
    }
    if let Some(baseline) = baseline {
        ctx.set_text_baseline(baseline);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_settings_that_differ_from_the_last_applied_are_applied_again() {
        let mut s = TextState::default();
        let all = s.changes("700 14px sans-serif", "left", "middle");
        assert_eq!(
            all,
            [Some("700 14px sans-serif"), Some("left"), Some("middle")]
        );
        assert_eq!(
            s.changes("700 14px sans-serif", "left", "middle"),
            [None; 3]
        );
        assert_eq!(
            s.changes("400 11px sans-serif", "left", "middle"),
            [Some("400 11px sans-serif"), None, None]
        );
        assert_eq!(
            s.changes("400 11px sans-serif", "center", "middle"),
            [None, Some("center"), None]
        );
    }
}
