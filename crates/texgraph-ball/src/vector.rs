//! A three-component vector of plain f32 operations (no fused multiply-add, so results do
//! not depend on the target's instructions).

use std::ops::{Add, Mul, Neg, Sub};

/// A point or direction in the ball's world: x right, y up, z towards the camera.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Vec3 {
    /// Right.
    pub x: f32,
    /// Up.
    pub y: f32,
    /// Towards the default camera.
    pub z: f32,
}

/// `x` rounded down, for |x| < 2³¹ (texture and map coordinates): the same value as
/// `f32::floor`, without the library call baseline x86-64 makes for it.
pub(crate) fn floor(x: f32) -> f32 {
    let t = x as i32 as f32;
    if t > x { t - 1.0 } else { t }
}

/// Shorthand for a [`Vec3`].
pub const fn v3(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3 { x, y, z }
}

impl Vec3 {
    /// Dot product.
    pub fn dot(self, o: Vec3) -> f32 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Cross product.
    pub fn cross(self, o: Vec3) -> Vec3 {
        v3(
            self.y * o.z - self.z * o.y,
            self.z * o.x - self.x * o.z,
            self.x * o.y - self.y * o.x,
        )
    }

    /// Length.
    pub fn length(self) -> f32 {
        self.dot(self).sqrt()
    }

    /// This direction at length 1 (zero stays zero).
    pub fn normalize(self) -> Vec3 {
        let l = self.length();
        if l > 0.0 { self * (1.0 / l) } else { self }
    }

    /// Component-wise product.
    pub fn times(self, o: Vec3) -> Vec3 {
        v3(self.x * o.x, self.y * o.y, self.z * o.z)
    }

    /// Largest component.
    pub fn max_component(self) -> f32 {
        self.x.max(self.y).max(self.z)
    }

    /// As an array.
    pub fn to_array(self) -> [f32; 3] {
        [self.x, self.y, self.z]
    }

    /// From an array.
    pub fn from_array(a: [f32; 3]) -> Vec3 {
        v3(a[0], a[1], a[2])
    }
}

impl Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 {
        v3(self.x + o.x, self.y + o.y, self.z + o.z)
    }
}

impl Sub for Vec3 {
    type Output = Vec3;
    fn sub(self, o: Vec3) -> Vec3 {
        v3(self.x - o.x, self.y - o.y, self.z - o.z)
    }
}

impl Mul<f32> for Vec3 {
    type Output = Vec3;
    fn mul(self, s: f32) -> Vec3 {
        v3(self.x * s, self.y * s, self.z * s)
    }
}

impl Neg for Vec3 {
    type Output = Vec3;
    fn neg(self) -> Vec3 {
        v3(-self.x, -self.y, -self.z)
    }
}

/// A turn about the world's up axis (y), as the environment is turned against the shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Turn {
    cos: f32,
    sin: f32,
}

impl Turn {
    /// A turn of `degrees`, positive from +z towards +x.
    pub fn degrees(degrees: f32) -> Self {
        let (sin, cos) = degrees.to_radians().sin_cos();
        Self { cos, sin }
    }

    /// `d` in the world, given in the turned frame (the key light turning with the
    /// environment).
    pub fn to_world(self, d: Vec3) -> Vec3 {
        if self.sin == 0.0 {
            return d; // no turn: the same bits as never turning
        }
        v3(
            d.x * self.cos + d.z * self.sin,
            d.y,
            d.z * self.cos - d.x * self.sin,
        )
    }

    /// The world's direction `d` in the turned frame (where the environment is looked up).
    pub fn to_environment(self, d: Vec3) -> Vec3 {
        if self.sin == 0.0 {
            return d;
        }
        v3(
            d.x * self.cos - d.z * self.sin,
            d.y,
            d.z * self.cos + d.x * self.sin,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::floor;

    #[test]
    fn floor_agrees_with_the_library() {
        for x in [
            -2.5f32,
            -1.0,
            -0.999_999_94,
            -1e-30,
            -0.0,
            0.0,
            1e-30,
            0.5,
            0.999_999_94,
            1.0,
            7.25,
            8_388_607.5,
            8_388_609.0,
            -8_388_609.0,
            2e9,
            -2e9,
        ] {
            assert_eq!(floor(x), x.floor(), "{x}");
        }
    }
}
