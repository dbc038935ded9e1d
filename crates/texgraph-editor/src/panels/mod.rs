//! The editor's panels. Each draws the state it is handed and says what the user asked
//! for as [`crate::command::Command`]s (or, for the dialogs, as a request the app starts);
//! none applies an edit to the graph itself.

pub mod ball_view;
pub mod canvas;
pub mod comments;
pub mod export_choices;
pub mod export_dialog;
pub mod formula_field;
pub mod inspector;
pub mod library;
pub mod library_thumbnails;
pub mod preview;
