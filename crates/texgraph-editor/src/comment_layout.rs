//! Where comments stand on the canvas, in canvas units: their rectangles, which nodes
//! they hold (those move with them), and the comment that frames a set of nodes. The
//! document's layout and the comments panel both go by it.

use eframe::egui::{self, Pos2, Rect, Vec2};
use texgraph_core::Comment;

/// Height of a comment's title bar, in canvas units.
pub const TITLE_HEIGHT: f32 = 26.0;
/// Room left around the nodes a new comment frames.
const MARGIN: f32 = 30.0;

/// The comment's rectangle on the canvas.
pub fn rect(comment: &Comment) -> Rect {
    Rect::from_min_size(Pos2::from(comment.pos), Vec2::from(comment.size))
}

/// Whether a node at `pos` (its top-left corner) belongs to the comment: it moves with it.
pub fn holds(comment: &Comment, pos: [f32; 2]) -> bool {
    rect(comment).contains(Pos2::from(pos))
}

/// A comment framing the node rectangles `nodes` (around `fallback`, a canvas point, when
/// there are none).
pub fn framing(nodes: impl Iterator<Item = Rect>, fallback: Pos2) -> Comment {
    let rect = match nodes.reduce(|a, b| a.union(b)) {
        Some(b) => Rect::from_min_max(
            b.min - egui::vec2(MARGIN, MARGIN + TITLE_HEIGHT),
            b.max + egui::vec2(MARGIN, MARGIN),
        ),
        None => Rect::from_center_size(fallback, egui::vec2(320.0, 200.0)),
    };
    let mut comment = Comment::new(
        [rect.min.x.round(), rect.min.y.round()],
        [rect.width().round(), rect.height().round()],
    );
    comment.text = "Comment".to_owned();
    comment
}
