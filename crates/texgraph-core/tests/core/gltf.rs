//! The glTF material writer, read back with the `gltf` crate: each map in its slot, the
//! meshes' vertex data consistent, the texture upright and normal maps lit as authored.
//!
//! With `TEXGRAPH_GLTF_SAMPLES=<folder>` set, the sample documents (with their PNGs) are
//! also left in `<folder>/<sample>/` for `scripts/validate-gltf.sh`.

use std::path::{Path, PathBuf};

use gltf::image::Source;
use gltf::material::AlphaMode;
use gltf::texture::{MagFilter, MinFilter, WrappingMode};
use texgraph_core::export::gltf::{GltfMaterial, gltf_document};

const SIZE: u32 = 64;

fn full_material(name: &str) -> GltfMaterial {
    GltfMaterial {
        name: name.to_owned(),
        base_color: Some(format!("{name}_basecolor.png")),
        alpha_blend: false,
        normal: Some(format!("{name}_normal.png")),
        occlusion_roughness_metallic: Some(format!("{name}_orm.png")),
        emissive: Some(format!("{name}_emissive.png")),
        emissive_strength: 1.0,
    }
}

/// A material with only a base color map, its file name needing percent-encoding.
fn base_color_only() -> GltfMaterial {
    GltfMaterial {
        name: "plain tiles".to_owned(),
        base_color: Some("maps/plain tiles #1.png".to_owned()),
        alpha_blend: false,
        normal: None,
        occlusion_roughness_metallic: None,
        emissive: None,
        emissive_strength: 1.0,
    }
}

/// Writes `material`'s document, buffer and a small PNG for each of its maps into `dir`;
/// returns the document's path.
fn write(dir: &Path, material: &GltfMaterial) -> PathBuf {
    let (text, bin) = gltf_document(material, &format!("{}.bin", material.name)).unwrap();
    let maps = [
        &material.base_color,
        &material.normal,
        &material.occlusion_roughness_metallic,
        &material.emissive,
    ];
    for (i, map) in maps.into_iter().enumerate() {
        let Some(file) = map else { continue };
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let png = image::RgbaImage::from_fn(SIZE, SIZE, |x, y| match i {
            // Base color: red across, green down, half-transparent on the right.
            0 => image::Rgba([
                (x * 4) as u8,
                (y * 4) as u8,
                96,
                if x < 32 { 255 } else { 128 },
            ]),
            // Normal: tilted right and down, more so across each quarter.
            1 => image::Rgba([128 + (x % 32) as u8, 128 - (y % 32) as u8, 240, 255]),
            // ORM: occlusion 1, roughness across, metallic in the lower half.
            2 => image::Rgba([255, (x * 4) as u8, if y < 32 { 0 } else { 255 }, 255]),
            _ => image::Rgba([255, 128, 0, 255]),
        });
        png.save(&path).unwrap();
    }
    let path = dir.join(format!("{}.gltf", material.name));
    std::fs::write(&path, text).unwrap();
    std::fs::write(dir.join(format!("{}.bin", material.name)), bin).unwrap();
    path
}

/// Writes `material` into a temporary folder (or the samples folder) and loads it.
fn load(sample: &str, material: &GltfMaterial) -> gltf::Document {
    let temp = tempfile::tempdir().unwrap();
    let dir = match std::env::var_os("TEXGRAPH_GLTF_SAMPLES") {
        Some(samples) => Path::new(&samples).join(sample),
        None => temp.path().to_owned(),
    };
    std::fs::create_dir_all(&dir).unwrap();
    let path = write(&dir, material);
    let (document, _buffers, images) = gltf::import(&path).unwrap();
    assert!(images.iter().all(|i| (i.width, i.height) == (SIZE, SIZE)));
    document
}

/// The (percent-encoded) URI of a texture's image.
fn uri(texture: gltf::Texture) -> String {
    match texture.source().source() {
        Source::Uri { uri, .. } => uri.to_owned(),
        Source::View { .. } => panic!("an embedded image"),
    }
}

