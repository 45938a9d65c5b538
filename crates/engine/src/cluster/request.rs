//! Requests in flight between the operator (or a user) and the API server.

use crate::apiserver::Verb;
use crate::informer::reflector::ListRv;
use crate::object::{Json, ObjectRef};
use crate::time::SimTime;

/// Who sent a request, so its answer can be routed back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A controller worker of an operator incarnation.
    Worker {
        /// The operator incarnation.
        incarnation: u64,
        /// The worker index.
        worker: usize,
    },
    /// The informer's reflector (a LIST).
    Reflector {
        /// The operator incarnation.
        incarnation: u64,
    },
    /// A person with kubectl (scenario actions).
    User,
}

/// What is asked of the API server. The rare requests with names and a body (a PATCH, a
/// DELETE) keep them behind a box, so that every request in flight, and a worker's step that
/// sends one, is a few words: a PUT's object pointer, not a PATCH's two names and document.
#[derive(Clone, Debug, PartialEq)]
pub enum Call {
    /// POST.
    Create(ObjectRef),
    /// PUT of the object or of its `/status`.
    Put {
        /// The object as sent (shared with the sender's working copy).
        object: ObjectRef,
        /// Whether to `/status`.
        status: bool,
    },
    /// PATCH (JSON merge patch) of the object or of its `/status`.
    Patch(Box<PatchCall>),
    /// DELETE.
    Delete(Box<NamespacedName>),
    /// LIST of the custom resource kind.
    List(ListRv),
    /// WATCH of the custom resource kind with `sendInitialEvents=true`,
    /// `resourceVersionMatch=NotOlderThan` and `allowWatchBookmarks=true` (a watch-list).
    WatchList(ListRv),
}

/// A PATCH: its object, its JSON merge patch and whether it is of `/status`.
#[derive(Clone, Debug, PartialEq)]
pub struct PatchCall {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// The patch.
    pub patch: Json,
    /// Whether to `/status`.
    pub status: bool,
}

/// An object's namespace and name (apimachinery `pkg/types/namespacedname.go` `NamespacedName`,
/// the key controller-runtime's requests carry).
#[derive(Clone, Debug, PartialEq)]
pub struct NamespacedName {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
}

impl Call {
    /// The request's verb.
    pub fn verb(&self) -> Verb {
        match self {
            Call::Create(_) => Verb::Create,
            Call::Put { .. } => Verb::Update,
            Call::Patch(_) => Verb::Patch,
            Call::Delete(_) => Verb::Delete,
            Call::List(_) => Verb::List,
            Call::WatchList(_) => Verb::Watch,
        }
    }

    /// Whether the request mutates (for the max-in-flight split).
    pub fn is_mutating(&self) -> bool {
        !matches!(self, Call::List(_) | Call::WatchList(_))
    }

    /// Request body size in bytes.
    pub fn payload_bytes(&self) -> u64 {
        match self {
            Call::Create(o) => o.size_bytes,
            Call::Put { object, .. } => object.size_bytes,
            Call::Patch(p) => p.patch.encoded_len() as u64,
            Call::Delete(_) | Call::List(_) | Call::WatchList(_) => 0,
        }
    }
}

/// What the API server answered.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The object as stored (or as it was, for a no-op write).
    Object(ObjectRef),
    /// A LIST: the items (handed out a part at a time) and the list's resourceVersion.
    List(crate::apiserver::ListItems, u64),
    /// A watch-list stream opened: its initial events, ending with the initial-events-end bookmark.
    WatchStream(Vec<crate::apiserver::WatchEvent>),
    /// The object was deleted, or marked for deletion.
    Deleted,
    /// An error status: HTTP code and reason.
    Error {
        /// HTTP status code.
        code: u16,
        /// `Retry-After` seconds for 429s.
        retry_after_s: u64,
        /// The status message.
        message: String,
    },
}

impl Reply {
    /// The HTTP code for `apiserver_request_total{code}`.
    pub fn code(&self) -> u16 {
        match self {
            Reply::Object(_) | Reply::List(..) | Reply::WatchStream(_) | Reply::Deleted => 200,
            Reply::Error { code, .. } => *code,
        }
    }
}

/// A request on its way.
#[derive(Clone, Debug)]
pub struct Pending {
    /// Who is waiting for it.
    pub origin: Origin,
    /// What it asks.
    pub call: Call,
    /// Attempts so far (client-go retries 429s up to 10 times).
    pub attempts: u32,
    /// When the caller first sent it.
    pub sent_at: SimTime,
    /// The event that made the caller send it (the Reconcile, the user action), if any.
    pub cause: Option<crate::sim::EventId>,
}

/// client-go's `maxRetries` for 429 and 5xx answers that carry `Retry-After`
/// (`rest/request.go`, `rest/with_retry.go`).
pub const CLIENT_MAX_RETRIES: u32 = 10;
