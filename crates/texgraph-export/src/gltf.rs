//! glTF 2.0 material documents: a `.gltf` JSON file and its `.bin` buffer that show a
//! material's texture files (written beside them) on a plane and a sphere.
//!
//! The scene follows glTF's conventions: +Y up, the viewer looking down −Z, front faces
//! wound counter-clockwise. The plane (1 × 1, facing +Z, the viewer) stands at x = −0.6
//! and the sphere (radius 0.5) at x = +0.6, both centred on the origin's height.
//! Texture coordinates keep the image upright: (0, 0) is its top-left pixel, as in the
//! PNG's first row, and the plane shows the image exactly once. On the sphere, u runs
//! once around the equator (its seam at the back, −Z, with the seam vertices
//! duplicated) and v from the top pole (0) to the bottom pole (1).
//!
//! Tangents run along +u, and their `w` makes glTF's bitangent (cross(normal, tangent)
//! · w) point to the top of the image, so OpenGL-convention normal maps (green up) light
//! as authored.

use serde_json::{Value, json};

/// The texture files of a material, as paths relative to the `.gltf` file (`/`-separated;
/// written percent-encoded as URIs, so any file name may be used). All are PNG files.
#[derive(Debug, Clone, PartialEq)]
pub struct GltfMaterial {
    /// The material's and the scene's name (the graph's name).
    pub name: String,
    /// sRGB RGBA base color; its alpha is the opacity when `alpha_blend` is set.
    pub base_color: Option<String>,
    /// Alpha mode `BLEND` (the material has an opacity map), else `OPAQUE`.
    pub alpha_blend: bool,
    /// OpenGL-convention (green up) tangent-space normal map.
    pub normal: Option<String>,
    /// Packed occlusion (R), roughness (G) and metallic (B): glTF's metallic-roughness
    /// texture and its occlusion texture are both this image.
    pub occlusion_roughness_metallic: Option<String>,
    /// sRGB emissive color.
    pub emissive: Option<String>,
    /// Scales the emissive map: 1.0 normally; below 1 it is the emissive factor, above 1
    /// it is written with `KHR_materials_emissive_strength` (only then). Ignored without an
    /// emissive map.
    pub emissive_strength: f32,
}

/// The `.gltf` JSON text of `material`, and the `.bin` buffer it references by
/// `bin_uri` (a path relative to the `.gltf` file, like the texture paths).
///
/// Fails for an empty or absolute path, or an emissive strength that is negative or not
/// finite.
pub fn gltf_document(material: &GltfMaterial, bin_uri: &str) -> Result<(String, Vec<u8>), String> {
    let strength = material.emissive_strength;
    if !(strength.is_finite() && strength >= 0.0) {
        return Err(format!(
            "the emissive strength must be a finite number of at least 0, not {strength}"
        ));
    }
    let mut buffer = Buffer::default();
    let plane = buffer.mesh("Plane", &plane());
    let sphere = buffer.mesh("Sphere", &sphere(64, 32));
    let mut textures = Textures::default();
    let material_json = material_json(material, &mut textures)?;

    let mut document = json!({
        "asset": { "version": "2.0", "generator": "texgraph" },
        "scene": 0,
        "scenes": [{ "name": material.name, "nodes": [0, 1] }],
        "nodes": [
            { "name": "Plane", "mesh": 0, "translation": [-0.6, 0.0, 0.0] },
            { "name": "Sphere", "mesh": 1, "translation": [0.6, 0.0, 0.0] },
        ],
        "meshes": [plane, sphere],
        "materials": [material_json],
        "buffers": [{ "uri": uri(bin_uri)?, "byteLength": buffer.bytes.len() }],
        "bufferViews": buffer.views,
        "accessors": buffer.accessors,
    });
    if !textures.images.is_empty() {
        document["images"] = Value::from(textures.images);
        document["textures"] = Value::from(textures.textures);
        document["samplers"] = json!([{
            "magFilter": LINEAR,
            "minFilter": LINEAR_MIPMAP_LINEAR,
            "wrapS": REPEAT,
            "wrapT": REPEAT,
        }]);
    }
    if emissive_strength_extension(material) {
        document["extensionsUsed"] = json!([EMISSIVE_STRENGTH]);
    }
    let text = serde_json::to_string_pretty(&document).map_err(|e| e.to_string())?;
    Ok((text, buffer.bytes))
}