#[test]
fn every_map_is_bound_to_its_slot() {
    let document = load("full", &full_material("bricks"));
    let material = document.materials().next().unwrap();
    assert_eq!(material.name(), Some("bricks"));
    assert_eq!(document.scenes().next().unwrap().name(), Some("bricks"));
    let pbr = material.pbr_metallic_roughness();
    let base = pbr.base_color_texture().unwrap();
    assert_eq!(uri(base.texture()), "bricks_basecolor.png");
    assert_eq!(pbr.base_color_factor(), [1.0; 4]);
    let orm = pbr.metallic_roughness_texture().unwrap().texture();
    assert_eq!(uri(orm.clone()), "bricks_orm.png");
    assert_eq!((pbr.metallic_factor(), pbr.roughness_factor()), (1.0, 1.0));
    let occlusion = material.occlusion_texture().unwrap().texture();
    assert_eq!(occlusion.index(), orm.index(), "one texture serves both");
    let normal = material.normal_texture().unwrap();
    assert_eq!(uri(normal.texture()), "bricks_normal.png");
    assert_eq!(normal.scale(), 1.0);
    let emissive = material.emissive_texture().unwrap();
    assert_eq!(uri(emissive.texture()), "bricks_emissive.png");
    assert_eq!(material.emissive_factor(), [1.0; 3]);
    assert_eq!(material.emissive_strength(), None);
    assert_eq!(document.extensions_used().count(), 0);
    assert_eq!(material.alpha_mode(), AlphaMode::Opaque);
    // One image per file.
    assert_eq!(document.images().count(), 4);
    assert_eq!(document.textures().count(), 4);
    assert_eq!(document.samplers().count(), 1);
    for texture in document.textures() {
        let sampler = texture.sampler();
        assert_eq!(sampler.wrap_s(), WrappingMode::Repeat);
        assert_eq!(sampler.wrap_t(), WrappingMode::Repeat);
        assert_eq!(sampler.min_filter(), Some(MinFilter::LinearMipmapLinear));
        assert_eq!(sampler.mag_filter(), Some(MagFilter::Linear));
    }
}

#[test]
fn alpha_blend_and_emissive_strength() {
    let mut bright = full_material("lava");
    bright.alpha_blend = true;
    bright.emissive_strength = 4.0;
    let document = load("bright", &bright);
    let material = document.materials().next().unwrap();
    assert_eq!(material.alpha_mode(), AlphaMode::Blend);
    assert_eq!(material.emissive_strength(), Some(4.0));
    assert_eq!(material.emissive_factor(), [1.0; 3]);
    let used: Vec<_> = document.extensions_used().collect();
    assert_eq!(used, ["KHR_materials_emissive_strength"]);
    assert_eq!(document.extensions_required().count(), 0);

    // Dimmer than the map: the factor, no extension.
    let mut dim = full_material("ember");
    dim.emissive_strength = 0.5;
    let document = load("dim", &dim);
    let material = document.materials().next().unwrap();
    assert_eq!(material.emissive_factor(), [0.5; 3]);
    assert_eq!(material.emissive_strength(), None);
    assert_eq!(document.extensions_used().count(), 0);

    // No emissive map: no extension, whatever the strength.
    let mut dark = full_material("slate");
    dark.emissive = None;
    dark.emissive_strength = 4.0;
    let document = load("dark", &dark);
    let material = document.materials().next().unwrap();
    assert!(material.emissive_texture().is_none());
    assert_eq!(material.emissive_factor(), [0.0; 3]);
    assert_eq!(document.extensions_used().count(), 0);
}

#[test]
fn a_base_color_alone_loads() {
    let document = load("plain", &base_color_only());
    let material = document.materials().next().unwrap();
    let pbr = material.pbr_metallic_roughness();
    assert_eq!(
        uri(pbr.base_color_texture().unwrap().texture()),
        "maps/plain%20tiles%20%231.png"
    );
    assert!(pbr.metallic_roughness_texture().is_none());
    assert_eq!((pbr.metallic_factor(), pbr.roughness_factor()), (0.0, 1.0));
    assert!(material.normal_texture().is_none());
    assert!(material.occlusion_texture().is_none());
    assert!(material.emissive_texture().is_none());
    assert_eq!(material.emissive_factor(), [0.0; 3]);
    assert_eq!(document.images().count(), 1);
}

