//! The page's components, one per file. Each reads the [`crate::ctx::Ctx`] context; those that
//! draw live data also read the [`crate::live::LiveView`]. A part that keeps no state of its own
//! and draws no live data (the layout, the notices, the tab bar, the side picker, …) is a function
//! of the context or of its arguments, called in its parent's render, rather than a component:
//! each component type compiles Yew's component machinery (its scope, its runners, its props'
//! comparison) once more into the module.

mod act_buttons;
mod branch_tracks;
mod charts;
pub(crate) mod clock;
mod code;
pub(crate) mod command_bar;
mod controls;
mod dialogs;
mod embed_caption;
mod embed_dialog;
mod embed_options;
mod event_log;
mod explain;
mod fixes;
mod header;
mod inspect;
mod later;
mod layout;
mod myths;
mod notices;
pub(crate) mod pipelines;
pub mod presenter;
pub(crate) mod scenario;
pub(crate) mod setting;
mod setting_list;
mod settings_file;
mod side_picker;
mod size_panel;
mod size_results;
mod tabs;
mod timeline;
pub(crate) mod tour;
mod why;

pub use layout::layout;
pub use notices::notices;

pub use crate::ctx::use_ctx;
