//! Keeping renders current: which thumbnails an edit made stale, the preview request, and
//! what the worker sends back (images, and the errors that outline nodes).

use std::sync::Arc;

use eframe::egui::{self, TextureOptions};
use texgraph_core::{Graph, ParamValue, diagnose, validate};

use super::{EditorApp, THUMBNAIL_PIXELS};
use crate::jobs::preview::{Job, Product, Slot, draft_side};
use crate::panels::preview::to_color_image;

impl EditorApp {
    /// After an edit: new errors, and renders for the preview and every node whose result
    /// may have changed.
    pub(super) fn changed(&mut self) {
        self.renders.generation += 1;
        self.keep_others_in_recovery();
        if crate::subgraphs::refresh(&self.graph, &self.folder()) {
            crate::document::store_positions(&mut self.graph, &self.canvas.snarl);
            crate::document::sync_snarl(&mut self.canvas.snarl, &self.graph);
        }
        let ids: Vec<String> = self.graph.nodes.iter().map(|n| n.id.clone()).collect();
        self.renders
            .thumbnail_errors
            .retain(|id, _| ids.contains(id));
        self.renders.preview_errors.retain(|id, _| ids.contains(id));
        self.collect_errors();
        let graph = Arc::new(self.shown_graph());
        self.animated = texgraph_core::subgraph::uses_time(&graph);
        // What the renders asked for now read; a later change on disk renders again.
        self.watch.file_stamps = file_stamps(&graph);
        self.request_preview_of(graph.clone());
        self.renders.thumbnails.retain(|id, _| ids.contains(id));
        self.renders
            .thumbnail_times
            .retain(|id, _| ids.contains(id));
        self.renders.signatures.retain(|id, _| ids.contains(id));
        self.request_thumbnails(graph);
    }

    /// Asks for the thumbnails of `graph` (the resolved document) whose inputs changed
    /// since they were last asked for: at the timeline's time while it plays, so the nodes
    /// that move follow it (the others' signatures do not hold the time).
    fn request_thumbnails(&mut self, mut graph: Arc<Graph>) {
        if let Some(time) = self.preview.playing {
            Arc::make_mut(&mut graph).settings.time = time;
        }
        // The document's nodes only (a fed preview adds the graph above's).
        let ids: Vec<String> = self.graph.nodes.iter().map(|n| n.id.clone()).collect();
        for id in ids {
            // A graph input fed from the graph above shows what feeds it.
            let (node, port) = match self.renders.fed_inputs.get(&id) {
                Some(reference) => {
                    let (node, port) = texgraph_core::graph::split_reference(reference);
                    (node.to_owned(), port.map(str::to_owned))
                }
                None => (id.clone(), None),
            };
            let signature = signature(&graph, &node);
            if self.renders.signatures.get(&id) == Some(&signature) {
                continue; // nothing that feeds this node changed
            }
            self.renders.signatures.insert(id.clone(), signature);
            self.renders.worker.submit(Job {
                slot: Slot::Thumbnail(id),
                generation: self.renders.generation,
                graph: graph.clone(),
                node: Some((node, port)),
                width: THUMBNAIL_PIXELS,
                height: THUMBNAIL_PIXELS,
                cancel: None,
            });
        }
    }

    /// The graph the preview and thumbnails render: the document, its file params
    /// resolved; a subgraph opened from a graph above is fed what its node there gives it
    /// (unless that is switched off).
    fn shown_graph(&mut self) -> Graph {
        let graph = self.resolved_graph();
        self.renders.fed_inputs.clear();
        let Some(step) = self
            .navigation
            .trail
            .last()
            .filter(|_| self.navigation.feed)
        else {
            return graph;
        };
        let mut parent = step.parked.graph.clone();
        if let Some(path) = &step.parked.path {
            parent.resolve_paths(&texgraph_core::paths::folder_of(path));
        }
        match crate::navigation::fed(&graph, &parent, &step.via) {
            Some((fed, inputs)) => {
                self.renders.fed_inputs = inputs;
                fed
            }
            None => graph,
        }
    }

