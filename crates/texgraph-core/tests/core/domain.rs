//! No valid graph produces NaN or infinity: every node, with every param at the ends of
//! its range (alone and all together), fed ordinary, huge, zero and negative inputs,
//! renders finite samples everywhere (see "Math domain" in docs/nodes.md).

use crate::common;
use crate::invariants;

use serde_json::{Value, json};
use texgraph_core::registry::{NODES, NodeDescriptor, ParamKind};

/// The feeds an input can get: a noise, and constants at the edges of what a constant
/// can hold.
const FEEDS: [&str; 6] = ["noise", "huge", "tiny", "zero", "negative", "one"];

fn feed_nodes() -> Vec<Value> {
    let constant = |id: &str, value: f64| json!({ "id": id, "type": "constant", "params": { "value": value } });
    vec![
        json!({ "id": "noise", "type": "fbm", "params": { "frequency": 3, "octaves": 3 } }),
        constant("huge", 1e6),
        constant("tiny", 1e-6),
        constant("zero", 0.0),
        constant("negative", -1e6),
        constant("one", 1.0),
    ]
}

/// The extreme values of a param: its ends, zero and (for choices) every option.
fn extremes(kind: &ParamKind) -> Vec<Value> {
    match *kind {
        ParamKind::Float { min, max, .. } | ParamKind::Number { min, max, .. } => {
            let mut values = vec![json!(min), json!(max)];
            if min < 0.0 && max > 0.0 {
                values.push(json!(0.0));
            }
            if min < 1e-6 && max > 1e-6 {
                values.push(json!(1e-6));
            }
            values
        }
        ParamKind::Int { min, max, .. } => vec![json!(min), json!(max)],
        ParamKind::Choice { options, .. } => options.iter().map(|o| json!(o)).collect(),
        ParamKind::Bool { .. } => vec![json!(false), json!(true)],
        ParamKind::Stops { .. } => vec![
            json!([{ "pos": 0.5, "color": "#ff0000" }]),
            json!([{ "pos": 0.0, "color": "#000000" }, { "pos": 0.0, "color": "#ffffff" }]),
            json!([{ "pos": 1.0, "color": "#000000" }, { "pos": 1.0, "color": "#ffffff" }, { "pos": 0.0, "color": "#00000000" }]),
        ],
        ParamKind::Points { .. } => vec![
            json!([{ "x": 0.0, "y": 1.0 }, { "x": 1.0, "y": 0.0 }]),
            json!([{ "x": 0.5, "y": 0.0 }, { "x": 0.5, "y": 1.0 }, { "x": 0.5, "y": 0.3 }]),
            json!([{ "x": 1.0, "y": 1.0 }, { "x": 0.0, "y": 0.0 }, { "x": 0.1, "y": 1.0 }, { "x": 0.11, "y": 0.0 }]),
        ],
        ParamKind::Color { .. } => vec![json!("#00000000"), json!("#ffffffff")],
        ParamKind::Text { .. } | ParamKind::File { .. } => Vec::new(),
        // Formulas that push every operation past its range.
        ParamKind::Formula { .. } => vec![
            json!(
                "let big = exp(100) * a + 1e38;\nbig * big * tan(pi / 2) / (u - u) - log(0) * 1e38"
            ),
            json!(
                "pow(a, -1e30) + pow(b - 2, 1e30) + mod(1e38, 1e-38) + atan2(a * 1e38, 0) * 1e38"
            ),
            json!("let p = vec4(a) * 1e30 - 1e38;\nnormalize(p) * length(p) + mix(p, -p, 1e30)"),
        ],
    }
}

