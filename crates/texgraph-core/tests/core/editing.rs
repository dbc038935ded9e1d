//! The APIs the editor builds on: compiling any node's output, and asking whether a
//! connection would be accepted.

use crate::common;

use texgraph_core::{RenderOptions, check_connection, compile, compile_node, render};

#[test]
fn any_node_compiles_as_a_preview() {
    let (_, marble) = common::examples()
        .into_iter()
        .find(|(s, _)| s == "marble")
        .unwrap();
    // The gradient node's output is what the output node writes.
    let whole = common::render_graph(&marble, None, 32, RenderOptions::default());
    let stone = compile_node(&marble, "stone", None).unwrap();
    let image = render(&stone, 32, 32, RenderOptions::default(), &|_| {}).unwrap();
    assert_eq!(image, whole);
    // An upstream scalar node previews as one channel.
    let veins = compile_node(&marble, "veins", None).unwrap();
    assert_eq!(veins.channels(), 1);
    // Named outputs of multi-output nodes.
    let g = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "c", "type": "coords" },
            { "id": "out", "type": "output", "inputs": { "color": "c.u" } } ] }"#,
    );
    let v = render(
        &compile_node(&g, "c", Some("v")).unwrap(),
        4,
        4,
        RenderOptions::default(),
        &|_| {},
    )
    .unwrap();
    assert_eq!(common::at(&v, 0, 3, 0), 3.5 / 4.0);
    assert!(compile_node(&g, "c", Some("w")).is_err());
    assert!(compile_node(&g, "nope", None).is_err());
}

#[test]
fn previews_ignore_problems_elsewhere_in_the_graph() {
    // No output node, and a broken node that is not upstream of `n`.
    let g = common::graph(
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "broken", "type": "levels", "params": { "gamma": 99 } } ] }"#,
    );
    assert!(compile(&g, None).is_err());
    assert!(compile_node(&g, "n", None).is_ok());
    let err = compile_node(&g, "broken", None).unwrap_err().to_string();
    assert!(err.contains("gamma") && !err.contains("input"), "{err}");
}

#[test]
fn connections_are_checked_for_ports_and_cycles() {
    let (_, marble) = common::examples()
        .into_iter()
        .find(|(s, _)| s == "marble")
        .unwrap();
    // turb → veins.noise → sharpen → stone → out
    assert_eq!(
        check_connection(&marble, "turb", "sharpen", "input"),
        Ok(())
    );
    assert_eq!(
        check_connection(&marble, "stone", "veins", "frequency"),
        Err("connecting 'stone' to 'veins' would make a cycle".into())
    );
    assert!(
        check_connection(&marble, "veins", "veins", "phase")
            .unwrap_err()
            .contains("cycle")
    );
    assert!(
        check_connection(&marble, "turb", "veins", "colour")
            .unwrap_err()
            .contains("no input 'colour'")
    );
    assert!(
        check_connection(&marble, "out", "veins", "phase")
            .unwrap_err()
            .contains("no outputs")
    );
    assert!(
        check_connection(&marble, "turb.v", "veins", "phase")
            .unwrap_err()
            .contains("no output 'v'")
    );
    assert!(
        check_connection(&marble, "ghost", "veins", "phase")
            .unwrap_err()
            .contains("no node 'ghost'")
    );
    // A color into a scalar input is fine: it becomes luminance.
    assert_eq!(check_connection(&marble, "stone", "out", "color"), Ok(()));
}
