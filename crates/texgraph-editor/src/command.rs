//! What the editor can be asked to do: every edit and action, as data. Panels return
//! these while drawing; `app::commands` applies them after the frame (one frame's
//! commands are one undo step). This module names no other part of the editor, so any
//! panel can speak it.

use eframe::egui::{Pos2, Vec2};
use std::path::PathBuf;
use texgraph_core::{Comment, ParamValue};

/// One edit or action, collected while drawing and applied after.
#[derive(Debug, Clone)]
pub enum Command {
    /// Set a param of a node: a value typed, picked or clicked (one undo step each).
    SetParam {
        /// Node id.
        node: String,
        /// Param name.
        param: String,
        /// New value.
        value: ParamValue,
    },
    /// Set a param of a node while a drag goes on: the drag is one undo step until the
    /// pointer is released.
    DragParam {
        /// Node id.
        node: String,
        /// Param name.
        param: String,
        /// New value.
        value: ParamValue,
    },
    /// Connect output `from` (`"node"` or `"node.port"`) to input `port` of node `to`.
    Connect {
        /// Source reference.
        from: String,
        /// Target node id.
        to: String,
        /// Target input.
        port: String,
    },
    /// Remove the connection into input `port` of node `to`.
    Disconnect {
        /// Target node id.
        to: String,
        /// Target input.
        port: String,
    },
    /// Add a node of type `kind` at a canvas position (or beside the others).
    AddNode {
        /// Node type id.
        kind: &'static str,
        /// Canvas position.
        pos: Option<Pos2>,
    },
    /// Delete nodes and every connection to them.
    Remove(Vec<String>),
    /// Copy nodes (with their params and inputs) under new ids.
    Duplicate(Vec<String>),
    /// Add the nodes of a graph (pasted JSON) under fresh ids, keeping their connections
    /// among themselves, with their top-left corner at a canvas position (or beside the
    /// originals).
    Paste {
        /// The graph file's JSON.
        text: String,
        /// Canvas position.
        at: Option<Pos2>,
    },
    /// Set a node's label, the title people read (`None`: the id and type again).
    SetLabel {
        /// Node id.
        node: String,
        /// The label.
        label: Option<String>,
    },
    /// Give a node another id; every reference to it follows.
    Rename {
        /// The current id.
        from: String,
        /// The new id.
        to: String,
    },
    /// Lay out every node in columns by depth from the outputs.
    Arrange,
    /// Open the node palette: where the node goes on the canvas and where the palette
    /// shows on screen.
    OpenPalette {
        /// Canvas position of the new node.
        at: Option<Pos2>,
        /// Screen position of the palette.
        screen: Pos2,
    },
    /// Open the node palette for a wire dropped on empty canvas: the node chosen goes at
    /// `at` (canvas) and takes the wire.
    OpenWirePalette {
        /// Canvas position of the new node.
        at: Pos2,
        /// Screen position of the palette.
        screen: Pos2,
        /// The wire.
        wire: DroppedWire,
    },
    /// Open the menu of the connection into input `port` of `node` from `from` (a
    /// right-click on its wire), where the pointer is.
    OpenWireMenu {
        /// The source (`node` or `node.port`).
        from: String,
        /// The node fed.
        node: String,
        /// Its input.
        port: String,
    },
    /// Add a node of `kind` at `pos` (canvas) connected to a dropped wire.
    AddWiredNode {
        /// The node type's id.
        kind: &'static str,
        /// Canvas position.
        pos: Pos2,
        /// The wire it takes.
        wire: DroppedWire,
    },
    /// Show a node in the inspector (and pick no others).
    Select(Option<String>),
    /// Add a comment to the canvas (and show it in the inspector).
    AddComment(Comment),
    /// Show a comment in the inspector.
    SelectComment(Option<usize>),
    /// Move a comment and the nodes inside it.
    MoveComment {
        /// Which comment.
        index: usize,
        /// By how much, in canvas units.
        delta: Vec2,
        /// The nodes that go along (those inside it when the drag started).
        nodes: Vec<String>,
    },
    /// Resize a comment.
    ResizeComment {
        /// Which comment.
        index: usize,
        /// The new size.
        size: [f32; 2],
    },
    /// Change a comment's text or color.
    SetComment {
        /// Which comment.
        index: usize,
        /// The comment as edited.
        comment: Comment,
    },
    /// Delete a comment (the nodes inside stay).
    RemoveComment(usize),
    /// Add a node to the picked nodes, or take it out (Shift+click).
    Pick(String),
    /// Pick every node (Ctrl+A).
    SelectAll,
    /// Show a node's output in the preview (`None`: the graph's output).
    Pin(Option<String>),
    /// Show the graph file of subgraph node `id`, keeping this graph (and its unsaved
    /// edits) on the trail to come back to.
    OpenSubgraph(String),
    /// Go back up the trail to the graph at this depth (0: the graph first opened).
    Back(usize),
    /// Move these nodes into a new graph file beside this one, used through one node.
    MakeSubgraph(Vec<String>),
    /// Add a subgraph node using a graph file.
    AddSubgraph {
        /// The file, as the graph writes it (relative to the graph's folder).
        file: String,
        /// Canvas position (or in the middle of the canvas as shown).
        pos: Option<Pos2>,
    },
    /// Add a subgraph node using a built-in library graph at `pos` (canvas), connected to
    /// a dropped wire as [`Command::AddWiredNode`] connects a node.
    AddWiredSubgraph {
        /// The file (`library:NAME`).
        file: String,
        /// Canvas position.
        pos: Pos2,
        /// The wire it takes.
        wire: DroppedWire,
    },
    /// Expose `param` of `node` as a param of this graph (for graphs that use it as a
    /// node), or stop exposing it.
    ToggleExposed {
        /// The node.
        node: String,
        /// Its param.
        param: String,
    },
    /// Set the graph's name.
    SetName(String),
    /// Set the graph's tileable setting.
    SetTileable(bool),
    /// Set the graph's time.
    SetTime(f32),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Start an empty graph.
    New,
    /// Load a graph file.
    Open(PathBuf),
    /// Show work recovered from an editor that did not close cleanly, unsaved.
    Restore(Box<crate::recovery::Recovered>),
    /// Ask for a file for a file param of a node.
    ChooseFile {
        /// Node id.
        node: String,
        /// Param name.
        param: String,
    },
    /// Save to a path (or the current file).
    Save(Option<PathBuf>),
    /// Show a message in the status bar.
    Status(String),
}

/// A wire dragged out of a pin and let go on empty canvas, waiting for the node the
/// palette adds there (as in Substance and Material Maker).
#[derive(Debug, Clone, PartialEq)]
pub enum DroppedWire {
    /// Out of an output (`node`, or `node.port` for a later output): the new node's first
    /// input takes it.
    From(String),
    /// Out of input `port` of `node`: the new node's first output feeds it.
    Into {
        /// The node.
        node: String,
        /// Its input.
        port: String,
    },
    /// A connection the new node goes into: `from` feeds its first input, its first
    /// output feeds input `port` of `node`.
    Between {
        /// The source (`node` or `node.port`).
        from: String,
        /// The node fed.
        node: String,
        /// Its input.
        port: String,
    },
}

impl DroppedWire {
    /// Whether a node with input ports (`inputs`) and outputs (`outputs`) can take the
    /// wire: a node type or a graph file used as a node. An input port for a wire from an
    /// output (params driven by wires are left for the user to pick), an output for a
    /// wire into an input.
    pub fn takes(&self, inputs: bool, outputs: bool) -> bool {
        match self {
            DroppedWire::From(_) => inputs,
            DroppedWire::Into { .. } => outputs,
            DroppedWire::Between { .. } => inputs && outputs,
        }
    }
}
