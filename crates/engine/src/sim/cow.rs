//! Copy on write through `Rc`, its common case decided in line.

use std::rc::Rc;

/// [`Rc::make_mut`]: the value to change in place when `rc` alone holds it, else a copy that `rc`
/// then holds alone. The first case, by far the common one (each node on a path down a store's
/// tree, the version log's chunks, an object the API server just decoded), is decided here in
/// line; std's `make_mut`, kept out of line with its copy, cost a call at each of them.
#[allow(
    clippy::inline_always,
    reason = "with `#[inline]` alone the compiler kept it out of line at the tree's call sites, \
              and the call was what it saves (BENCHMARKS.md, twenty-eighth round)"
)]
#[inline(always)]
pub(crate) fn make_mut<T: Clone>(rc: &mut Rc<T>) -> &mut T {
    if Rc::get_mut(rc).is_some() {
        // held here alone (no other `Rc` nor `Weak`): what `make_mut` gives back without a copy
        return Rc::get_mut(rc).unwrap_or_else(|| unreachable!("just found unique"));
    }
    Rc::make_mut(rc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_held_alone_is_changed_in_place_and_a_shared_one_is_copied_first() {
        let mut alone = Rc::new(vec![1]);
        let before = Rc::as_ptr(&alone);
        make_mut(&mut alone).push(2);
        assert_eq!(Rc::as_ptr(&alone), before, "no copy");
        assert_eq!(*alone, [1, 2]);

        let other = Rc::clone(&alone);
        make_mut(&mut alone).push(3);
        assert_ne!(Rc::as_ptr(&alone), Rc::as_ptr(&other), "copied");
        assert_eq!(
            (alone.as_slice(), other.as_slice()),
            (&[1, 2, 3][..], &[1, 2][..])
        );

        let weak = Rc::downgrade(&alone);
        make_mut(&mut alone).push(4);
        assert_eq!(*alone, [1, 2, 3, 4]);
        assert!(
            weak.upgrade().is_none(),
            "a weak reference lets go, as with make_mut"
        );
    }
}
