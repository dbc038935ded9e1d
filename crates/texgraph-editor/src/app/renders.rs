//! Keeping renders current: which thumbnails an edit made stale, the preview request, and
//! what the worker sends back (images, and the errors that outline nodes).

use std::sync::Arc;

use eframe::egui::{self, TextureOptions};
use texgraph_core::{Graph, ParamValue, diagnose, validate};

use super::{EditorApp, THUMBNAIL_PIXELS};
use crate::preview::to_color_image;
use crate::worker::{Job, Slot};

impl EditorApp {
    /// After an edit: new errors, and renders for the preview and every node whose result
    /// may have changed.
    pub(super) fn changed(&mut self) {
        self.generation += 1;
        if crate::subgraphs::refresh(&self.graph, &self.folder()) {
            crate::document::store_positions(&mut self.graph, &self.snarl);
            crate::document::sync_snarl(&mut self.snarl, &self.graph);
        }
        let ids: Vec<String> = self.graph.nodes.iter().map(|n| n.id.clone()).collect();
        self.thumbnail_errors.retain(|id, _| ids.contains(id));
        self.preview_errors.retain(|id, _| ids.contains(id));
        self.collect_errors();
        let graph = Arc::new(self.resolved_graph());
        // What the renders asked for now read; a later change on disk renders again.
        self.file_stamps = file_stamps(&graph);
        self.request_preview_of(graph.clone());
        self.thumbnails.retain(|id, _| ids.contains(id));
        self.signatures.retain(|id, _| ids.contains(id));
        for id in ids {
            let signature = signature(&graph, &id);
            if self.signatures.get(&id) == Some(&signature) {
                continue; // nothing that feeds this node changed
            }
            self.signatures.insert(id.clone(), signature);
            self.worker.submit(Job {
                slot: Slot::Thumbnail(id.clone()),
                generation: self.generation,
                graph: graph.clone(),
                node: Some((id, None)),
                width: THUMBNAIL_PIXELS,
                height: THUMBNAIL_PIXELS,
            });
        }
    }

    pub(super) fn collect_errors(&mut self) {
        self.errors = self.preview_errors.clone();
        self.errors.extend(self.thumbnail_errors.clone());
        let diagnostics = diagnose(&self.resolved_graph());
        let mut faulty = std::collections::HashSet::new();
        self.warnings.clear();
        for problem in diagnostics.warnings {
            if let Some(node) = problem.location.node.clone() {
                self.warnings.insert(node, problem.to_string());
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
                self.warnings.remove(&node);
                faulty.insert(node.clone());
                self.errors.insert(node, problem.to_string());
            }
        }
        for node in waiting.into_iter().filter(|n| !faulty.contains(n)) {
            self.warnings
                .insert(node, "connect a node to the output's input".to_owned());
        }
        // An unfinished node's refused render (thumbnail, preview) says no more than its
        // warning.
        let warnings = &self.warnings;
        self.errors.retain(|node, _| !warnings.contains_key(node));
    }

    /// Asks for the preview: the pinned node or the output, at the playback time if playing.
    pub(super) fn request_preview(&mut self) {
        self.request_preview_of(Arc::new(self.resolved_graph()));
    }

    /// The badged nodes: those any current render (the preview or a thumbnail) computes
    /// over the whole image first.
    fn collect_stage_nodes(&mut self) {
        let graph = &self.graph;
        self.stages_by_slot.retain(|slot, _| match slot {
            Slot::Preview => true,
            Slot::Thumbnail(id) => graph.node(id).is_some(),
        });
        self.stage_nodes = self
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
    /// image edited in a paint program). Looks at most once a second.
    pub(super) fn watch_files(&mut self) {
        if self.files_checked.elapsed() < std::time::Duration::from_secs(1) {
            return;
        }
        self.files_checked = std::time::Instant::now();
        if file_stamps(&self.resolved_graph()) != self.file_stamps {
            self.changed();
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
        let size = self.preview.size;
        self.requested
            .push_back((self.generation, std::time::Instant::now()));
        if self.requested.len() > 64 {
            self.requested.pop_front();
        }
        self.worker.submit(Job {
            slot: Slot::Preview,
            generation: self.generation,
            graph,
            node: self.preview.pinned.clone().map(|id| (id, None)),
            width: size,
            height: size,
        });
    }

    /// Takes the worker's finished renders.
    pub(super) fn receive(&mut self, ctx: &egui::Context) {
        let mut errors_changed = false;
        for done in self.worker.finished() {
            match (done.slot, done.result) {
                (Slot::Preview, Ok(image)) if done.generation >= self.shown_generation => {
                    self.shown_generation = done.generation;
                    self.stages_by_slot.insert(Slot::Preview, done.stages);
                    self.collect_stage_nodes();
                    errors_changed |= !self.preview_errors.is_empty();
                    self.preview_errors.clear();
                    let asked = self.requested.iter().find(|(g, _)| *g == done.generation);
                    self.preview.latency = asked.map(|(_, at)| at.elapsed());
                    self.requested.retain(|(g, _)| *g > done.generation);
                    if self.trace
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
                (Slot::Preview, Err(message)) if done.generation >= self.shown_generation => {
                    self.shown_generation = done.generation;
                    self.preview.show_error(message);
                    self.preview_errors = done.at_fault.into_iter().collect();
                    errors_changed = true;
                }
                (Slot::Thumbnail(id), Ok(image)) => {
                    self.stages_by_slot
                        .insert(Slot::Thumbnail(id.clone()), done.stages);
                    self.collect_stage_nodes();
                    errors_changed |= self.thumbnail_errors.remove(&id).is_some();
                    let pixels = to_color_image(&image);
                    match self.thumbnails.get_mut(&id) {
                        Some(texture) => texture.set(pixels, TextureOptions::LINEAR),
                        None => {
                            let texture = ctx.load_texture(
                                format!("thumb-{id}"),
                                pixels,
                                TextureOptions::LINEAR,
                            );
                            self.thumbnails.insert(id, texture);
                        }
                    }
                }
                // Only the node the compiler blames gets the red outline.
                (Slot::Thumbnail(id), Err(_)) if self.graph.node(&id).is_some() => {
                    if let Some((_, message)) = done.at_fault.into_iter().find(|(n, _)| *n == id) {
                        self.thumbnail_errors.insert(id, message);
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

/// The modification time of every file a file param names (`None` when unreadable).
pub(super) fn file_stamps(graph: &Graph) -> Vec<(String, Option<std::time::SystemTime>)> {
    stamps_of(&graph.nodes)
}

/// The modification times of the files the file params of `nodes` name.
fn stamps_of<'n>(
    nodes: impl IntoIterator<Item = &'n texgraph_core::Node>,
) -> Vec<(String, Option<std::time::SystemTime>)> {
    let mut stamps = Vec::new();
    for node in nodes {
        let Some(desc) = texgraph_core::registry::lookup(&node.kind) else {
            continue;
        };
        for param in desc.params {
            if let (texgraph_core::registry::ParamKind::File { .. }, Some(ParamValue::Text(path))) =
                (param.kind, node.params.get(param.name))
            {
                let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
                stamps.push((path.clone(), modified));
            }
        }
    }
    stamps
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
    format!(
        "{:?}{:?}{:?}",
        nodes,
        (graph.settings.tileable, graph.settings.time.to_bits()),
        files
    )
}