const EMISSIVE_STRENGTH: &str = "KHR_materials_emissive_strength";

// Sampler and buffer view constants (the values of their WebGL names).
const LINEAR: u32 = 9729;
const LINEAR_MIPMAP_LINEAR: u32 = 9987;
const REPEAT: u32 = 10497;
const ARRAY_BUFFER: u32 = 34962;
const ELEMENT_ARRAY_BUFFER: u32 = 34963;
const FLOAT: u32 = 5126;
const UNSIGNED_SHORT: u32 = 5123;

/// Whether `material` is written with `KHR_materials_emissive_strength`.
fn emissive_strength_extension(material: &GltfMaterial) -> bool {
    material.emissive.is_some() && material.emissive_strength > 1.0
}

/// The material object; its images and textures are added to `textures`.
fn material_json(material: &GltfMaterial, textures: &mut Textures) -> Result<Value, String> {
    let mut texture = |path: &Option<String>| -> Result<Option<Value>, String> {
        path.as_deref()
            .map(|path| Ok(json!({ "index": textures.texture(path)? })))
            .transpose()
    };
    let base_color = texture(&material.base_color)?;
    let orm = texture(&material.occlusion_roughness_metallic)?;
    let normal = texture(&material.normal)?;
    let emissive = texture(&material.emissive)?;

    let mut pbr = json!({});
    if let Some(base_color) = base_color {
        pbr["baseColorTexture"] = base_color;
    }
    // Without a map the surface is a rough dielectric; with one the factors leave the
    // map's values as they are.
    pbr["metallicFactor"] = json!(if orm.is_some() { 1.0 } else { 0.0 });
    pbr["roughnessFactor"] = json!(1.0);
    if let Some(orm) = &orm {
        pbr["metallicRoughnessTexture"] = orm.clone();
    }
    let mut out = json!({
        "name": material.name,
        "pbrMetallicRoughness": pbr,
        "alphaMode": if material.alpha_blend { "BLEND" } else { "OPAQUE" },
    });
    if let Some(normal) = normal {
        out["normalTexture"] = normal;
    }
    if let Some(orm) = orm {
        out["occlusionTexture"] = orm;
    }
    if let Some(emissive) = emissive {
        let factor = f64::from(material.emissive_strength.min(1.0));
        out["emissiveTexture"] = emissive;
        out["emissiveFactor"] = json!([factor, factor, factor]);
        if emissive_strength_extension(material) {
            out["extensions"] = json!({
                EMISSIVE_STRENGTH: { "emissiveStrength": f64::from(material.emissive_strength) }
            });
        }
    }
    Ok(out)
}

/// One image and one texture per distinct file, all with sampler 0.
#[derive(Default)]
struct Textures {
    paths: Vec<String>,
    images: Vec<Value>,
    textures: Vec<Value>,
}

impl Textures {
    /// The texture index of `path`, added when it is new.
    fn texture(&mut self, path: &str) -> Result<usize, String> {
        if let Some(index) = self.paths.iter().position(|p| p == path) {
            return Ok(index);
        }
        let index = self.paths.len();
        self.paths.push(path.to_owned());
        self.images
            .push(json!({ "uri": uri(path)?, "mimeType": "image/png" }));
        self.textures.push(json!({ "sampler": 0, "source": index }));
        Ok(index)
    }
}

