//! The graph document: exactly what a `.json` file holds and what the editor edits.
//!
//! Loading checks the file's header (`format`, `version`) and the shape of each node and
//! comment; everything that needs the node catalogue (types, params, ports, cycles) and
//! the values of comments are checked by [`crate::validate`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use texgraph_base::error::{Error, GraphError, Location, Result};
use texgraph_engine::usage::Usage;

/// The name an `output` node's map takes when its `name` param is absent (the param's
/// default in the registry).
pub const DEFAULT_OUTPUT_NAME: &str = "color";

/// The node type of a subgraph: a graph file used as a node.
pub const SUBGRAPH_KIND: &str = "graph";
/// The node type whose nodes are a graph's input ports when it is used as a subgraph.
pub const GRAPH_INPUT_KIND: &str = "graph_input";

/// The value of the `format` field of every graph file.
pub const FORMAT: &str = "texgraph";
/// The newest graph file format version: what this build reads up to, and what a loaded
/// graph holds in memory. Version 2 added subgraphs (`graph` and `graph_input` nodes, the
/// `exposed` list) and `settings.loop`; version 5 the graph's `doc` and exposed params'
/// `min` and `max`. An older file is read unchanged.
pub const VERSION: u32 = 5;
/// The oldest graph file format version this build reads.
pub const FIRST_VERSION: u32 = 1;
/// Largest graph file read, in bytes (64 MiB: far above any hand-made or generated
/// material).
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// A material graph: settings plus a list of nodes that refer to each other by id, and
/// the comments drawn around them in the editor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Graph {
    /// Always [`FORMAT`].
    pub format: String,
    /// Always [`VERSION`] once loaded (older files are migrated); files are written with
    /// the lowest version that holds the graph ([`Graph::required_version`]).
    pub version: u32,
    /// Display name; also the default output file name of `texgraph render`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the graph makes, in a sentence or two: shown where the graph is offered as a
    /// node (the library, the palette, `texgraph nodes`). Version 5.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// The group it is listed under where it is offered as a node ("Grunge", "Pattern",
    /// "Smart mask"…). Version 5.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub category: String,
    /// Graph-wide settings.
    #[serde(default)]
    pub settings: Settings,
    /// The nodes, in file order (evaluation order comes from the connections).
    pub nodes: Vec<Node>,
    /// Notes and frames drawn on the editor canvas; they do not affect rendering.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<Comment>,
    /// The params this graph offers as a subgraph: each one a node param inside, shown as
    /// a param of every `graph` node that uses this file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exposed: Vec<Exposed>,
}

/// One param a graph exposes to the graphs that include it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exposed {
    /// The param's name on the including `graph` node (letters, digits, '_' and '-').
    pub name: String,
    /// The node param it sets: `"node_id.param"`. Its range and kind are the exposed
    /// param's; its value in this file is the default.
    pub target: String,
    /// What it does, shown in the inspector and `texgraph nodes`-style listings (the
    /// target param's own doc when empty).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub doc: String,
    /// The smallest value it takes, within the target's range (the target's own when
    /// absent): the slider's start. Version 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The largest value it takes, as `min`. Version 5.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
}

/// Graph-wide settings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// When true every lattice noise wraps on the unit square and waves round their
    /// frequency, so the material tiles seamlessly.
    pub tileable: bool,
    /// The value of every `time` node.
    pub time: f32,
    /// Loop length in seconds: when set, the graph's motion repeats every `loop` seconds
    /// without a jump (see [`crate::compile`]: two passes, `loop` seconds apart, are
    /// crossfaded). Version 2.
    #[serde(rename = "loop", skip_serializing_if = "Option::is_none")]
    pub loop_seconds: Option<f32>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            tileable: false,
            time: 0.0,
            loop_seconds: None,
        }
    }
}

/// The longest loop, in seconds (a day).
pub const MAX_LOOP_SECONDS: f32 = 86_400.0;

/// One node of a graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    /// Unique id within the graph; connections refer to it.
    pub id: String,
    /// Registry id of the node type, e.g. `perlin`.
    #[serde(rename = "type")]
    pub kind: String,
    /// A name for people, shown as the node's title in the editor (`"stone grain"`); the
    /// id stays what connections refer to. Version 3.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Params that differ from their defaults (missing ones take the default).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, ParamValue>,
    /// Connected inputs: port name → `"node_id"` or `"node_id.port"`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, String>,
    /// Position on the editor canvas.
    #[serde(default)]
    pub pos: [f32; 2],
}

