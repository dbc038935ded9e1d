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
//! - **Cube** (half-side 0.75, its edges and corners rounded to radius 0.12): each face
//!   holds the map once, upright as seen from outside with +y up (the top face's up is −z,
//!   the bottom's +z). A point on a rounded edge or corner belongs to the face its normal
//!   leans towards most and maps onto that face's plane (the corners' spheres projected
//!   stereographically, the edges' arcs alike), so UV lines still cross at right angles
//!   and the tangent frame follows them (see `rounded`).
//! - **Cylinder** (radius 0.75, height 1.5, along y): the side's u runs three times around
//!   (about square texels), v from top to bottom; the caps hold the map once like the
//!   cube's top and bottom faces.
//! - **Terrain**: the height map as a block of ground on the square [-1, 1]² of the
//!   ground plane, the map once, its top row at the far edge (see [`crate::terrain`]).

use crate::terrain::Heightfield;
use crate::vector::{Vec3, v3};

/// A shape to show a material on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shape {
    /// A sphere of radius 1.
    #[default]
    Sphere,
    /// A square facing the camera.
    Plane,
    /// A cube of half-side 0.75 with edges and corners rounded to radius 0.12, seen from
    /// above and to the side.
    Cube,
    /// A capped cylinder standing on y.
    Cylinder,
    /// The height map as a lit block of ground, seen from above and to the side.
    Terrain,
}

/// The terrain shape's ground: a height map standing `relief` high.
#[derive(Debug, Clone, Copy)]
pub struct Ground<'a> {
    /// The height map.
    pub field: &'a Heightfield,
    /// The height of a unit of the map, as a fraction of the block's width.
    pub relief: f32,
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

/// The cube's half-side and the radius of its rounded edges and corners.
const CUBE: f32 = 0.75;
const CUBE_EDGE: f32 = 0.12;
const CYL_RADIUS: f32 = 0.75;
const CYL_HALF: f32 = 0.75;

impl Shape {
    /// Every shape, in the order menus list them.
    pub const ALL: [Shape; 5] = [
        Shape::Sphere,
        Shape::Cube,
        Shape::Cylinder,
        Shape::Plane,
        Shape::Terrain,
    ];

