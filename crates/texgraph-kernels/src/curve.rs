//! The `curve` node's spline: a monotone cubic through the points (Fritsch and Carlson,
//! 1980), so the curve never overshoots between two points, flat beyond the ends.

/// A curve ready to evaluate: its points in x order with the spline's tangent at each
/// (worked out in f64), evaluated per sample as the cubic Hermite segment the input falls
/// in.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    xs: Vec<f32>,
    ys: Vec<f32>,
    slopes: Vec<f32>,
}

impl Curve {
    /// The curve through `points` (x and y in [0, 1]; at least two; any order, equal x
    /// keep their order and make a step).
    pub fn new(points: &[(f32, f32)]) -> Self {
        // Validation asks for two points; anything less draws the identity.
        let points = if points.is_empty() {
            &[(0.0, 0.0), (1.0, 1.0)][..]
        } else {
            points
        };
        let mut sorted: Vec<(f64, f64)> = points
            .iter()
            .map(|&(x, y)| (f64::from(x), f64::from(y)))
            .collect();
        sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (xs, ys): (Vec<f64>, Vec<f64>) = sorted.into_iter().unzip();
        let slopes = monotone_tangents(&xs, &ys);
        let narrow = |v: &[f64]| v.iter().map(|&c| c as f32).collect();
        Self {
            xs: narrow(&xs),
            ys: narrow(&ys),
            slopes: narrow(&slopes),
        }
    }

    /// The curve at `t`: the first point's y left of it, the last's right of it.
    #[inline(always)]
    pub fn at(&self, t: f32) -> f32 {
        let n = self.xs.len();
        // NaN reads as the first point.
        if t.is_nan() || t <= self.xs[0] {
            return self.ys[0];
        }
        if t >= self.xs[n - 1] {
            return self.ys[n - 1];
        }
        // The last segment starting at or before t (after a step, the upper side).
        let k = self.xs.partition_point(|&x| x <= t) - 1;
        let h = self.xs[k + 1] - self.xs[k];
        if h <= 0.0 {
            return self.ys[k + 1];
        }
        let u = (t - self.xs[k]) / h;
        let (u2, u3) = (u * u, u * u * u);
        let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
        let h10 = u3 - 2.0 * u2 + u;
        let h01 = -2.0 * u3 + 3.0 * u2;
        let h11 = u3 - u2;
        h00 * self.ys[k]
            + h10 * h * self.slopes[k]
            + h01 * self.ys[k + 1]
            + h11 * h * self.slopes[k + 1]
    }
}

/// The tangent at each point (in x order) of the monotone cubic Hermite spline through
/// them, in f64 (Fritsch–Carlson).
fn monotone_tangents(xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let n = xs.len();
    // Secant slopes; a vertical step (equal x) has none.
    let secant: Vec<f64> = (0..n.saturating_sub(1))
        .map(|k| {
            let dx = xs[k + 1] - xs[k];
            if dx > 0.0 {
                (ys[k + 1] - ys[k]) / dx
            } else {
                0.0
            }
        })
        .collect();
    let mut slopes: Vec<f64> = (0..n)
        .map(
            |k| match (k.checked_sub(1).map(|j| secant[j]), secant.get(k)) {
                (None, Some(&s)) | (Some(s), None) => s,
                // Interior: 0 at a local extremum, else the mean of the secants.
                (Some(a), Some(&b)) if a * b > 0.0 => 0.5 * (a + b),
                _ => 0.0,
            },
        )
        .collect();
    // Fritsch–Carlson: keep α² + β² ≤ 9 on every segment, so it stays monotone.
    for k in 0..secant.len() {
        let s = secant[k];
        if s == 0.0 {
            slopes[k] = 0.0;
            slopes[k + 1] = 0.0;
            continue;
        }
        let (a, b) = (slopes[k] / s, slopes[k + 1] / s);
        let r = a * a + b * b;
        if r > 9.0 {
            let t = 3.0 / r.sqrt();
            slopes[k] = t * a * s;
            slopes[k + 1] = t * b * s;
        }
    }
    slopes
}
