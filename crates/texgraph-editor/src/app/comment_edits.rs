//! Edits of comments and frames.

use eframe::egui::Vec2;
use texgraph_core::Comment;

use super::EditorApp;
use super::commands::Applied;

impl EditorApp {
    /// Adds a comment and selects it.
    pub(super) fn place_comment(&mut self, comment: Comment) -> Applied {
        let graph = &mut self.graph;
        graph.comments.push(comment);
        self.selected_comment = Some(graph.comments.len() - 1);
        self.selected = None;
        Applied::Edit(None)
    }

    /// Moves a comment (a frame with the nodes in it).
    pub(super) fn move_comment(
        &mut self,
        index: usize,
        delta: Vec2,
        nodes: Vec<String>,
    ) -> Applied {
        let graph = &mut self.graph;
        if index >= graph.comments.len() {
            return Applied::Nothing;
        }
        for node in &mut graph.nodes {
            if nodes.contains(&node.id) {
                node.pos = [node.pos[0] + delta.x, node.pos[1] + delta.y];
            }
        }
        let moved = &mut graph.comments[index].pos;
        *moved = [moved[0] + delta.x, moved[1] + delta.y];
        Applied::Edit(Some(format!("comment {index}")))
    }

    /// Resizes a comment.
    pub(super) fn resize_comment(&mut self, index: usize, size: [f32; 2]) -> Applied {
        let graph = &mut self.graph;
        let Some(comment) = graph.comments.get_mut(index) else {
            return Applied::Nothing;
        };
        comment.size = size;
        Applied::Edit(Some(format!("comment {index}")))
    }

    /// Changes a comment's text or look.
    pub(super) fn set_comment(&mut self, index: usize, comment: Comment) -> Applied {
        let graph = &mut self.graph;
        match graph.comments.get_mut(index) {
            Some(old) if *old != comment => *old = comment,
            _ => return Applied::Nothing,
        }
        Applied::Edit(Some(format!("comment {index} text")))
    }

    /// Removes a comment.
    pub(super) fn remove_comment(&mut self, index: usize) -> Applied {
        let graph = &mut self.graph;
        if index >= graph.comments.len() {
            return Applied::Nothing;
        }
        graph.comments.remove(index);
        self.selected_comment = None;
        Applied::Edit(None)
    }
}
