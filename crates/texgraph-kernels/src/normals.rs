//! Normal-map math of the material nodes: combining two tangent-space normal maps.
//! Normals are encoded as colors 0.5 + 0.5·n (x right, y up, z out of the surface).

/// How `normal_blend` combines a base and a detail normal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NormalBlendMode {
    /// Reoriented normal mapping (Barré-Brisebois and Hill): the detail turned with the base.
    Reoriented,
    /// Slopes added, z multiplied.
    Whiteout,
    /// The detail's offset from flat added to the base.
    Linear,
}

/// Smallest z of the base's `t` vector reoriented normal mapping divides by: a base
/// pointing straight into the surface has none.
const MIN_Z: f32 = 1e-6;

/// Squared lengths within this of 1 are unit already: [`unit`] leaves them as they are,
/// so a normal passed through unchanged keeps its bits.
const UNIT_SLACK: f32 = 1.0 / (1 << 20) as f32;

/// `v` scaled to unit length; (0, 0, 1) for the zero vector.
#[inline(always)]
pub fn unit(v: [f32; 3]) -> [f32; 3] {
    let len2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (len2 - 1.0).abs() <= UNIT_SLACK {
        v
    } else if len2 > 0.0 {
        let inv = 1.0 / len2.sqrt();
        [v[0] * inv, v[1] * inv, v[2] * inv]
    } else {
        [0.0, 0.0, 1.0]
    }
}

/// A channel of an encoded normal within [0, 1] (NaN to 0).
#[inline(always)]
#[allow(clippy::manual_clamp)] // max/min (not clamp): a NaN lands on a bound
fn channel(c: f32) -> f32 {
    c.max(0.0).min(1.0)
}

/// The normal map `detail` applied on `base` (both encoded colors; channels clamped to
/// [0, 1]), `strength` (clamped to [0, 1]) of it: the detail's decoded vector d is first
/// taken towards flat, d ← unit(s·dx, s·dy, (1 − s) + s·dz), then
/// - reoriented: t = (bx, by, bz + 1), u = (−dx, −dy, dz), r = t·(t·u / t.z) − u;
/// - whiteout: r = (bx + dx, by + dy, bz·dz);
/// - linear: r = b + (d − (0, 0, 1));
///
/// with b the decoded base, and the result is unit(r), encoded. It is written as
/// base + (unit(r) − b)/2, which is 0.5 + 0.5·unit(r), so that where the detail is flat
/// (r = b in every mode) a unit base comes back bit for bit.
#[inline(always)]
pub fn blend(base: [f32; 3], detail: [f32; 3], strength: f32, mode: NormalBlendMode) -> [f32; 3] {
    let base = base.map(channel);
    let b = base.map(|c| 2.0 * c - 1.0);
    let d = detail.map(|c| 2.0 * channel(c) - 1.0);
    let s = channel(strength);
    let d = unit([d[0] * s, d[1] * s, (1.0 - s) + s * d[2]]);
    let r = match mode {
        NormalBlendMode::Reoriented => {
            let t = [b[0], b[1], 2.0 * base[2]];
            let u = [-d[0], -d[1], d[2]];
            let k = (t[0] * u[0] + t[1] * u[1] + t[2] * u[2]) / t[2].max(MIN_Z);
            [t[0] * k - u[0], t[1] * k - u[1], t[2] * k - u[2]]
        }
        NormalBlendMode::Whiteout => [b[0] + d[0], b[1] + d[1], b[2] * d[2]],
        NormalBlendMode::Linear => [b[0] + d[0], b[1] + d[1], b[2] + (d[2] - 1.0)],
    };
    let n = unit(r);
    [
        base[0] + 0.5 * (n[0] - b[0]),
        base[1] + 0.5 * (n[1] - b[1]),
        base[2] + 0.5 * (n[2] - b[2]),
    ]
}
