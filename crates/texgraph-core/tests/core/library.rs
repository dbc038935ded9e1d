//! The built-in library (`graphs/library/`, embedded in the program): every graph loads
//! as a file and as `library:NAME`, says what it is, offers 2 to 6 documented params,
//! renders something that varies, tiles, and gives the same bits on any thread count and
//! tile size; used as a node it renders like the file.

use crate::common::{graph, render_graph, same_bits};
use texgraph_core::{Graph, RenderOptions, library};

const SIZE: u32 = 128;

#[test]
fn the_library_is_what_graphs_library_holds() {
    let folder = crate::common::graphs_dir().join("library");
    let mut files: Vec<String> = crate::common::dir_entries(&folder)
        .into_iter()
        .filter_map(|f| f.strip_suffix(".json").map(str::to_owned))
        .collect();
    files.sort();
    let names: Vec<String> = library::names().map(str::to_owned).collect();
    assert_eq!(names, files);
    assert!(names.len() >= 40, "{} library graphs", names.len());
}

#[test]
fn every_library_graph_says_what_it_is_and_offers_documented_params() {
    for name in library::names() {
        let graph = library::graph(name).unwrap();
        let flat = texgraph_core::subgraph::interface(std::path::Path::new(&format!(
            "{}{name}",
            library::PREFIX
        )))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(graph.settings.tileable, "{name} is tileable");
        assert!(graph.doc.len() > 20, "{name}: doc {:?}", graph.doc);
        assert!(
            (2..=6).contains(&flat.params.len()),
            "{name} exposes {} params",
            flat.params.len()
        );
        for param in &flat.params {
            assert!(!param.doc.is_empty(), "{name}.{} has a doc", param.name);
        }
        assert!(!flat.outputs.is_empty(), "{name} has an output");
    }
}

#[test]
fn every_library_graph_renders_tiles_and_gives_the_same_bits_everywhere() {
    let mut problems = Vec::new();
    for name in library::names() {
        let graph = library::graph(name).unwrap();
        for (k, output) in texgraph_core::output_names(&graph).into_iter().enumerate() {
            let image = render_graph(&graph, Some(&output), SIZE, RenderOptions::default());
            let (lo, hi) = image
                .data
                .iter()
                .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            // The first output is what a thumbnail shows: it must show something.
            if k == 0 && hi - lo <= 0.05 {
                problems.push(format!("{name}.{output} is nearly flat: {lo} … {hi}"));
            }
            for (axis, (inside, wrap)) in
                ["across", "down"].iter().zip(crate::common::seams(&image))
            {
                if wrap > inside {
                    problems.push(format!(
                        "{name}.{output}: seam {axis} {wrap}, interior jumps reach only {inside}"
                    ));
                }
            }
            let other = render_graph(
                &graph,
                Some(&output),
                SIZE,
                RenderOptions {
                    threads: Some(3),
                    tile: [17, 5],
                    cancel: None,
                },
            );
            if !same_bits(&image, &other) {
                problems.push(format!("{name}.{output} differs with other tiles"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_library_node_renders_like_its_file() {
    for name in ["marble_veins", "hexagon_tiles", "grunge_rust"] {
        let by_name = graph(&format!(
            r#"{{ "format": "texgraph", "version": 5, "settings": {{ "tileable": true }}, "nodes": [
               {{ "id": "lib", "type": "graph", "params": {{ "file": "library:{name}" }} }},
               {{ "id": "out", "type": "output", "inputs": {{ "color": "lib" }} }} ] }}"#
        ));
        let file: Graph = library::graph(name).unwrap();
        let first = texgraph_core::output_names(&file).remove(0);
        let a = render_graph(&by_name, None, 64, RenderOptions::default());
        let b = render_graph(&file, Some(&first), 64, RenderOptions::default());
        assert!(same_bits(&a, &b), "{name}");
    }
}

#[test]
fn an_unknown_library_name_is_an_error_on_the_file_field() {
    let g = graph(
        r#"{ "format": "texgraph", "version": 5, "nodes": [
           { "id": "lib", "type": "graph", "params": { "file": "library:grunge_rusty" } },
           { "id": "out", "type": "output", "inputs": { "color": "lib" } } ] }"#,
    );
    let err = texgraph_core::compile(&g, None).unwrap_err().to_string();
    assert!(err.contains("lib") && err.contains("file"), "{err}");
    assert!(err.contains("did you mean grunge_rust"), "{err}");
}

#[test]
fn a_library_nodes_params_are_set_like_any_nodes() {
    let mut g = graph(
        r#"{ "format": "texgraph", "version": 5, "settings": { "tileable": true }, "nodes": [
           { "id": "rust", "type": "graph", "params": { "file": "library:grunge_rust" } },
           { "id": "out", "type": "output", "inputs": { "color": "rust" } } ] }"#,
    );
    let before = render_graph(&g, None, 48, RenderOptions::default());
    texgraph_core::variation::set_param(&mut g, "rust", "seed", "5").unwrap();
    let after = render_graph(&g, None, 48, RenderOptions::default());
    assert!(!same_bits(&before, &after), "the seed changes the grunge");
    let err = texgraph_core::variation::set_param(&mut g, "rust", "sed", "5").unwrap_err();
    assert!(err.to_string().contains("exposes no param 'sed'"), "{err}");
    assert!(err.to_string().contains("seed"), "{err}");
}
