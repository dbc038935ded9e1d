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

#[test]
fn many_high_frequency_noises_keep_their_tables_within_the_budget_and_the_same_bits() {
    // 100 tileable Perlin noises at frequency 512 (a 1 MiB corner table each) summed: the
    // program builds tables up to its budget and hashes the rest of the corners, the plan
    // counts what it holds, and every noise is still the one it renders alone.
    use texgraph_core::kernels::noise::MAX_TABLE_BYTES;
    const N: usize = 100;
    let mut nodes = Vec::new();
    for i in 0..N {
        nodes.push(format!(
            r#"{{ "id": "p{i}", "type": "perlin", "params": {{ "frequency": 512, "seed": {i} }} }}"#
        ));
    }
    nodes.push(r#"{ "id": "m1", "type": "math", "inputs": { "a": "p0", "b": "p1" } }"#.into());
    for i in 2..N {
        nodes.push(format!(
            r#"{{ "id": "m{i}", "type": "math", "inputs": {{ "a": "m{}", "b": "p{i}" }} }}"#,
            i - 1
        ));
    }
    nodes.push(format!(
        r#"{{ "id": "out", "type": "output", "inputs": {{ "color": "m{}" }} }}"#,
        N - 1
    ));
    let json = format!(
        r#"{{ "format": "texgraph", "version": 1, "settings": {{ "tileable": true }}, "nodes": [ {} ] }}"#,
        nodes.join(",\n")
    );
    let graph = common::graph(&json);
    let program = texgraph_core::compile(&graph, None).unwrap();
    let one_table = CornerTable::bytes_for(Some(512));
    let tables: u64 = program.tables.iter().map(|t| t.bytes()).sum();
    assert!(tables <= MAX_TABLE_BYTES, "{tables} bytes of tables");
    assert_eq!(program.tables.len() as u64, MAX_TABLE_BYTES / one_table);
    let plan = texgraph_core::plan::plan(&program, 32, 32, 1);
    assert_eq!(plan.table_bytes, program.table_bytes());
    assert!(plan.table_bytes >= tables && plan.peak_bytes >= plan.table_bytes);
    assert!(
        plan.peak_bytes < MAX_TABLE_BYTES + (16 << 20),
        "{}",
        plan.peak_bytes
    );

    // The sum, pixel for pixel, of each noise rendered alone (each then has its table).
    let options = RenderOptions {
        threads: Some(1),
        ..RenderOptions::default()
    };
    let rendered = common::render_graph(&graph, None, 32, options.clone());
    let alone = |i: usize| {
        let program = texgraph_core::compile_node(&graph, &format!("p{i}"), None).unwrap();
        assert_eq!(program.tables.len(), 1);
        texgraph_core::render(&program, 32, 32, options.clone(), &|_| {}).unwrap()
    };
    let mut sum = alone(0).data;
    for i in 1..N {
        for (s, v) in sum.iter_mut().zip(alone(i).data) {
            *s += v;
        }
    }
    let same = sum
        .iter()
        .zip(&rendered.data)
        .all(|(a, b)| a.to_bits() == b.to_bits());
    assert!(same, "the hashed noises differ from their tabled selves");
}
