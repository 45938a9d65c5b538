use std::collections::BTreeMap;
use std::ops::Bound::{self, Excluded, Included, Unbounded};
use std::rc::{Rc, Weak};

use super::{Head, Node, SharedMap, NODE_CAPACITY};

/// A small deterministic sequence of numbers (a linear congruential generator).
struct Numbers(u64);

impl Numbers {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// Checks the tree's order, separators, node sizes and count against `expected`.
fn check(map: &SharedMap<u32, u32>, expected: &BTreeMap<u32, u32>) {
    assert_eq!(map.len(), expected.len(), "len");
    let got: Vec<(u32, u32)> = map.iter().map(|(k, v)| (*k, *v)).collect();
    let want: Vec<(u32, u32)> = expected.iter().map(|(k, v)| (*k, *v)).collect();
    assert_eq!(got, want, "entries in key order");
    if let Some(root) = map.root.as_deref() {
        let (count, _) = check_node(root, None, None, true);
        assert_eq!(count, expected.len(), "entries under the root");
    } else {
        assert!(expected.is_empty(), "an empty map has no root");
    }
}

/// Entries under `node` and its depth; every key within `[low, high)`; no node empty or over
/// capacity, every leaf at one depth.
fn check_node(
    node: &Node<u32, u32>,
    low: Option<u32>,
    high: Option<u32>,
    root: bool,
) -> (usize, usize) {
    let within = |k: u32| low.is_none_or(|l| k >= l) && high.is_none_or(|h| k < h);
    match node {
        Node::Leaf(entries) => {
            assert!(!entries.is_empty() && entries.len() <= NODE_CAPACITY);
            assert!(entries.windows(2).all(|w| w[0].0 < w[1].0), "sorted");
            assert!(entries.iter().all(|(k, _)| within(*k)), "within separators");
            (entries.len(), 0)
        }
        Node::Branch(b) => {
            assert!(b.children.len() >= if root { 2 } else { 1 });
            assert!(b.children.len() <= NODE_CAPACITY);
            assert_eq!(b.seps.len() + 1, b.children.len());
            assert!(
                b.seps.iter().all(|(h, sep)| *h == sep.head()),
                "each separator kept with its head"
            );
            let mut count = 0;
            let mut depths = Vec::new();
            for (j, child) in b.children.iter().enumerate() {
                let lo = if j == 0 { low } else { Some(b.seps[j - 1].1) };
                let hi = b.seps.get(j).map(|(_, sep)| *sep).or(high);
                let (n, d) = check_node(child, lo, hi, false);
                count += n;
                depths.push(d);
            }
            assert!(
                depths.windows(2).all(|w| w[0] == w[1]),
                "leaves at one depth"
            );
            (count, depths[0] + 1)
        }
    }
}

fn depth(map: &SharedMap<u32, u32>) -> usize {
    map.root
        .as_deref()
        .map_or(0, |root| check_node(root, None, None, true).1)
}

#[test]
fn random_inserts_and_removes_keep_the_entries_and_order_of_a_btreemap() {
    let mut numbers = Numbers(7);
    let mut map = SharedMap::new();
    let mut expected = BTreeMap::new();
    for step in 0..40_000u32 {
        let key = numbers.below(3_000) as u32;
        if numbers.below(3) == 0 {
            assert_eq!(map.remove(&key), expected.remove(&key), "remove {key}");
        } else {
            assert_eq!(
                map.insert(key, step),
                expected.insert(key, step),
                "insert {key}"
            );
        }
        if step % 4_000 == 0 {
            check(&map, &expected);
        }
    }
    check(&map, &expected);
    for key in 0..3_000 {
        assert_eq!(map.get(&key), expected.get(&key));
        assert_eq!(map.contains_key(&key), expected.contains_key(&key));
    }
    assert_eq!(
        map.get_min().map(|(k, v)| (*k, *v)),
        expected.first_key_value().map(|(k, v)| (*k, *v))
    );
}

#[test]
fn removing_every_entry_in_any_order_empties_the_tree() {
    for order in 0..3u64 {
        let mut numbers = Numbers(order);
        let mut map: SharedMap<u32, u32> = (0..5_000).map(|k| (k, k)).collect();
        let mut keys: Vec<u32> = (0..5_000).collect();
        match order {
            0 => {}
            1 => keys.reverse(),
            _ => {
                for i in (1..keys.len()).rev() {
                    keys.swap(i, numbers.below(i as u64 + 1) as usize);
                }
            }
        }
        let mut expected: BTreeMap<u32, u32> = (0..5_000).map(|k| (k, k)).collect();
        for (n, key) in keys.iter().enumerate() {
            assert_eq!(map.remove_with_key(key), expected.remove_entry(key));
            if n % 500 == 0 {
                check(&map, &expected);
            }
        }
        assert!(map.is_empty() && map.root.is_none(), "order {order}");
    }
}

#[test]
fn keys_added_in_order_fill_their_leaves() {
    let n = 150_000u32;
    let map: SharedMap<u32, u32> = (0..n).map(|k| (k, k)).collect();
    check(&map, &(0..n).map(|k| (k, k)).collect());
    let cap = NODE_CAPACITY as u32;
    let leaves = n.div_ceil(cap) as usize;
    let mut counted = 0;
    let mut stack = vec![map.root.as_deref().expect("a root")];
    while let Some(node) = stack.pop() {
        match node {
            Node::Leaf(_) => counted += 1,
            Node::Branch(b) => stack.extend(b.children.iter().map(|c| &**c)),
        }
    }
    assert_eq!(counted, leaves, "full leaves but the last");
    assert_eq!(depth(&map), 2, "150 000 keys: a root, branches, leaves");
}

#[test]
fn a_copy_keeps_its_entries_while_the_original_changes() {
    let mut map: SharedMap<u32, u32> = (0..2_000).map(|k| (k, k)).collect();
    let copy = map.clone();
    assert_eq!(map, copy, "copies are equal");
    for k in (0..2_000).step_by(3) {
        map.insert(k, k + 1);
    }
    for k in (1..2_000).step_by(7) {
        map.remove(&k);
    }
    if let Some(v) = map.get_mut(&2) {
        *v = 99;
    }
    map.insert(5_000, 5_000);
    assert!(copy.iter().all(|(k, v)| k == v), "the copy is as it was");
    assert_eq!(copy.len(), 2_000);
    assert_eq!(map.get(&2), Some(&99));
    assert_eq!(map.get(&3), Some(&4));
    assert_eq!(map.get(&1), None);
    assert_ne!(map, copy);
}

#[test]
fn get_mut_changes_only_the_entry_found() {
    let mut map: SharedMap<u32, u32> = (0..300).map(|k| (k * 2, 0)).collect();
    assert!(map.get_mut(&3).is_none(), "an absent key");
    *map.get_mut(&100).expect("present") = 7;
    assert_eq!(map.values().filter(|v| **v == 7).count(), 1);
    assert_eq!(map.get(&100), Some(&7));
}

#[test]
fn ranges_give_the_entries_a_btreemap_range_gives() {
    let keys: Vec<u32> = (0..4_000).map(|k| k * 3).collect();
    let map: SharedMap<u32, u32> = keys.iter().map(|&k| (k, k)).collect();
    let expected: BTreeMap<u32, u32> = keys.iter().map(|&k| (k, k)).collect();
    let mut numbers = Numbers(11);
    let bound = |numbers: &mut Numbers| -> Bound<u32> {
        let k = numbers.below(12_100) as u32;
        match numbers.below(3) {
            0 => Included(k),
            1 => Excluded(k),
            _ => Unbounded,
        }
    };
    for _ in 0..2_000 {
        let (start, end) = (bound(&mut numbers), bound(&mut numbers));
        let valid = match (start, end) {
            (Included(a) | Excluded(a), Included(b) | Excluded(b)) => {
                a < b || (a == b && matches!((start, end), (Included(_), Included(_))))
            }
            _ => true,
        };
        let got: Vec<u32> = map.range((start, end)).map(|(k, _)| *k).collect();
        if valid {
            let want: Vec<u32> = expected.range((start, end)).map(|(k, _)| *k).collect();
            assert_eq!(got, want, "{start:?}..{end:?}");
        } else {
            assert!(got.is_empty(), "an empty range {start:?}..{end:?}");
        }
    }
}

/// A map of `n` values, and a probe of each value's life.
fn probed(n: u32) -> (SharedMap<u32, Rc<u32>>, Vec<Weak<u32>>) {
    let values: Vec<Rc<u32>> = (0..n).map(Rc::new).collect();
    let probes = values.iter().map(Rc::downgrade).collect();
    (values.into_iter().map(|v| (*v, v)).collect(), probes)
}

fn alive(probes: &[Weak<u32>]) -> usize {
    probes.iter().filter(|p| p.strong_count() > 0).count()
}

#[test]
fn freeing_drops_a_budget_of_entries_a_step_from_the_last_key() {
    let (map, probes) = probed(3_000);
    let mut freeing = map.into_freeing();
    let mut steps = 0;
    while !freeing.free_some(100) {
        steps += 1;
        assert_eq!(alive(&probes), 3_000 - 100 * steps, "after step {steps}");
        assert!(probes[..3_000 - 100 * steps]
            .iter()
            .all(|p| p.strong_count() > 0));
    }
    assert_eq!((steps, alive(&probes)), (29, 0));
    assert!(freeing.is_empty() && freeing.free_some(1));
}

#[test]
fn freeing_lets_go_of_what_a_copy_shares_and_drops_only_what_it_alone_holds() {
    let (mut map, probes) = probed(3_000);
    let copy = map.clone();
    let replaced = Rc::new(7);
    let replaced_probe = Rc::downgrade(&replaced);
    map.insert(1_500, replaced);
    map.remove(&10);
    let mut freeing = map.into_freeing();
    assert!(
        freeing.free_some(2 * NODE_CAPACITY),
        "the two leaves it changed: the rest is shared"
    );
    assert_eq!(replaced_probe.strong_count(), 0);
    assert_eq!(alive(&probes), 3_000, "the copy keeps every value");
    assert!(copy.iter().all(|(k, v)| **v == *k));
}

#[test]
fn clear_and_debug_read_as_a_map() {
    let mut map: SharedMap<u32, &str> = [(2, "b"), (1, "a")].into_iter().collect();
    assert_eq!(format!("{map:?}"), r#"{1: "a", 2: "b"}"#);
    map.clear();
    assert!(map.is_empty());
    assert_eq!(format!("{map:?}"), "{}");
    assert_eq!(map.get_min(), None);
}

/// Keys whose first sixteen bytes are alike (equal heads, so the branches compare the texts)
/// mixed with keys that differ early: every lookup, insert and removal agrees with a `BTreeMap`.
#[test]
fn text_keys_with_equal_heads_are_found_through_their_texts() {
    let mut numbers = Numbers(11);
    let mut map: SharedMap<String, u32> = SharedMap::new();
    let mut expected = BTreeMap::new();
    let key = |n: u64| match n % 3 {
        0 => format!("namespace-0/demo-{n}"),
        1 => format!("ns-{}/d-{n}", n % 7),
        _ => format!("n{n}"),
    };
    for step in 0..30_000u32 {
        let k = key(numbers.below(5_000));
        if numbers.below(4) == 0 {
            assert_eq!(map.remove(k.as_str()), expected.remove(&k), "remove {k}");
        } else {
            assert_eq!(map.insert(k.clone(), step), expected.insert(k, step));
        }
    }
    assert!(
        matches!(map.root.as_deref(), Some(Node::Branch(_))),
        "deep enough for branches"
    );
    let got: Vec<(&String, &u32)> = map.iter().collect();
    assert!(
        got.iter().copied().eq(expected.iter()),
        "entries in key order"
    );
    for n in 0..5_000 {
        let k = key(n);
        assert_eq!(map.get(k.as_str()), expected.get(&k), "get {k}");
        assert_eq!(map.get(&k), expected.get(&k));
        let from: Vec<&u32> = map
            .range::<_, str>((Included(k.as_str()), Unbounded))
            .map(|(_, v)| v)
            .take(3)
            .collect();
        let want: Vec<&u32> = expected
            .range(k.clone()..)
            .map(|(_, v)| v)
            .take(3)
            .collect();
        assert_eq!(from, want, "range from {k}");
    }
}
