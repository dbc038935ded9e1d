//! Runtime choice of instruction set. One shipped binary runs its hot loops compiled for
//! AVX-512 or AVX2 where the CPU has them and for the baseline target elsewhere. The
//! loops use no fused multiply-add and the same operation order on every path, so every
//! path gives the same bits.

use std::sync::OnceLock;

/// Instruction-set levels the evaluator is compiled for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The build target's baseline (SSE2 on x86-64; on the web, WebAssembly's 128-bit
    /// SIMD, which `scripts/build-web.sh` enables).
    Baseline,
    /// x86-64-v3: AVX2 (8 lanes, gathers).
    Avx2,
    /// x86-64-v4: AVX-512 (16 lanes).
    Avx512,
}

/// The best level this CPU supports; `TEXGRAPH_SIMD=baseline|avx2|avx512` caps it (for
/// comparisons and tests).
pub fn level() -> Level {
    static LEVEL: OnceLock<Level> = OnceLock::new();
    *LEVEL.get_or_init(|| {
        let detected = detect();
        match std::env::var("TEXGRAPH_SIMD").as_deref() {
            Ok("baseline") => Level::Baseline,
            Ok("avx2") if detected != Level::Baseline => Level::Avx2,
            _ => detected,
        }
    })
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Level {
    if is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512bw")
        && is_x86_feature_detected!("avx512dq")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx2")
    {
        Level::Avx512
    } else if is_x86_feature_detected!("avx2") {
        Level::Avx2
    } else {
        Level::Baseline
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Level {
    Level::Baseline
}

/// Defines `pub fn $name(args)` running `$body` compiled for the CPU's best [`Level`].
/// Everything `$body` calls must be `#[inline(always)]` to be compiled for that level.
/// Exported for the evaluator's and the encoders' loops in the crates above.
#[macro_export]
macro_rules! multiversion {
    ($(#[$meta:meta])* $vis:vis fn $name:ident($($arg:ident : $ty:ty),* $(,)?) $body:block) => {
        $(#[$meta])*
        $vis fn $name($($arg: $ty),*) {
            #[inline(always)]
            fn body($($arg: $ty),*) $body

            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx512f,avx512bw,avx512dq,avx512vl,avx2,bmi1,bmi2,lzcnt,popcnt")]
                fn avx512($($arg: $ty),*) { body($($arg),*) }
                #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
                fn avx2($($arg: $ty),*) { body($($arg),*) }
                match $crate::dispatch::level() {
                    // SAFETY: level() only reports features the running CPU has.
                    $crate::dispatch::Level::Avx512 => return unsafe { avx512($($arg),*) },
                    $crate::dispatch::Level::Avx2 => return unsafe { avx2($($arg),*) },
                    $crate::dispatch::Level::Baseline => {}
                }
            }
            body($($arg),*)
        }
    };
}
pub use crate::multiversion;
