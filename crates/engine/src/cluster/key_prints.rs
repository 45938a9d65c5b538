//! A set of object keys held as 128-bit fingerprints: what the timeline markers remember of the
//! keys the operator's own writes re-queued.
//!
//! At the incident's scale the set grows to every one of 150 000 keys before the first of them
//! is reconciled again, and every checkpoint copies it. As fingerprints it is one flat table of
//! plain numbers: an insert or a lookup hashes the key once, and a copy touches no key (a set of
//! keys would count a reference on each, an ordered one compare key texts at every level).
//!
//! A fingerprint is two independent 64-bit hashes of the key's text (the queue collections'
//! [`ItemHasher`](crate::workqueue::set) and FNV-1a). Two different keys share one with a
//! probability of about 2⁻¹²⁸ per pair, far below anything a run could meet; the hashes have fixed
//! keys, so a run behaves the same natively and in wasm32.

use std::hash::BuildHasher;

use crate::key::Key;
use crate::workqueue::set::{ItemBuildHasher, ItemSet};

/// FNV-1a's 64-bit offset basis.
const FNV_OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a's 64-bit prime.
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Keys, held as fingerprints.
#[derive(Clone, Debug, Default)]
pub(super) struct KeyPrints(ItemSet<u128>);

impl KeyPrints {
    /// Adds `key`.
    pub(super) fn insert(&mut self, key: &Key) {
        self.0.insert(fingerprint(key));
    }

    /// Whether `key` was added.
    pub(super) fn contains(&self, key: &Key) -> bool {
        self.0.contains(&fingerprint(key))
    }

    /// How many keys were added.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.0.len()
    }
}

/// The key text's two 64-bit hashes side by side.
fn fingerprint(key: &str) -> u128 {
    let item = ItemBuildHasher::default().hash_one(key);
    let fnv = key.bytes().fold(FNV_OFFSET_BASIS, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(FNV_PRIME)
    });
    (u128::from(item) << 64) | u128::from(fnv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_found_by_an_equal_key_and_not_by_its_neighbours() {
        let mut prints = KeyPrints::default();
        prints.insert(&Key::of("ns-1", "demo-1"));
        prints.insert(&Key::from("ns-1/demo-1"));
        assert_eq!(prints.len(), 1, "one fingerprint per key text");
        assert!(prints.contains(&Key::from("ns-1/demo-1")));
        for other in ["ns-1/demo-10", "ns-1/demo-2", "ns-11/demo-1", "demo-1", ""] {
            assert!(!prints.contains(&Key::from(other)), "{other}");
        }
    }

    #[test]
    fn the_incident_s_keys_have_distinct_fingerprints() {
        let mut prints = KeyPrints::default();
        for i in 0..150_000 {
            prints.insert(&Key::of(&format!("ns-{}", i % 50), &format!("demo-{i}")));
        }
        assert_eq!(prints.len(), 150_000);
    }

    #[test]
    fn a_fingerprint_is_fixed_across_runs_and_platforms() {
        // FNV-1a of "a" is a published test vector; the high half is the queue hasher's.
        assert_eq!(fingerprint("a") as u64, 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            (fingerprint("a") >> 64) as u64,
            ItemBuildHasher::default().hash_one("a")
        );
    }
}