/// `path` (relative, `/`-separated) as a URI reference: every byte but the unreserved
/// ones and `/` percent-encoded.
fn uri(path: &str) -> Result<String, String> {
    if path.is_empty() || path.starts_with('/') || path.contains('\\') {
        return Err(format!(
            "{path:?} is not a relative path with / separators (glTF files name their resources relative to the .gltf)"
        ));
    }
    let mut out = String::with_capacity(path.len());
    for byte in path.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    Ok(out)
}

/// A mesh's vertices and triangles (counter-clockwise seen from the front).
struct Geometry {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    tangents: Vec<[f32; 4]>,
    uvs: Vec<[f32; 2]>,
    indices: Vec<u16>,
}

impl Geometry {
    fn with_capacity(vertices: usize) -> Self {
        Geometry {
            positions: Vec::with_capacity(vertices),
            normals: Vec::with_capacity(vertices),
            tangents: Vec::with_capacity(vertices),
            uvs: Vec::with_capacity(vertices),
            indices: Vec::new(),
        }
    }

    fn vertex(&mut self, position: [f32; 3], normal: [f32; 3], tangent: [f32; 4], uv: [f32; 2]) {
        self.positions.push(position);
        self.normals.push(normal);
        self.tangents.push(tangent);
        self.uvs.push(uv);
    }
}

/// The unit plane in z = 0, facing +Z, the image upright on it.
fn plane() -> Geometry {
    let mut plane = Geometry::with_capacity(4);
    for (x, y) in [(-0.5, 0.5), (0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)] {
        plane.vertex(
            [x, y, 0.0],
            [0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0, 1.0],
            [x + 0.5, 0.5 - y],
        );
    }
    plane.indices = vec![0, 2, 3, 0, 3, 1];
    plane
}

/// A UV sphere of radius 0.5: `segments` around, `rings` from pole to pole. The seam
/// column is duplicated; each pole has one vertex per segment (at the segment's middle u),
/// so no triangle is degenerate.
fn sphere(segments: u16, rings: u16) -> Geometry {
    use std::f64::consts::{PI, TAU};
    let (segments_f, rings_f) = (f64::from(segments), f64::from(rings));
    let mut sphere = Geometry::with_capacity(usize::from((segments + 1) * (rings + 1)));
    // The first vertex of each ring.
    let mut starts = Vec::with_capacity(usize::from(rings) + 1);
    for ring in 0..=rings {
        starts.push(sphere.positions.len() as u16);
        let pole = ring == 0 || ring == rings;
        let v = f64::from(ring) / rings_f;
        let (sin_theta, cos_theta) = if pole {
            (0.0, if ring == 0 { 1.0 } else { -1.0 })
        } else {
            (v * PI).sin_cos()
        };
        let columns = if pole { segments } else { segments + 1 };
        for column in 0..columns {
            let u = if pole {
                (f64::from(column) + 0.5) / segments_f
            } else {
                f64::from(column) / segments_f
            };
            // u = 0 at the back (−Z), increasing towards +X at the front.
            let (sin_phi, cos_phi) = (u * TAU - PI).sin_cos();
            let normal = [sin_theta * sin_phi, cos_theta, sin_theta * cos_phi];
            sphere.vertex(
                normal.map(|n| (n * 0.5) as f32),
                normal.map(|n| n as f32),
                // ∂position/∂u; cross(normal, tangent) points to the top pole, −v.
                [cos_phi as f32, 0.0, -sin_phi as f32, 1.0],
                [u as f32, v as f32],
            );
        }
    }
    for ring in 0..rings {
        let (top, bottom) = (starts[usize::from(ring)], starts[usize::from(ring) + 1]);
        for column in 0..segments {
            let (a, b) = (top + column, top + column + 1);
            let (c, d) = (bottom + column, bottom + column + 1);
            if ring == 0 {
                // `a` is the pole vertex above this segment.
                sphere.indices.extend([a, c, d]);
            } else if ring + 1 == rings {
                // `c` is the pole vertex below this segment.
                sphere.indices.extend([a, c, b]);
            } else {
                sphere.indices.extend([a, c, d, a, d, b]);
            }
        }
    }
    sphere
}

