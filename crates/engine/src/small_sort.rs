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

/// Sorts `items` by `compare`, keeping items it finds equal in their order, as `sort_by` does;
/// as [`sort_few`], for a few items or items nearly in order (floats by `total_cmp`, say).
pub fn sort_few_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> std::cmp::Ordering) {
    insertion_sort(items, |a, b| compare(a, b).is_gt());
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

    #[test]
    fn floats_sort_by_a_comparison_as_the_standard_stable_sort_sorts_them() {
        let mut rng = Rng::seeded(4);
        for len in 0..40 {
            let items: Vec<(f64, usize)> = (0..len)
                .map(|i| ((rng.below(6) as f64 - 2.0) / 2.0, i))
                .chain([(-0.0, len), (0.0, len + 1), (f64::NAN, len + 2)])
                .collect();
            let mut ours = items.clone();
            sort_few_by(&mut ours, |a, b| a.0.total_cmp(&b.0));
            let mut std = items;
            std.sort_by(|a, b| a.0.total_cmp(&b.0));
            let bits =
                |v: &[(f64, usize)]| v.iter().map(|(x, i)| (x.to_bits(), *i)).collect::<Vec<_>>();
            assert_eq!(bits(&ours), bits(&std), "{len} items");
        }
    }
}
