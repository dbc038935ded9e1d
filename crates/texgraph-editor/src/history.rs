//! Undo and redo over whole-graph snapshots (graphs are small; a snapshot is exact), and
//! which state was last saved: each state the document passes through gets a number, so
//! undoing back to the saved one makes the document unmodified again.

use texgraph_core::Graph;

/// Past and undone states of one document.
#[derive(Debug)]
pub struct History {
    /// Earlier states, oldest first, each with its number.
    undo: Vec<(Graph, u64)>,
    /// Undone states, the next redo last.
    redo: Vec<(Graph, u64)>,
    /// The key of the last edit, so that a run of edits to one param (a slider drag) is
    /// one undo step.
    last_key: Option<String>,
    /// The number of the current state.
    current: u64,
    /// The number the next new state gets.
    next: u64,
    /// The number of the state last saved (or loaded); `None` when no state in reach is.
    saved: Option<u64>,
}

impl Default for History {
    fn default() -> Self {
        Self {
            undo: Vec::new(),
            redo: Vec::new(),
            last_key: None,
            current: 0,
            next: 1,
            saved: Some(0),
        }
    }
}

/// How many steps are kept.
const LIMIT: usize = 500;

impl History {
    /// Records `before`, the graph as it was before an edit. Consecutive edits with the
    /// same `key` (one param being dragged) merge into one step.
    pub fn record(&mut self, before: &Graph, key: Option<String>) {
        let merged = key.is_some() && key == self.last_key;
        let state = self.fresh();
        if merged {
            // The step's start stays what undo returns to; the state itself is new.
            self.current = state;
            return;
        }
        self.last_key = key;
        self.undo.push((before.clone(), self.current));
        self.current = state;
        if self.undo.len() > LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// A number no state had.
    fn fresh(&mut self) -> u64 {
        let state = self.next;
        self.next += 1;
        state
    }

    /// Ends the current merge run (the next edit is a step of its own).
    pub fn seal(&mut self) {
        self.last_key = None;
    }

    /// The state before the last step, given the current one.
    pub fn undo(&mut self, current: &Graph) -> Option<Graph> {
        let (previous, state) = self.undo.pop()?;
        self.redo.push((current.clone(), self.current));
        self.current = state;
        self.last_key = None;
        Some(previous)
    }

    /// The state the last undo left, given the current one.
    pub fn redo(&mut self, current: &Graph) -> Option<Graph> {
        let (next, state) = self.redo.pop()?;
        self.undo.push((current.clone(), self.current));
        self.current = state;
        self.last_key = None;
        Some(next)
    }

    /// The current state is what the file holds (it was just saved or loaded).
    pub fn mark_saved(&mut self) {
        self.saved = Some(self.current);
        // An edit after a save is a step of its own, so undo can return to the save.
        self.last_key = None;
    }

    /// No state is what a file holds (recovered work, say).
    pub fn mark_unsaved(&mut self) {
        self.saved = None;
    }

    /// Whether the current state differs from the one last saved.
    pub fn modified(&self) -> bool {
        self.saved != Some(self.current)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(name: &str) -> Graph {
        Graph {
            name: Some(name.into()),
            ..Graph::new()
        }
    }

    #[test]
    fn undo_redo_and_merged_drags() {
        let mut h = History::default();
        h.record(&named("a"), None);
        h.record(&named("b"), Some("n.frequency".into()));
        h.record(&named("b2"), Some("n.frequency".into())); // same drag: merged
        let now = named("c");
        let back = h.undo(&now).unwrap();
        assert_eq!(back, named("b"));
        assert_eq!(h.undo(&back).unwrap(), named("a"));
        assert!(h.undo(&named("a")).is_none());
        assert_eq!(h.redo(&named("a")).unwrap(), named("b"));
        assert_eq!(h.redo(&named("b")).unwrap(), now);
        assert!(h.redo(&now).is_none());
    }

    #[test]
    fn undoing_back_to_the_saved_state_is_unmodified() {
        let mut h = History::default();
        assert!(!h.modified(), "as loaded");
        h.record(&named("loaded"), None);
        assert!(h.modified());
        h.undo(&named("edited")).unwrap();
        assert!(!h.modified(), "undone back to the file");
        h.redo(&named("loaded")).unwrap();
        assert!(h.modified());

        // Saved after two drag frames: more of the same drag is a new state, and undo
        // returns to the saved one.
        h.record(&named("e1"), Some("n.x".into()));
        h.record(&named("e2"), Some("n.x".into()));
        h.mark_saved();
        assert!(!h.modified());
        h.record(&named("saved"), Some("n.x".into()));
        assert!(h.modified(), "dragged on after the save");
        assert_eq!(h.undo(&named("later")).unwrap(), named("saved"));
        assert!(!h.modified());

        // A new edit after undoing past the save cannot reach it again.
        h.undo(&named("saved")).unwrap();
        h.record(&named("branch"), None);
        assert!(h.modified());
        h.undo(&named("branched")).unwrap();
        assert!(h.modified(), "the saved state was undone, then replaced");

        h.mark_unsaved();
        h.redo(&named("x"));
        assert!(h.modified());
    }
}
