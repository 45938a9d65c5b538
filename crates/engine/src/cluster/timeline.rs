//! Where a run keeps its checkpoints: along branches, how far apart, and which go when memory
//! runs short.
//!
//! ```text
//!  branch 0   ●────○────○────○────○──▶ head      ● base: where the branch starts (kept)
//!                       │                          ○ a checkpoint every `spacing` events,
//!  branch 1             ●──○────○──▶ head            taken when the run passes the newest
//!
//!  seek(t): the newest checkpoint at or before t, then replay   ○────○──┼──○
//!                                                                    └──▶t
//!  over budget: drop every second ○ of a branch, double its spacing
//!       ●──○──○──○──○──○──○   ⇒   ●─────○─────○─────○   (still evenly spread)
//! ```
//!
//! A branch's base is the state at its fork, after the intervention that starts it, so replaying
//! anywhere on the branch re-applies that intervention. Before its base a branch shares its
//! parent's history: a seek there lands on the parent. A branch's head is where the run left it,
//! kept as an event count, not as a state: returning replays to it from the nearest checkpoint.
//!
//! The budget counts each branch's base at its full estimated size ([`Stamped::bytes`]) and
//! each later checkpoint at what it adds beside the one before it ([`Stamped::bytes_after`]):
//! checkpoints share the state they have in common. When the
//! checkpoints exceed it, the other branches are thinned first, then the current one; when no
//! branch can be thinned, the oldest other branches are dropped. No more than
//! [`TimelineOptions::max_branches`] branches are kept: a fork beyond it drops the oldest branch
//! that is neither the current one nor one of its ancestors.

use crate::time::SimTime;
use crate::vec_map::VecMap;

/// Checkpoint memory of a run unless the caller says otherwise (the page's default).
pub const DEFAULT_BUDGET_BYTES: u64 = 256 * 1024 * 1024;

/// Branches kept unless the caller says otherwise.
pub const DEFAULT_MAX_BRANCHES: usize = 8;

/// Fewest events between two automatic checkpoints unless the caller says otherwise: replaying
/// this many of the `flywheel` preset takes 2 to 4 ms natively (about 10 ms in the page), and
/// taking its checkpoint (0.1 ms: the metric series, the trace ring's newest chunk, the small
/// parts) costs a few percent of handling them.
pub const DEFAULT_SPACING_EVENTS: u64 = 2_000;

/// The caller's limits on a timeline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineOptions {
    /// Most estimated bytes all checkpoints together may take.
    pub budget_bytes: u64,
    /// Most branches kept.
    pub max_branches: usize,
    /// Fewest events between two automatic checkpoints of a branch.
    pub spacing_events: u64,
}

impl Default for TimelineOptions {
    fn default() -> Self {
        TimelineOptions {
            budget_bytes: DEFAULT_BUDGET_BYTES,
            max_branches: DEFAULT_MAX_BRANCHES,
            spacing_events: DEFAULT_SPACING_EVENTS,
        }
    }
}

/// What the timeline needs to know of a checkpoint.
pub trait Stamped {
    /// The simulated time it was taken at.
    fn at(&self) -> SimTime;
    /// Events handled before it was taken.
    fn events(&self) -> u64;
    /// Its estimated size in bytes, sharing nothing.
    fn bytes(&self) -> u64;
    /// The estimated bytes it adds beside `earlier`, the checkpoint before it on its branch
    /// (its full size unless it shares state with `earlier`).
    fn bytes_after(&self, earlier: &Self) -> u64 {
        let _ = earlier;
        self.bytes()
    }
    /// Fewest events worth handling before the next checkpoint: about as many as take as long
    /// as copying this one, so copies stay a small share of a run.
    fn min_spacing_events(&self) -> u64;
}

/// Names a branch of a timeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BranchId(pub u32);

/// What a caller sees of a branch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BranchInfo {
    /// The branch.
    pub id: BranchId,
    /// The branch it forked from (`None` for the first, or when that branch was dropped).
    pub parent: Option<BranchId>,
    /// The caller's name for it.
    pub label: String,
    /// When it starts.
    pub base_at: SimTime,
    /// Its checkpoints, the base included.
    pub checkpoints: usize,
    /// Their estimated bytes.
    pub bytes: u64,
    /// Events between its automatic checkpoints.
    pub spacing_events: u64,
}

struct Branch<S> {
    parent: Option<BranchId>,
    label: String,
    /// Oldest first; `marks[0]` is the base.
    marks: Vec<S>,
    /// Where the run left this branch: events handled, and the clock.
    head: Option<(u64, SimTime)>,
    spacing_events: u64,
}

