//! What a sizing run projects, one row per number; each value carries its exact number in
//! `data-value` (bytes, ms, requests per second) beside the words it is shown in.

use flywheel_engine::float_text::{shortest, Fixed};
use yew::prelude::*;

use crate::i18n::{Lang, Msg};
use flywheel_engine::sizing::SizeReport;

/// Bytes in binary units (`12.3 MiB`).
pub fn bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut i = 0;
    while v >= 1024.0 && i + 1 < units.len() {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{b} B")
    } else {
        format!("{} {}", Fixed(v, 1), units[i])
    }
}

/// Milliseconds as seconds when long (`1.25 s`, `340 ms`).
pub fn millis(ms: u64) -> String {
    if ms >= 1000 {
        format!("{} s", Fixed(ms as f64 / 1000.0, 2))
    } else {
        format!("{ms} ms")
    }
}

/// One row: a label, the words, and the exact value.
fn row(id: &str, label: &str, words: String, value: String) -> Html {
    html! {
        <tr>
            <th scope="row">{ label.to_owned() }</th>
            <td id={id.to_owned()} data-value={value}>{ words }</td>
        </tr>
    }
}

/// The projected numbers.
pub fn size_results(n: &SizeReport, lang: Lang) -> Html {
    let first = format!(
        "{} {} · {} · {}",
        n.first_list_objects,
        Msg::SizeObjects.text(lang),
        bytes(n.first_list_bytes),
        millis(n.first_list_ms)
    );
    let sync = n
        .cache_sync_ms
        .map_or_else(|| Msg::SizeNotSynced.text(lang).to_owned(), millis);
    let limit = n
        .memory_limit_bytes
        .map_or_else(|| Msg::SizeNoLimit.text(lang).to_owned(), bytes);
    let crossed = if n.limit_crossed {
        format!("{} ×{}", Msg::SizeCrossed.text(lang), n.oom_kills)
    } else {
        Msg::SizeWithin.text(lang).to_owned()
    };
    html! {
        <table id="size-results" class="size-results">
            <tbody>
                { row("size-first-list", Msg::SizeFirstList.text(lang), first,
                    format!("{} {} {}", n.first_list_objects, n.first_list_bytes, n.first_list_ms)) }
                { row("size-cache-sync", Msg::SizeCacheSync.text(lang), sync,
                    n.cache_sync_ms.map(|m| m.to_string()).unwrap_or_default()) }
                { row("size-pod-cache", Msg::SizePodCache.text(lang), n.pod_cache_objects.to_string(), n.pod_cache_objects.to_string()) }
                <tr>
                    <th scope="row">{ Msg::SizeHeapByOwner.text(lang) }</th>
                    <td id="size-heap">
                        <ul>{ for n.cache_bytes_by_owner.iter().filter(|(_, b)| **b > 0).map(|(owner, b)| html! {
                            <li data-owner={owner.clone()} data-value={b.to_string()}><code>{ owner.clone() }</code>{ format!(" {}", bytes(*b)) }</li>
                        }) }</ul>
                    </td>
                </tr>
                { row("size-steady-rss", Msg::SizeSteadyRss.text(lang), bytes(n.steady_rss_bytes), n.steady_rss_bytes.to_string()) }
                { row("size-relist-spike", Msg::SizeRelistSpike.text(lang), format!("+{}", bytes(n.relist_spike_bytes)), n.relist_spike_bytes.to_string()) }
                { row("size-steady-qps", Msg::SizeSteadyQps.text(lang), format!("{} {}", Fixed(n.steady_qps, 1), Msg::SizePerSecond.text(lang)), shortest(n.steady_qps)) }
                { row("size-peak", Msg::SizePeak.text(lang), format!("{} / {limit}", bytes(n.peak_rss_bytes)), n.peak_rss_bytes.to_string()) }
                { row("size-crossed", "", crossed, n.limit_crossed.to_string()) }
            </tbody>
        </table>
    }
}
