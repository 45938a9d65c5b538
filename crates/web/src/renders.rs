//! A render counter: every function component counts its renders by name, and the totals are
//! readable from the page as `window.__flywheelRenders()` (an object `{name: count}`), so a test
//! or a benchmark can tell which components re-render while the page plays.

use std::cell::RefCell;

use flywheel_engine::vec_map::VecMap;

thread_local! {
    static COUNTS: RefCell<VecMap<&'static str, u64>> = const { RefCell::new(VecMap::new()) };
}

/// Counts one render of the component `name` (called first thing in every function component).
pub fn count(name: &'static str) {
    COUNTS.with(|c| *c.borrow_mut().get_or_default(name) += 1);
}

/// The totals so far, by component name.
pub fn totals() -> VecMap<&'static str, u64> {
    COUNTS.with(|c| c.borrow().clone())
}

/// The totals as a JSON object `{"Name": count, …}`.
pub fn totals_json() -> String {
    serde_json::to_string(&totals()).unwrap_or_else(|_| "{}".to_owned())
}

/// Makes `window.__flywheelRenders()` return the totals (as an object).
#[cfg(target_arch = "wasm32")]
pub fn install() {
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::{JsCast, JsValue};
    let read = Closure::<dyn Fn() -> JsValue>::new(|| {
        js_sys::JSON::parse(&totals_json()).unwrap_or(JsValue::NULL)
    });
    let window = gloo::utils::window();
    let _ = js_sys::Reflect::set(
        &window,
        &"__flywheelRenders".into(),
        read.as_ref().unchecked_ref(),
    );
    read.forget();
}

/// Makes `window.__flywheelRenders()` return the totals (nothing to do off the browser).
#[cfg(not(target_arch = "wasm32"))]
pub fn install() {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_render_adds_one_to_its_component_total() {
        count("Probe");
        count("Probe");
        count("Other");
        let t = totals();
        assert_eq!(t.get("Probe"), Some(&2));
        assert_eq!(t.get("Other"), Some(&1));
        assert!(totals_json().contains("\"Probe\":2"));
    }
}