/// A graph: the feeds, then `desc` with `params` and every input (explicit ports and
/// float sockets where `sockets`) fed from `feed`, into an output.
fn graph_of(desc: &NodeDescriptor, params: Value, feed: &str, sockets: bool) -> Value {
    let mut inputs = serde_json::Map::new();
    for (name, _) in desc.connectable_inputs() {
        let explicit = desc.input(name).is_some();
        if explicit || sockets {
            inputs.insert(name.to_owned(), json!(feed));
        }
    }
    let mut params = params;
    if desc.id == "image" {
        params["path"] = json!("images/marble.png");
    }
    let mut nodes = feed_nodes();
    nodes.push(json!({ "id": "node", "type": desc.id, "params": params, "inputs": inputs }));
    if desc.id != "output" {
        nodes.push(json!({ "id": "out", "type": "output", "inputs": { "color": "node" } }));
    }
    json!({ "format": "texgraph", "version": 1, "settings": { "tileable": feed != "huge" }, "nodes": nodes })
}

/// What a test made of its graphs: how many rendered (every output, checked), which
/// `check` rejected, and what broke.
#[derive(Default)]
struct Tally {
    rendered: usize,
    rejected: Vec<String>,
    failures: Vec<String>,
}

impl Tally {
    /// Renders `graph` and checks every promise of `invariants` on it, unless `check`
    /// rejects it (a noise into a param that must be uniform): then nothing is promised,
    /// and it is counted as rejected.
    fn check(&mut self, what: &str, graph: &Value) {
        let mut graph = texgraph_core::Graph::from_json(&graph.to_string()).unwrap();
        graph.resolve_paths(&common::graphs_dir());
        if let Some(error) = texgraph_core::check(&graph).errors.first() {
            self.rejected.push(format!("{what}: {error}"));
            return;
        }
        self.check_valid(what, &graph);
    }

    /// Renders `graph`, which must be valid, and checks every promise of `invariants`.
    fn check_valid(&mut self, what: &str, graph: &texgraph_core::Graph) {
        match invariants::check_graph_rendering(graph) {
            // `check` accepted it, so every output must have been rendered.
            Ok(0) => self
                .failures
                .push(format!("{what}: no output was rendered")),
            Ok(_) => self.rendered += 1,
            Err(broken) => self.failures.push(format!("{what}: {broken}")),
        }
    }

