//! The network's hot loops (`position::accumulator`, `eval::network`), compiled twice: for the
//! baseline x86-64 the crate is built for, and for AVX2's registers twice as wide, taken where
//! the processor has them (asked at each call: the standard library caches the answer). The
//! results are the same integers either way.

/// `sums[i] += column[i]`, or `-=` with `SUBTRACT`.
#[inline(always)]
pub fn add_column<const SUBTRACT: bool>(sums: &mut [i32], column: &[i32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { add_column_avx2::<SUBTRACT>(sums, column) };
    }
    add_column_any::<SUBTRACT>(sums, column);
}

/// The sum of `sums[i]` clipped to 0..=`most` times `weights[i]` (`most` at most `i16::MAX`:
/// the products are 16-bit ones, summed in 32 bits).
#[inline(always)]
pub fn clipped_dot(sums: &[i32], weights: &[i16], most: i16) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { clipped_dot_avx2(sums, weights, most) };
    }
    clipped_dot_any(sums, weights, most)
}

/// `out = from + Σ added − Σ taken`, in one pass for a move's usual men (one in, one or two out).
#[inline(always)]
pub fn combine(out: &mut [i32], from: &[i32], added: &[&[i32]], taken: &[&[i32]]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2.
        return unsafe { combine_avx2(out, from, added, taken) };
    }
    combine_any(out, from, added, taken);
}

#[inline(always)]
fn combine_any(out: &mut [i32], from: &[i32], added: &[&[i32]], taken: &[&[i32]]) {
    match (added, taken) {
        ([a], [t]) => {
            for (((o, &f), &a), &t) in out.iter_mut().zip(from).zip(*a).zip(*t) {
                *o = f + a - t;
            }
        }
        ([a], [t, u]) => {
            for ((((o, &f), &a), &t), &u) in out.iter_mut().zip(from).zip(*a).zip(*t).zip(*u) {
                *o = f + a - t - u;
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
fn add_column_any<const SUBTRACT: bool>(sums: &mut [i32], column: &[i32]) {
    for (s, &w) in sums.iter_mut().zip(column) {
        if SUBTRACT {
            *s -= w;
        } else {
            *s += w;
        }
    }
}

#[inline(always)]
fn clipped_dot_any(sums: &[i32], weights: &[i16], most: i16) -> i32 {
    sums.iter().zip(weights).map(|(&a, &w)| i32::from(a.clamp(0, i32::from(most)) as i16) * i32::from(w)).sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn add_column_avx2<const SUBTRACT: bool>(sums: &mut [i32], column: &[i32]) {
    add_column_any::<SUBTRACT>(sums, column);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn combine_avx2(out: &mut [i32], from: &[i32], added: &[&[i32]], taken: &[&[i32]]) {
    combine_any(out, from, added, taken);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn clipped_dot_avx2(sums: &[i32], weights: &[i16], most: i16) -> i32 {
    clipped_dot_any(sums, weights, most)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_and_baseline_loops_agree() {
        let column: Vec<i32> = (0..131).map(|i| (i * 7919 % 4001) - 2000).collect();
        let weights: Vec<i16> = (0..131).map(|i| ((i * 104_729 % 16_001) - 8000) as i16).collect();
        let mut sums: Vec<i32> = (0..131).map(|i| (i * 31 % 3001) - 1000).collect();
        let (mut plain, before) = (sums.clone(), sums.clone());
        add_column::<false>(&mut sums, &column);
        add_column_any::<false>(&mut plain, &column);
        assert_eq!(sums, plain);
        assert_eq!(clipped_dot(&sums, &weights, 1024), clipped_dot_any(&sums, &weights, 1024));
        let want: i32 = sums.iter().zip(&weights).map(|(&a, &w)| a.clamp(0, 1024) * i32::from(w)).sum();
        assert_eq!(clipped_dot(&sums, &weights, 1024), want);
        add_column::<true>(&mut sums, &column);
        assert_eq!(sums, before);
        let other: Vec<i32> = column.iter().map(|w| w / 3 + 7).collect();
        for (added, taken) in
            [(vec![&column[..]], vec![&other[..]]), (vec![&other[..]], vec![&column[..], &other[..]]), (vec![], vec![&other[..]])]
        {
            let mut out = vec![0; sums.len()];
            combine(&mut out, &sums, &added, &taken);
            let want: Vec<i32> = (0..sums.len())
                .map(|i| sums[i] + added.iter().map(|a| a[i]).sum::<i32>() - taken.iter().map(|t| t[i]).sum::<i32>())
                .collect();
            assert_eq!(out, want);
        }
    }
}
