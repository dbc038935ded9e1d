//! `texgraph params`: a graph's params, settings and outputs, for people and (`--json`)
//! for programs; and `render --seed`, which varies every noise at once.

use crate::common::{example, run_in};

/// `texgraph params --json GRAPH`, parsed.
fn params_json(dir: &std::path::Path, graph: &str) -> serde_json::Value {
    let out = run_in(dir, &["params", graph, "--json"]).success();
    serde_json::from_slice(&out.get_output().stdout).expect("params --json prints JSON")
}

#[test]
fn params_json_lists_every_param_and_the_outputs_with_their_usages() {
    let dir = tempfile::tempdir().unwrap();
    let graph = example("brick_wall.json");
    let listed = params_json(dir.path(), graph.to_str().unwrap());
    // The outputs, in order, with what a material front end needs of each.
    let outputs: Vec<(String, String, String)> = listed["outputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            let field = |k: &str| o[k].as_str().unwrap().to_owned();
            (field("name"), field("usage"), field("encoding"))
        })
        .collect();
    let usage = |name: &str| {
        outputs
            .iter()
            .find(|o| o.0 == name)
            .map(|o| (o.1.as_str(), o.2.as_str()))
    };
    assert_eq!(usage("basecolor"), Some(("basecolor", "srgb")));
    assert_eq!(usage("normal"), Some(("normal", "linear")));
    assert_eq!(usage("roughness"), Some(("roughness", "linear")));
    // Every param of every node of the file, each with a kind the registry names, and
    // the numbers' ranges around their values.
    let graph_text = std::fs::read_to_string(&graph).unwrap();
    let file: serde_json::Value = serde_json::from_str(&graph_text).unwrap();
    let params = listed["params"].as_array().unwrap();
    for node in file["nodes"].as_array().unwrap() {
        let id = node["id"].as_str().unwrap();
        for (name, value) in node["params"].as_object().into_iter().flatten() {
            let entry = params
                .iter()
                .find(|p| p["node"] == id && p["param"] == name.as_str())
                .unwrap_or_else(|| panic!("{id}.{name} is listed"));
            match (entry["value"].as_f64(), value.as_f64()) {
                // `1.0` in the file is the number 1.
                (Some(listed), Some(written)) => assert_eq!(listed, written, "{id}.{name}"),
                _ => assert_eq!(&entry["value"], value, "{id}.{name}"),
            }
            if let Some(v) = value.as_f64().filter(|_| entry["min"].is_number()) {
                let (min, max) = (
                    entry["min"].as_f64().unwrap(),
                    entry["max"].as_f64().unwrap(),
                );
                assert!(min <= v && v <= max, "{id}.{name}: {v} in {min}..{max}");
            }
        }
    }
    for p in params {
        let kind = p["kind"].as_str().unwrap();
        assert!(
            [
                "float", "integer", "choice", "color", "text", "formula", "file", "boolean",
                "stops", "points"
            ]
            .contains(&kind),
            "{p}"
        );
        assert_eq!(p["options"].is_array(), kind == "choice", "{p}");
        assert_eq!(
            p["min"].is_number(),
            kind == "float" || kind == "integer",
            "{p}"
        );
    }
    assert_eq!(listed["tileable"], true);
    assert_eq!(listed["animated"], false);
    assert_eq!(
        params_json(dir.path(), example("fire.json").to_str().unwrap())["animated"],
        true
    );
}

#[test]
fn params_lists_a_subgraph_s_exposed_params_and_says_them_as_set_takes_them() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("grain.json"),
        r#"{ "format": "texgraph", "version": 2, "nodes": [
          { "id": "n", "type": "perlin", "params": { "frequency": 6 } },
          { "id": "out", "type": "output", "inputs": { "color": "n" } } ],
          "exposed": [ { "name": "scale", "target": "n.frequency" } ] }"#,
    )
    .unwrap();
    std::fs::write(
        d.join("top.json"),
        r#"{ "format": "texgraph", "version": 3, "nodes": [
          { "id": "g", "type": "graph", "label": "Grain", "params": { "file": "grain.json", "scale": 9 } },
          { "id": "out", "type": "output", "params": { "usage": "height" }, "inputs": { "color": "g" } } ] }"#,
    )
    .unwrap();
    let listed = params_json(d, "top.json");
    let scale = listed["params"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["node"] == "g" && p["param"] == "scale")
        .expect("the exposed param is listed")
        .clone();
    assert_eq!(scale["value"], 9);
    assert_eq!(scale["default"], 6);
    assert_eq!(scale["kind"], "float");
    assert_eq!(scale["label"], "Grain");
    let text = run_in(d, &["params", "top.json"]).success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(text.contains("g (graph) \"Grain\"\n"), "{text}");
    assert!(text.contains("  scale = 9  (float, "), "{text}");
    assert!(
        text.contains("  usage = height  (choice: color, basecolor,"),
        "{text}"
    );
    // A broken file: the error names it, nothing on stdout.
    std::fs::write(d.join("broken.json"), "{ nope").unwrap();
    let out = run_in(d, &["params", "broken.json", "--json"]).failure();
    assert!(out.get_output().stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.starts_with("error: ") && stderr.contains("broken.json"),
        "{stderr}"
    );
}

#[test]
fn render_seed_varies_every_noise_as_a_batch_seed_does() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let graph = example("marble.json");
    let graph = graph.to_str().unwrap();
    let render = |name: &str, extra: &[&str]| {
        let mut args = vec!["render", graph, "--size", "64", "-o", name];
        args.extend_from_slice(extra);
        run_in(d, &args).success();
        std::fs::read(d.join(name)).unwrap()
    };
    let saved = render("saved.png", &[]);
    assert_eq!(
        render("zero.png", &["--seed", "0"]),
        saved,
        "offset 0 is the graph as saved"
    );
    let varied = render("three.png", &["--seed", "3"]);
    assert_ne!(varied, saved);
    // The same job in a batch manifest writes the same bytes.
    std::fs::write(
        d.join("batch.json"),
        format!(
            r#"{{ "jobs": [ {{ "graph": {graph:?}, "seeds": [3], "sizes": [64], "name": "batch_{{seed}}.png" }} ] }}"#
        ),
    )
    .unwrap();
    run_in(d, &["batch", "batch.json"]).success();
    assert_eq!(std::fs::read(d.join("batch_3.png")).unwrap(), varied);
}
