//! A stable sort for lists of a few items (a tour step's acts, a loop's fixes, the causes of one
//! event, the finalizers a write added, the verbs of a chart). An
//! insertion sort is a few dozen bytes of code, where `slice::sort_by_key` compiles a merge sort
//! of some kilobytes for each type and key it sorts by, and the page's module carries each one.

/// Sorts `items` by `key`, keeping items of equal keys in their order, as `sort_by_key` does.
/// Quadratic in the number of items: for lists of tens of items, not of objects.
pub fn sort_few_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    insertion_sort(items, |a, b| key(a) > key(b));
}

/// Sorts `items`, keeping equal items in their order, as `sort` does; as [`sort_few_by_key`],
/// for a few items, or for items nearly in order already (each one moves as far as it is out of
/// place).
pub fn sort_few<T: Ord>(items: &mut [T]) {
    insertion_sort(items, |a, b| a > b);
}

/// Moves each item back past the items before it that go after it (`after(earlier, later)`).
fn insertion_sort<T>(items: &mut [T], after: impl Fn(&T, &T) -> bool) {
    for i in 1..items.len() {
        let mut j = i;
        while j > 0 && after(&items[j - 1], &items[j]) {
            items.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Rng;

    #[test]
    fn a_few_items_sort_as_the_standard_stable_sort_sorts_them_ties_in_their_order() {
        let mut rng = Rng::seeded(3);
        for len in 0..40 {
            let items: Vec<(u64, usize)> = (0..len).map(|i| (rng.below(5), i)).collect();
            let mut ours = items.clone();
            sort_few_by_key(&mut ours, |&(k, _)| k);
            let mut std = items.clone();
            std.sort_by_key(|&(k, _)| k);
            assert_eq!(ours, std, "{len} items");
            let mut whole = items;
            sort_few(&mut whole);
            std.sort();
            assert_eq!(whole, std, "{len} items, by the whole item");
        }
    }
}
