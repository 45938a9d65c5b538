//! The live charts (drawn on canvases, `chart.rs`), redrawn from each live view (at most 10 times a second),
//! with a hover read-out of the values at the pointer's time.

use std::cell::RefCell;
use std::rc::Rc;

use flywheel_engine::float_text::fixed;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::use_ctx;
use crate::chart::{self, ChartSpec, PlotArea};
use crate::chart_data::{self, ChartKind};
use crate::live::use_live;
use crate::theme::{DARK, LIGHT};
use crate::web;

/// Props of one chart.
#[derive(Properties, PartialEq)]
pub struct ChartProps {
    /// Which chart.
    pub kind: ChartKind,
}

/// Chart canvas size (px).
pub const CHART_SIZE: (u32, u32) = (560, 270);

/// Sizes `canvas`'s backing store to its box × the device pixel ratio; returns the canvas pixels
/// per CSS pixel.
fn fit_to_box(canvas: &HtmlCanvasElement) -> f64 {
    let ratio = web::pixel_ratio();
    let (cw, ch) = (canvas.client_width(), canvas.client_height());
    if cw <= 0 || ch <= 0 {
        return f64::from(canvas.width()) / f64::from(CHART_SIZE.0);
    }
    let w = (f64::from(cw) * ratio).round() as u32;
    let h = (f64::from(ch) * ratio).round() as u32;
    if canvas.width() != w {
        canvas.set_width(w);
    }
    if canvas.height() != h {
        canvas.set_height(h);
    }
    f64::from(w) / f64::from(cw)
}

/// A chart as last drawn: what it shows and where its plot lies on the canvas.
type Drawn = (Rc<ChartSpec>, PlotArea);

/// One chart.
#[function_component(Chart)]
pub fn chart_view(props: &ChartProps) -> Html {
    crate::renders::count("Chart");
    let ctx = use_ctx();
    let live = use_live();
    let canvas = use_node_ref();
    let drawn: Rc<RefCell<Option<Drawn>>> = use_mut_ref(|| None);
    let readout = use_state(String::new);
    let kind = props.kind;
    {
        let (canvas, drawn) = (canvas.clone(), drawn.clone());
        let dark = ctx.dark();
        let spec = live.chart(kind);
        let cursor = live.cursor_s;
        use_effect_with((live.seq, dark), move |_| {
            let palette = if dark { &DARK } else { &LIGHT };
            let (Some(el), Some(spec)) = (canvas.cast::<HtmlCanvasElement>(), spec) else {
                return;
            };
            let k = fit_to_box(&el);
            match chart::draw(el, &spec, palette, k, cursor) {
                Ok(area) => *drawn.borrow_mut() = Some((spec, area)),
                Err(err) => gloo::console::warn!(format!("chart {}: {err}", kind.id())),
            }
        });
    }
    let hover = {
        let (canvas, drawn, readout) = (canvas.clone(), drawn.clone(), readout.clone());
        Callback::from(move |e: MouseEvent| {
            let (Some(el), Some((spec, area))) =
                (canvas.cast::<HtmlCanvasElement>(), drawn.borrow().clone())
            else {
                return;
            };
            let rect = el.get_bounding_client_rect();
            let px = (f64::from(e.client_x()) - rect.left()) * f64::from(el.width())
                / rect.width().max(1.0);
            readout.set(chart_data::readout(&spec, area.x_at(px)));
        })
    };
    let leave = {
        let readout = readout.clone();
        Callback::from(move |_: MouseEvent| readout.set(String::new()))
    };
    let label = kind.label().text(ctx.state.lang);
    html! {
        <figure class="chart">
            <canvas id={kind.id()} ref={canvas} width={CHART_SIZE.0.to_string()} height={CHART_SIZE.1.to_string()}
                role="img" aria-label={label} onmousemove={hover} onmouseleave={leave}
                data-cursor={live.cursor_s.map(|c| fixed(c, 3))}></canvas>
            <output class="readout" id={format!("{}-readout", kind.id())}>{ (*readout).clone() }</output>
        </figure>
    }
}

/// The charts: all four, or two in an embed.
#[function_component(Charts)]
pub fn charts() -> Html {
    crate::renders::count("Charts");
    let ctx = use_ctx();
    let kinds: &[ChartKind] = if ctx.state.url.embed {
        &[ChartKind::Memory, ChartKind::Requests]
    } else {
        &ChartKind::ALL
    };
    html! {
        <section class="charts" aria-label={crate::i18n::Msg::Charts.text(ctx.state.lang)}>
            { for kinds.iter().map(|k| html! { <Chart kind={*k} /> }) }
        </section>
    }
}
