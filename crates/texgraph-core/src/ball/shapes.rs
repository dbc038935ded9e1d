//! The shapes a material is shown on, intersected exactly. Each hit gives the position, the
//! geometric normal, a tangent frame and UV.
//!
//! Conventions shared by every shape: the tangent points along +u; the bitangent is
//! normal × tangent, which points towards the image's top (decreasing v, since v = 0 is the
//! top row), the "green up" of an OpenGL normal map. UV is multiplied by the tiling.
//!
//! - **Sphere** (radius 1): u = longitude, running twice around (0 → 2, u = 1 facing the
//!   default camera) so texels are about square at the equator; v = polar angle / π, 0 at
//!   the north pole (top), 1 at the south pole.
//! - **Plane**: the square [-1, 1]² in z = 0 facing +z; u = 0 at the left edge, 1 at the
//!   right, v = 0 at the top, 1 at the bottom (the map once, upright).
//! - **Cube** (half-side 0.75): each face holds the map once, upright as seen from outside
//!   with +y up (the top face's up is −z, the bottom's +z).
//! - **Cylinder** (radius 0.75, height 1.5, along y): the side's u runs three times around
//!   (about square texels), v from top to bottom; the caps hold the map once like the
//!   cube's top and bottom faces.

use super::vector::{Vec3, v3};

/// A shape to show a material on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shape {
    /// A sphere of radius 1.
    #[default]
    Sphere,
    /// A square facing the camera.
    Plane,
    /// A cube, seen from above and to the side.
    Cube,
    /// A capped cylinder standing on y.
    Cylinder,
}

/// Where a ray meets a shape.
#[derive(Debug, Clone, Copy)]
pub struct Hit {
    /// Distance along the ray.
    pub t: f32,
    /// The point.
    pub position: Vec3,
    /// Outward geometric normal (unit).
    pub normal: Vec3,
    /// Unit tangent, along +u.
    pub tangent: Vec3,
    /// Unit bitangent, normal × tangent (towards decreasing v).
    pub bitangent: Vec3,
    /// Texture coordinates, tiling applied.
    pub uv: [f32; 2],
}

const CUBE: f32 = 0.75;
const CYL_RADIUS: f32 = 0.75;
const CYL_HALF: f32 = 0.75;

impl Shape {
    /// The radius the camera frames (about the shape's silhouette from its view).
    pub(crate) fn frame_radius(self) -> f32 {
        match self {
            Shape::Sphere | Shape::Plane => 1.0,
            Shape::Cube => 1.2,
            Shape::Cylinder => 1.1,
        }
    }

    /// The camera's azimuth and elevation in radians (the cube and cylinder are seen from
    /// above so their tops show).
    pub(crate) fn view_angles(self) -> (f32, f32) {
        match self {
            Shape::Sphere | Shape::Plane => (0.0, 0.0),
            Shape::Cube => (35f32.to_radians(), 25f32.to_radians()),
            Shape::Cylinder => (0.0, 22f32.to_radians()),
        }
    }

    /// The nearest hit of the ray `origin + t·dir` (`dir` unit) with t > 0.
    pub fn intersect(self, origin: Vec3, dir: Vec3, tiling: f32) -> Option<Hit> {
        let hit = match self {
            Shape::Sphere => sphere(origin, dir),
            Shape::Plane => plane(origin, dir),
            Shape::Cube => cube(origin, dir),
            Shape::Cylinder => cylinder(origin, dir),
        }?;
        Some(Hit {
            uv: [hit.uv[0] * tiling, hit.uv[1] * tiling],
            ..hit
        })
    }
}

fn frame(t: f32, position: Vec3, normal: Vec3, tangent: Vec3, uv: [f32; 2]) -> Hit {
    Hit {
        t,
        position,
        normal,
        tangent,
        bitangent: normal.cross(tangent),
        uv,
    }
}

/// Roots of t² + 2·b·t + c = 0, nearest first.
fn quadratic(b: f32, c: f32) -> Option<(f32, f32)> {
    let disc = b * b - c;
    if disc < 0.0 {
        return None;
    }
    let s = disc.sqrt();
    Some((-b - s, -b + s))
}

fn sphere(o: Vec3, d: Vec3) -> Option<Hit> {
    let (t0, t1) = quadratic(o.dot(d), o.dot(o) - 1.0)?;
    let t = if t0 > 0.0 { t0 } else { t1 };
    if t <= 0.0 {
        return None;
    }
    let p = o + d * t;
    let n = p.normalize();
    let phi = n.x.atan2(n.z);
    let theta = n.y.clamp(-1.0, 1.0).acos();
    let u = 2.0 * (0.5 + phi / std::f32::consts::TAU);
    let v = theta / std::f32::consts::PI;
    let tangent = v3(phi.cos(), 0.0, -phi.sin());
    Some(frame(t, p, n, tangent, [u, v]))
}

