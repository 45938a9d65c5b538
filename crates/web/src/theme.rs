//! Colours for canvas drawing, matched to the CSS themes, from the Okabe–Ito palette (safe for
//! colour-blind readers).

/// The colours one theme draws with (CSS colour strings).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Palette {
    /// Whether this is the dark theme.
    pub dark: bool,
    /// Canvas background.
    pub bg: &'static str,
    /// Text and outlines.
    pub fg: &'static str,
    /// Secondary text.
    pub muted: &'static str,
    /// Stage fill.
    pub panel: &'static str,
    /// Grid and borders.
    pub grid: &'static str,
    /// Blue.
    pub blue: &'static str,
    /// Sky blue.
    pub sky: &'static str,
    /// Bluish green.
    pub green: &'static str,
    /// Orange.
    pub orange: &'static str,
    /// Vermillion.
    pub vermillion: &'static str,
    /// Reddish purple.
    pub purple: &'static str,
    /// Yellow.
    pub yellow: &'static str,
}

/// The light theme.
pub const LIGHT: Palette = Palette {
    dark: false,
    bg: "#ffffff",
    fg: "#1d2330",
    muted: "#5b6475",
    panel: "#f3f5f8",
    grid: "#e1e4e9",
    blue: "#0072b2",
    sky: "#56b4e9",
    green: "#009e73",
    orange: "#e69f00",
    vermillion: "#d55e00",
    purple: "#cc79a7",
    yellow: "#b59f00",
};

/// The dark theme.
pub const DARK: Palette = Palette {
    dark: true,
    bg: "#12151c",
    fg: "#e6e9ef",
    muted: "#9aa3b2",
    panel: "#1b2029",
    grid: "#2c3340",
    blue: "#56b4e9",
    sky: "#8fd0f5",
    green: "#2fc59a",
    orange: "#e69f00",
    vermillion: "#ff7a33",
    purple: "#e08fbf",
    yellow: "#f0e442",
};

/// Parses `#rrggbb` into RGB.
pub fn rgb(hex: &str) -> (u8, u8, u8) {
    let h = hex.trim_start_matches('#');
    let p = |i: usize| u8::from_str_radix(h.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
    (p(0), p(2), p(4))
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_colours_parse() {
        assert_eq!(super::rgb("#0072b2"), (0, 114, 178));
    }
}
