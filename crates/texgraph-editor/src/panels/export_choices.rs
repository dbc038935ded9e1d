//! What the export dialog remembers between exports: the size and format last chosen for
//! each graph and each kind of export (a still, an animation, a material's maps), so an
//! animation's small frames never become the next still's size, and each graph opens the
//! dialog as it was left for it.

use std::collections::HashMap;
use std::path::PathBuf;

/// The kinds of export that keep their own size and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExportKind {
    /// One image per output.
    Still,
    /// Frames over time.
    Animation,
    /// A material's maps through an export preset.
    Material,
}

/// The size and format (`F`, the dialog's format choice) chosen for one graph and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice<F> {
    /// Size preset, or `None` for the custom size.
    pub preset: Option<u32>,
    /// Custom width.
    pub width: u32,
    /// Custom height.
    pub height: u32,
    /// Format and depth.
    pub kind: F,
}

/// The choices by graph file (`None`: a graph not saved yet) and kind.
#[derive(Debug)]
pub struct Choices<F> {
    by: HashMap<(Option<PathBuf>, ExportKind), Choice<F>>,
    /// The graph and kind the dialog showed last.
    shown: Option<(Option<PathBuf>, ExportKind)>,
}

impl<F> Default for Choices<F> {
    fn default() -> Self {
        Self {
            by: HashMap::new(),
            shown: None,
        }
    }
}

impl<F: Copy> Choices<F> {
    /// Follows the dialog from `shown` to `now`: what it shows is kept for the graph and
    /// kind it showed, and what was kept for `now` comes back (`fresh` when nothing was).
    /// Returns the choice the dialog should show.
    pub fn follow(
        &mut self,
        now: (Option<PathBuf>, ExportKind),
        current: Choice<F>,
        fresh: Choice<F>,
    ) -> Choice<F> {
        let shown = self.shown.replace(now.clone());
        match shown {
            Some(before) if before != now => {
                self.by.insert(before, current);
                let choice = self.by.get(&now).copied().unwrap_or(fresh);
                self.by.insert(now, choice);
                choice
            }
            _ => {
                self.by.insert(now, current);
                current
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(side: u32) -> Choice<&'static str> {
        Choice {
            preset: Some(side),
            width: side,
            height: side,
            kind: "png",
        }
    }

    #[test]
    fn each_graph_and_kind_keeps_its_own_size() {
        let mut choices = Choices::default();
        let a = Some(PathBuf::from("a.json"));
        let b = Some(PathBuf::from("b.json"));
        let fresh = choice(1024);
        // A still of a at 2048, then an animation of a at 256.
        assert_eq!(
            choices.follow((a.clone(), ExportKind::Still), choice(2048), fresh),
            choice(2048)
        );
        assert_eq!(
            choices.follow((a.clone(), ExportKind::Animation), choice(2048), fresh),
            fresh
        );
        assert_eq!(
            choices.follow((a.clone(), ExportKind::Animation), choice(256), fresh),
            choice(256)
        );
        // Back to a still: 2048 again, not the animation's 256.
        assert_eq!(
            choices.follow((a.clone(), ExportKind::Still), choice(256), fresh),
            choice(2048)
        );
        // Another graph starts fresh; coming back to a finds a as it was.
        assert_eq!(
            choices.follow((b.clone(), ExportKind::Still), choice(2048), fresh),
            fresh
        );
        assert_eq!(
            choices.follow((b, ExportKind::Still), choice(512), fresh),
            choice(512)
        );
        assert_eq!(
            choices.follow((a, ExportKind::Still), choice(512), fresh),
            choice(2048)
        );
    }
}