impl Node {
    /// The most characters a label holds (a title, not a note: comments hold notes).
    pub const MAX_LABEL_CHARS: usize = 100;

    /// A node of type `kind` with default params and no connections.
    pub fn new(id: impl Into<String>, kind: impl Into<String>) -> Self {
        Self {
            id: id.into(),
            kind: kind.into(),
            label: None,
            params: BTreeMap::new(),
            inputs: BTreeMap::new(),
            pos: [0.0, 0.0],
        }
    }

    /// The name of an `output` node's map: its `name` param, [`DEFAULT_OUTPUT_NAME`] when
    /// absent.
    pub fn output_name(&self) -> String {
        match self.params.get("name") {
            Some(ParamValue::Text(name)) => name.clone(),
            _ => DEFAULT_OUTPUT_NAME.to_owned(),
        }
    }

    /// What an `output` node's map is for (`color` when its param is absent or unknown:
    /// validation reports an unknown one).
    pub fn usage(&self) -> Usage {
        match self.params.get("usage") {
            Some(ParamValue::Text(id)) => Usage::parse(id).unwrap_or(Usage::Color),
            _ => Usage::Color,
        }
    }
}

/// A note or frame on the editor canvas: a colored rectangle with a text, drawn behind
/// the nodes. The editor moves the nodes whose position lies inside it along with it.
/// Comments never affect rendering.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Comment {
    /// The note's text (may be empty: a plain frame).
    #[serde(default)]
    pub text: String,
    /// Top-left corner on the canvas, in the same units as node positions.
    pub pos: [f32; 2],
    /// Width and height on the canvas.
    pub size: [f32; 2],
    /// Fill color, `#rrggbb` or `#rrggbbaa`.
    #[serde(default = "Comment::default_color")]
    pub color: String,
}

impl Comment {
    /// Longest text, in characters.
    pub const MAX_TEXT_CHARS: usize = 10_000;
    /// Largest width or height.
    pub const MAX_SIZE: f32 = 100_000.0;

    /// An empty frame at `pos` of `size`, in the default color.
    pub fn new(pos: [f32; 2], size: [f32; 2]) -> Self {
        Self {
            text: String::new(),
            pos,
            size,
            color: Self::default_color(),
        }
    }

    /// The color of a comment that names none: a muted slate blue.
    pub fn default_color() -> String {
        "#4a5a6a".to_owned()
    }
}

/// A param value as written in a file. Which variant a param needs comes from the
/// registry; anything else is kept as [`ParamValue::Other`] so that validation can name
/// the node and field instead of failing inside the JSON parser.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ParamValue {
    /// Float and integer params (whole numbers are written without a fraction).
    Number(#[serde(serialize_with = "write_number")] f64),
    /// Choices (`"quintic"`), colors (`"#rrggbb"`) and names.
    Text(String),
    /// The stops of a color ramp.
    Stops(Vec<GradientStop>),
    /// The points of a curve.
    Points(Vec<CurvePoint>),
    /// Switches (`"repeat": true`).
    Bool(bool),
    /// Any other JSON value; always a validation error.
    Other(serde_json::Value),
}

/// Writes whole numbers as JSON integers (`7`, not `7.0`), so saved files read naturally.
fn write_number<S: serde::Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53: every integer below is exact
    if value.fract() == 0.0 && value.abs() < EXACT && !(*value == 0.0 && value.is_sign_negative()) {
        serializer.serialize_i64(*value as i64)
    } else {
        serializer.serialize_f64(*value)
    }
}

/// One stop of a `gradient` node's ramp.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GradientStop {
    /// Position on the ramp, 0..1.
    pub pos: f64,
    /// `#rrggbb` or `#rrggbbaa`.
    pub color: String,
}

/// One point of a `curve` node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CurvePoint {
    /// Input, 0..1.
    pub x: f64,
    /// Output, 0..1.
    pub y: f64,
}

/// An input reference split into node id and output port (`None` = the node's first output).
pub fn split_reference(reference: &str) -> (&str, Option<&str>) {
    match reference.split_once('.') {
        Some((node, port)) => (node, Some(port)),
        None => (reference, None),
    }
}

