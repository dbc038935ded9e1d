//! The menu of a connection: a right-click on a wire offers to take it off or to put a
//! node in it, as Substance's and Blender's wire menus do.

use eframe::egui::{self, Id, Key, Pos2};

use super::EditorApp;
use super::commands::Applied;
use crate::command::{Command, DroppedWire};

/// The open menu of one connection.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct WireMenu {
    /// The source (`node` or `node.port`).
    from: String,
    /// The node fed.
    node: String,
    /// Its input.
    port: String,
    /// Where it was right-clicked, on screen.
    screen: Pos2,
    /// The same point on the canvas: where an inserted node goes.
    at: Pos2,
}

impl EditorApp {
    /// Opens the menu of the connection into `node`'s `port` from `from`, where the
    /// pointer is.
    pub(super) fn open_wire_menu(&mut self, from: String, node: String, port: String) -> Applied {
        let ctx = &self.window.ctx;
        let screen = ctx
            .input(|i| i.pointer.interact_pos())
            .unwrap_or(self.canvas.canvas_rect.center());
        let layer = egui::LayerId::new(egui::Order::Background, self.canvas_id());
        let at = ctx
            .layer_transform_to_global(layer)
            .map_or(screen, |to_screen| to_screen.inverse() * screen);
        self.canvas.wire_menu = Some(WireMenu {
            from,
            node,
            port,
            screen,
            at,
        });
        Applied::Nothing
    }

    /// Draws the open wire menu; a choice, a click elsewhere or Escape closes it.
    pub(super) fn wire_menu(&mut self, ctx: &egui::Context) {
        let Some(menu) = self.canvas.wire_menu.clone() else {
            return;
        };
        let shown = egui::Area::new(Id::new("wire_menu"))
            .order(egui::Order::Foreground)
            .fixed_pos(menu.screen)
            .show(ctx, |ui| {
                egui::Frame::menu(ui.style())
                    .show(ui, |ui| {
                        // The input as the canvas names it (an output's usage).
                        let port = crate::subgraphs::pin_label(&self.graph, &menu.node, &menu.port);
                        ui.weak(texgraph_core::text::printable(&format!(
                            "{} into {}.{port}",
                            menu.from, menu.node
                        )));
                        if ui.button("Disconnect").clicked() {
                            return Some(Command::Disconnect {
                                to: menu.node.clone(),
                                port: menu.port.clone(),
                            });
                        }
                        if ui
                            .button("Insert node…")
                            .on_hover_text("a node chosen in the palette goes into this wire")
                            .clicked()
                        {
                            return Some(Command::OpenWirePalette {
                                at: menu.at,
                                screen: menu.screen,
                                wire: DroppedWire::Between {
                                    from: menu.from.clone(),
                                    node: menu.node.clone(),
                                    port: menu.port.clone(),
                                },
                            });
                        }
                        None
                    })
                    .inner
            });
        let outside = ctx.input(|i| {
            i.pointer.any_pressed()
                && i.pointer
                    .interact_pos()
                    .is_some_and(|p| !shown.response.rect.contains(p))
        });
        if let Some(command) = shown.inner {
            self.commands.push(command);
            self.canvas.wire_menu = None;
        } else if outside || ctx.input(|i| i.key_pressed(Key::Escape)) {
            self.canvas.wire_menu = None;
        }
    }
}
