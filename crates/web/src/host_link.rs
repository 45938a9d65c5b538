//! Where the page's engine runs: in a Web Worker (`www/engine-worker.js`) when the browser
//! starts one, so the engine has a core of its own and the page only draws; else in the page
//! itself. Either way the page sends [`ToHost`] messages and reads [`FromHost`] answers from an
//! inbox, which it empties after each call and in each animation frame.
//!
//! ```text
//!  send(ToHost) ─┬─ in the page:  EngineHost::handle ──────────────────▶ inbox ──▶ take()
//!                └─ in a worker:  bytes ──postMessage──▶ worker ──bytes──▶ inbox ──▶ take()
//! ```
//!
//! A worker that fails before it says it is ready (no module workers, a blocked script) is
//! dropped, and the messages waiting for it are handled in the page.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use crate::host::EngineHost;
use crate::host_msg::{FromHost, Known, ToHost};
use crate::runs::Side;

/// Where the worker's script is, relative to the page.
pub const WORKER_SCRIPT: &str = "www/engine-worker.js";

/// The engine's side as the page reaches it.
enum Mode {
    /// In the page.
    Local(Box<EngineHost>),
    /// In a worker that has not said it is ready: the messages wait.
    Starting(Remote, Vec<(ToHost, Side)>),
    /// In a worker.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Worker(Remote),
}

/// The page's link to the engine's side (see the module docs).
pub struct HostLink {
    mode: RefCell<Mode>,
    inbox: RefCell<VecDeque<FromHost>>,
    known: RefCell<Known>,
    /// The object keys last told (an answer carries them only when they changed).
    keys: RefCell<Vec<String>>,
    /// A frame was sent to the worker and not answered yet (the page sends the next one only
    /// then, so frames never queue up behind a busy engine).
    frame_in_flight: Cell<bool>,
    /// The last build asked for, sent again to the page's own engine if a running worker fails.
    last_build: RefCell<Option<(ToHost, Side)>>,
    /// Told when a worker's answer arrives, so the page follows it at once, not a frame later.
    on_answer: RefCell<Option<Rc<dyn Fn()>>>,
}

impl Default for HostLink {
    fn default() -> Self {
        HostLink::local()
    }
}

impl HostLink {
    /// The engine in the page.
    pub fn local() -> HostLink {
        HostLink {
            mode: RefCell::new(Mode::Local(Box::default())),
            inbox: RefCell::new(VecDeque::new()),
            known: RefCell::new(Known::default()),
            keys: RefCell::new(Vec::new()),
            frame_in_flight: Cell::new(false),
            last_build: RefCell::new(None),
            on_answer: RefCell::new(None),
        }
    }

    /// The engine in a Web Worker when one starts, else in the page.
    pub fn start() -> Rc<HostLink> {
        let link = Rc::new(HostLink::local());
        if let Some(remote) = Remote::spawn(&link) {
            *link.mode.borrow_mut() = Mode::Starting(remote, Vec::new());
        }
        link
    }

    /// Sends `msg` for the page whose side shown is `side`. In the page it is handled at once
    /// and its answer waits in the inbox.
    pub fn send(&self, msg: ToHost, side: Side) {
        let frame = matches!(msg, ToHost::Frame(..));
        if matches!(msg, ToHost::Build(_)) {
            *self.last_build.borrow_mut() = Some((msg.clone(), side));
        }
        let mut mode = self.mode.borrow_mut();
        match &mut *mode {
            Mode::Local(host) => {
                let answer = host.handle(msg, side);
                drop(mode);
                self.receive(answer);
            }
            Mode::Starting(_, waiting) => {
                if frame {
                    // a frame waits only as the newest: the worker draws from it when ready
                    waiting.retain(|(m, _)| !matches!(m, ToHost::Frame(..)));
                }
                waiting.push((msg, side));
                self.frame_in_flight
                    .set(frame || self.frame_in_flight.get());
            }
            Mode::Worker(remote) => {
                remote.post(&msg, side);
                if frame {
                    self.frame_in_flight.set(true);
                }
            }
        }
    }

    /// Has `f` told whenever a worker's answer arrives (`None`: nobody).
    pub fn set_on_answer(&self, f: Option<Rc<dyn Fn()>>) {
        *self.on_answer.borrow_mut() = f;
    }

    /// Tells whoever asked that an answer arrived.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn answered(&self) {
        let f = self.on_answer.borrow().clone();
        if let Some(f) = f {
            f();
        }
    }

    /// Whether the page may send a frame now (none is waiting for its answer).
    pub fn frame_wanted(&self) -> bool {
        !self.frame_in_flight.get()
    }

    /// The answers received since the last call, oldest first.
    pub fn take(&self) -> Vec<FromHost> {
        self.inbox.borrow_mut().drain(..).collect()
    }

    /// What the engine's side last told the page it can read at once (without the object
    /// keys: [`HostLink::keys`]).
    pub fn known(&self) -> Known {
        self.known.borrow().clone()
    }

    /// The custom resources' keys of the side shown, in key order (at most 64), as last told.
    pub fn keys(&self) -> Vec<String> {
        self.keys.borrow().clone()
    }

    fn receive(&self, answer: FromHost) {
        if answer.frame.is_some() {
            self.frame_in_flight.set(false);
        }
        let mut known = self.known.borrow_mut();
        known.clone_from(&answer.known);
        if let Some(keys) = known.keys.take() {
            *self.keys.borrow_mut() = keys;
        }
        drop(known);
        self.inbox.borrow_mut().push_back(answer);
    }

    /// The worker said it is ready: what waited is sent.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn ready(&self) {
        let mut mode = self.mode.borrow_mut();
        let old = std::mem::replace(&mut *mode, Mode::Local(Box::default()));
        *mode = match old {
            Mode::Starting(remote, waiting) => {
                for (msg, side) in &waiting {
                    remote.post(msg, *side);
                }
                Mode::Worker(remote)
            }
            other => other,
        };
    }

    /// The worker failed: the engine runs in the page from here on, starting with what waited
    /// for the worker; a worker that was already running takes its runs with it, so the last
    /// build is made again in the page (from the start of the run).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn failed(&self) {
        let old = std::mem::replace(&mut *self.mode.borrow_mut(), Mode::Local(Box::default()));
        self.frame_in_flight.set(false);
        match old {
            Mode::Starting(remote, waiting) => {
                remote.stop();
                for (msg, side) in waiting {
                    self.send(msg, side);
                }
            }
            Mode::Worker(remote) => {
                remote.stop();
                let build = self.last_build.borrow().clone();
                if let Some((msg, side)) = build {
                    self.send(msg, side);
                }
            }
            Mode::Local(_) => {}
        }
    }
}

