//! The link between the core's `Graph` (the document) and the canvas's `Snarl` (view
//! state: which node sits where, which pins are wired). Pins are numbered the way the
//! registry lists ports: inputs are the node type's explicit inputs, then one per float
//! param; outputs are its output ports. A subgraph node's pins are its file's
//! ([`crate::subgraphs`]).

use std::collections::HashMap;

use eframe::egui::{Pos2, Rect, Vec2, pos2, vec2};
use egui_snarl::{InPinId, NodeId, OutPinId, Snarl};
use texgraph_core::graph::split_reference;
use texgraph_core::registry::{self, NodeDescriptor, ParamKind, PortType};
use texgraph_core::{Graph, Node};

use crate::subgraphs::{BARE_OUTPUT, ports};

/// Side of a node's thumbnail on the canvas, in points.
pub const THUMBNAIL: f32 = 72.0;

/// The input ports of a node type, in pin order.
pub fn input_ports(desc: &NodeDescriptor) -> Vec<(&'static str, PortType)> {
    desc.connectable_inputs().collect()
}

/// The canvas view of `graph`: one snarl node per graph node (its value is the node id),
/// at the node's position, with a wire per connected input.
pub fn to_snarl(graph: &Graph) -> Snarl<String> {
    let mut snarl = Snarl::new();
    sync_snarl(&mut snarl, graph);
    snarl
}

/// Brings the canvas view `snarl` in line with `graph` after an edit. Nodes that remain
/// keep their snarl ids, and with them their place in the canvas's selection and whether
/// they are collapsed. New nodes are inserted before gone ones are removed, so that no new
/// node takes over the id, and so the selection, of a node just deleted.
pub fn sync_snarl(snarl: &mut Snarl<String>, graph: &Graph) {
    rebuild(snarl, graph, true);
}

/// Makes `snarl` the canvas view of another document: every node gets a snarl id none of
/// the old nodes had, so nothing of the old canvas's selection carries over.
pub fn replace_snarl(snarl: &mut Snarl<String>, graph: &Graph) {
    rebuild(snarl, graph, false);
}

/// Gives the canvas nodes `nodes` new snarl ids (same name, place and collapsed state),
/// which takes them out of the canvas's own selection: egui-snarl offers no other way to
/// change it. Wires are not carried over: [`sync_snarl`] draws them again.
pub fn renew(snarl: &mut Snarl<String>, nodes: &[NodeId]) {
    let mut gone = Vec::new();
    for &old in nodes {
        let Some(info) = snarl.get_node_info(old) else {
            continue;
        };
        let (pos, open, name) = (info.pos, info.open, info.value.clone());
        // Inserted before the old one goes, so the new node cannot take its id back.
        if open {
            snarl.insert_node(pos, name);
        } else {
            snarl.insert_node_collapsed(pos, name);
        }
        gone.push(old);
    }
    for old in gone {
        snarl.remove_node(old);
    }
}

fn rebuild(snarl: &mut Snarl<String>, graph: &Graph, keep: bool) {
    let wires: Vec<_> = snarl.wires().collect();
    for (from, to) in wires {
        snarl.disconnect(from, to);
    }
    // By name, the snarl nodes that may stay: a damaged file may repeat a node id, and each
    // of its nodes keeps a snarl node of its own.
    let mut kept: HashMap<String, Vec<NodeId>> = HashMap::new();
    for (id, name) in snarl.node_ids() {
        kept.entry(name.clone()).or_default().push(id);
    }
    let mut ids: HashMap<&str, NodeId> = HashMap::with_capacity(graph.nodes.len());
    for node in &graph.nodes {
        let pos = pos2(node.pos[0], node.pos[1]);
        let reused = if keep {
            kept.get_mut(&node.id)
                .filter(|same| !same.is_empty())
                .map(|same| same.remove(0))
        } else {
            None
        };
        let id = match reused {
            Some(id) => {
                if let Some(info) = snarl.get_node_info_mut(id) {
                    info.pos = pos;
                }
                id
            }
            None => snarl.insert_node(pos, node.id.clone()),
        };
        ids.insert(node.id.as_str(), id);
    }
    for gone in kept.into_values().flatten() {
        snarl.remove_node(gone);
    }
    for (node, input, _, from) in drawn_connections(graph, &ids) {
        snarl.connect(
            from,
            InPinId {
                node: ids[node],
                input,
            },
        );
    }
}