fn plane(o: Vec3, d: Vec3) -> Option<Hit> {
    if d.z >= 0.0 {
        return None;
    }
    let t = -o.z / d.z;
    if t <= 0.0 {
        return None;
    }
    let p = o + d * t;
    if p.x.abs() > 1.0 || p.y.abs() > 1.0 {
        return None;
    }
    let uv = [(p.x + 1.0) * 0.5, (1.0 - p.y) * 0.5];
    Some(frame(t, p, v3(0.0, 0.0, 1.0), v3(1.0, 0.0, 0.0), uv))
}

/// A flat face's UV from its tangent frame: the map once across a square of half-side `s`.
fn face_uv(p: Vec3, tangent: Vec3, bitangent: Vec3, s: f32) -> [f32; 2] {
    [
        (p.dot(tangent) + s) / (2.0 * s),
        (s - p.dot(bitangent)) / (2.0 * s),
    ]
}

/// The tangent of a cube face (or cylinder cap) with outward normal `n`.
fn face_tangent(n: Vec3) -> Vec3 {
    if n.x > 0.5 {
        v3(0.0, 0.0, -1.0)
    } else if n.x < -0.5 {
        v3(0.0, 0.0, 1.0)
    } else if n.z < -0.5 {
        v3(-1.0, 0.0, 0.0)
    } else {
        v3(1.0, 0.0, 0.0)
    }
}

fn flat(t: f32, p: Vec3, n: Vec3, s: f32) -> Hit {
    let tangent = face_tangent(n);
    let bitangent = n.cross(tangent);
    let uv = face_uv(p, tangent, bitangent, s);
    Hit {
        t,
        position: p,
        normal: n,
        tangent,
        bitangent,
        uv,
    }
}

fn cube(o: Vec3, d: Vec3) -> Option<Hit> {
    let (o, d) = (o.to_array(), d.to_array());
    let mut near = f32::NEG_INFINITY;
    let mut far = f32::INFINITY;
    let mut axis = 0;
    for i in 0..3 {
        if d[i] == 0.0 {
            if o[i].abs() > CUBE {
                return None;
            }
            continue;
        }
        let a = (-CUBE - o[i]) / d[i];
        let b = (CUBE - o[i]) / d[i];
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if a > near {
            near = a;
            axis = i;
        }
        far = far.min(b);
    }
    if near > far || near <= 0.0 {
        return None;
    }
    let p = Vec3::from_array(std::array::from_fn(|i| o[i] + d[i] * near));
    let mut n = [0.0; 3];
    n[axis] = if d[axis] > 0.0 { -1.0 } else { 1.0 };
    Some(flat(near, p, Vec3::from_array(n), CUBE))
}

fn cylinder(o: Vec3, d: Vec3) -> Option<Hit> {
    let mut best: Option<Hit> = None;
    // The side: x² + z² = r², |y| ≤ h.
    let a = d.x * d.x + d.z * d.z;
    if a > 0.0 {
        let b = (o.x * d.x + o.z * d.z) / a;
        let c = (o.x * o.x + o.z * o.z - CYL_RADIUS * CYL_RADIUS) / a;
        if let Some((t0, _)) = quadratic(b, c) {
            let p = o + d * t0;
            if t0 > 0.0 && p.y.abs() <= CYL_HALF {
                let n = v3(p.x, 0.0, p.z).normalize();
                let phi = n.x.atan2(n.z);
                let u = 3.0 * (0.5 + phi / std::f32::consts::TAU);
                let v = (CYL_HALF - p.y) / (2.0 * CYL_HALF);
                let tangent = v3(phi.cos(), 0.0, -phi.sin());
                best = Some(frame(t0, p, n, tangent, [u, v]));
            }
        }
    }
    // The caps.
    if d.y != 0.0 {
        for (y, ny) in [(CYL_HALF, 1.0), (-CYL_HALF, -1.0)] {
            let t = (y - o.y) / d.y;
            if t <= 0.0 || d.y * ny >= 0.0 || best.is_some_and(|h| h.t <= t) {
                continue;
            }
            let p = o + d * t;
            if p.x * p.x + p.z * p.z <= CYL_RADIUS * CYL_RADIUS {
                best = Some(flat(t, p, v3(0.0, ny, 0.0), CYL_RADIUS));
            }
        }
    }
    best
}