#[cfg(target_arch = "wasm32")]
use wasm::Remote;

#[cfg(not(target_arch = "wasm32"))]
use native::Remote;

/// Off the browser there is no worker: the engine always runs in the page.
#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::*;

    pub(super) struct Remote;

    impl Remote {
        pub(super) fn spawn(_link: &Rc<HostLink>) -> Option<Remote> {
            None
        }

        pub(super) fn post(&self, _msg: &ToHost, _side: Side) {}

        #[allow(dead_code)]
        pub(super) fn stop(&self) {}
    }
}

#[cfg(target_arch = "wasm32")]
mod wasm {
    use super::*;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

    /// A worker and its handlers (kept as long as it runs).
    pub(super) struct Remote {
        worker: Worker,
        _on_message: Closure<dyn FnMut(MessageEvent)>,
        _on_error: Closure<dyn FnMut(JsValue)>,
    }

    impl Remote {
        pub(super) fn spawn(link: &Rc<HostLink>) -> Option<Remote> {
            let options = WorkerOptions::new();
            options.set_type(WorkerType::Module);
            let worker = Worker::new_with_options(WORKER_SCRIPT, &options).ok()?;
            let to = Rc::downgrade(link);
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let Some(link) = to.upgrade() else {
                    return;
                };
                let data = e.data();
                if data.as_string().as_deref() == Some(crate::host_worker::READY) {
                    link.ready();
                    return;
                }
                let bytes = js_sys::Uint8Array::new(&data).to_vec();
                match crate::host_msg::decode::<FromHost>(&bytes) {
                    Ok(answer) => {
                        link.receive(answer);
                        link.answered();
                    }
                    Err(e) => {
                        // a lost answer must not stop the frames: the next one is asked for
                        link.frame_in_flight.set(false);
                        web_sys::console::error_1(
                            &format!("engine worker: unreadable answer: {e}").into(),
                        );
                    }
                }
            });
            let to = Rc::downgrade(link);
            let on_error = Closure::<dyn FnMut(JsValue)>::new(move |_: JsValue| {
                if let Some(link) = to.upgrade() {
                    link.failed();
                }
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            // the page's own compiled module: the worker starts from it without a fetch
            worker.post_message(&wasm_bindgen::module()).ok()?;
            Some(Remote {
                worker,
                _on_message: on_message,
                _on_error: on_error,
            })
        }

        pub(super) fn post(&self, msg: &ToHost, side: Side) {
            let bytes = crate::host_msg::encode_ask(msg, side);
            let _ = self
                .worker
                .post_message(&js_sys::Uint8Array::from(&bytes[..]));
        }

        pub(super) fn stop(&self) {
            self.worker.terminate();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::RunConfig;
    use crate::ctx::LoopState;
    use crate::host::{Build, FrameTimes};

    #[test]
    fn in_the_page_each_message_is_answered_at_once_into_the_inbox() {
        let link = HostLink::local();
        let build = Build {
            config: RunConfig::preset("flywheel"),
            compare: None,
            dos: Vec::new(),
            t_s: None,
            tour: None,
        };
        link.send(ToHost::Build(Box::new(build)), Side::A);
        let ui = LoopState {
            playing: true,
            speed: 1000.0,
            ..LoopState::default()
        };
        let times = FrameTimes {
            ts: 16.0,
            wall_ms: 16.0,
            dt: 16.0,
            anim_ms: 16.0,
        };
        link.send(ToHost::Frame(Box::new(ui.clone()), times), Side::A);
        assert!(link.frame_wanted(), "nothing waits for an answer");
        let answers = link.take();
        assert_eq!(answers.len(), 2);
        assert!(answers[0].frame.is_none() && answers[1].frame.is_some());
        // 16 ms at 1000×
        assert_eq!(link.known().now_s, Some(16.0));
        assert!(!link.keys().is_empty(), "the flywheel's objects are known");
        assert!(link.take().is_empty(), "each answer is taken once");
        let told = link.keys();
        let times = FrameTimes {
            ts: 32.0,
            wall_ms: 32.0,
            dt: 16.0,
            anim_ms: 32.0,
        };
        link.send(ToHost::Frame(Box::new(ui), times), Side::A);
        let answers = link.take();
        assert_eq!(
            answers[0].known.keys, None,
            "an answer carries the keys only when they changed"
        );
        assert_eq!(link.keys(), told, "the link keeps the keys last told");
    }
}