    /// Fails on any broken graph, on fewer than `floor` graphs rendered, and when `check`
    /// rejected more than `most_rejected` of them: the promises hold only for what was
    /// rendered, so a generator that makes next to nothing, or a `check` that rejects
    /// (nearly) everything, must not look like a pass.
    fn assert_held(&self, floor: usize, most_rejected: f64) {
        assert!(
            self.failures.is_empty(),
            "{} graphs broke:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
        let total = self.rendered + self.rejected.len();
        eprintln!(
            "{} graphs rendered, {} rejected by check{}",
            self.rendered,
            self.rejected.len(),
            self.rejected
                .iter()
                .take(3)
                .map(|r| format!("\n  such as {r}"))
                .collect::<String>()
        );
        assert!(
            self.rendered >= floor,
            "only {} graphs rendered (at least {floor} expected); {} were rejected, such as:\n{}",
            self.rendered,
            self.rejected.len(),
            self.rejected[..self.rejected.len().min(10)].join("\n")
        );
        let share = self.rejected.len() as f64 / total as f64;
        assert!(
            share <= most_rejected,
            "check rejected {} of {total} graphs ({:.1}%, at most {:.1}% expected), such as:\n{}",
            self.rejected.len(),
            share * 100.0,
            most_rejected * 100.0,
            self.rejected[..self.rejected.len().min(10)].join("\n")
        );
    }
}

#[test]
fn every_param_at_its_extremes_renders_finite_samples() {
    let mut tally = Tally::default();
    for desc in NODES {
        for param in desc.params {
            for value in extremes(&param.kind) {
                for feed in FEEDS {
                    let params = json!({ param.name: value });
                    let graph = graph_of(desc, params, feed, false);
                    let what = format!("{}.{} = {value} fed {feed}", desc.id, param.name);
                    tally.check(&what, &graph);
                }
            }
        }
    }
    // About 3000 render and 6 are rejected (a noise into a param that must be uniform).
    tally.assert_held(2700, 0.02);
}

#[test]
fn all_params_at_one_end_together_render_finite_samples() {
    let mut tally = Tally::default();
    for desc in NODES {
        for end in [0, 1] {
            let mut params = serde_json::Map::new();
            for param in desc.params {
                let values = extremes(&param.kind);
                if let Some(v) = values.get(end.min(values.len().saturating_sub(1))) {
                    params.insert(param.name.to_owned(), v.clone());
                }
            }
            for feed in FEEDS {
                for sockets in [false, true] {
                    let graph = graph_of(desc, Value::Object(params.clone()), feed, sockets);
                    let what = format!(
                        "{} with every param at end {end}, fed {feed}, sockets {sockets}",
                        desc.id
                    );
                    tally.check(&what, &graph);
                }
            }
        }
    }
    // About 1400 render and 2% are rejected.
    tally.assert_held(1300, 0.05);
}

/// What starts the chains of [`long_chains_of_any_node_stay_finite`].
const CHAIN_FEEDS: [&str; 4] = ["huge", "negative", "tiny", "noise"];

#[test]
fn long_chains_of_any_node_stay_finite() {
    // Nodes that amplify (sums, products, gains, divisions) would overflow to infinity
    // when chained; their results saturate at ±1e6 instead.
    let mut tally = Tally::default();
    for desc in NODES {
        let Some((port, _)) = desc.connectable_inputs().next() else {
            continue;
        };
        if desc.id == "output" {
            continue;
        }
        // Both ends of every range, with each option of the choices (math's ops, blend's
        // modes) in turn, each fed in turn by one of the feeds: at least once each per end.
        // The feed only starts the chain (each node then amplifies what the one before
        // made), so every pairing of option and feed would add time, not cases.
        let options = desc
            .params
            .iter()
            .map(|p| match p.kind {
                ParamKind::Choice { options, .. } => options.len(),
                _ => 1,
            })
            .max()
            .unwrap_or(1);
        let chains = options.max(CHAIN_FEEDS.len());
        for (end, k) in (0..2).flat_map(|e| (0..chains).map(move |k| (e, k))) {
            let option = k % options;
            // Shifted at the other end, so that an option meets two feeds.
            let feed = CHAIN_FEEDS[(k + 2 * end) % CHAIN_FEEDS.len()];
            let mut params = serde_json::Map::new();
            for param in desc.params {
                let values = extremes(&param.kind);
                let pick = match param.kind {
                    ParamKind::Choice { .. } => option % values.len(),
                    _ => end.min(values.len().saturating_sub(1)),
                };
                if let Some(v) = values.get(pick) {
                    params.insert(param.name.to_owned(), v.clone());
                }
            }
            if desc.id == "image" {
                params.insert("path".into(), json!("images/marble.png"));
            }
            let mut nodes = feed_nodes();
            for i in 0..60 {
                let from = if i == 0 {
                    feed.to_owned()
                } else {
                    format!("n{}", i - 1)
                };
                let mut inputs = serde_json::Map::new();
                for (name, _) in desc.connectable_inputs() {
                    if desc.input(name).is_some() || name == port {
                        inputs.insert(name.to_owned(), json!(from));
                    }
                }
                nodes.push(json!({ "id": format!("n{i}"), "type": desc.id, "params": params, "inputs": inputs }));
            }
            nodes.push(json!({ "id": "out", "type": "output", "inputs": { "color": "n59" } }));
            let graph = json!({ "format": "texgraph", "version": 1, "nodes": nodes });
            let what = format!("60 × {} at end {end}, option {option}, fed {feed}", desc.id);
            tally.check(&what, &graph);
        }
    }
    // About 660 render and 9% are rejected (chains that re-sample would cost too much
    // without a buffer; a chained node's output into its own uniform params).
    tally.assert_held(600, 0.2);
}

#[test]
fn every_example_at_extreme_times_renders_finite_samples() {
    // `time` is any finite number (`--time`, the timeline): it drives phases, offsets and
    // blend masks, and none of them may overflow.
    // Every example is valid at any time: each must render, none may be rejected.
    let mut tally = Tally::default();
    let examples = common::examples();
    let times = [-3.4e38f32, -1e30, -1e6, 1e-30, 1e6, 1e30, 3.4e38];
    for (name, graph) in &examples {
        for time in times {
            let mut graph = graph.clone();
            graph.settings.time = time;
            let what = format!("{name} at time {time}");
            let found = texgraph_core::check(&graph);
            if let Some(error) = found.errors.first() {
                tally.failures.push(format!("{what}: rejected: {error}"));
                continue;
            }
            tally.check_valid(&what, &graph);
        }
    }
    assert!(examples.len() >= 18, "only {} examples", examples.len());
    tally.assert_held(examples.len() * times.len(), 0.0);
}

#[test]
fn float_images_with_nan_and_infinities_read_as_finite_values() {
    let dir = tempfile::tempdir().unwrap();
    let bad = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        3.4e38,
        -3.4e38,
        0.5,
    ];
    let image = texgraph_core::Image {
        width: 6,
        height: 1,
        channels: 4,
        data: bad.iter().flat_map(|&v| [v, v, v, v]).collect(),
    };
    let path = dir.path().join("bad.exr");
    texgraph_core::export::write_image(&image, &path, texgraph_core::export::Depth::Float).unwrap();
    let mut tally = Tally::default();
    let filters = [
        "buffer",
        "blur",
        "sharpen",
        "normal",
        "emboss",
        "edge_detect",
        "slope_blur",
        "ambient_occlusion",
        "curvature",
    ];
    for filter in filters {
        let port = if ["normal", "emboss", "ambient_occlusion", "curvature"].contains(&filter) {
            "height"
        } else {
            "input"
        };
        let inputs = if filter == "slope_blur" {
            json!({ port: "photo", "slope": "photo" })
        } else {
            json!({ port: "photo" })
        };
        let graph = json!({ "format": "texgraph", "version": 1, "nodes": [
            { "id": "photo", "type": "image", "params": { "path": path.to_str().unwrap(), "filter": "nearest" } },
            { "id": "f", "type": filter, "inputs": inputs },
            { "id": "out", "type": "output", "inputs": { "color": "f" } },
            { "id": "raw", "type": "output", "params": { "name": "raw" }, "inputs": { "color": "photo" } } ] });
        let parsed = texgraph_core::Graph::from_json(&graph.to_string()).unwrap();
        let found = texgraph_core::check(&parsed);
        assert!(found.errors.is_empty(), "{filter}: {:?}", found.errors);
        tally.check(
            &format!("{filter} of an image of NaN and infinities"),
            &graph,
        );
    }
    // Every one of them is valid (asserted above): all must render.
    tally.assert_held(filters.len(), 0.0);
    // The values themselves: NaN reads as 0, infinities as the saturation bounds.
    let graph = texgraph_core::Graph::from_json(&json!({ "format": "texgraph", "version": 1, "nodes": [
        { "id": "photo", "type": "image", "params": { "path": path.to_str().unwrap(), "filter": "nearest" } },
        { "id": "out", "type": "output", "inputs": { "color": "photo" } } ] }).to_string()).unwrap();
    let program = texgraph_core::compile(&graph, None).unwrap();
    let read = texgraph_core::render(&program, 6, 1, Default::default(), &|_| {}).unwrap();
    let reds: Vec<f32> = read.data.iter().step_by(4).copied().collect();
    assert_eq!(reds, [0.0, 1e12, -1e12, 1e12, -1e12, 0.5]);
}
