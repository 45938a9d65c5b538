//! The height an embed needs at a given width, from the compact layout's parts (see the
//! `.app.embed` rules in `www/style.css`): the caption, the control bar, one or two pipelines
//! with their counters, the two charts, and the panel when one is asked for. An e2e test loads
//! each width and checks that the page fits the height given here.

/// The widths the embed dialog offers (CSS px).
pub const EMBED_WIDTHS: [u32; 4] = [640, 800, 960, 1280];

/// What an embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmbedLayout {
    /// The iframe's width (CSS px).
    pub width: u32,
    /// Two pipelines (A and B).
    pub compare: bool,
    /// A panel (`tab=`) under the charts.
    pub panel: bool,
}

/// The page's padding (CSS px, each side).
const PAD: f64 = 6.0;
/// The caption's two lines and its margin.
const CAPTION: f64 = 43.0;
/// The control bar in one row, and in two.
const CONTROLS: (f64, f64) = (42.0, 69.0);
/// The timeline under the control bar, with its margins.
const TIMELINE: f64 = 30.0;
/// In a comparison, the line under the timeline naming where A and B part (`#parting`).
const PARTING: f64 = 18.0;
/// Width of the frame from which the control bar fits in one row.
const CONTROLS_ONE_ROW_MIN: f64 = 1200.0;
/// The counters under a pipeline in one row, and in two.
const STATS: (f64, f64) = (35.0, 58.0);
/// Width of a pipeline from which its counters fit in one row.
const STATS_ONE_ROW_MIN: f64 = 1000.0;
/// Width of the frame from which two pipelines stand side by side (`.app.embed .pipelines.ab`).
const AB_SIDE_BY_SIDE_ABOVE: f64 = 1800.0;
/// The caption above each pipeline of a comparison (`.pipeline .caption`: its variant in words).
const SIDE_CAPTION: f64 = 27.0;
/// Width of the frame above which the two charts stand side by side (`.charts`).
const CHARTS_SIDE_BY_SIDE_ABOVE: f64 = 700.0;
/// Gap between grid items.
const GAP: f64 = 9.0;
/// A chart's border and the read-out line under it.
const CHART_EXTRA: f64 = 18.0;
/// The control bar's and the charts' margins.
const MARGINS: f64 = 9.0;
/// The panel: its tab bar and its fixed-height body.
const PANEL: f64 = 304.0;
/// Room for what changes while the run plays (a longer pod state, the achieved speed).
const SLACK: f64 = 24.0;

/// The height (CSS px) an embed of `l` needs so nothing is cut.
pub fn embed_height(l: &EmbedLayout) -> u32 {
    let frame = f64::from(l.width);
    let inner = frame - 2.0 * PAD;
    let controls = TIMELINE
        + if frame >= CONTROLS_ONE_ROW_MIN {
            CONTROLS.0
        } else {
            CONTROLS.1
        };
    let (pipes, pipe_w) = match (l.compare, frame >= AB_SIDE_BY_SIDE_ABOVE) {
        (true, true) => (1.0, (inner - GAP) / 2.0),
        (true, false) => (2.0, inner),
        (false, _) => (1.0, inner),
    };
    let caption = if l.compare { SIDE_CAPTION } else { 0.0 };
    let parting = if l.compare { PARTING } else { 0.0 };
    let stats = if pipe_w >= STATS_ONE_ROW_MIN {
        STATS.0
    } else {
        STATS.1
    };
    let pipelines = pipes * (caption + pipe_w * 300.0 / 960.0 + 2.0 + stats) + (pipes - 1.0) * GAP;
    let (chart_rows, chart_w) = if frame > CHARTS_SIDE_BY_SIDE_ABOVE {
        (1.0, (inner - GAP) / 2.0)
    } else {
        (2.0, inner)
    };
    let charts = chart_rows * (chart_w * 250.0 / 560.0 + CHART_EXTRA) + (chart_rows - 1.0) * GAP;
    let panel = if l.panel { PANEL } else { 0.0 };
    let total =
        2.0 * PAD + CAPTION + controls + parting + MARGINS + pipelines + charts + panel + SLACK;
    total.ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_and_a_panel_make_an_embed_taller() {
        let one = embed_height(&EmbedLayout {
            width: 800,
            compare: false,
            panel: false,
        });
        let two = embed_height(&EmbedLayout {
            width: 800,
            compare: true,
            panel: false,
        });
        let panel = embed_height(&EmbedLayout {
            width: 800,
            compare: false,
            panel: true,
        });
        assert!(two > one + 200, "{one} {two}");
        assert!(panel > one + 200, "{one} {panel}");
        let wide = |compare| {
            embed_height(&EmbedLayout {
                width: 1920,
                compare,
                panel: false,
            })
        };
        let (wide_one, wide_ab) = (wide(false), wide(true));
        assert!(
            wide_ab <= wide_one,
            "from 1800 px A and B stand side by side, each half as wide: {wide_ab} {wide_one}"
        );
    }
}