    pub(super) fn collect_errors(&mut self) {
        self.problems.errors = self.renders.preview_errors.clone();
        self.problems
            .errors
            .extend(self.renders.thumbnail_errors.clone());
        let diagnostics = diagnose(&self.resolved_graph());
        let mut faulty = std::collections::HashSet::new();
        self.problems.warnings.clear();
        for problem in diagnostics.warnings {
            if let Some(node) = problem.location.node.clone() {
                self.problems.warnings.insert(node, problem.to_string());
            }
        }
        // An output with nothing connected yet is unfinished work too (a new graph), not a
        // fault: amber, with what to do — unless something else is wrong with it.
        let mut waiting = Vec::new();
        for problem in diagnostics.errors {
            let Some(node) = problem.location.node.clone() else {
                continue;
            };
            if problem.message == texgraph_core::validate::MISSING_INPUT
                && self.graph.node(&node).is_some_and(|n| n.kind == "output")
            {
                waiting.push(node);
            } else {
                self.problems.warnings.remove(&node);
                faulty.insert(node.clone());
                self.problems.errors.insert(node, problem.to_string());
            }
        }
        for node in waiting.into_iter().filter(|n| !faulty.contains(n)) {
            self.problems
                .warnings
                .insert(node, "connect a node to the output's input".to_owned());
        }
        // An unfinished node's refused render (thumbnail, preview) says no more than its
        // warning.
        let warnings = &self.problems.warnings;
        self.problems
            .errors
            .retain(|node, _| !warnings.contains_key(node));
    }

    /// Asks for the preview (the pinned node or the output) and the thumbnails that show
    /// something else now, at the playback time if playing.
    pub(super) fn request_preview(&mut self) {
        let graph = Arc::new(self.shown_graph());
        self.request_preview_of(graph.clone());
        self.request_thumbnails(graph);
    }

    /// The badged nodes: those any current render (the preview or a thumbnail) computes
    /// over the whole image first.
    fn collect_stage_nodes(&mut self) {
        let graph = &self.graph;
        self.renders.stages_by_slot.retain(|slot, _| match slot {
            Slot::Draft | Slot::Preview | Slot::Material => true,
            Slot::Thumbnail(id) => graph.node(id).is_some(),
        });
        self.renders.stage_nodes = self
            .renders
            .stages_by_slot
            .values()
            .flatten()
            .filter(|id| graph.node(id).is_some())
            .cloned()
            .collect();
    }

    /// The graph as the core compiles it: file params made relative to the graph file's
    /// folder (the document keeps them as written).
    pub(crate) fn resolved_graph(&self) -> Graph {
        let mut graph = self.graph.clone();
        graph.resolve_paths(&self.folder());
        graph
    }

    /// Renders again what reads a file that changed on disk since the last look (an
    /// image edited in a paint program, a subgraph's file saved elsewhere). Looks once a
    /// second while the graph reads files, drawing a frame for it if nothing else does.
    pub(super) fn watch_files(&mut self, ctx: &egui::Context) {
        const EVERY: std::time::Duration = std::time::Duration::from_secs(1);
        if !self.watch.file_stamps.is_empty() {
            ctx.request_repaint_after(EVERY.saturating_sub(self.watch.files_checked.elapsed()));
        }
        if self.watch.files_checked.elapsed() < EVERY {
            return;
        }
        self.watch.files_checked = web_time::Instant::now();
        // The graph the stamps were taken of (a fed preview reads the parent's files too).
        let shown = self.shown_graph();
        if file_stamps(&shown) != self.watch.file_stamps {
            self.changed();
        }
    }

    /// The node the 2D preview shows: the pinned one, else the selected one, else none
    /// (the graph's output).
    pub(super) fn preview_node(&self) -> Option<String> {
        self.preview.pinned.clone().or_else(|| self.followed_node())
    }

    /// The selected node, which the preview follows while nothing is pinned.
    fn followed_node(&self) -> Option<String> {
        if self.preview.pinned.is_some() {
            return None;
        }
        self.selected
            .clone()
            .filter(|id| self.graph.node(id).is_some())
    }