impl<S: Stamped> Branch<S> {
    fn new(parent: Option<BranchId>, label: &str, base: S, spacing_events: u64) -> Branch<S> {
        Branch {
            parent,
            label: label.to_owned(),
            marks: vec![base],
            head: None,
            spacing_events,
        }
    }

    fn base(&self) -> &S {
        &self.marks[0]
    }

    fn newest(&self) -> &S {
        &self.marks[self.marks.len() - 1]
    }

    /// The base's full size and what each later mark adds beside the one before it.
    fn bytes(&self) -> u64 {
        let later: u64 = self
            .marks
            .windows(2)
            .map(|pair| pair[1].bytes_after(&pair[0]))
            .sum();
        self.base().bytes() + later
    }

    /// The newest mark for which `reached` holds (marks are in time and event order).
    fn last_where(&self, reached: impl Fn(&S) -> bool) -> Option<&S> {
        let n = self.marks.partition_point(reached);
        n.checked_sub(1).map(|i| &self.marks[i])
    }

    /// Drops every second mark between the base and the newest; doubles the spacing. Returns
    /// whether any went.
    fn thin(&mut self, dropped: &mut Vec<S>) -> bool {
        let last = self.marks.len().saturating_sub(1);
        if last < 2 {
            return false;
        }
        for (i, mark) in std::mem::take(&mut self.marks).into_iter().enumerate() {
            if i % 2 == 0 || i == last {
                self.marks.push(mark);
            } else {
                dropped.push(mark);
            }
        }
        self.spacing_events = self.spacing_events.saturating_mul(2);
        true
    }
}

/// The checkpoints of a run, along its branches.
pub struct Timeline<S> {
    branches: VecMap<BranchId, Branch<S>>,
    current: BranchId,
    next_id: u32,
    options: TimelineOptions,
    /// Checkpoints let go to keep the budget, not yet freed ([`Timeline::free_dropped`]).
    dropped: Vec<S>,
}

impl<S: Stamped> Timeline<S> {
    /// A timeline whose first branch starts at `base`.
    pub fn new(options: TimelineOptions, base: S) -> Timeline<S> {
        let first = Branch::new(None, "main", base, options.spacing_events);
        let mut timeline = Timeline {
            branches: VecMap::from([(BranchId(0), first)]),
            current: BranchId(0),
            next_id: 1,
            options,
            dropped: Vec::new(),
        };
        timeline.enforce_budget();
        timeline
    }

    /// The caller's limits.
    pub fn options(&self) -> &TimelineOptions {
        &self.options
    }

    /// The branch the run is on.
    pub fn current(&self) -> BranchId {
        self.current
    }

    /// Estimated bytes of every checkpoint kept.
    pub fn bytes(&self) -> u64 {
        self.branches.values().map(Branch::bytes).sum()
    }

    /// Every branch kept, oldest first.
    pub fn branches(&self) -> Vec<BranchInfo> {
        let info = |(id, b): (&BranchId, &Branch<S>)| BranchInfo {
            id: *id,
            parent: b.parent,
            label: b.label.clone(),
            base_at: b.base().at(),
            checkpoints: b.marks.len(),
            bytes: b.bytes(),
            spacing_events: b.spacing_events,
        };
        self.branches.iter().map(info).collect()
    }

    /// The checkpoints of `branch`, oldest first.
    pub fn checkpoints(&self, branch: BranchId) -> &[S] {
        self.branches.get(&branch).map_or(&[], |b| &b.marks)
    }

    /// The event count at which the current branch takes its next automatic checkpoint.
    pub fn next_due_events(&self) -> u64 {
        let b = self.current_branch();
        let newest = b.newest();
        let spacing = b.spacing_events.max(newest.min_spacing_events());
        newest.events().saturating_add(spacing)
    }

    /// Adds `mark` to the current branch if it is past the newest one; keeps the budget.
    pub fn push(&mut self, mark: S) {
        let b = self.current_branch_mut();
        if mark.events() > b.newest().events() {
            b.marks.push(mark);
            self.enforce_budget();
        }
    }

    /// The checkpoint to restore for time `t`: the newest at or before `t` on the current branch,
    /// or (before its base) on the nearest ancestor that has one, with the branch it is on.
    pub fn nearest_at(&self, t: SimTime) -> Option<(BranchId, &S)> {
        let mut id = Some(self.current);
        while let Some(b) = id.and_then(|i| self.branches.get(&i).map(|b| (i, b))) {
            if let Some(mark) = b.1.last_where(|m| m.at() <= t) {
                return Some((b.0, mark));
            }
            id = b.1.parent;
        }
        None
    }

