//! Which keys the page's global shortcuts may take: a key belongs to the focused control when
//! that control uses it (a text field every key, a slider or select its arrows, a tab its arrows,
//! Home and End, a button its Space and Enter, a scrollable region its arrows and Space).

/// What has the keyboard focus, as far as the shortcuts care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Focus {
    /// The page itself (body, a heading, a canvas…).
    Page,
    /// A text field, a number field, a textarea or anything editable: every key is its own.
    Text,
    /// A slider or a select: arrows, Home/End, Page Up/Down, and typing to search.
    Slider,
    /// A tab of a tab list: arrows, Home/End, Space and Enter.
    Tab,
    /// A button, link, checkbox or `<summary>`: Space and Enter.
    Button,
    /// Another focusable element (`tabindex`), e.g. a scrollable log: arrows, Space, Page keys.
    Region,
}

/// Whether `key` (a `KeyboardEvent.key`) belongs to the focused control rather than to the
/// page's shortcuts.
pub fn owned_by_focus(focus: Focus, key: &str) -> bool {
    let arrows = matches!(
        key,
        "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Left" | "Right" | "Up" | "Down"
    );
    let jumps = matches!(key, "Home" | "End" | "PageUp" | "PageDown");
    let activate = matches!(key, " " | "Spacebar" | "Enter");
    match focus {
        Focus::Page => false,
        Focus::Text => key != "Escape",
        // a select also jumps to the option whose name starts with a typed letter
        Focus::Slider => arrows || jumps || key.chars().count() == 1,
        Focus::Tab => arrows || jumps || activate,
        Focus::Button => activate,
        Focus::Region => arrows || jumps || activate,
    }
}

/// The kind of focus of an element given its tag, `type` attribute, `role`, whether it carries
/// a `tabindex`, and whether it is editable.
pub fn focus_of(tag: &str, kind: &str, role: &str, tabindex: bool, editable: bool) -> Focus {
    let tag = tag.to_ascii_lowercase();
    match tag.as_str() {
        _ if editable => Focus::Text,
        "textarea" => Focus::Text,
        "select" => Focus::Slider,
        "input" => match kind {
            "checkbox" | "radio" | "button" | "submit" | "reset" | "file" => Focus::Button,
            "range" => Focus::Slider,
            _ => Focus::Text,
        },
        _ if role == "tab" => Focus::Tab,
        "button" | "a" | "summary" | "label" => Focus::Button,
        _ if tabindex => Focus::Region,
        _ => Focus::Page,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tab_keeps_its_arrows_and_the_page_gets_the_rest() {
        let tab = focus_of("BUTTON", "", "tab", true, false);
        assert_eq!(tab, Focus::Tab);
        assert!(owned_by_focus(tab, "ArrowRight"));
        assert!(owned_by_focus(tab, "End"));
        assert!(!owned_by_focus(tab, "r"));
        assert!(!owned_by_focus(tab, "+"));
    }

    #[test]
    fn fields_sliders_and_buttons_keep_what_they_use() {
        let text = focus_of("INPUT", "number", "", false, false);
        assert!(owned_by_focus(text, "r") && owned_by_focus(text, " "));
        assert!(!owned_by_focus(text, "Escape"));
        let slider = focus_of("INPUT", "range", "", false, false);
        assert!(owned_by_focus(slider, "ArrowRight"));
        assert!(
            owned_by_focus(slider, "+"),
            "a select searches by letters and signs"
        );
        let button = focus_of("BUTTON", "", "", false, false);
        assert!(owned_by_focus(button, " "));
        assert!(!owned_by_focus(button, "ArrowRight"));
        let log = focus_of("PRE", "", "", true, false);
        assert!(owned_by_focus(log, "ArrowRight"));
        assert!(!owned_by_focus(log, "n"));
        let page = focus_of("BODY", "", "", false, false);
        assert!(!owned_by_focus(page, "ArrowRight"));
    }
}