/// Connections of the graph whose wire is gone from the canvas: egui-snarl's own Ctrl+drag
/// from an input pin lifts wires without asking the viewer. Only connections the canvas
/// draws count (a reference to a missing node has no wire to lose).
pub fn lifted_wires(graph: &Graph, snarl: &Snarl<String>) -> Vec<(String, String)> {
    let drawn: std::collections::HashSet<(&str, usize)> = snarl
        .wires()
        .filter_map(|(_, to)| Some((snarl.get_node(to.node)?.as_str(), to.input)))
        .collect();
    let ids: HashMap<&str, NodeId> = snarl
        .node_ids()
        .map(|(id, name)| (name.as_str(), id))
        .collect();
    drawn_connections(graph, &ids)
        .filter(|(node, input, _, _)| !drawn.contains(&(*node, *input)))
        .map(|(node, _, port, _)| (node.to_owned(), port.to_owned()))
        .collect()
}

/// The connections the canvas draws, as (target node id, input index, input name, source
/// pin): inputs of known node types whose reference names a node on the canvas.
fn drawn_connections<'g>(
    graph: &'g Graph,
    ids: &'g HashMap<&str, NodeId>,
) -> impl Iterator<Item = (&'g str, usize, String, OutPinId)> {
    graph
        .nodes
        .iter()
        .filter(|node| ids.contains_key(node.id.as_str()))
        .filter_map(|node| Some((node, ports(graph, &node.id)?)))
        .flat_map(move |(node, ports)| {
            ports
                .inputs
                .into_iter()
                .enumerate()
                .filter_map(move |(input, (port, _))| {
                    let from = out_pin(graph, ids, node.inputs.get(&port)?)?;
                    Some((node.id.as_str(), input, port, from))
                })
        })
}

/// The snarl output pin a graph reference (`"node"` or `"node.port"`) means.
fn out_pin(graph: &Graph, ids: &HashMap<&str, NodeId>, reference: &str) -> Option<OutPinId> {
    let (source, port) = split_reference(reference);
    let outputs = ports(graph, source)?.outputs;
    let output = match port {
        None => 0,
        Some(p) => outputs.iter().position(|o| o == p)?,
    };
    Some(OutPinId {
        node: *ids.get(source)?,
        output,
    })
}

/// The graph reference of an output pin: `"node"` for a first output, else `"node.port"`.
/// A node whose ports are unknown names every port but [`BARE_OUTPUT`]: its first pin
/// is only the first output when it stands for bare references.
pub fn reference(graph: &Graph, node: &str, output: usize) -> String {
    let Some(ports) = ports(graph, node) else {
        return node.to_owned();
    };
    match ports.outputs.get(output) {
        Some(p) if output > 0 || (ports.unloaded && p != BARE_OUTPUT) => format!("{node}.{p}"),
        _ => node.to_owned(),
    }
}

/// The name of input pin `input` of graph node `node`.
pub fn input_name(graph: &Graph, node: &str, input: usize) -> Option<String> {
    ports(graph, node)?
        .inputs
        .get(input)
        .map(|(name, _)| name.clone())
}

/// Copies canvas positions back into the graph, in whole canvas units (finer adds
/// nothing on screen and only clutters the file).
pub fn store_positions(graph: &mut Graph, snarl: &Snarl<String>) {
    for (_, pos, id) in snarl.nodes_pos_ids() {
        if let Some(node) = graph.node_mut(id) {
            node.pos = file_position(pos);
        }
    }
}

/// A canvas position as stored in the file.
pub fn file_position(pos: Pos2) -> [f32; 2] {
    [pos.x.round(), pos.y.round()]
}