#[test]
fn one_file_in_two_slots_is_one_image() {
    let mut glow = full_material("glow");
    glow.emissive = glow.base_color.clone();
    let document = load("shared", &glow);
    assert_eq!(document.images().count(), 3);
    let material = document.materials().next().unwrap();
    let base = material.pbr_metallic_roughness().base_color_texture();
    assert_eq!(
        base.unwrap().texture().index(),
        material.emissive_texture().unwrap().texture().index()
    );
}

#[test]
fn bad_input_is_refused() {
    for strength in [-1.0, f32::NAN, f32::INFINITY] {
        let mut bad = full_material("bad");
        bad.emissive_strength = strength;
        assert!(gltf_document(&bad, "bad.bin").is_err(), "{strength}");
    }
    let mut bad = full_material("bad");
    bad.normal = Some("/tmp/bad_normal.png".to_owned());
    assert!(gltf_document(&bad, "bad.bin").is_err());
    bad.normal = Some(String::new());
    assert!(gltf_document(&bad, "bad.bin").is_err());
    assert!(gltf_document(&full_material("good"), r"dir\good.bin").is_err());
}

/// One mesh's vertex data as read back.
struct Mesh {
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
    tangents: Vec<[f32; 4]>,
    uvs: Vec<[f32; 2]>,
    indices: Vec<u32>,
    /// The node's translation.
    at: [f32; 3],
}

