//! No lost work: unsaved edits are kept in a recovery file and offered after a crash
//! (however the writer ended, whatever runs under its process id since, and in an editor
//! that is running already); a save that fails keeps the graph, unsaved, with the reason
//! in the status bar.

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant, SystemTime};

use egui_kittest::kittest::Queryable;
use texgraph_core::{Graph, ParamValue};
use texgraph_editor::command::Command;
use texgraph_editor::recovery::{self, Autosave, INTERVAL, RESCAN, Watch};

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

    // An editor with autosave on, edited and then ended without closing: dropped, its
    // lock released as by a kill.
    let (edited, left) = {
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
        (h.state().graph.clone(), store)
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
    assert!(!left.exists() && !left.with_extension("lock").exists());

    // Saving it removes the recovery copy; the file has the edit.
    let store = h.state().autosave.store().unwrap().to_owned();
    assert!(
        store.exists(),
        "the restored work is this editor's recovery copy now"
    );
    // Kept as unsaved work: a second crash offers it again as unsaved.
    let copy: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&store).unwrap()).unwrap();
    assert_eq!(copy["modified"], serde_json::Value::Bool(true));
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
    // Named as older editors named it, after a process that has ended (pids this large
    // are not in use).
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

/// Set for the copy of this test binary that
/// [`an_edit_undone_back_to_the_saved_state_is_not_restored_after_a_kill`] starts: the
/// folder of the graph it edits.
const UNDOER: &str = "TEXGRAPH_TEST_RECOVERY_UNDOER";

/// Not a test of its own: the editor process that
/// [`an_edit_undone_back_to_the_saved_state_is_not_restored_after_a_kill`] starts and
/// kills. It edits marble.json in its folder until the recovery copy is written, undoes
/// the edit back to the saved state, says so with a file `undone`, and waits to be killed.
/// Run without [`UNDOER`] set, it does nothing.
#[test]
fn undoer_process() {
    let Some(dir) = std::env::var_os(UNDOER).map(PathBuf::from) else {
        return;
    };
    let mut h = harness(&dir.join("marble.json"));
    h.state_mut().autosave = Autosave::in_folder(&dir.join("state"));
    set_frequency(&mut h, 5.5);
    let store = h.state().autosave.store().unwrap().to_owned();
    let deadline = Instant::now() + INTERVAL + Duration::from_secs(20);
    while !store.exists() {
        assert!(Instant::now() < deadline, "no recovery file was written");
        std::thread::sleep(Duration::from_millis(100));
        h.run_steps(1);
    }
    h.state_mut().push(Command::Undo);
    h.run_steps(3);
    assert!(!h.state().modified, "undone back to the saved state");
    std::fs::write(dir.join("undone"), b"").unwrap();
    // Killed long before this ends.
    std::thread::sleep(Duration::from_secs(60));
}