/// The folder a graph file's relative paths start from: the file's parent (`.` for a bare
/// file name).
pub fn folder_of(graph_file: &Path) -> PathBuf {
    match graph_file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    }
}

impl Graph {
    /// The usage of the output called `name` (the first output when `None`); `None` when
    /// there is no such output.
    pub fn output_usage(&self, name: Option<&str>) -> Option<Usage> {
        self.nodes
            .iter()
            .filter(|n| n.kind == "output")
            .find(|n| name.is_none_or(|name| n.output_name() == name))
            .map(Node::usage)
    }

    /// An empty graph of the current format version.
    pub fn new() -> Self {
        Self {
            format: FORMAT.to_owned(),
            version: VERSION,
            name: None,
            doc: String::new(),
            category: String::new(),
            settings: Settings::default(),
            nodes: Vec::new(),
            comments: Vec::new(),
            exposed: Vec::new(),
        }
    }

    /// The lowest file format version that holds this graph: 4 when an output has a
    /// `usage` other than `color`; 3 when a node has a label;
    /// 2 when it uses subgraphs (`graph` or `graph_input` nodes, exposed params) or a
    /// loop; else 1, so that files without them stay readable by older builds and
    /// unchanged by a save.
    pub fn required_version(&self) -> u32 {
        let subgraphs = self
            .nodes
            .iter()
            .any(|n| n.kind == SUBGRAPH_KIND || n.kind == GRAPH_INPUT_KIND);
        let usages = self.nodes.iter().any(|n| {
            n.kind == "output"
                && matches!(n.params.get("usage"), Some(ParamValue::Text(u)) if u != "color")
        });
        let ranged = self
            .exposed
            .iter()
            .any(|e| e.min.is_some() || e.max.is_some());
        if ranged || !self.doc.is_empty() || !self.category.is_empty() {
            5
        } else if usages {
            4
        } else if self.nodes.iter().any(|n| n.label.is_some()) {
            3
        } else if subgraphs || !self.exposed.is_empty() || self.settings.loop_seconds.is_some() {
            2
        } else {
            1
        }
    }