    /// Renders the preview again when what it should show changed (a node selected, the
    /// selection cleared) since it was asked for.
    pub(super) fn follow_selection(&mut self) {
        if !self.show_3d && self.followed_node() != self.preview.following {
            self.renders.generation += 1;
            self.request_preview();
        }
    }

    /// [`Self::request_preview`] of `graph`, the current graph already shared.
    fn request_preview_of(&mut self, mut graph: Arc<Graph>) {
        if let Some(time) = self.preview.playing {
            Arc::make_mut(&mut graph).settings.time = time;
        }
        if self
            .preview
            .pinned
            .as_ref()
            .is_some_and(|id| graph.node(id).is_none())
        {
            self.preview.pinned = None;
        }
        self.preview.following = self.followed_node();
        self.renders
            .requested
            .push_back((self.renders.generation, web_time::Instant::now()));
        if self.renders.requested.len() > 64 {
            self.renders.requested.pop_front();
        }
        // The tab shown is the one kept current: the 3D view's maps replace the 2D image.
        let (slot, size, node) = if self.show_3d {
            let dragging = self.window.ctx.input(|i| i.pointer.any_down());
            (Slot::Material, self.ball.maps_side(dragging), None)
        } else {
            let node = self.preview_node().map(|id| (id, None));
            (Slot::Preview, self.preview.size, node)
        };
        // The render this one replaces is stale: it stops, so the worker takes the new
        // draft at once instead of finishing a picture nobody will see. Not while the
        // timeline plays: each frame is then shown whole, as fast as frames render (a
        // draft and a stopped render per frame would show drafts only).
        let playing = self.preview.timeline.running;
        if let Some(stale) = self.renders.preview_cancel.take()
            && !playing
        {
            stale.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        let cancel = Arc::new(std::sync::atomic::AtomicBool::new(false));
        self.renders.preview_cancel = Some(cancel.clone());
        if slot == Slot::Preview
            && !playing
            && let Some(side) = draft_side(size, self.renders.draft_cost)
        {
            self.renders.worker.submit(Job {
                slot: Slot::Draft,
                generation: self.renders.generation,
                graph: graph.clone(),
                node: node.clone(),
                width: side,
                height: side,
                cancel: Some(cancel.clone()),
            });
        }
        self.renders.worker.submit(Job {
            slot,
            generation: self.renders.generation,
            graph,
            node,
            width: size,
            height: size,
            cancel: Some(cancel),
        });
    }

    /// Takes the worker's finished renders.
    pub(super) fn receive(&mut self, ctx: &egui::Context) {
        let mut errors_changed = false;
        for done in self.renders.worker.finished() {
            match (done.slot, done.result) {
                (Slot::Material, Ok(Product::Maps(maps)))
                    if done.generation >= self.renders.shown_generation =>
                {
                    self.renders.shown_generation = done.generation;
                    errors_changed |= !self.renders.preview_errors.is_empty();
                    self.renders.preview_errors.clear();
                    let edit_at = self.renders.answered(done.generation);
                    if self.window.trace {
                        eprintln!(
                            "maps {} render_ms {:.2}",
                            self.ball.map_size,
                            done.elapsed.as_secs_f64() * 1e3
                        );
                    }
                    self.ball.take_maps(ctx, *maps, done.generation, edit_at);
                }
                (Slot::Material, Err(message))
                    if done.generation >= self.renders.shown_generation =>
                {
                    self.renders.shown_generation = done.generation;
                    self.ball.show_error(message);
                    self.renders.preview_errors = done.at_fault.into_iter().collect();
                    errors_changed = true;
                }
                // A stale render given up: its newer job is on its way.
                _ if done.cancelled => {}
                (Slot::Draft, Ok(Product::Image(image)))
                    if done.generation > self.renders.shown_generation
                        && done.generation > self.renders.draft_generation =>
                {
                    self.renders.draft_generation = done.generation;
                    let pixels = f64::from(image.width) * f64::from(image.height);
                    self.renders.draft_cost = Some(done.elapsed.as_secs_f64() / pixels.max(1.0));
                    let latency = self
                        .renders
                        .requested
                        .iter()
                        .find(|(g, _)| *g == done.generation)
                        .map(|(_, at)| at.elapsed());
                    if self.window.trace
                        && let Some(latency) = latency
                    {
                        eprintln!(
                            "preview draft {}x{} render_ms {:.2} latency_ms {:.2}",
                            image.width,
                            image.height,
                            done.elapsed.as_secs_f64() * 1e3,
                            latency.as_secs_f64() * 1e3
                        );
                    }
                    self.preview.draft_latency = latency;
                    self.preview.show_draft(ctx, image);
                }
                // A draft's problems are the full render's: it reports them.
                (Slot::Draft, _) => {}
                (Slot::Preview, Ok(Product::Image(image)))
                    if done.generation >= self.renders.shown_generation =>
                {
                    self.renders.shown_generation = done.generation;
                    self.renders
                        .stages_by_slot
                        .insert(Slot::Preview, done.stages);
                    self.collect_stage_nodes();
                    errors_changed |= !self.renders.preview_errors.is_empty();
                    self.renders.preview_errors.clear();
                    self.preview.latency = self
                        .renders
                        .answered(done.generation)
                        .map(|at| at.elapsed());
                    if self.window.trace
                        && let Some(latency) = self.preview.latency
                    {
                        eprintln!(
                            "preview {}x{} render_ms {:.2} latency_ms {:.2}",
                            image.width,
                            image.height,
                            done.elapsed.as_secs_f64() * 1e3,
                            latency.as_secs_f64() * 1e3
                        );
                    }
                    self.preview
                        .show_image(ctx, image, done.elapsed.as_secs_f64() * 1e3);
                }
                (Slot::Preview, Err(message))
                    if done.generation >= self.renders.shown_generation =>
                {
                    self.renders.shown_generation = done.generation;
                    if nothing_made_yet(&self.graph) {
                        // A new graph: nothing is wrong, there is only nothing to show.
                        self.preview.show_hint(NOTHING_YET);
                        errors_changed |= !self.renders.preview_errors.is_empty();
                        self.renders.preview_errors.clear();
                    } else {
                        self.preview.show_error(message);
                        self.renders.preview_errors = done.at_fault.into_iter().collect();
                        errors_changed = true;
                    }
                }
                (Slot::Thumbnail(id), Ok(Product::Image(image))) => {
                    self.renders
                        .stages_by_slot
                        .insert(Slot::Thumbnail(id.clone()), done.stages);
                    self.collect_stage_nodes();
                    errors_changed |= self.renders.thumbnail_errors.remove(&id).is_some();
                    self.renders.thumbnail_times.insert(id.clone(), done.time);
                    let pixels = to_color_image(&image);
                    match self.renders.thumbnails.get_mut(&id) {
                        Some(texture) => texture.set(pixels, TextureOptions::LINEAR),
                        None => {
                            let texture = ctx.load_texture(
                                format!("thumb-{id}"),
                                pixels,
                                TextureOptions::LINEAR,
                            );
                            self.renders.thumbnails.insert(id, texture);
                        }
                    }
                }
                (Slot::Thumbnail(id), Err(_)) if self.graph.node(&id).is_some() => {
                    // Blank rather than an image the graph no longer makes; and asked for
                    // again after the next edit, whatever it changes (the fix may be
                    // anywhere: a subgraph's file, a setting).
                    self.renders.thumbnails.remove(&id);
                    self.renders.signatures.remove(&id);
                    // Only the node the compiler blames gets the red outline.
                    if let Some((_, message)) = done.at_fault.into_iter().find(|(n, _)| *n == id) {
                        self.renders.thumbnail_errors.insert(id, message);
                        errors_changed = true;
                    }
                }
                _ => {}
            }
        }
        if errors_changed {
            self.collect_errors();
        }
    }
}

/// The modification time of every file the graph reads (`None` when unreadable): what
/// its file params name, and the graph files its subgraph nodes use, with what those read
/// in turn.
pub(super) fn file_stamps(graph: &Graph) -> Vec<(String, Option<std::time::SystemTime>)> {
    stamps_of(&graph.nodes)
}

/// The modification times of the files the nodes `nodes` read (file params, subgraph
/// files and what they read), each relative path as the nodes hold it.
fn stamps_of<'n>(
    nodes: impl IntoIterator<Item = &'n texgraph_core::Node>,
) -> Vec<(String, Option<std::time::SystemTime>)> {
    let mut stamps = Vec::new();
    add_stamps(nodes, 0, &mut stamps);
    stamps
}

