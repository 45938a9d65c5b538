//! The page state of causality and interventions: the "why did this run?" panel's content,
//! whether the command bar is open, and the branches the interventions started (each with the
//! interventions the URL records for it).

use std::rc::Rc;

use crate::config::UrlState;
use crate::do_steps::DoStep;
use crate::why_view::WhyView;

/// A branch as the timeline draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct BranchItem {
    /// The engine's id of it.
    pub id: u32,
    /// Where it starts (simulated seconds).
    pub base_s: f64,
    /// The interventions that made it, oldest first (empty for the first branch).
    pub dos: Vec<DoStep>,
}

/// What the why panel, the command bar and the branch tracks show.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WhyState {
    /// The panel's content, when open.
    pub view: Option<Rc<WhyView>>,
    /// The command bar is open.
    pub command: bool,
    /// The branches, oldest first (none until the first intervention).
    pub branches: Rc<Vec<BranchItem>>,
    /// The branch the runs are on.
    pub current: u32,
}

/// What changes it.
#[derive(Clone, Debug, PartialEq)]
pub enum WhyAction {
    /// Open the panel on this view, or close it.
    Show(Option<Rc<WhyView>>),
    /// Open or close the command bar.
    Command(bool),
    /// The branches now, and the one the runs are on (after an intervention, a switch or a
    /// reload that replayed the URL's).
    Branches(Rc<Vec<BranchItem>>, u32),
}

impl WhyState {
    /// Applies `a`; the URL's `do` follows the branch the runs are on.
    pub fn reduce(&mut self, url: &mut UrlState, a: WhyAction) {
        match a {
            WhyAction::Show(v) => self.view = v,
            WhyAction::Command(open) => self.command = open,
            WhyAction::Branches(branches, current) => {
                url.dos = branches
                    .iter()
                    .find(|b| b.id == current)
                    .map(|b| b.dos.clone())
                    .unwrap_or_default();
                self.branches = branches;
                self.current = current;
            }
        }
    }
}