/// The `.bin` buffer with its buffer views and accessors.
#[derive(Default)]
struct Buffer {
    bytes: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

/// Bytes of one interleaved vertex: position, normal, tangent, texture coordinates.
const VERTEX_BYTES: usize = (3 + 3 + 4 + 2) * 4;

impl Buffer {
    /// Adds `geometry` (interleaved vertices, then indices) and returns its mesh object.
    fn mesh(&mut self, name: &str, geometry: &Geometry) -> Value {
        let count = geometry.positions.len();
        let vertices = self.view(ARRAY_BUFFER, Some(VERTEX_BYTES), |bytes| {
            for i in 0..count {
                let floats = geometry.positions[i]
                    .iter()
                    .chain(&geometry.normals[i])
                    .chain(&geometry.tangents[i])
                    .chain(&geometry.uvs[i]);
                bytes.extend(floats.flat_map(|f| f.to_le_bytes()));
            }
        });
        let (min, max) = bounds(&geometry.positions);
        let mut position = accessor(vertices, 0, FLOAT, count, "VEC3");
        position["min"] = json!(min);
        position["max"] = json!(max);
        let attributes = json!({
            "POSITION": self.push_accessor(position),
            "NORMAL": self.add_accessor(vertices, 12, FLOAT, count, "VEC3"),
            "TANGENT": self.add_accessor(vertices, 24, FLOAT, count, "VEC4"),
            "TEXCOORD_0": self.add_accessor(vertices, 40, FLOAT, count, "VEC2"),
        });
        let indices = self.view(ELEMENT_ARRAY_BUFFER, None, |bytes| {
            bytes.extend(geometry.indices.iter().flat_map(|i| i.to_le_bytes()));
        });
        let indices =
            self.add_accessor(indices, 0, UNSIGNED_SHORT, geometry.indices.len(), "SCALAR");
        json!({
            "name": name,
            "primitives": [{ "attributes": attributes, "indices": indices, "material": 0 }],
        })
    }

    /// Adds a buffer view of the bytes `fill` appends (padded to 4 bytes after it);
    /// returns its index.
    fn view(
        &mut self,
        target: u32,
        stride: Option<usize>,
        fill: impl FnOnce(&mut Vec<u8>),
    ) -> usize {
        let offset = self.bytes.len();
        fill(&mut self.bytes);
        let length = self.bytes.len() - offset;
        self.bytes.resize(self.bytes.len().next_multiple_of(4), 0);
        let mut view = json!({
            "buffer": 0,
            "byteOffset": offset,
            "byteLength": length,
            "target": target,
        });
        if let Some(stride) = stride {
            view["byteStride"] = json!(stride);
        }
        self.views.push(view);
        self.views.len() - 1
    }

    fn push_accessor(&mut self, accessor: Value) -> usize {
        self.accessors.push(accessor);
        self.accessors.len() - 1
    }

    fn add_accessor(
        &mut self,
        view: usize,
        offset: usize,
        component: u32,
        count: usize,
        kind: &str,
    ) -> usize {
        self.push_accessor(accessor(view, offset, component, count, kind))
    }
}

/// An accessor of `count` elements of `kind` (`"VEC3"`, …) at `offset` in buffer view `view`.
fn accessor(view: usize, offset: usize, component: u32, count: usize, kind: &str) -> Value {
    json!({
        "bufferView": view,
        "byteOffset": offset,
        "componentType": component,
        "count": count,
        "type": kind,
    })
}

/// The smallest and largest of each coordinate, as the exact values written (glTF
/// checks them against the data).
fn bounds(points: &[[f32; 3]]) -> ([f64; 3], [f64; 3]) {
    let mut min = [f32::INFINITY; 3];
    let mut max = [f32::NEG_INFINITY; 3];
    for point in points {
        for axis in 0..3 {
            min[axis] = min[axis].min(point[axis]);
            max[axis] = max[axis].max(point[axis]);
        }
    }
    (min.map(f64::from), max.map(f64::from))
}
