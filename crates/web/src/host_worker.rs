//! The engine's side in a Web Worker: `www/engine-worker.js` loads the page's own module there
//! and calls [`host_worker_start`], which answers each [`ToHost`] message with a
//! [`crate::host_msg::FromHost`], both as bytes ([`crate::host_msg::encode`]). The worker says
//! `ready` once it listens.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent};

use crate::host::EngineHost;
use crate::host_msg::ToHost;
use crate::runs::Side;

/// What the page says the worker is ready with (the first message it posts).
pub const READY: &str = "ready";

/// Wall-clock ms one slice of the pump runs the engine: the page's next frame waits behind at
/// most one slice, so its answer still comes within a display frame.
pub const PUMP_SLICE_MS: f64 = 8.0;

/// The engine's side and the pump that moves its runs on between the page's messages: a slice
/// at a time, each a task of its own (posted through a `MessageChannel`), so a message from the
/// page is answered between two slices.
struct Pumped {
    host: RefCell<EngineHost>,
    channel: MessageChannel,
    scheduled: Cell<bool>,
}

impl Pumped {
    /// Schedules the next slice when the runs have ground to cover and none is scheduled.
    fn schedule(&self) {
        if !self.scheduled.get() && self.host.borrow().wants_pump() {
            self.scheduled.set(true);
            let _ = self.channel.port1().post_message(&JsValue::NULL);
        }
    }

    fn slice(&self) {
        self.scheduled.set(false);
        crate::heap::grow_ahead();
        self.host.borrow_mut().pump(PUMP_SLICE_MS);
        self.schedule();
    }
}

/// Starts answering the page's messages on this worker's global scope.
#[wasm_bindgen]
pub fn host_worker_start() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let Ok(channel) = MessageChannel::new() else {
        return;
    };
    let pumped = Rc::new(Pumped {
        host: RefCell::new(EngineHost::pumped()),
        channel,
        scheduled: Cell::new(false),
    });
    let pump = pumped.clone();
    let on_slice = Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| pump.slice());
    pumped
        .channel
        .port2()
        .set_onmessage(Some(on_slice.as_ref().unchecked_ref()));
    on_slice.forget();
    let answer_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let bytes = js_sys::Uint8Array::new(&e.data()).to_vec();
        let (msg, side) = match crate::host_msg::decode::<(ToHost, Side)>(&bytes) {
            Ok(read) => read,
            Err(e) => {
                // a page and a worker of different builds: say so, answer nothing
                web_sys::console::error_1(
                    &format!("engine worker: unreadable message: {e}").into(),
                );
                return;
            }
        };
        crate::heap::grow_ahead();
        let out = pumped.host.borrow_mut().handle(msg, side);
        let bytes = crate::host_msg::encode(&out);
        let _ = answer_to.post_message(&js_sys::Uint8Array::from(&bytes[..]));
        pumped.schedule();
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // the scope holds the handler for the worker's life
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(READY));
}
