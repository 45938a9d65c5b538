//! The page's heap grows ahead of what the engine asks for, a quarter of its size at a time.
//!
//! In WebAssembly the allocator (the standard library's `dlmalloc`) takes more memory from the
//! module's linear memory (`memory.grow`) only as far as the allocation at hand needs, in 64 KiB
//! pages. The incident's 150 000 objects grow the heap to about 155 MiB that way, a few pages at
//! a time, and the growing costs more than the engine's work: the first minute of `seed-000-incident` ran in 3.8–4.5 s in Node when the
//! heap grew as asked, and in 2.3–2.5 s when the heap had grown once before. So whenever the
//! memory has grown since the last look, [`grow_ahead`] allocates a block of a quarter of it
//! (8 MiB at least) and frees it at once: one growth, whose pages the allocator hands out to
//! the allocations that follow. The heap ends at most about a quarter larger than it would.
//!
//! Nothing the engine computes depends on where its memory lies, so a run's trace is the same
//! with and without it (natively, where the C library's allocator grows its own way, this does
//! nothing).

use std::cell::Cell;

/// The least a growth reserves ahead.
pub const MIN_AHEAD_BYTES: usize = 8 << 20;

thread_local! {
    /// The memory's size, in bytes, when [`grow_ahead`] last looked.
    static SEEN_BYTES: Cell<usize> = const { Cell::new(0) };
}

/// How many bytes to reserve ahead of a memory of `memory_bytes`: a quarter of it, at least
/// [`MIN_AHEAD_BYTES`].
pub fn ahead_bytes(memory_bytes: usize) -> usize {
    (memory_bytes / 4).max(MIN_AHEAD_BYTES)
}

/// Grows the heap ahead when the memory has grown since the last call; cheap otherwise (one
/// look at the memory's size). Called before each slice of engine work.
pub fn grow_ahead() {
    let now = memory_bytes();
    if now <= SEEN_BYTES.get() {
        return;
    }
    let mut block = Vec::<u8>::new();
    // a refused reservation (the browser's limit) leaves growth to the allocator, as before
    let _ = block.try_reserve_exact(ahead_bytes(now));
    drop(block);
    SEEN_BYTES.set(memory_bytes());
}

/// The linear memory's size in bytes; 0 natively, where [`grow_ahead`] has nothing to do.
fn memory_bytes() -> usize {
    #[cfg(target_arch = "wasm32")]
    {
        core::arch::wasm32::memory_size(0) << 16
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_growth_reserves_a_quarter_of_the_memory_and_never_less_than_the_minimum() {
        assert_eq!(ahead_bytes(0), MIN_AHEAD_BYTES);
        assert_eq!(ahead_bytes(16 << 20), MIN_AHEAD_BYTES);
        assert_eq!(ahead_bytes(160 << 20), 40 << 20);
    }

    #[test]
    fn natively_it_does_nothing() {
        grow_ahead();
        assert_eq!(SEEN_BYTES.get(), 0);
    }
}