    /// The checkpoint to restore to reach `events` handled on `branch`: its newest at or before
    /// them (`None` before the branch's base).
    pub fn nearest_events(&self, branch: BranchId, events: u64) -> Option<&S> {
        self.branches
            .get(&branch)?
            .last_where(|m| m.events() <= events)
    }

    /// Where the run left `branch` (events handled, and the clock), if it left it.
    pub fn head(&self, branch: BranchId) -> Option<(u64, SimTime)> {
        self.branches.get(&branch)?.head
    }

    /// Moves to `branch` (kept), remembering where the run left the current one (`head`: events
    /// handled, and the clock). Returns whether the branch exists.
    pub fn switch(&mut self, branch: BranchId, head: (u64, SimTime)) -> bool {
        if !self.branches.contains_key(&branch) {
            return false;
        }
        if branch != self.current {
            self.current_branch_mut().head = Some(head);
            self.current = branch;
        }
        true
    }

    /// Starts a branch at `base` from the current one, which the run leaves at `head` (events
    /// handled, and the clock); the new branch becomes current. Drops the oldest branches beyond
    /// the limit.
    pub fn fork(&mut self, label: &str, head: (u64, SimTime), base: S) -> BranchId {
        let id = BranchId(self.next_id);
        self.next_id += 1;
        let branch = Branch::new(Some(self.current), label, base, self.options.spacing_events);
        self.current_branch_mut().head = Some(head);
        self.branches.insert(id, branch);
        self.current = id;
        while self.branches.len() > self.options.max_branches.max(1) && self.drop_oldest_other() {}
        self.enforce_budget();
        id
    }

    /// Frees the checkpoints let go to keep the budget; returns whether there were any. They
    /// wait for this call (or [`Timeline::take_one_dropped`], or the timeline's end) because
    /// freeing a large state takes as long as copying it.
    pub fn free_dropped(&mut self) -> bool {
        let any = !self.dropped.is_empty();
        self.dropped = Vec::new();
        any
    }

    /// Hands over the oldest checkpoint let go to keep the budget, if any, for the caller to
    /// free: a caller that must not block (the page) frees one per task, in parts.
    pub fn take_one_dropped(&mut self) -> Option<S> {
        (!self.dropped.is_empty()).then(|| self.dropped.remove(0))
    }

    fn current_branch(&self) -> &Branch<S> {
        &self.branches[&self.current]
    }

    fn current_branch_mut(&mut self) -> &mut Branch<S> {
        self.branches
            .get_mut(&self.current)
            .expect("the current branch is kept")
    }

    fn is_ancestor_of_current(&self, id: BranchId) -> bool {
        let mut at = self.current_branch().parent;
        while let Some(p) = at {
            if p == id {
                return true;
            }
            at = self.branches.get(&p).and_then(|b| b.parent);
        }
        false
    }

    /// Drops the oldest branch that is neither current nor an ancestor of it; its children
    /// lose their parent. Returns whether one was dropped.
    fn drop_oldest_other(&mut self) -> bool {
        let victim = self
            .branches
            .keys()
            .copied()
            .find(|&id| id != self.current && !self.is_ancestor_of_current(id));
        let Some(victim) = victim else {
            return false;
        };
        if let Some(b) = self.branches.remove(&victim) {
            self.dropped.extend(b.marks);
        }
        for b in self.branches.values_mut() {
            if b.parent == Some(victim) {
                b.parent = None;
            }
        }
        true
    }

