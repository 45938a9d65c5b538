//! Parts of the page drawn one browser task after its first render: the first render then
//! builds only what the page shows first, and stays a short task (a task over 50 ms is one the
//! browser cannot answer input during).

use yew::prelude::*;

/// Whether the first render's task is over: false in the first render, true from a render in a
/// task of its own right after it.
#[hook]
pub fn use_after_first_render() -> bool {
    let after = use_state(|| false);
    {
        let after = after.clone();
        use_effect_with((), move |()| {
            gloo::timers::callback::Timeout::new(0, move || after.set(true)).forget();
        });
    }
    *after
}

/// What [`Later`] draws.
#[derive(Properties, PartialEq)]
pub struct LaterProps {
    /// Drawn from the task after the first render.
    pub children: Html,
}

/// Its children, drawn from the task after the page's first render.
#[function_component(Later)]
pub fn later(props: &LaterProps) -> Html {
    if use_after_first_render() {
        props.children.clone()
    } else {
        html! {}
    }
}