fn add_stamps<'n>(
    nodes: impl IntoIterator<Item = &'n texgraph_core::Node>,
    depth: usize,
    stamps: &mut Vec<(String, Option<std::time::SystemTime>)>,
) {
    let modified = |path: &str| std::fs::metadata(path).and_then(|m| m.modified()).ok();
    for node in nodes {
        if node.kind == texgraph_core::graph::SUBGRAPH_KIND {
            let Some(ParamValue::Text(file)) = node.params.get("file") else {
                continue;
            };
            if stamps.iter().any(|(seen, _)| seen == file) {
                continue;
            }
            stamps.push((file.clone(), modified(file)));
            // What the included file reads, its paths made relative to its own folder as
            // inlining reads them (nesting is bounded as inlining bounds it).
            if depth < texgraph_core::subgraph::MAX_NESTING
                && let Ok(mut included) = Graph::load(std::path::Path::new(file))
            {
                included
                    .resolve_paths(&texgraph_core::paths::folder_of(std::path::Path::new(file)));
                add_stamps(&included.nodes, depth + 1, stamps);
            }
            continue;
        }
        let Some(desc) = texgraph_core::registry::lookup(&node.kind) else {
            continue;
        };
        for param in desc.params {
            if let (texgraph_core::registry::ParamKind::File { .. }, Some(ParamValue::Text(path))) =
                (param.kind, node.params.get(param.name))
            {
                stamps.push((path.clone(), modified(path)));
            }
        }
    }
}