/// The snarl node showing graph node `id`.
pub fn find(snarl: &Snarl<String>, id: &str) -> Option<NodeId> {
    snarl
        .node_ids()
        .find(|(_, v)| v.as_str() == id)
        .map(|(n, _)| n)
}

/// A fresh node id for a node of type `kind`: the type and the first free number.
pub fn fresh_id(graph: &Graph, kind: &str) -> String {
    // A name that ends in a digit (a graph file `subgraph1`) is kept apart from the
    // counter: `subgraph1_2`, not `subgraph12`.
    let separator = if kind.ends_with(|c: char| c.is_ascii_digit()) {
        "_"
    } else {
        ""
    };
    (1..)
        .map(|i| format!("{kind}{separator}{i}"))
        .find(|id| graph.node(id).is_none())
        .expect("unbounded")
}

/// Whether `id` is a node id the editor gives or accepts in a rename: letters, digits,
/// `_` and `-`, starting with a letter or `_` (files may hold any id without a `.`).
pub fn is_plain_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Where a new node goes when none is given: right of everything.
pub fn free_position(graph: &Graph, sizes: &DrawnSizes) -> Pos2 {
    let right = graph
        .nodes
        .iter()
        .map(|n| node_rect(n, pos2(n.pos[0], n.pos[1]), sizes).right())
        .fold(f32::NEG_INFINITY, f32::max);
    if right.is_finite() {
        pos2(right + COLUMN_GAP, 0.0)
    } else {
        Pos2::ZERO
    }
}

/// Where a new node of `size` wanted at `wanted` goes so that it covers no node already
/// there: `wanted` when that is clear, else the nearest spot clear of them found by
/// sliding straight down, right, up or left past the nodes in the way (as a new node in
/// Substance slides clear of the others), one inside `view` (the canvas as shown) when
/// there is one.
pub fn clear_spot(
    graph: &Graph,
    size: Vec2,
    wanted: Pos2,
    sizes: &DrawnSizes,
    view: Option<Rect>,
) -> Pos2 {
    let taken: Vec<Rect> = graph
        .nodes
        .iter()
        .map(|n| node_rect(n, pos2(n.pos[0], n.pos[1]), sizes).expand(ROW_GAP / 2.0))
        .collect();
    // Each way moves past the nodes in the way; every step passes one more node, so it
    // ends within as many steps. Down first: of spots as near, the one Substance picks.
    let slid = [Way::Down, Way::Right, Way::Up, Way::Left].map(|way| {
        let mut spot = wanted;
        for _ in 0..=taken.len() {
            let rect = Rect::from_min_size(spot, size);
            let hit: Vec<&Rect> = taken.iter().filter(|t| t.intersects(rect)).collect();
            if hit.is_empty() {
                break;
            }
            spot = way.past(&hit, size, spot);
        }
        spot
    });
    let shown =
        |spot: &&Pos2| view.is_none_or(|v| v.contains_rect(Rect::from_min_size(**spot, size)));
    let nearest = |spots: &mut dyn Iterator<Item = &Pos2>| {
        spots
            .copied()
            .min_by(|a, b| a.distance(wanted).total_cmp(&b.distance(wanted)))
    };
    nearest(&mut slid.iter().filter(shown))
        .or_else(|| nearest(&mut slid.iter()))
        .unwrap_or(wanted)
}

/// A way [`clear_spot`] slides a new node.
#[derive(Clone, Copy)]
enum Way {
    Down,
    Right,
    Up,
    Left,
}

impl Way {
    /// Where a node of `size` at `at` goes to be clear of the nodes `hit` this way, a
    /// half gap past them.
    fn past(self, hit: &[&Rect], size: Vec2, at: Pos2) -> Pos2 {
        let gap = ROW_GAP / 2.0;
        let most = |side: fn(&Rect) -> f32| hit.iter().map(|t| side(t)).fold(f32::MIN, f32::max);
        let least = |side: fn(&Rect) -> f32| hit.iter().map(|t| side(t)).fold(f32::MAX, f32::min);
        match self {
            Way::Down => pos2(at.x, most(Rect::bottom) + gap),
            Way::Right => pos2(most(Rect::right) + gap, at.y),
            Way::Up => pos2(at.x, least(Rect::top) - gap - size.y),
            Way::Left => pos2(least(Rect::left) - gap - size.x, at.y),
        }
    }
}

