//! client-go's workqueue (`util/workqueue`) and controller-runtime's priority queue.