    /// The shape's name on the command line (`texgraph render --ball`).
    pub fn id(self) -> &'static str {
        match self {
            Shape::Sphere => "sphere",
            Shape::Plane => "plane",
            Shape::Cube => "cube",
            Shape::Cylinder => "cylinder",
            Shape::Terrain => "terrain",
        }
    }

    /// The shape named `id` (see [`Shape::id`]).
    pub fn parse(id: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The radius the camera frames (about the shape's silhouette from its view).
    pub(crate) fn frame_radius(self) -> f32 {
        match self {
            Shape::Sphere | Shape::Plane => 1.0,
            Shape::Cube => 1.2,
            Shape::Cylinder => 1.1,
            Shape::Terrain => 1.35,
        }
    }

    /// The camera's azimuth and elevation in radians (the cube and cylinder are seen from
    /// above so their tops show).
    pub(crate) fn view_angles(self) -> (f32, f32) {
        match self {
            Shape::Sphere | Shape::Plane => (0.0, 0.0),
            Shape::Cube => (35f32.to_radians(), 25f32.to_radians()),
            Shape::Cylinder => (0.0, 22f32.to_radians()),
            Shape::Terrain => (30f32.to_radians(), 35f32.to_radians()),
        }
    }

    /// The nearest hit of the ray `origin + t·dir` (`dir` unit) with t > 0. `ground` is
    /// what the terrain is made of; the terrain shows its map once, whatever the tiling.
    pub fn intersect(
        self,
        origin: Vec3,
        dir: Vec3,
        tiling: f32,
        ground: Ground<'_>,
    ) -> Option<Hit> {
        let hit = match self {
            Shape::Sphere => sphere(origin, dir),
            Shape::Plane => plane(origin, dir),
            Shape::Cube => cube(origin, dir),
            Shape::Cylinder => cylinder(origin, dir),
            Shape::Terrain => return ground.field.intersect(origin, dir, ground.relief),
        }?;
        Some(Hit {
            uv: [hit.uv[0] * tiling, hit.uv[1] * tiling],
            ..hit
        })
    }
}

/// A hit with its frame completed: the bitangent is normal × tangent.
pub(crate) fn frame(t: f32, position: Vec3, normal: Vec3, tangent: Vec3, uv: [f32; 2]) -> Hit {
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

/// Where the ray enters the cube of half-side `half` about the origin, and the axis of the
/// face it enters through.
fn box_entry(o: [f32; 3], d: [f32; 3], half: f32) -> Option<(f32, usize)> {
    let mut near = f32::NEG_INFINITY;
    let mut far = f32::INFINITY;
    let mut axis = 0;
    for i in 0..3 {
        if d[i] == 0.0 {
            if o[i].abs() > half {
                return None;
            }
            continue;
        }
        let a = (-half - o[i]) / d[i];
        let b = (half - o[i]) / d[i];
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        if a > near {
            near = a;
            axis = i;
        }
        far = far.min(b);
    }
    (near <= far && near > 0.0).then_some((near, axis))
}

/// The rounded cube is the box of half-side `CUBE − CUBE_EDGE` grown by `CUBE_EDGE` in
/// every direction: the union of three boxes (the inner box grown along one axis each,
/// whose outer faces are the flat faces), twelve cylinders along its edges and eight
/// spheres on its corners. A ray entering the bounding cube through a flat face has its
/// hit there; any other enters the union through a cylinder's side or a sphere first (the
/// boxes' other faces lie inside the union, and a cylinder's ends inside its corner
/// spheres), so the nearest of those entries is the hit, exactly.
fn cube(o: Vec3, d: Vec3) -> Option<Hit> {
    const INNER: f32 = CUBE - CUBE_EDGE;
    let (start, axis) = box_entry(o.to_array(), d.to_array(), CUBE)?;
    // From the bounding cube on, so the small radius is not lost in the rounding of
    // distances from a far camera.
    let o1 = o + d * start;
    let (oa, da) = (o1.to_array(), d.to_array());
    if (0..3).all(|i| i == axis || oa[i].abs() <= INNER) {
        let mut n = [0.0; 3];
        n[axis] = if da[axis] > 0.0 { -1.0 } else { 1.0 };
        return Some(flat(start, o1, Vec3::from_array(n), CUBE));
    }
    // Entries found a rounding error behind the start count as at the start.
    const SLACK: f32 = 1e-4;
    let mut best = f32::INFINITY;
    let mut consider = |t: f32| {
        if t >= -SLACK && t < best {
            best = t.max(0.0);
        }
    };
    let r2 = CUBE_EDGE * CUBE_EDGE;
    for axis in 0..3 {
        let (i, j) = ((axis + 1) % 3, (axis + 2) % 3);
        let a = da[i] * da[i] + da[j] * da[j];
        if a <= 1e-12 {
            continue; // along the edge: its corner sphere is met first
        }
        for (ci, cj) in [
            (-INNER, -INNER),
            (INNER, -INNER),
            (-INNER, INNER),
            (INNER, INNER),
        ] {
            let (pi, pj) = (oa[i] - ci, oa[j] - cj);
            let b = (pi * da[i] + pj * da[j]) / a;
            let c = (pi * pi + pj * pj - r2) / a;
            if let Some((t, _)) = quadratic(b, c)
                && (oa[axis] + da[axis] * t).abs() <= INNER
            {
                consider(t);
            }
        }
    }
    for corner in 0..8 {
        let at = |bit: usize| if corner & bit == 0 { -INNER } else { INNER };
        let p = o1 - v3(at(1), at(2), at(4));
        if let Some((t, _)) = quadratic(p.dot(d), p.dot(p) - r2) {
            consider(t);
        }
    }
    if !best.is_finite() {
        return None;
    }
    Some(rounded(start + best, o1 + d * best, INNER))
}

/// A hit on a rounded edge or corner, which belongs to the face its normal leans towards
/// most. The normal points away from the nearest point `c` of the inner box. In that
/// face's frame (tangent, bitangent, normal; `n` = (x, y, z) there), the point maps to
/// the face plane at `c` + 2r·(x, y)/(1 + z): along an edge, a point θ round the arc from
/// the face lands 2r·tan(θ/2) past the inner edge, and on a corner this is the
/// stereographic projection of the corner's sphere, which keeps angles,
/// so the UV lines cross at right angles everywhere and the tangent (along +u) with the
/// bitangent (normal × tangent) follow them exactly. Where the normal is the face's, this
/// is the flat face's mapping.
fn rounded(t: f32, p: Vec3, inner: f32) -> Hit {
    let clamp = |v: f32| v.clamp(-inner, inner);
    let c = v3(clamp(p.x), clamp(p.y), clamp(p.z));
    let n = (p - c).normalize();
    let (ax, ay, az) = (n.x.abs(), n.y.abs(), n.z.abs());
    let sign = |v: f32| if v < 0.0 { -1.0 } else { 1.0 };
    let face = if ax >= ay && ax >= az {
        v3(sign(n.x), 0.0, 0.0)
    } else if ay >= az {
        v3(0.0, sign(n.y), 0.0)
    } else {
        v3(0.0, 0.0, sign(n.z))
    };
    let face_t = face_tangent(face);
    let face_b = face.cross(face_t);
    let (x, y, z) = (n.dot(face_t), n.dot(face_b), n.dot(face));
    let k = 2.0 * CUBE_EDGE / (1.0 + z);
    let projected = face_t * (c.dot(face_t) + k * x) + face_b * (c.dot(face_b) + k * y);
    let uv = face_uv(projected, face_t, face_b, CUBE);
    // ∂p/∂u of the inverse projection: (1 + z − x², −x·y, −x·(1 + z)) in the face's frame.
    let tangent =
        (face_t * (1.0 + z - x * x) - face_b * (x * y) - face * (x * (1.0 + z))).normalize();
    frame(t, p, n, tangent, uv)
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
