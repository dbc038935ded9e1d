//! Undo and redo over whole-graph snapshots (graphs are small; a snapshot is exact).

use texgraph_core::Graph;

/// Past and undone states of the document.
#[derive(Debug, Default)]
pub struct History {
    undo: Vec<Graph>,
    redo: Vec<Graph>,
    /// The key of the last edit, so that a run of edits to one param (a slider drag) is
    /// one undo step.
    last_key: Option<String>,
}

/// How many steps are kept.
const LIMIT: usize = 500;

impl History {
    /// Records `before`, the graph as it was before an edit. Consecutive edits with the
    /// same `key` (one param being dragged) merge into one step.
    pub fn record(&mut self, before: &Graph, key: Option<String>) {
        if key.is_some() && key == self.last_key {
            return;
        }
        self.last_key = key;
        self.undo.push(before.clone());
        if self.undo.len() > LIMIT {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Ends the current merge run (the next edit is a step of its own).
    pub fn seal(&mut self) {
        self.last_key = None;
    }

    /// The state before the last step, given the current one.
    pub fn undo(&mut self, current: &Graph) -> Option<Graph> {
        let previous = self.undo.pop()?;
        self.redo.push(current.clone());
        self.last_key = None;
        Some(previous)
    }

    /// The state the last undo left, given the current one.
    pub fn redo(&mut self, current: &Graph) -> Option<Graph> {
        let next = self.redo.pop()?;
        self.undo.push(current.clone());
        self.last_key = None;
        Some(next)
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
}
