//! client-go's informer machinery (`tools/cache`): the reflector that lists and watches, the FIFO
//! queues that hold deltas, the indexer that caches objects, and the per-handler notification
//! buffers of a shared informer.

pub mod delta;
pub mod delta_fifo;
pub mod deltas;
pub mod indexer;
pub mod listener;
pub mod real_fifo;
pub mod reflector;
pub mod resync;