/// A new graph: one output node and `tileable` on, as material editors start.
pub fn new_graph() -> Graph {
    let mut graph = Graph::new();
    graph.settings.tileable = true;
    graph.nodes.push(Node::new("output", "output"));
    graph
}

/// Horizontal gap between the columns [`arrange`] makes.
const COLUMN_GAP: f32 = 50.0;
/// Vertical gap between nodes in a column.
const ROW_GAP: f32 = 30.0;

/// The narrowest a node is drawn on the canvas.
const NODE_WIDTH: f32 = 210.0;

/// The sizes nodes were drawn at on the canvas, by node id (canvas units), as egui-snarl
/// reports them after each frame; a node not drawn yet has an estimate instead.
pub type DrawnSizes = HashMap<String, Vec2>;

/// About how tall a node of this type is drawn on the canvas: the header, then the pin
/// rows beside the thumbnail.
pub fn estimated_height(desc: &NodeDescriptor) -> f32 {
    let pins = input_ports(desc).len().max(desc.outputs.len()) as f32;
    34.0 + (20.5 * pins).max(THUMBNAIL + 8.0) + 12.0
}

/// About how wide a node of this type is drawn on the canvas, erring wide: its pins, its
/// longest input row (the name, and the value field of a param), the thumbnail and its
/// longest output name; or its title, when wider.
pub fn estimated_width(desc: &NodeDescriptor) -> f32 {
    // Measured at scale 1: the body font's characters are under 6.5 points wide, a value
    // field 60, a pin 16, and margins and gaps take 48.
    let text = |s: &str| s.chars().count() as f32 * 6.5;
    let is_param = |name: &str| desc.params.iter().any(|p| p.name == name);
    let input = input_ports(desc)
        .iter()
        .map(|(name, _)| text(name) + if is_param(name) { 60.0 } else { 0.0 })
        .fold(0.0, f32::max);
    let output = desc
        .outputs
        .iter()
        .map(|o| text(o.name))
        .fold(0.0, f32::max);
    // "id1: Label", with the collapse button, and a first param that is a choice shown
    // after it (its longest option).
    let choice = match desc.params.first().map(|p| p.kind) {
        Some(ParamKind::Choice { options, .. }) => {
            options.iter().map(|o| text(o)).fold(0.0, f32::max) + 16.0
        }
        _ => 0.0,
    };
    let title = text(desc.id) + text(desc.label) + choice + 56.0;
    (32.0 + input + THUMBNAIL + output + 48.0)
        .max(title)
        .max(NODE_WIDTH)
}

/// About where a node of type `kind` with its top-left corner at `pos` is drawn.
pub fn estimated_rect(kind: &str, pos: Pos2) -> Rect {
    let size = registry::lookup(kind).map_or(vec2(NODE_WIDTH, 120.0), |desc| {
        vec2(estimated_width(desc), estimated_height(desc))
    });
    Rect::from_min_size(pos, size)
}

/// About the size a new node of type `kind` is drawn at: the largest a node of its type
/// in `graph` was drawn at, else [`estimated_rect`]'s.
pub fn likely_size(graph: &Graph, kind: &str, sizes: &DrawnSizes) -> Vec2 {
    graph
        .nodes
        .iter()
        .filter(|n| n.kind == kind)
        .filter_map(|n| sizes.get(&n.id))
        .copied()
        .reduce(Vec2::max)
        .unwrap_or_else(|| estimated_rect(kind, Pos2::ZERO).size())
}

