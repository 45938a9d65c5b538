//! The API side of the cluster: the simulated API server and what the client side knows of it —
//! the requests on their way, the ids of requests and watches, and which event wrote each
//! resourceVersion.

use crate::scenario::{Scenario, ScenarioError};
use crate::sim::id_map::IdMap;
use crate::time::SimTime;

use super::api::{Admit, SimApiServer};
use super::causes::CauseTracker;
use super::request::{Origin, Pending};

/// The API server and the requests and watches between it and its clients.
#[derive(Clone)]
pub(super) struct ApiSide {
    /// The API server (storage, watch cache, flow control).
    pub(super) server: SimApiServer,
    /// Requests sent and not answered yet, by id.
    pub(super) pending: IdMap<Pending>,
    /// The id the next request gets.
    pub(super) next_request: u64,
    /// The id of the newest watch.
    pub(super) next_watch: u64,
    /// Which event wrote each resourceVersion, and which watch event delivered it.
    pub(super) causes: CauseTracker,
    /// When the one scheduled look at the APF queue's waits happens: at the earliest deadline
    /// of a queued request (see `Cluster::schedule_queue_deadline`).
    pub(super) queue_deadline_at: Option<SimTime>,
    /// The queued requests a finished one let start or time out (empty between events; kept
    /// for its buffer).
    pub(super) admitted: Vec<(u64, Admit)>,
}

impl ApiSide {
    /// The API side of a validated scenario, with no request sent yet.
    pub(super) fn new(scenario: &Scenario) -> Result<ApiSide, ScenarioError> {
        Ok(ApiSide {
            server: SimApiServer::new(scenario)?,
            pending: IdMap::new(),
            next_request: 0,
            next_watch: 0,
            causes: CauseTracker::default(),
            queue_deadline_at: None,
            admitted: Vec::new(),
        })
    }

    /// Records request `p` as on its way and returns its id.
    pub(super) fn track_request(&mut self, p: Pending) -> u64 {
        let id = self.next_request;
        self.next_request += 1;
        self.pending.insert(id, p);
        id
    }

    /// The id of a newly opened watch.
    pub(super) fn new_watch_id(&mut self) -> u64 {
        self.next_watch += 1;
        self.next_watch
    }

    /// Forgets the requests of a process that is gone: only the users' requests still wait.
    pub(super) fn drop_operator_requests(&mut self) {
        self.pending.retain(|_, p| matches!(p.origin, Origin::User));
    }
}