/// What a node's result depends on (its upstream nodes' types, params and inputs, the
/// files they read and the settings), so that a thumbnail is rendered again only when
/// this changes.
fn signature(graph: &Graph, id: &str) -> String {
    let upstream = validate::upstream(graph, id);
    let mut nodes: Vec<_> = graph
        .nodes
        .iter()
        .filter(|n| upstream.contains(n.id.as_str()))
        .map(|n| {
            (
                &n.id,
                &n.kind,
                serde_json::to_string(&n.params).unwrap_or_default(),
                &n.inputs,
            )
        })
        .collect();
    nodes.sort_by(|a, b| a.0.cmp(b.0));
    let files = stamps_of(
        graph
            .nodes
            .iter()
            .filter(|n| upstream.contains(n.id.as_str())),
    );
    // Time and the loop change only what reads a `time` node (a subgraph may hide one).
    let timed = nodes
        .iter()
        .any(|(_, kind, _, _)| *kind == "time" || *kind == texgraph_core::graph::SUBGRAPH_KIND);
    let settings = &graph.settings;
    let motion = timed.then(|| {
        (
            settings.time.to_bits(),
            settings.loop_seconds.map(f32::to_bits),
        )
    });
    format!("{nodes:?}{:?}{motion:?}{files:?}", settings.tileable)
}

/// What the preview says of a graph with nothing in it yet.
const NOTHING_YET: &str = "Add a node (Space, Tab or right-click on the canvas) and wire it into the output to see it here.";

/// Whether the graph has nothing to render yet: outputs alone, with nothing wired in (a
/// new graph).
fn nothing_made_yet(graph: &Graph) -> bool {
    graph
        .nodes
        .iter()
        .all(|n| n.kind == "output" && n.inputs.is_empty())
}