/// Where `node` is drawn with its top-left corner at `pos`: its drawn size when known.
pub fn node_rect(node: &Node, pos: Pos2, sizes: &DrawnSizes) -> Rect {
    match sizes.get(&node.id) {
        Some(size) => Rect::from_min_size(pos, *size),
        None => estimated_rect(&node.kind, pos),
    }
}

/// Whether the graph's positions say nothing: two or more nodes on the same spot (a file
/// written without positions puts every node at the origin).
pub fn needs_arranging(graph: &Graph) -> bool {
    let mut seen = std::collections::HashSet::new();
    graph
        .nodes
        .iter()
        .any(|n| !seen.insert((n.pos[0].to_bits(), n.pos[1].to_bits())))
}

/// Lays the nodes out in columns by depth from the outputs: nodes nothing reads (the
/// outputs, unfinished branches) in the right-most column, each other node one column left
/// of the furthest-left node that reads it. Within a column nodes follow the average row
/// of the nodes they feed, which keeps wires short and mostly uncrossed. Nodes take the
/// room they are drawn with (`sizes`), so none covers another; each comment moves to frame
/// the nodes it held.
pub fn arrange(graph: &mut Graph, sizes: &DrawnSizes) {
    let index: HashMap<&str, usize> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.id.as_str(), i))
        .collect();
    // readers[i]: the nodes that take node i as an input.
    let mut readers: Vec<Vec<usize>> = vec![Vec::new(); graph.nodes.len()];
    for (i, node) in graph.nodes.iter().enumerate() {
        for reference in node.inputs.values() {
            if let Some(&source) = index.get(split_reference(reference).0)
                && source != i
                && !readers[source].contains(&i)
            {
                readers[source].push(i);
            }
        }
    }
    // The nodes each comment holds, to frame them again once they have moved.
    let held: Vec<Vec<usize>> = graph
        .comments
        .iter()
        .map(|comment| {
            (0..graph.nodes.len())
                .filter(|&i| crate::comment_layout::holds(comment, graph.nodes[i].pos))
                .collect()
        })
        .collect();
    let size = |i: usize| node_rect(&graph.nodes[i], Pos2::ZERO, sizes).size();
    let depth = depths(&readers);
    let columns = depth.iter().copied().max().map_or(0, |d| d + 1);
    // Each column as wide as its widest node; the deepest column starts at x = 0.
    let mut widths = vec![0.0f32; columns];
    for (i, &d) in depth.iter().enumerate() {
        widths[d] = widths[d].max(size(i).x);
    }
    let mut lefts = vec![0.0f32; columns];
    let mut x = 0.0;
    for d in (0..columns).rev() {
        lefts[d] = x;
        x += widths[d] + COLUMN_GAP;
    }
    let mut row: Vec<f32> = vec![0.0; graph.nodes.len()];
    let mut positions = vec![[0.0f32; 2]; graph.nodes.len()];
    for (column, left) in lefts.iter().enumerate() {
        let mut members: Vec<usize> = (0..graph.nodes.len())
            .filter(|&i| depth[i] == column)
            .collect();
        let key = |i: usize| -> f32 {
            let r = &readers[i];
            if r.is_empty() {
                i as f32
            } else {
                r.iter().map(|&j| row[j]).sum::<f32>() / r.len() as f32
            }
        };
        members.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
        let heights: Vec<f32> = members.iter().map(|&i| size(i).y).collect();
        let total = heights.iter().sum::<f32>() + ROW_GAP * members.len().saturating_sub(1) as f32;
        let mut y = -total / 2.0;
        for (rank, (&i, height)) in members.iter().zip(&heights).enumerate() {
            row[i] = rank as f32;
            // Rounded up, so that rounding never closes the gap below.
            positions[i] = [left.round(), y.ceil()];
            y = y.ceil() + height + ROW_GAP;
        }
    }
    let rects: Vec<Rect> = (0..graph.nodes.len())
        .map(|i| Rect::from_min_size(Pos2::from(positions[i]), size(i)))
        .collect();
    for (comment, held) in graph.comments.iter_mut().zip(held) {
        if held.is_empty() {
            continue;
        }
        let framed = crate::comment_layout::framing(held.iter().map(|&i| rects[i]), Pos2::ZERO);
        comment.pos = framed.pos;
        comment.size = framed.size;
    }
    for (node, pos) in graph.nodes.iter_mut().zip(positions) {
        node.pos = pos;
    }
}

