//! The page's components, one per file. Each reads the [`crate::app::Ctx`] context.

mod charts;
mod code;
mod controls;
mod dialogs;
mod embed_caption;
mod embed_dialog;
mod event_log;
mod explain;
mod fixes;
mod header;
mod inspect;
mod layout;
mod myths;
mod notices;
pub(crate) mod pipelines;
pub(crate) mod scenario;
pub(crate) mod setting;
mod setting_list;
mod settings_file;
mod side_picker;
mod tabs;

pub use layout::Layout;
pub use notices::Notices;

use yew::prelude::*;

use crate::app::Ctx;

/// The context every component reads.
#[hook]
pub fn use_ctx() -> Ctx {
    use_context::<Ctx>().expect("components are rendered inside the App's context provider")
}
