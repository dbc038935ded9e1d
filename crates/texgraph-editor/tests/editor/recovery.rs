//! No lost work: unsaved edits are kept in a recovery file and offered after a crash; a
//! save that fails keeps the graph, unsaved, with the reason in the status bar.

use std::path::Path;
use std::time::{Duration, Instant};

use egui_kittest::kittest::Queryable;
use texgraph_core::{Graph, ParamValue};
use texgraph_editor::app::Command;
use texgraph_editor::recovery::{self, Autosave, INTERVAL};


use crate::common::*;

fn set_frequency(h: &mut egui_kittest::Harness<'_, texgraph_editor::app::EditorApp>, f: f64) {
    h.state_mut().push(Command::SetParam {
        node: "turb".into(),
        param: "frequency".into(),
        value: ParamValue::Number(f),
    });
    h.run_steps(2);
}

#[test]
fn unsaved_edits_survive_a_crash_and_are_restored() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    let file = dir.path().join("marble.json");
    std::fs::copy(graph_path("marble.json"), &file).unwrap();

    // An editor with autosave on, edited and then "killed": dropped without closing.
    let edited = {
        let mut h = harness(&file);
        h.state_mut().autosave = Autosave::in_folder(&state);
        set_frequency(&mut h, 5.5);
        let store = h.state().autosave.store().unwrap().to_owned();
        assert!(!store.exists(), "written only after {INTERVAL:?}");
        let deadline = Instant::now() + INTERVAL + Duration::from_secs(20);
        while !store.exists() {
            assert!(Instant::now() < deadline, "no recovery file was written");
            std::thread::sleep(Duration::from_millis(100));
            h.run_steps(1);
        }
        // As if its process had ended: the file is named after a pid not running.
        std::fs::rename(&store, state.join("recovery-4000000000.json")).unwrap();
        h.state().graph.clone()
    };
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(graph_path("marble.json")).unwrap(),
        "the graph's own file is untouched"
    );

    // The next start offers it; Restore brings the edit back, still unsaved.
    let mut h = harness(&graph_path("fbm.json"));
    h.state_mut().autosave = Autosave::in_folder(&state);
    h.state_mut().recoveries = recovery::left_behind(&state);
    h.run_steps(2);
    h.get_by_label_contains("Unsaved changes to");
    h.get_by_label("Restore").click();
    h.run_steps(3);
    let app = h.state();
    assert_eq!(app.graph.nodes, edited.nodes);
    assert_eq!(app.path.as_deref(), Some(file.as_path()));
    assert!(app.modified, "restored work is not saved yet");
    assert!(app.status.starts_with("restored the unsaved changes to"));
    assert!(!state.join("recovery-4000000000.json").exists());

    // Saving it removes the recovery copy; the file has the edit.
    let store = h.state().autosave.store().unwrap().to_owned();
    assert!(
        store.exists(),
        "the restored work is this editor's recovery copy now"
    );
    h.state_mut().push(Command::Save(None));
    h.run_steps(2);
    assert!(!h.state().modified);
    assert!(!store.exists());
    let saved = Graph::load(&file).unwrap();
    assert_eq!(
        saved.node("turb").unwrap().params["frequency"],
        ParamValue::Number(5.5)
    );
}

#[test]
fn discarding_recovered_work_removes_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut autosave = Autosave::in_folder(dir.path());
    autosave.write_now(&Graph::load(&graph_path("wood.json")).unwrap(), None, 1);
    let gone = dir.path().join("recovery-4000000002.json");
    std::fs::rename(autosave.store().unwrap(), &gone).unwrap();
    let mut h = harness(&graph_path("fbm.json"));
    let before = h.state().graph.clone();
    h.state_mut().recoveries = recovery::left_behind(dir.path());
    h.run_steps(2);
    h.get_by_label_contains("an untitled graph");
    h.get_by_label("Discard").click();
    h.run_steps(2);
    assert!(!gone.exists());
    assert_eq!(h.state().graph, before);
    assert!(h.state().recoveries.is_empty());
}

/// Saves to `target` and checks the save failed: the graph kept, marked unsaved, the
/// reason in the status bar, nothing left beside the target.
fn assert_save_fails(target: &Path, words: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marble.json");
    std::fs::copy(graph_path("marble.json"), &file).unwrap();
    let mut h = harness(&file);
    set_frequency(&mut h, 3.25);
    let graph = h.state().graph.clone();
    h.state_mut().push(Command::Save(Some(target.to_owned())));
    h.run_steps(2);
    let app = h.state();
    assert!(
        app.modified,
        "{target:?}: a failed save leaves the graph unsaved"
    );
    assert_eq!(app.graph, graph);
    assert_eq!(
        app.path.as_deref(),
        Some(file.as_path()),
        "still the old file"
    );
    assert!(app.status.starts_with("error: "), "{}", app.status);
    assert!(app.status.contains(words), "{}", app.status);
}

#[test]
fn a_failing_save_keeps_the_graph_unsaved_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    // A file where a folder should be.
    let blocker = dir.path().join("not_a_folder");
    std::fs::write(&blocker, "x").unwrap();
    assert_save_fails(&blocker.join("g.json"), "not_a_folder");
    // The folder was deleted under the editor.
    let deleted = dir.path().join("deleted");
    std::fs::create_dir(&deleted).unwrap();
    std::fs::remove_dir(&deleted).unwrap();
    assert_save_fails(&deleted.join("g.json"), "deleted");
    // A folder in the way of the file.
    let folder = dir.path().join("folder.json");
    std::fs::create_dir(&folder).unwrap();
    assert_save_fails(&folder, "a folder is in the way");
}