/// Each node's column: 0 for nodes nothing reads, else one more than the deepest reader.
/// A cycle (an invalid file) is cut where the walk meets a node already on its path.
fn depths(readers: &[Vec<usize>]) -> Vec<usize> {
    const UNKNOWN: usize = usize::MAX;
    let mut depth = vec![UNKNOWN; readers.len()];
    let mut on_path = vec![false; readers.len()];
    for start in 0..readers.len() {
        if depth[start] != UNKNOWN {
            continue;
        }
        // Iterative depth-first walk towards the readers.
        let mut stack = vec![(start, 0usize)];
        while let Some(top) = stack.last_mut() {
            let node = top.0;
            on_path[node] = true;
            if let Some(&reader) = readers[node].get(top.1) {
                top.1 += 1;
                if depth[reader] == UNKNOWN && !on_path[reader] {
                    stack.push((reader, 0));
                }
                continue;
            }
            depth[node] = readers[node]
                .iter()
                .filter(|&&r| depth[r] != UNKNOWN)
                .map(|&r| depth[r] + 1)
                .max()
                .unwrap_or(0);
            on_path[node] = false;
            stack.pop();
        }
    }
    depth
}

/// Makes an `output` node about to join `graph` fit in: a name another output has becomes
/// the first free `<name><n>`, and a usage another output has goes back to `color`, so
/// adding, duplicating or pasting an output never makes the graph invalid.
pub fn fit_new_output(graph: &Graph, node: &mut Node) {
    use texgraph_core::usage::Usage;
    if node.kind != "output" {
        return;
    }
    let outputs: Vec<&Node> = graph.nodes.iter().filter(|n| n.kind == "output").collect();
    let name = node.output_name();
    if outputs.iter().any(|o| o.output_name() == name) {
        let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
        let base = if base.is_empty() { "output" } else { base };
        let free = (2..)
            .map(|i| format!("{base}{i}"))
            .find(|candidate| outputs.iter().all(|o| o.output_name() != *candidate))
            .expect("unbounded");
        node.params
            .insert("name".into(), texgraph_core::ParamValue::Text(free));
    }
    let usage = node.usage();
    if usage != Usage::Color && outputs.iter().any(|o| o.usage() == usage) {
        node.params.remove("usage");
    }
}