#[test]
fn an_edit_undone_back_to_the_saved_state_is_not_restored_after_a_kill() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("marble.json");
    std::fs::copy(graph_path("marble.json"), &file).unwrap();
    let mut editor = Running(
        Process::new(std::env::current_exe().unwrap())
            .args(["--exact", "recovery::undoer_process", "--test-threads=1"])
            .env(UNDOER, dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let deadline = Instant::now() + INTERVAL + Duration::from_secs(60);
    while !dir.path().join("undone").exists() {
        assert!(
            editor.0.try_wait().unwrap().is_none(),
            "the editor ended before undoing (run `undoer_process` with {UNDOER} set to see why)"
        );
        assert!(Instant::now() < deadline, "the editor did not undo");
        std::thread::sleep(Duration::from_millis(50));
    }
    // kill -9, reaped: its lock is released as by a crash.
    editor.0.kill().unwrap();
    editor.0.wait().unwrap();
    let offered = recovery::left_behind(&dir.path().join("state"));
    assert!(
        offered.is_empty(),
        "nothing is unsaved, yet recovery offers {:?}",
        offered
            .iter()
            .map(|r| r.graph.node("turb").map(|n| n.params["frequency"].clone()))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(graph_path("marble.json")).unwrap()
    );
}

/// Set for the copy of this test binary that [`Writer`] starts: the folder it autosaves
/// into.
const WRITER: &str = "TEXGRAPH_TEST_RECOVERY_WRITER";

/// Not a test of its own: the body of the editor process that [`Writer`] starts (and
/// kills). Run without [`WRITER`] set, it does nothing.
#[test]
fn writer_process() {
    let Some(dir) = std::env::var_os(WRITER) else {
        return;
    };
    let wood = graph_path("wood.json");
    let mut autosave = Autosave::in_folder(Path::new(&dir));
    autosave.write_now(&Graph::load(&wood).unwrap(), Some(&wood), 1);
    // Killed long before this ends.
    std::thread::sleep(Duration::from_secs(60));
}

/// Another process autosaving unsaved work on wood.json into a folder, as an editor does:
/// a copy of this test binary running [`writer_process`]. Killed when dropped.
struct Writer {
    process: Running,
    /// Its recovery file.
    store: PathBuf,
}

impl Writer {
    /// Starts it and waits for its recovery file (its lock is taken before).
    fn start(dir: &Path) -> Self {
        let process = Running(
            Process::new(std::env::current_exe().unwrap())
                .args(["--exact", "recovery::writer_process", "--test-threads=1"])
                .env(WRITER, dir)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap(),
        );
        let prefix = format!("recovery-{}-", process.0.id());
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let store = std::fs::read_dir(dir).unwrap().flatten().find_map(|e| {
                let name = e.file_name().into_string().ok()?;
                (name.starts_with(&prefix) && name.ends_with(".json")).then(|| e.path())
            });
            if let Some(store) = store {
                return Self { process, store };
            }
            assert!(Instant::now() < deadline, "the writer wrote nothing");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// `kill -9`, and not reaped: its process stays, a zombie, until dropped.
    fn kill(&mut self) {
        self.process.0.kill().unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while process_state(self.process.0.id()) != Some('Z') {
            assert!(Instant::now() < deadline, "the writer did not end");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// A child process, killed and reaped when dropped (a failing test leaves none behind).
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The state letter of process `pid` (`Z`: a zombie), when it exists.
fn process_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat[stat.rfind(')')? + 1..].trim_start().chars().next()
}

/// A recovery file's text, for wood.json.
fn recovery_text() -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let wood = graph_path("wood.json");
    let mut autosave = Autosave::in_folder(dir.path());
    autosave.write_now(&Graph::load(&wood).unwrap(), Some(&wood), 1);
    std::fs::read(autosave.store().unwrap()).unwrap()
}

fn set_modified(path: &Path, time: SystemTime) {
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(time)
        .unwrap();
}

fn offered(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<_> = recovery::left_behind(dir)
        .into_iter()
        .map(|r| r.store)
        .collect();
    found.sort();
    found
}

#[test]
fn work_is_offered_while_its_writers_process_id_is_alive_in_another_program() {
    let dir = tempfile::tempdir().unwrap();
    let text = recovery_text();
    // A running process that is no editor: as if it had been given the pid of a killed one.
    let other = Running(Process::new("sleep").arg("30").spawn().unwrap());
    let pid = other.0.id();
    let an_hour_ago = SystemTime::now() - Duration::from_secs(3600);
    let file = |name: String, written: Option<SystemTime>| {
        let path = dir.path().join(name);
        std::fs::write(&path, &text).unwrap();
        if let Some(time) = written {
            set_modified(&path, time);
        }
        path
    };
    // Its lock file is there and no one holds it: its writer is gone.
    let unlocked = file(format!("recovery-{pid}-1.json"), None);
    std::fs::write(unlocked.with_extension("lock"), "").unwrap();
    // Without a lock file (an older editor's, or where locking failed), written before
    // that process started: that process is not its writer.
    let older_editor = file(format!("recovery-{pid}.json"), Some(an_hour_ago));
    let lockless = file(format!("recovery-{pid}-2.json"), Some(an_hour_ago));
    // Without a lock file and written since that process started: it may be its writer.
    std::thread::sleep(Duration::from_millis(200));
    file(format!("recovery-{pid}-3.json"), None);
    let mut expected = vec![unlocked, older_editor, lockless];
    expected.sort();
    assert_eq!(offered(dir.path()), expected);
    drop(other);
}

#[test]
fn work_of_a_writer_killed_and_not_yet_reaped_is_offered() {
    let dir = tempfile::tempdir().unwrap();
    let mut writer = Writer::start(dir.path());
    // Running, holding its lock: not offered.
    assert!(offered(dir.path()).is_empty());
    writer.kill();
    let pid = writer.process.0.id();
    assert_eq!(process_state(pid), Some('Z'), "its process id still exists");
    // An older editor's file of that pid too, written now: a zombie is not running.
    let older_editor = dir.path().join(format!("recovery-{pid}.json"));
    std::fs::write(&older_editor, recovery_text()).unwrap();
    let found = recovery::left_behind(dir.path());
    assert_eq!(found.len(), 2);
    let killed = found.iter().find(|r| r.store == writer.store).unwrap();
    assert_eq!(killed.graph, Graph::load(&graph_path("wood.json")).unwrap());
    assert!(killed.name().ends_with("wood.json"));
    assert!(found.iter().any(|r| r.store == older_editor));
}

#[test]
fn an_editor_killed_while_another_runs_has_its_work_offered_there() {
    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join("state");
    std::fs::create_dir(&state).unwrap();
    let mut h = harness(&graph_path("fbm.json"));
    h.state_mut().autosave = Autosave::in_folder(&state);
    h.state_mut().recovery_watch = Watch::in_folder(&state);
    h.run_steps(2);
    assert!(h.query_by_label("Restore unsaved work?").is_none());

    // Another editor starts, edits, and is killed; this one goes on.
    let mut writer = Writer::start(&state);
    h.run_steps(1);
    assert!(
        h.query_by_label("Restore unsaved work?").is_none(),
        "its editor runs"
    );
    writer.kill();
    let deadline = Instant::now() + RESCAN + Duration::from_secs(20);
    while h.query_by_label("Restore unsaved work?").is_none() {
        assert!(Instant::now() < deadline, "not offered without a restart");
        std::thread::sleep(Duration::from_millis(50));
        h.run_steps(1);
    }
    h.run_steps(2); // past its first frame, where egui sizes the window and takes no clicks
    h.get_by_label_contains("wood.json were kept");
    h.get_by_label("Restore").click();
    h.run_steps(3);
    let wood = Graph::load(&graph_path("wood.json")).unwrap();
    assert_eq!(h.state().graph.nodes, wood.nodes);
    assert!(h.state().modified);
    assert!(!writer.store.exists() && !writer.store.with_extension("lock").exists());

    // The restored work is this editor's own recovery copy now: never offered to it.
    let own = h.state().autosave.store().unwrap().to_owned();
    assert!(own.exists());
    let later = Instant::now() + RESCAN + Duration::from_millis(500);
    while Instant::now() < later {
        std::thread::sleep(Duration::from_millis(50));
        h.run_steps(1);
    }
    assert!(h.query_by_label("Restore unsaved work?").is_none());
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