    /// Thins branches (others first), then drops other branches, until the budget holds or
    /// nothing more can go.
    fn enforce_budget(&mut self) {
        while self.bytes() > self.options.budget_bytes {
            let current = self.current;
            let dropped = &mut self.dropped;
            let mut others = self.branches.iter_mut().filter(|(id, _)| **id != current);
            let thinned = others.any(|(_, b)| b.thin(dropped))
                || self
                    .branches
                    .get_mut(&current)
                    .is_some_and(|b| b.thin(dropped))
                || self.drop_oldest_other();
            if !thinned {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint that is only its stamp.
    #[derive(Clone, Debug, PartialEq)]
    struct Mark {
        events: u64,
        bytes: u64,
    }

    impl Stamped for Mark {
        fn at(&self) -> SimTime {
            SimTime::from_millis(self.events)
        }
        fn events(&self) -> u64 {
            self.events
        }
        fn bytes(&self) -> u64 {
            self.bytes
        }
        fn min_spacing_events(&self) -> u64 {
            0
        }
    }

    /// A checkpoint of 1 000 bytes that shares all but one byte per event with the one before.
    #[derive(Clone, Debug, PartialEq)]
    struct SharingMark(u64);

    impl Stamped for SharingMark {
        fn at(&self) -> SimTime {
            SimTime::from_millis(self.0)
        }
        fn events(&self) -> u64 {
            self.0
        }
        fn bytes(&self) -> u64 {
            1_000
        }
        fn bytes_after(&self, earlier: &Self) -> u64 {
            self.0 - earlier.0
        }
        fn min_spacing_events(&self) -> u64 {
            0
        }
    }

    #[test]
    fn a_later_checkpoint_counts_only_what_it_adds_beside_the_one_before_it() {
        let mut t = Timeline::new(options(1_100), SharingMark(0));
        for e in 1..=5 {
            t.push(SharingMark(e * 10));
        }
        assert_eq!(t.bytes(), 1_050);
        assert_eq!(t.checkpoints(BranchId(0)).len(), 6);
        assert_eq!(t.branches()[0].bytes, 1_050);
    }

    fn mark(events: u64) -> Mark {
        Mark { events, bytes: 100 }
    }

    fn head(events: u64) -> (u64, SimTime) {
        (events, SimTime::from_millis(events))
    }

    fn options(budget_bytes: u64) -> TimelineOptions {
        TimelineOptions {
            budget_bytes,
            max_branches: 3,
            spacing_events: 10,
        }
    }

    fn events_of(t: &Timeline<Mark>, b: BranchId) -> Vec<u64> {
        t.checkpoints(b).iter().map(|m| m.events).collect()
    }

    #[test]
    fn a_checkpoint_is_due_spacing_events_after_the_newest() {
        let mut t = Timeline::new(options(10_000), mark(0));
        assert_eq!(t.next_due_events(), 10);
        t.push(mark(10));
        assert_eq!(t.next_due_events(), 20);
        t.push(mark(5));
        assert_eq!(events_of(&t, BranchId(0)), [0, 10]);
    }

    #[test]
    fn over_budget_every_second_checkpoint_goes_and_spacing_doubles() {
        let mut t = Timeline::new(options(550), mark(0));
        for e in 1..=5 {
            t.push(mark(e * 10));
        }
        assert_eq!(events_of(&t, BranchId(0)), [0, 20, 40, 50]);
        assert_eq!(t.branches()[0].spacing_events, 20);
        assert!(t.bytes() <= 550);
        let let_go: Vec<u64> = t.dropped.iter().map(|m| m.events).collect();
        assert_eq!(let_go, [10, 30], "the checkpoints let go wait to be freed");
        assert_eq!(
            t.take_one_dropped().map(|m| m.events),
            Some(10),
            "one at a time"
        );
        assert_eq!(t.dropped.len(), 1);
        assert!(t.free_dropped(), "freeing says there was something");
        assert!(!t.free_dropped(), "and then there is nothing");
        assert!(t.take_one_dropped().is_none());
    }

    #[test]
    fn nearest_at_is_the_newest_checkpoint_at_or_before_the_instant() {
        let mut t = Timeline::new(options(10_000), mark(0));
        t.push(mark(10));
        t.push(mark(20));
        let at = |ms| {
            t.nearest_at(SimTime::from_millis(ms))
                .map(|(_, m)| m.events)
        };
        assert_eq!(at(15), Some(10));
        assert_eq!(at(20), Some(20));
        assert_eq!(at(0), Some(0));
    }

    #[test]
    fn a_fork_keeps_the_parent_and_a_seek_before_its_base_lands_on_the_parent() {
        let mut t = Timeline::new(options(10_000), mark(0));
        t.push(mark(10));
        let child = t.fork("fix", head(15), mark(15));
        assert_eq!(t.current(), child);
        assert_eq!(t.head(BranchId(0)), Some(head(15)));
        assert_eq!(
            t.nearest_at(SimTime::from_millis(12)),
            Some((BranchId(0), &mark(10)))
        );
        assert_eq!(
            t.nearest_at(SimTime::from_millis(16)),
            Some((child, &mark(15)))
        );
        assert!(t.switch(BranchId(0), head(15)));
        assert_eq!(events_of(&t, child), [15]);
    }

    #[test]
    fn beyond_max_branches_the_oldest_unrelated_branch_goes() {
        let mut t = Timeline::new(options(10_000), mark(0));
        let a = t.fork("a", head(1), mark(1));
        assert!(t.switch(BranchId(0), head(1)));
        let b = t.fork("b", head(2), mark(2));
        assert!(t.switch(BranchId(0), head(2)));
        let c = t.fork("c", head(3), mark(3));
        let kept: Vec<BranchId> = t.branches().iter().map(|b| b.id).collect();
        assert_eq!(kept, [BranchId(0), b, c]);
        assert!(!t.switch(a, head(3)));
    }
}
