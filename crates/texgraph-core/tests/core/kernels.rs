//! The fast kernels agree bit for bit with the direct formulas.

use crate::common;

use texgraph_core::RenderOptions;
use texgraph_core::kernels::noise::{
    CornerTable, Permutation, perlin_plane, perlin_volume, perlin3, split,
};

/// A deterministic spread of coordinates, negative and positive, on and off the lattice.
fn coordinates() -> impl Iterator<Item = (f32, f32)> {
    let mut state = 0x1234_5678u64;
    (0..20_000).map(move |i| {
        let a = texgraph_core::kernels::noise::splitmix64(&mut state);
        let x = (a as u32) as f32 / u32::MAX as f32 * 600.0 - 300.0;
        let y = ((a >> 32) as u32) as f32 / u32::MAX as f32 * 600.0 - 300.0;
        if i % 7 == 0 { (x.round(), y) } else { (x, y) }
    })
}

#[test]
fn corner_tables_give_the_reference_hash_path() {
    for seed in [0, 5] {
        let perm = Permutation::for_seed(seed);
        for period in [None, Some(1), Some(7), Some(64), Some(256)] {
            let periodf = period.map(|p| p as f32);
            let below = CornerTable::new(&perm, 3, period);
            let above = CornerTable::new(&perm, 4, period);
            for (x, y) in coordinates() {
                let ((fx, sx), (fy, sy)) = (split(x), split(y));
                let k = below.index(fx, fy);
                let flat = perlin_plane(below.codes[k], sx, sy);
                assert_eq!(
                    flat.to_bits(),
                    perlin3(&perm, x, y, 3.0, periodf).to_bits(),
                    "({x}, {y}) {period:?}"
                );
                let deep = perlin_volume(below.codes[k], above.codes[k], sx, sy, 0.375);
                assert_eq!(
                    deep.to_bits(),
                    perlin3(&perm, x, y, 3.375, periodf).to_bits(),
                    "({x}, {y}) {period:?}"
                );
            }
        }
    }
}

#[test]
fn table_and_direct_perlin_render_the_same_bits() {
    // A per-pixel z (driven by a constant through math) takes the direct path; a param z
    // takes the table path.
    for tileable in [false, true] {
        let json = |z: &str| {
            format!(
                r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": {tileable} }}, "nodes": [
                {{ "id": "c", "type": "coords" }},
                {{ "id": "zero", "type": "math", "params": {{ "op": "multiply", "b": 0 }}, "inputs": {{ "a": "c.u" }} }},
                {{ "id": "z", "type": "math", "params": {{ "b": 1.25 }}, "inputs": {{ "a": "zero" }} }},
                {{ "id": "n", "type": "perlin", "params": {{ "frequency": 9.3, "seed": 3, "z": 1.25 }} {z} }},
                {{ "id": "out", "type": "output", "inputs": {{ "color": "n" }} }} ] }}"#
            )
        };
        let table = common::render_graph(
            &common::graph(&json("")),
            None,
            96,
            RenderOptions::default(),
        );
        let direct = common::render_graph(
            &common::graph(&json(r#", "inputs": { "z": "z" }"#)),
            None,
            96,
            RenderOptions::default(),
        );
        let same = common::same_bits(&table, &direct);
        assert!(same, "tileable = {tileable}");
    }
}

#[test]
fn rendering_into_a_reused_image_matches_a_fresh_render() {
    let examples = common::examples();
    let mut image = texgraph_core::Image {
        width: 0,
        height: 0,
        channels: 0,
        data: Vec::new(),
    };
    for (size, (stem, graph)) in [
        (40u32, &examples[0]),
        (72, &examples[1]),
        (72, &examples[2]),
        (16, &examples[3]),
    ] {
        let program = texgraph_core::compile(graph, None).unwrap();
        texgraph_core::render_into(
            &program,
            &mut image,
            size,
            size,
            RenderOptions::default(),
            &|_| {},
        )
        .unwrap();
        let fresh = common::render_graph(graph, None, size, RenderOptions::default());
        assert_eq!(image, fresh, "{stem} at {size}");
    }
}
