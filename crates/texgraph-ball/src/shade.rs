//! The glTF 2.0 metallic-roughness BRDF (the specification's Appendix B) lit by one
//! directional key light and the environment's image-based light, with tangent-space
//! normal mapping, parallax occlusion mapping, occlusion, emission and opacity.

use std::f32::consts::PI;

use crate::environment::{Lighting, ggx, visibility};
use crate::material::Material;
use crate::shapes::Hit;
use crate::vector::{Turn, Vec3, v3};

/// A directional light: the unit direction towards it and its intensity (the irradiance it
/// gives a surface facing it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct KeyLight {
    pub direction: Vec3,
    pub intensity: f32,
}

/// The light a surface gets: the environment's, turned by `turn`, and the key light
/// (already in the world).
pub(crate) struct Light<'a> {
    pub lighting: &'a Lighting,
    pub turn: Turn,
    pub key: KeyLight,
}

/// Angular radius of the key light, in radians: widens the GGX lobe for the light
/// (α' = √(α² + ρ²)) so a mirror still shows a highlight a pixel can find.
const KEY_LIGHT_RADIUS: f32 = 0.03;

/// Linear steps of the parallax search (one linear refinement follows).
const PARALLAX_STEPS: u32 = 16;

/// The texture coordinates where the view ray meets the height field under `uv`: the
/// height map's full range (1 the surface, 0 the deepest) spans `depth` texture tiles
/// below the surface. `view` is the unit direction to the eye in tangent space (x along
/// +u, y towards decreasing v, z out of the surface).
fn parallax(material: &Material, uv: [f32; 2], view: Vec3, depth: f32) -> [f32; 2] {
    let z = view.z.max(0.1);
    // UV moved per unit of depth along the view ray into the surface.
    let step_uv = [-view.x / z * depth, view.y / z * depth];
    let step = 1.0 / PARALLAX_STEPS as f32;
    let below = |uv: [f32; 2]| 1.0 - material.height(uv[0], uv[1]);
    let mut layer = 0.0;
    let mut cur = uv;
    let mut cur_depth = below(cur);
    let mut prev = cur;
    let mut prev_depth = cur_depth;
    let mut i = 0;
    while layer < cur_depth && i < PARALLAX_STEPS {
        prev = cur;
        prev_depth = cur_depth;
        layer += step;
        cur = [cur[0] + step_uv[0] * step, cur[1] + step_uv[1] * step];
        cur_depth = below(cur);
        i += 1;
    }
    if i == 0 {
        return uv;
    }
    // The crossing between the last two layers, linearly.
    let after = cur_depth - layer;
    let before = prev_depth - (layer - step);
    let denom = after - before;
    let w = if denom != 0.0 { after / denom } else { 0.0 };
    [
        prev[0] * w + cur[0] * (1.0 - w),
        prev[1] * w + cur[1] * (1.0 - w),
    ]
}

fn schlick(f0: Vec3, v_dot_h: f32) -> Vec3 {
    let k = (1.0 - v_dot_h).clamp(0.0, 1.0).powi(5);
    f0 + (v3(1.0, 1.0, 1.0) - f0) * k
}

fn rgb(p: [f32; 4]) -> Vec3 {
    v3(p[0], p[1], p[2])
}

/// Which of the height map's and normal map's detail the surface shows.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Detail {
    /// The normal map, and parallax of `depth` texture tiles (0: none).
    NormalMap { depth: f32 },
    /// Neither: the surface's own normal (the terrain, whose geometry is its height map).
    None,
}

/// Linear radiance leaving `hit` towards the eye (`view`, unit, from the surface to the
/// eye), and the surface's opacity.
pub(crate) fn shade(
    hit: &Hit,
    view: Vec3,
    material: &Material,
    light: &Light<'_>,
    detail: Detail,
) -> (Vec3, f32) {
    let (lighting, key, turn) = (light.lighting, light.key, light.turn);
    let (t, b, ng) = (hit.tangent, hit.bitangent, hit.normal);
    let mut uv = hit.uv;
    if let Detail::NormalMap { depth } = detail
        && depth > 0.0
    {
        let view_ts = v3(view.dot(t), view.dot(b), view.dot(ng));
        uv = parallax(material, uv, view_ts, depth);
    }
    let [u, v] = uv;
    let surface = material.sample(u, v);
    let base = surface.base;
    let opacity = (surface.opacity * base[3]).clamp(0.0, 1.0);
    let roughness = surface.roughness.clamp(0.0, 1.0);
    let metallic = surface.metallic.clamp(0.0, 1.0);
    let occlusion = surface.occlusion.clamp(0.0, 1.0);
    let emissive = Vec3::from_array(surface.emissive);
    let n = match detail {
        Detail::NormalMap { .. } => {
            let m = surface.normal;
            // OpenGL tangent space: x along +u, y up the image, z out of the surface.
            (t * (2.0 * m[0] - 1.0) + b * (2.0 * m[1] - 1.0) + ng * (2.0 * m[2] - 1.0)).normalize()
        }
        Detail::None => ng,
    };

    let base = rgb(base);
    let c_diff = base * (1.0 - metallic);
    let f0 = v3(0.04, 0.04, 0.04) * (1.0 - metallic) + base * metallic;
    let alpha = roughness * roughness;
    let n_dot_v = n.dot(view).max(1e-4);

    let mut color = emissive;

    // The key light: f = (1 − F)·c_diff/π + F·D·V.
    if key.intensity > 0.0 {
        let l = key.direction;
        let n_dot_l = n.dot(l);
        if n_dot_l > 0.0 {
            let h = (l + view).normalize();
            let n_dot_h = n.dot(h).max(0.0);
            let v_dot_h = view.dot(h).max(0.0);
            let a = (alpha * alpha + KEY_LIGHT_RADIUS * KEY_LIGHT_RADIUS).sqrt();
            let f = schlick(f0, v_dot_h);
            let spec = f * (ggx(n_dot_h, a) * visibility(n_dot_l, n_dot_v, a));
            let diffuse = (v3(1.0, 1.0, 1.0) - f).times(c_diff) * (1.0 / PI);
            color = color + (diffuse + spec) * (key.intensity * n_dot_l);
        }
    }

    // Image-based light, split sum: the specular reflects f0·A + B of the prefiltered light
    // and the diffuse gets what the specular leaves (glTF's Fresnel mix), so a white
    // dielectric in a uniform environment reflects exactly that environment.
    let (scale, bias) = lighting.brdf(n_dot_v, roughness);
    let fss = f0 * scale + v3(bias, bias, bias);
    let r = n * (2.0 * n.dot(view)) - view;
    let specular = lighting
        .specular(turn.to_environment(r.normalize()), roughness)
        .times(fss);
    let diffuse = lighting
        .diffuse(turn.to_environment(n))
        .times(c_diff)
        .times(v3(1.0, 1.0, 1.0) - fss);
    color = color + (diffuse + specular) * occlusion;
    (color, opacity)
}
