//! The network's hot loops (`position::accumulator`, `eval::network`), compiled twice: for the
//! baseline x86-64 the crate is built for, and for AVX2's registers twice as wide, taken where
//! the processor has them (asked at each call: the standard library caches the answer). The
//! results are the same integers either way. The sums are 16-bit and wrap (a network's reader
//! refuses weights whose sums could leave 16 bits), so that a register holds sixteen of them.

/// `sums[i] += column[i]`, or `-=` with `SUBTRACT` (wrapping).
#[inline(always)]
pub fn add_column<const SUBTRACT: bool>(sums: &mut [i16], column: &[i16]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { add_column_avx2::<SUBTRACT>(sums, column) };
    }
    add_column_any::<SUBTRACT>(sums, column);
}

/// The sum of `sums[i]` clipped to 0..=`most` times `weights[i]` (the products of 16-bit
/// values, summed in 32 bits).
#[inline(always)]
pub fn clipped_dot(sums: &[i16], weights: &[i16], most: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { clipped_dot_avx2(sums, weights, most) };
    }
    clipped_dot_any(sums, weights, most)
}

/// `out = from + Σ added − Σ taken` (wrapping), in one pass for a move's usual men (one in, one
/// or two out).
#[inline(always)]
pub fn combine(out: &mut [i16], from: &[i16], added: &[&[i16]], taken: &[&[i16]]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { combine_avx2(out, from, added, taken) };
    }
    combine_any(out, from, added, taken);
}

#[inline(always)]
fn combine_any(out: &mut [i16], from: &[i16], added: &[&[i16]], taken: &[&[i16]]) {
    match (added, taken) {
        ([a], [t]) => {
            for (((o, &f), &a), &t) in out.iter_mut().zip(from).zip(*a).zip(*t) {
                *o = f.wrapping_add(a).wrapping_sub(t);
            }
        }
        ([a], [t, u]) => {
            for ((((o, &f), &a), &t), &u) in out.iter_mut().zip(from).zip(*a).zip(*t).zip(*u) {
                *o = f.wrapping_add(a).wrapping_sub(t).wrapping_sub(u);
            }
        }
        _ => {
            out.copy_from_slice(from);
            for a in added {
                add_column_any::<false>(out, a);
            }
            for t in taken {
                add_column_any::<true>(out, t);
            }
        }
    }
}

#[inline(always)]
fn add_column_any<const SUBTRACT: bool>(sums: &mut [i16], column: &[i16]) {
    for (s, &w) in sums.iter_mut().zip(column) {
        *s = if SUBTRACT { s.wrapping_sub(w) } else { s.wrapping_add(w) };
    }
}

#[inline(always)]
fn clipped_dot_any(sums: &[i16], weights: &[i16], most: i16) -> i32 {
    sums.iter().zip(weights).map(|(&a, &w)| i32::from(a.clamp(0, most)) * i32::from(w)).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn add_column_avx2<const SUBTRACT: bool>(sums: &mut [i16], column: &[i16]) {
    add_column_any::<SUBTRACT>(sums, column);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn combine_avx2(out: &mut [i16], from: &[i16], added: &[&[i16]], taken: &[&[i16]]) {
    combine_any(out, from, added, taken);
}

/// Sixteen sums at a time: clipped, multiplied by their weights and added in pairs into eight
/// 32-bit lanes (`vpmaddwd`), the lanes added at the end; the last few as in the baseline loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clipped_dot_avx2(sums: &[i16], weights: &[i16], most: i16) -> i32 {
    use std::arch::x86_64::{
        __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi32, _mm256_castsi256_si128, _mm256_extracti128_si256,
        _mm256_loadu_si256, _mm256_madd_epi16, _mm256_max_epi16, _mm256_min_epi16, _mm256_set1_epi16, _mm256_setzero_si256,
    };
    const LANES: usize = 16;
    let n = sums.len().min(weights.len());
    let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(most));
    let mut total = _mm256_setzero_si256();
    for (s, w) in sums[..n].chunks_exact(LANES).zip(weights[..n].chunks_exact(LANES)) {
        // SAFETY: each chunk holds sixteen 16-bit values, a 256-bit unaligned load.
        let (s, w) = unsafe { (_mm256_loadu_si256(s.as_ptr().cast::<__m256i>()), _mm256_loadu_si256(w.as_ptr().cast::<__m256i>())) };
        total = _mm256_add_epi32(total, _mm256_madd_epi16(_mm256_min_epi16(_mm256_max_epi16(s, zero), top), w));
    }
    let half = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256::<1>(total));
    let quarter = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
    let lane = _mm_add_epi32(quarter, _mm_shuffle_epi32::<0b10_11_00_01>(quarter));
    let tail = n - n % LANES;
    _mm_cvtsi128_si32(lane) + clipped_dot_any(&sums[tail..n], &weights[tail..n], most)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_and_baseline_loops_agree() {
        let column: Vec<i16> = (0..131).map(|i| ((i * 7919 % 4001) - 2000) as i16).collect();
        let weights: Vec<i16> = (0..131).map(|i| ((i * 104_729 % 16_001) - 8000) as i16).collect();
        let mut sums: Vec<i16> = (0..131).map(|i| ((i * 31 % 3001) - 1000) as i16).collect();
        let (mut plain, before) = (sums.clone(), sums.clone());
        add_column::<false>(&mut sums, &column);
        add_column_any::<false>(&mut plain, &column);
        assert_eq!(sums, plain);
        assert_eq!(clipped_dot(&sums, &weights, 1024), clipped_dot_any(&sums, &weights, 1024));
        let want: i32 = sums.iter().zip(&weights).map(|(&a, &w)| i32::from(a.clamp(0, 1024)) * i32::from(w)).sum();
        assert_eq!(clipped_dot(&sums, &weights, 1024), want);
        add_column::<true>(&mut sums, &column);
        assert_eq!(sums, before);
        let other: Vec<i16> = column.iter().map(|w| w / 3 + 7).collect();
        for (added, taken) in
            [(vec![&column[..]], vec![&other[..]]), (vec![&other[..]], vec![&column[..], &other[..]]), (vec![], vec![&other[..]])]
        {
            let mut out = vec![0; sums.len()];
            combine(&mut out, &sums, &added, &taken);
            let want: Vec<i16> = (0..sums.len())
                .map(|i| {
                    let sum = i32::from(sums[i]) + added.iter().map(|a| i32::from(a[i])).sum::<i32>()
                        - taken.iter().map(|t| i32::from(t[i])).sum::<i32>();
                    sum as i16
                })
                .collect();
            assert_eq!(out, want);
        }
    }

    /// Sums that leave 16 bits wrap, and come back as they were: a man put on and taken off
    /// again leaves the sums unchanged whatever they passed through.
    #[test]
    fn sums_wrap_and_come_back() {
        let column = vec![i16::MAX; 40];
        let mut sums: Vec<i16> = (0..40).map(|i: i32| (i * 900 - 18_000) as i16).collect();
        let before = sums.clone();
        add_column::<false>(&mut sums, &column);
        add_column::<false>(&mut sums, &column);
        add_column::<true>(&mut sums, &column);
        add_column::<true>(&mut sums, &column);
        assert_eq!(sums, before);
    }
}
