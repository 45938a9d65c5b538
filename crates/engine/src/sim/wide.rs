//! The 128-bit product of two words without wasm's 128-bit multiply: natively one multiply, in
//! wasm (whose 128-bit product is a call of the runtime's `__multi3`) the schoolbook product of
//! 32-bit halves. The workqueue's hash and the random source's bounded draw take it.

/// The low and high words of `a × b`. Natively one 128-bit multiply; in wasm, which has no such
/// multiply (a 128-bit product is a call of the runtime's `__multi3`), from the four products
/// of the words' 32-bit halves ([`wide_product_by_halves`]): the same two words.
pub(crate) fn wide_product(a: u64, b: u64) -> (u64, u64) {
    if cfg!(target_arch = "wasm32") {
        return wide_product_by_halves(a, b);
    }
    let product = u128::from(a) * u128::from(b);
    (product as u64, (product >> 64) as u64)
}

/// `a × b` as the schoolbook product of 32-bit halves: `a = a1·2³² + a0`, `b = b1·2³² + b0`.
fn wide_product_by_halves(a: u64, b: u64) -> (u64, u64) {
    const HALF: u64 = 0xffff_ffff;
    let (a0, a1, b0, b1) = (a & HALF, a >> 32, b & HALF, b >> 32);
    let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
    // the middle column with the carry out of the low half (below 2³⁴: no overflow)
    let middle = (p00 >> 32) + (p01 & HALF) + (p10 & HALF);
    let low = (p00 & HALF) | (middle << 32);
    let high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32);
    (low, high)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_product_by_halves_is_the_128_bit_product() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut cases = vec![
            (0, 0),
            (u64::MAX, u64::MAX),
            (u64::MAX, 1),
            (1 << 32, 1 << 32),
        ];
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            cases.push((x, x.rotate_left(29) ^ 0x9e37_79b9_7f4a_7c15));
            cases.push((x, 0x9e37_79b9_7f4a_7c15));
        }
        for (a, b) in cases {
            let product = u128::from(a) * u128::from(b);
            assert_eq!(
                wide_product_by_halves(a, b),
                (product as u64, (product >> 64) as u64),
                "{a:#x} × {b:#x}"
            );
        }
    }
}