    /// The node with `id`, if any.
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The node with `id`, mutably.
    pub fn node_mut(&mut self, id: &str) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|n| n.id == id)
    }

    /// Parses a graph from JSON text. Errors name the node and field concerned; the
    /// catalogue-level checks are left to [`crate::validate`].
    pub fn from_json(text: &str) -> Result<Self> {
        let value: serde_json::Value = serde_json::from_str(text)?;
        Self::from_value(value)
    }

    /// Parses a graph from a JSON value (see [`Graph::from_json`]).
    pub fn from_value(value: serde_json::Value) -> Result<Self> {
        let serde_json::Value::Object(mut top) = value else {
            return Err(Error::at(
                Location::default(),
                "a graph file must be a JSON object",
            ));
        };
        match top.get("format") {
            Some(serde_json::Value::String(f)) if f == FORMAT => {}
            Some(other) => {
                return Err(Error::at(
                    Location::graph_field("format"),
                    format!("expected \"{FORMAT}\", found {other}"),
                ));
            }
            None => {
                return Err(Error::at(
                    Location::graph_field("format"),
                    format!("missing; a graph file starts with \"format\": \"{FORMAT}\""),
                ));
            }
        }
        match top.get("version").map(|v| (v, v.as_u64())) {
            Some((_, Some(v))) if (u64::from(FIRST_VERSION)..=u64::from(VERSION)).contains(&v) => {
                migrate(&mut top, v as u32);
            }
            Some((v, _)) => {
                return Err(Error::at(
                    Location::graph_field("version"),
                    format!(
                        "unsupported version {v}; this build reads versions {FIRST_VERSION} to {VERSION}"
                    ),
                ));
            }
            None => {
                return Err(Error::at(Location::graph_field("version"), "missing"));
            }
        }
        let nodes = match top.remove("nodes") {
            Some(serde_json::Value::Array(nodes)) => nodes,
            Some(_) => {
                return Err(Error::at(
                    Location::graph_field("nodes"),
                    "must be an array",
                ));
            }
            None => return Err(Error::at(Location::graph_field("nodes"), "missing")),
        };
        top.insert("nodes".to_owned(), serde_json::Value::Array(Vec::new()));
        let comments = match top.remove("comments") {
            None => Vec::new(),
            Some(serde_json::Value::Array(comments)) => comments,
            Some(_) => {
                return Err(Error::at(
                    Location::graph_field("comments"),
                    "must be an array",
                ));
            }
        };
        let mut graph: Graph = serde_json::from_value(serde_json::Value::Object(top))
            .map_err(|e| Error::at(Location::default(), e.to_string()))?;

        let mut problems = Vec::new();
        for (index, raw) in comments.into_iter().enumerate() {
            match serde_json::from_value::<Comment>(raw) {
                Ok(comment) => graph.comments.push(comment),
                Err(e) => problems.push(GraphError::new(
                    Location::graph_field(&format!("comments[{index}]")),
                    e.to_string(),
                )),
            }
        }
        for (index, raw) in nodes.into_iter().enumerate() {
            let label = raw
                .get("id")
                .and_then(|id| id.as_str())
                .map_or_else(|| format!("#{index}"), str::to_owned);
            match serde_json::from_value::<Node>(raw) {
                Ok(node) => graph.nodes.push(node),
                Err(e) => problems.push(GraphError::new(Location::node(&label), e.to_string())),
            }
        }
        if problems.is_empty() {
            Ok(graph)
        } else {
            Err(Error::Invalid(problems))
        }
    }

    /// Reads a graph file. Only regular files of at most [`MAX_FILE_BYTES`] are read, so a
    /// device, a pipe or a huge file is refused at once instead of hanging or filling
    /// memory.
    pub fn load(path: &Path) -> Result<Self> {
        let text = texgraph_base::files::read_text(path, MAX_FILE_BYTES, "graph files")?;
        Self::from_json(&text)
    }

    /// The graph as pretty-printed JSON (what [`Graph::save`] writes), with the lowest
    /// version that holds it ([`Graph::required_version`]).
    pub fn to_json(&self) -> String {
        let written = Graph {
            version: self.required_version(),
            ..self.clone()
        };
        let mut text = serde_json::to_string_pretty(&written).expect("a graph always serializes");
        text.push('\n');
        text
    }

    /// Writes the graph to `path` atomically: a failed write leaves any existing file as it was.
    pub fn save(&self, path: &Path) -> Result<()> {
        texgraph_base::staging::write_atomically(path, |file| {
            use std::io::Write;
            file.write_all(self.to_json().as_bytes())
                .map_err(|source| Error::Io {
                    path: path.to_owned(),
                    source,
                })
        })
    }
}

/// Brings a file of an older version to [`VERSION`]. Versions 2 to 4 only added fields,
/// node types and a setting, so an older file means the same once its version says so; a
/// later version that changes meaning adds its rewrite here.
fn migrate(top: &mut serde_json::Map<String, serde_json::Value>, _from: u32) {
    top.insert("version".to_owned(), VERSION.into());
}

impl Default for Graph {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_are_written_as_integers() {
        let mut node = Node::new("n", "perlin");
        node.params.insert("seed".into(), ParamValue::Number(7.0));
        node.params
            .insert("frequency".into(), ParamValue::Number(2.5));
        node.params.insert("z".into(), ParamValue::Number(-0.0));
        let text = serde_json::to_string(&node).unwrap();
        assert!(
            text.contains(r#""seed":7,"#) && text.contains(r#""frequency":2.5"#),
            "{text}"
        );
        let back: Node = serde_json::from_str(&text).unwrap();
        assert_eq!(back, node);
        assert!(matches!(back.params["z"], ParamValue::Number(z) if z.is_sign_negative()));
    }

    #[test]
    fn a_label_is_kept_and_saved_as_version_3_and_only_then() {
        let text = r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "out", "type": "output", "inputs": { "color": "n" } } ] }"#;
        let mut graph = Graph::from_json(text).unwrap();
        assert_eq!(graph.version, VERSION);
        assert_eq!(graph.required_version(), 1);
        assert!(!graph.to_json().contains("label"));
        graph.nodes[0].label = Some("stone grain".into());
        let json = graph.to_json();
        assert!(json.contains(r#""version": 3"#), "{json}");
        assert!(json.contains(r#""label": "stone grain""#), "{json}");
        let back = Graph::from_json(&json).unwrap();
        assert_eq!(back.nodes[0].label.as_deref(), Some("stone grain"));
        assert_eq!(back, graph);
        // Too long a label is a validation error: `checks::tests`.
    }
}