/// The name output `id` takes when its usage becomes `usage`, as Substance names an
/// output after its usage: `None` when its name was chosen by a person (only a name the
/// editor gave, `color`, `color2` or the old usage's, follows), the new usage's id
/// otherwise (with a number when another output has it).
pub fn name_after_usage(
    graph: &Graph,
    id: &str,
    usage: &texgraph_core::ParamValue,
) -> Option<String> {
    use texgraph_core::usage::Usage;
    let node = graph.node(id)?;
    let texgraph_core::ParamValue::Text(usage) = usage else {
        return None;
    };
    let usage = Usage::parse(usage)?;
    let name = node.output_name();
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let given = [texgraph_core::graph::DEFAULT_OUTPUT_NAME, node.usage().id()];
    if !given.contains(&base) {
        return None;
    }
    let taken = |candidate: &str| {
        graph
            .nodes
            .iter()
            .any(|n| n.kind == "output" && n.id != id && n.output_name() == candidate)
    };
    let wanted = usage.id().to_owned();
    (1..)
        .map(|i| {
            if i == 1 {
                wanted.clone()
            } else {
                format!("{wanted}{i}")
            }
        })
        .find(|candidate| !taken(candidate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_output_named_by_the_editor_takes_its_usage_as_name_and_a_chosen_name_stays() {
        use texgraph_core::ParamValue;
        let json = r#"{ "format": "texgraph", "version": 4, "nodes": [
            { "id": "n", "type": "perlin" },
            { "id": "a", "type": "output", "params": { "name": "color2" }, "inputs": { "color": "n" } },
            { "id": "b", "type": "output", "params": { "name": "roughness", "usage": "roughness" }, "inputs": { "color": "n" } },
            { "id": "c", "type": "output", "params": { "name": "stone_mask" }, "inputs": { "color": "n" } },
            { "id": "d", "type": "output", "inputs": { "color": "n" } } ] }"#;
        let graph = Graph::from_json(json).unwrap();
        let usage = |u: &str| ParamValue::Text(u.into());
        assert_eq!(
            name_after_usage(&graph, "a", &usage("height")).as_deref(),
            Some("height")
        );
        // A name taken by another output gets a number.
        assert_eq!(
            name_after_usage(&graph, "d", &usage("roughness")).as_deref(),
            Some("roughness2")
        );
        // Named after its old usage: it follows the new one.
        assert_eq!(
            name_after_usage(&graph, "b", &usage("metallic")).as_deref(),
            Some("metallic")
        );
        // A name a person gave stays.
        assert_eq!(name_after_usage(&graph, "c", &usage("mask")), None);
        assert_eq!(name_after_usage(&graph, "a", &usage("nonsense")), None);
    }

    #[test]
    fn a_new_node_slides_to_the_nearest_spot_clear_of_the_nodes_it_would_cover() {
        let mut graph = Graph::new();
        let mut a = Node::new("a", "perlin");
        a.pos = [0.0, 0.0];
        let mut b = Node::new("b", "levels");
        b.pos = [0.0, 200.0];
        graph.nodes.extend([a, b]);
        let sizes: DrawnSizes = [
            ("a".to_owned(), vec2(300.0, 150.0)),
            ("b".to_owned(), vec2(280.0, 180.0)),
        ]
        .into();
        // Wanted on top of a (a: 0..300 × 0..150, b: 0..280 × 200..380, each with
        // room around): above a is nearest; right of a next; below b (a then b in the
        // way) farthest.
        let size = estimated_rect("blend", Pos2::ZERO).size();
        let wanted = pos2(50.0, 20.0);
        let clear = |spot: Pos2| {
            let rect = Rect::from_min_size(spot, size);
            graph
                .nodes
                .iter()
                .all(|n| !node_rect(n, pos2(n.pos[0], n.pos[1]), &sizes).intersects(rect))
        };
        let spot = clear_spot(&graph, size, wanted, &sizes, None);
        assert!(
            clear(spot) && spot.x == 50.0 && spot.y + size.y <= -15.0,
            "{spot:?}"
        );
        // Above a is out of view: right of a.
        let view = Rect::from_min_max(pos2(-100.0, -50.0), pos2(1000.0, 1000.0));
        let spot = clear_spot(&graph, size, wanted, &sizes, Some(view));
        assert!(clear(spot) && spot.y == 20.0 && spot.x >= 315.0, "{spot:?}");
        // Right is out of view too: below b.
        let view = Rect::from_min_max(pos2(-100.0, -50.0), pos2(340.0, 1000.0));
        let spot = clear_spot(&graph, size, wanted, &sizes, Some(view));
        assert!(clear(spot) && spot.x == 50.0 && spot.y >= 395.0, "{spot:?}");
        assert!(spot.y <= 380.0 + ROW_GAP, "just below b: {spot:?}");
        // A clear spot is kept as it is.
        assert_eq!(
            clear_spot(&graph, size, pos2(400.0, 0.0), &sizes, None),
            pos2(400.0, 0.0)
        );
        // Beside the others: right of the widest, not of the rightmost corner.
        assert_eq!(free_position(&graph, &sizes), pos2(300.0 + COLUMN_GAP, 0.0));
    }

    fn marble() -> Graph {
        Graph::load(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../graphs/marble.json"),
        )
        .unwrap()
    }

    #[test]
    fn snarl_mirrors_the_graph_and_positions_round_trip() {
        let graph = marble();
        let snarl = to_snarl(&graph);
        assert_eq!(snarl.nodes().count(), graph.nodes.len());
        let wires = graph.nodes.iter().map(|n| n.inputs.len()).sum::<usize>();
        assert_eq!(snarl.wires().count(), wires);
        // turb feeds veins' "noise" input (pin 0) from its output 0.
        let (turb, veins) = (
            find(&snarl, "turb").unwrap(),
            find(&snarl, "veins").unwrap(),
        );
        assert!(snarl.wires().any(|(o, i)| o
            == OutPinId {
                node: turb,
                output: 0
            }
            && i == InPinId {
                node: veins,
                input: 0
            }));
        let mut moved = graph.clone();
        for node in &mut moved.nodes {
            node.pos = [0.0, 0.0];
        }
        store_positions(&mut moved, &snarl);
        assert_eq!(moved, graph);
    }

    #[test]
    fn the_canvas_keeps_the_ids_of_remaining_nodes_and_never_reuses_a_gone_one() {
        let mut g = Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "a", "type": "perlin" }, { "id": "b", "type": "levels", "inputs": { "input": "a" } },
                { "id": "dup", "type": "coords" }, { "id": "dup", "type": "coords" },
                { "id": "out", "type": "output", "inputs": { "color": "b" } } ] }"#,
        )
        .unwrap();
        let mut snarl = to_snarl(&g);
        let before: Vec<NodeId> = ["a", "b", "out"]
            .iter()
            .map(|id| find(&snarl, id).unwrap())
            .collect();
        g.nodes.retain(|n| n.id != "b");
        g.node_mut("out")
            .unwrap()
            .inputs
            .insert("color".into(), "a".into());
        let mut c = Node::new("c", "constant");
        c.pos = [5.0, 6.0];
        g.nodes.push(c);
        sync_snarl(&mut snarl, &g);
        sync_snarl(&mut snarl, &g);
        assert_eq!(
            snarl.node_ids().count(),
            g.nodes.len(),
            "duplicates stay two"
        );
        assert_eq!(find(&snarl, "a"), Some(before[0]));
        assert_eq!(find(&snarl, "out"), Some(before[2]));
        let c = find(&snarl, "c").unwrap();
        assert!(!before.contains(&c), "the new node took a gone node's id");
        assert_eq!(snarl.get_node_info(c).unwrap().pos, pos2(5.0, 6.0));
        let wires: Vec<_> = snarl.wires().collect();
        assert_eq!(wires.len(), 1);
        assert_eq!((wires[0].0.node, wires[0].1.node), (before[0], before[2]));

        // Another document: no id carries over, not even for a node of the same name.
        let old: Vec<NodeId> = snarl.node_ids().map(|(id, _)| id).collect();
        replace_snarl(&mut snarl, &g);
        assert_eq!(snarl.node_ids().count(), g.nodes.len());
        assert!(snarl.node_ids().all(|(id, _)| !old.contains(&id)));
    }

    #[test]
    fn references_and_ids() {
        let g = Graph::from_json(
            r#"{ "format": "texgraph", "version": 1, "nodes": [
                { "id": "c", "type": "coords" }, { "id": "perlin1", "type": "perlin" },
                { "id": "out", "type": "output", "inputs": { "color": "c.v" } } ] }"#,
        )
        .unwrap();
        assert_eq!(reference(&g, "c", 1), "c.v");
        assert_eq!(reference(&g, "perlin1", 0), "perlin1");
        assert_eq!(fresh_id(&g, "perlin"), "perlin2");
        assert_eq!(fresh_id(&g, "perlin1"), "perlin1_1");
        assert_eq!(input_name(&g, "perlin1", 0).as_deref(), Some("frequency"));
        let snarl = to_snarl(&g);
        let (c, out) = (find(&snarl, "c").unwrap(), find(&snarl, "out").unwrap());
        assert!(
            snarl
                .wires()
                .any(|(o, i)| o == OutPinId { node: c, output: 1 }
                    && i == InPinId {
                        node: out,
                        input: 0
                    })
        );
    }
}