fn meshes() -> Vec<(String, Mesh)> {
    let temp = tempfile::tempdir().unwrap();
    let path = write(temp.path(), &full_material("ball"));
    let (document, buffers, _) = gltf::import(&path).unwrap();
    let scene = document.default_scene().unwrap();
    scene
        .nodes()
        .map(|node| {
            let mesh = node.mesh().unwrap();
            let mut primitives = mesh.primitives();
            let primitive = primitives.next().unwrap();
            assert!(primitives.next().is_none());
            assert_eq!(primitive.mode(), gltf::mesh::Mode::Triangles);
            assert_eq!(primitive.material().index(), Some(0));
            let reader = primitive.reader(|b| Some(&buffers[b.index()]));
            let read = Mesh {
                positions: reader.read_positions().unwrap().collect(),
                normals: reader.read_normals().unwrap().collect(),
                tangents: reader.read_tangents().unwrap().collect(),
                uvs: reader.read_tex_coords(0).unwrap().into_f32().collect(),
                indices: reader.read_indices().unwrap().into_u32().collect(),
                at: node.transform().decomposed().0,
            };
            // The declared bounds are the data's.
            let bounds = primitive.bounding_box();
            for axis in 0..3 {
                let values = read.positions.iter().map(|p| p[axis]);
                assert_eq!(bounds.min[axis], values.clone().fold(f32::MAX, f32::min));
                assert_eq!(bounds.max[axis], values.fold(f32::MIN, f32::max));
            }
            (mesh.name().unwrap().to_owned(), read)
        })
        .collect()
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: [f32; 3], b: [f32; 3]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn scale(a: [f32; 3], s: f32) -> [f32; 3] {
    a.map(|v| v * s)
}

fn xyz(t: [f32; 4]) -> [f32; 3] {
    [t[0], t[1], t[2]]
}

#[test]
fn meshes_have_consistent_vertices() {
    let meshes = meshes();
    let names: Vec<_> = meshes.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["Plane", "Sphere"]);
    for (name, mesh) in &meshes {
        let count = mesh.positions.len();
        assert_eq!(mesh.normals.len(), count, "{name}");
        assert_eq!(mesh.tangents.len(), count, "{name}");
        assert_eq!(mesh.uvs.len(), count, "{name}");
        assert!(mesh.indices.iter().all(|&i| (i as usize) < count), "{name}");
        for ((&n, &t), &uv) in mesh.normals.iter().zip(&mesh.tangents).zip(&mesh.uvs) {
            assert!((dot(n, n) - 1.0).abs() < 1e-5, "{name}: normal {n:?}");
            let t3 = xyz(t);
            assert!((dot(t3, t3) - 1.0).abs() < 1e-5, "{name}: tangent {t:?}");
            assert!(dot(n, t3).abs() < 1e-5, "{name}: {n:?} {t:?}");
            assert!(t[3] == 1.0 || t[3] == -1.0, "{name}: {t:?}");
            assert!(uv.iter().all(|c| (0.0..=1.0).contains(c)), "{name}: {uv:?}");
        }
        // Each triangle faces out (counter-clockwise, as its normals), its tangents run
        // along +u and its bitangents (cross(n, t)·w) to the image's top (−v).
        for triangle in mesh.indices.chunks(3) {
            let [a, b, c] = [0, 1, 2].map(|k| triangle[k] as usize);
            let (e1, e2) = (
                sub(mesh.positions[b], mesh.positions[a]),
                sub(mesh.positions[c], mesh.positions[a]),
            );
            let (du1, dv1) = (
                mesh.uvs[b][0] - mesh.uvs[a][0],
                mesh.uvs[b][1] - mesh.uvs[a][1],
            );
            let (du2, dv2) = (
                mesh.uvs[c][0] - mesh.uvs[a][0],
                mesh.uvs[c][1] - mesh.uvs[a][1],
            );
            let face = cross(e1, e2);
            // The uv triangle is wound clockwise (v runs down) when the face is not mirrored.
            let det = du1 * dv2 - du2 * dv1;
            assert!(det < 0.0, "{name}: triangle {triangle:?}");
            let along_u = sub(scale(e1, dv2), scale(e2, dv1));
            let along_v = sub(scale(e2, du1), scale(e1, du2));
            let (along_u, along_v) = (scale(along_u, 1.0 / det), scale(along_v, 1.0 / det));
            for vertex in [a, b, c] {
                let (n, t) = (mesh.normals[vertex], mesh.tangents[vertex]);
                assert!(dot(face, n) > 0.0, "{name}: triangle {triangle:?}");
                assert!(dot(xyz(t), along_u) > 0.0, "{name}: triangle {triangle:?}");
                let bitangent = scale(cross(n, xyz(t)), t[3]);
                assert!(
                    dot(bitangent, along_v) < 0.0,
                    "{name}: triangle {triangle:?}"
                );
            }
        }
    }

    let plane = &meshes[0].1;
    assert_eq!((plane.positions.len(), plane.indices.len()), (4, 6));
    for (p, uv) in plane.positions.iter().zip(&plane.uvs) {
        // The image upright, once: its top-left corner at the plane's top-left.
        assert_eq!(*uv, [p[0] + 0.5, 0.5 - p[1]]);
        assert_eq!(p[2], 0.0);
    }
    let sphere = &meshes[1].1;
    // 64 segments × 32 rings: 31 inner rings of 65 (the seam twice), a pole vertex per
    // segment; two triangles per quad, one per segment at each pole.
    assert_eq!(sphere.positions.len(), 31 * 65 + 2 * 64);
    assert_eq!(sphere.indices.len(), (30 * 64 * 2 + 2 * 64) * 3);
    for (&p, &n) in sphere.positions.iter().zip(&sphere.normals) {
        assert!((dot(p, p).sqrt() - 0.5).abs() < 1e-6, "{p:?}");
        assert!(dot(scale(n, 0.5), p) > 0.25 - 1e-6, "{p:?} {n:?}");
    }

    // Side by side, apart.
    let extent = |mesh: &Mesh| {
        let xs = mesh.positions.iter().map(|p| p[0] + mesh.at[0]);
        (
            xs.clone().fold(f32::MAX, f32::min),
            xs.fold(f32::MIN, f32::max),
        )
    };
    assert!(extent(plane).1 < extent(sphere).0);
}
