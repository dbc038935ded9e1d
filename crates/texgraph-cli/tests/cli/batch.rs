//! `texgraph batch`: manifests expanded into jobs, shards that partition them, files the
//! bytes of `texgraph render`'s, and bad manifests refused with the field named.

use crate::common::{example, run_in};

fn write_manifest(dir: &std::path::Path, json: &str) {
    std::fs::write(dir.join("m.json"), json).unwrap();
}

fn listed(dir: &std::path::Path, extra: &[&str]) -> Vec<String> {
    let out = run_in(dir, &[&["batch", "m.json", "--list"][..], extra].concat()).success();
    String::from_utf8_lossy(&out.get_output().stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn shards_partition_the_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let marble = example("marble.json");
    let terrain = example("eroded_terrain.json");
    write_manifest(
        dir.path(),
        &format!(
            r#"{{ "jobs": [
              {{ "graph": {marble:?}, "seeds": {{ "from": 0, "count": 7 }}, "sizes": [32, "40x20"], "name": "{{graph}}_{{seed}}_{{size}}.png" }},
              {{ "graph": {terrain:?}, "sizes": [64], "tiles": "3x2", "outputs": "all", "format": "exr", "name": "t_{{col}}_{{row}}_{{output}}.{{ext}}" }} ] }}"#
        ),
    );
    let all = listed(dir.path(), &[]);
    // 7 seeds × 2 sizes, then 6 tiles × 3 outputs.
    assert_eq!(all.len(), 14 + 18, "{all:?}");
    for n in [1, 2, 3, 5, 40] {
        let mut union: Vec<String> = Vec::new();
        for i in 0..n {
            let shard = listed(dir.path(), &["--shard", &format!("{i}/{n}")]);
            for line in &shard {
                assert!(!union.contains(line), "{line} is in two shards of {n}");
            }
            union.extend(shard);
        }
        union.sort();
        let mut expected = all.clone();
        expected.sort();
        assert_eq!(union, expected, "the shards of {n} are the batch");
    }
    for bad in ["3/3", "0/0", "1", "a/2"] {
        run_in(dir.path(), &["batch", "m.json", "--shard", bad]).code(2);
    }
}

#[test]
fn batch_files_are_the_bytes_of_render() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marble = example("marble.json");
    let slab = example("marble_slab.json");
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graph": {marble:?}, "sets": [{{ "veins.frequency": 5 }}], "seeds": [3], "sizes": ["70x50"], "depth": 16, "name": "b/{{graph}}_{{seed}}.png" }},
                           {{ "graph": {slab:?}, "sizes": ["70x50"], "tiles": "2x1", "format": "exr", "name": "b/tile{{tile}}.{{ext}}" }} ] }}"#
        ),
    );
    let out = run_in(d, &["batch", "m.json"]).success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("3 of 3 jobs done (0 up to date), 3 files written, 0 failed"),
        "{stdout}"
    );
    // Seed 3 moves every seed param on by 3: marble's turbulence has seed 7.
    let marble = marble.to_str().unwrap();
    let render = [
        "render",
        marble,
        "--size",
        "70x50",
        "--depth",
        "16",
        "--set",
        "veins.frequency=5",
    ];
    run_in(
        d,
        &[&render[..], &["--set", "turb.seed=10", "-o", "r.png"]].concat(),
    )
    .success();
    let batch = std::fs::read(d.join("b/marble_3.png")).unwrap();
    assert!(std::fs::read(d.join("r.png")).unwrap() == batch);
    run_in(d, &[&render[..], &["-o", "seed0.png"]].concat()).success();
    assert!(
        std::fs::read(d.join("seed0.png")).unwrap() != batch,
        "the seed changed it"
    );
    // Tiles stitch into the render (a graph of subgraphs).
    run_in(d, &["stitch", "b/tile0.exr", "b/tile1.exr", "-o", "s.exr"]).success();
    run_in(
        d,
        &[
            "render",
            slab.to_str().unwrap(),
            "--size",
            "70x50",
            "-o",
            "w.exr",
        ],
    )
    .success();
    assert!(std::fs::read(d.join("s.exr")).unwrap() == std::fs::read(d.join("w.exr")).unwrap());
}

#[test]
fn bad_manifests_are_refused_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marble = example("marble.json");
    let (wood, bricks) = (example("wood.json"), example("brick_wall.json"));
    let cases = [
        (
            r#"{ "jobs": [ { "graph": "nope.json" } ] }"#.to_owned(),
            vec!["jobs[0]", "nope.json"],
        ),
        (
            format!(
                r#"{{ "jobs": [ {{ "graph": {marble:?}, "sets": [{{ "veins.nope": 1 }}] }} ] }}"#
            ),
            vec!["jobs[0]", "field 'sets', entry 0", "no param 'nope'"],
        ),
        (
            format!(
                r#"{{ "jobs": [ {{ "graph": {marble:?}, "name": "{{graph}}_{{colour}}.png" }} ] }}"#
            ),
            vec!["field 'name'", "unknown placeholder {colour}"],
        ),
        (
            format!(
                r#"{{ "jobs": [ {{ "graph": {marble:?}, "seeds": [1, 2], "name": "x.png" }} ] }}"#
            ),
            vec!["both write 'x.png'", "{seed}"],
        ),
        (
            format!(
                r#"{{ "jobs": [ {{ "graphs": [{marble:?}, {wood:?}], "name": "h/{{graph}}/../x.png" }} ] }}"#
            ),
            vec!["jobs 0 and 1 both write", "h/x.png"],
        ),
        (
            format!(
                r#"{{ "jobs": [ {{ "graph": {marble:?}, "name": "p/./T_marble_BC.png" }},
                                {{ "graph": {bricks:?}, "preset": "unreal", "name": "p" }} ] }}"#
            ),
            vec![
                "job 0 writes",
                "p/T_marble_BC.png",
                "into 'p', the folder of job 1's preset files",
            ],
        ),
        (
            format!(r#"{{ "jobs": [ {{ "graph": {marble:?}, "outputs": ["rough"] }} ] }}"#),
            vec!["field 'outputs', entry 0", "no output named 'rough'"],
        ),
        (
            format!(r#"{{ "jobs": [ {{ "graph": {marble:?}, "sizes": [0] }} ] }}"#),
            vec!["field 'sizes', entry 0"],
        ),
        (
            format!(r#"{{ "jobs": [ {{ "graph": {marble:?}, "colour": 1 }} ] }}"#),
            vec!["unknown field 'colour'"],
        ),
        (r#"{ "jobs": 3 }"#.to_owned(), vec!["field 'jobs'"]),
        ("not json".to_owned(), vec!["m.json", "not valid JSON"]),
    ];
    for (json, words) in cases {
        write_manifest(d, &json);
        let out = run_in(d, &["batch", "m.json"]).code(2);
        let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
        assert!(stderr.starts_with("error: "), "{stderr}");
        for word in words {
            assert!(stderr.contains(word), "stderr lacks '{word}':\n{stderr}");
        }
    }
    assert_eq!(
        std::fs::read_dir(d).unwrap().count(),
        1,
        "nothing but the manifest"
    );
}

#[test]
fn a_failed_job_fails_the_batch_and_the_others_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marble = example("marble.json");
    // The second job's file is a folder: it cannot be written.
    std::fs::create_dir_all(d.join("m_2.png")).unwrap();
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graph": {marble:?}, "seeds": [1, 2, 3], "sizes": [16], "name": "m_{{seed}}.png" }} ] }}"#
        ),
    );
    let out = run_in(d, &["batch", "m.json"]).code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("error: m.json: jobs[0] (job 1, ") && stderr.contains("m_2.png"),
        "{stderr}"
    );
    assert!(d.join("m_1.png").is_file() && d.join("m_3.png").is_file());
}

#[test]
fn jobs_are_numbered_graph_set_seed_size_and_tile_in_that_order() {
    let dir = tempfile::tempdir().unwrap();
    let (marble, wood) = (example("marble.json"), example("wood.json"));
    write_manifest(
        dir.path(),
        &format!(
            r#"{{ "jobs": [
              {{ "graphs": [{marble:?}, {wood:?}], "sets": [{{}}, {{}}, {{}}], "seeds": [5, 9], "sizes": [16, "8x4"], "tiles": "2x3",
                 "name": "{{index}}_{{graph}}_{{set}}_{{seed}}_{{size}}_{{col}}_{{row}}_{{tile}}.png" }},
              {{ "graph": {marble:?}, "seeds": {{ "from": 4294967294, "count": 2 }}, "sizes": [2], "name": "{{index}}_{{seed}}.png" }} ] }}"#
        ),
    );
    let mut expected = Vec::new();
    for graph in ["marble", "wood"] {
        for set in 0..3 {
            for seed in [5, 9] {
                for size in ["16x16", "8x4"] {
                    for row in 0..3 {
                        for col in 0..2 {
                            let index = expected.len();
                            let tile = row * 2 + col;
                            expected.push(format!(
                                "{index}  {index}_{graph}_{set}_{seed}_{size}_{col}_{row}_{tile}.png"
                            ));
                        }
                    }
                }
            }
        }
    }
    for seed in [4294967294u32, 4294967295] {
        let index = expected.len();
        expected.push(format!("{index}  {index}_{seed}.png"));
    }
    assert_eq!(listed(dir.path(), &[]), expected);
    assert_eq!(
        listed(dir.path(), &["--shard", "100/143"]),
        [expected[100].clone()]
    );
}

/// Jobs are made one by one: a million of them are listed (and checked for names in
/// common) in bounded memory, and a count past the limit is refused before any is made.
#[test]
fn a_million_jobs_take_bounded_memory_and_more_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marble = example("marble.json");
    let texgraph = assert_cmd::cargo::cargo_bin("texgraph");
    let manifest = |count: u64| {
        write_manifest(
            d,
            &format!(
                r#"{{ "jobs": [ {{ "graph": {marble:?}, "seeds": {{ "from": 0, "count": {count} }}, "sizes": [16], "name": "o/{{seed}}.png" }} ] }}"#
            ),
        );
    };
    manifest(1_000_000);
    // Address space, not resident memory: 1 GiB holds the program and its threads' stacks.
    let out = assert_cmd::Command::new("sh")
        .current_dir(d)
        .arg("-c")
        .arg(format!(
            "ulimit -v 1048576 && exec {} batch m.json --list --shard 7/250000",
            texgraph.display()
        ))
        .timeout(std::time::Duration::from_secs(120))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        [
            "7  o/7.png",
            "250007  o/250007.png",
            "500007  o/500007.png",
            "750007  o/750007.png"
        ]
    );
    manifest(4_000_000_000);
    let out = run_in(d, &["batch", "m.json"]).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("m.json: jobs[0]") && stderr.contains("at most 1000000"),
        "{stderr}"
    );
    assert!(!d.join("o").exists());
}

/// An error names where it comes from: the manifest, the entry, the job and the graph.
#[test]
fn batch_errors_name_the_manifest_the_job_and_the_graph() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (marble, wood) = (example("marble.json"), example("wood.json"));
    // A file where a job's folder goes.
    std::fs::write(d.join("blocked"), "").unwrap();
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graph": {marble:?}, "seeds": [1, 2], "sizes": [16], "name": "{{seed}}/m.png" }},
                            {{ "graph": {marble:?}, "sizes": [16], "name": "blocked/m.png" }} ] }}"#
        ),
    );
    let out = run_in(d, &["batch", "m.json"]).code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("error: m.json: jobs[1] (job 2, ")
            && stderr.contains("marble.json): blocked: cannot make the folder"),
        "{stderr}"
    );
    assert!(d.join("1/m.png").is_file() && d.join("2/m.png").is_file());
    // A param one graph of several lacks.
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graphs": [{marble:?}, {wood:?}], "sets": [{{ "veins.frequency": 3 }}] }} ] }}"#
        ),
    );
    let out = run_in(d, &["batch", "m.json", "--list"]).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("m.json: jobs[0]: field 'sets', entry 0, on ")
            && stderr.contains("wood.json"),
        "{stderr}"
    );
}

/// A preset job names its files as `texgraph render --preset` does (`{graph}` is the
/// graph's name, not the folder's), writes the same bytes, and the summary counts every
/// file written, the glTF scene's included.
#[test]
fn a_preset_job_writes_what_render_writes_and_counts_it_all() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The graph's name (brick_wall) differs from its file's stem.
    std::fs::copy(example("brick_wall.json"), d.join("variant.json")).unwrap();
    write_manifest(
        d,
        r#"{ "jobs": [ { "graph": "variant.json", "sizes": [24], "preset": "gltf", "name": "sets/{graph}_{seed}" } ] }"#,
    );
    let out = run_in(d, &["batch", "m.json"]).success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    run_in(
        d,
        &[
            "render",
            "variant.json",
            "--size",
            "24",
            "--preset",
            "gltf",
            "-o",
            "one",
        ],
    )
    .success();
    let names = crate::common::entries(&d.join("one"));
    assert!(names.contains(&"brick_wall.gltf".to_owned()), "{names:?}");
    assert_eq!(crate::common::entries(&d.join("sets/variant_0")), names);
    for name in &names {
        assert!(
            std::fs::read(d.join("one").join(name)).unwrap()
                == std::fs::read(d.join("sets/variant_0").join(name)).unwrap(),
            "{name} differs"
        );
    }
    assert!(
        stdout.contains(&format!(
            "1 of 1 jobs done (0 up to date), {} files written",
            names.len()
        )),
        "{stdout}"
    );
}

/// The summary line's counts: (jobs done, up to date, files written).
fn summary_counts(stdout: &str) -> (usize, usize, usize) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("batch"))
        .unwrap_or_else(|| panic!("no summary in:\n{stdout}"));
    let number_before = |word: &str| -> usize {
        let at = line.find(word).unwrap_or_else(|| panic!("{line}"));
        line[..at]
            .split([' ', '('])
            .rev()
            .find(|w| !w.is_empty())
            .unwrap()
            .parse()
            .unwrap()
    };
    (
        number_before(" of "),
        number_before(" up to date"),
        number_before(" files written"),
    )
}

fn modified(path: &std::path::Path) -> std::time::SystemTime {
    std::fs::metadata(path).unwrap().modified().unwrap()
}

/// A batch run again renders nothing when nothing changed, and only the jobs of what
/// changed: a graph, an image a graph reads, a file deleted; `--force` renders all.
#[test]
fn a_batch_run_again_renders_only_what_changed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["marble.json", "wood.json", "image_blend.json"] {
        std::fs::copy(example(name), d.join(name)).unwrap();
    }
    std::fs::create_dir_all(d.join("images")).unwrap();
    for name in ["marble.png", "wood.png"] {
        std::fs::copy(example("images").join(name), d.join("images").join(name)).unwrap();
    }
    // 2 graphs × 99 seeds, and 2 jobs reading images: 200 jobs.
    write_manifest(
        d,
        r#"{ "jobs": [
          { "graphs": ["marble.json", "wood.json"], "seeds": { "from": 0, "count": 99 }, "sizes": [8], "name": "out/{graph}_{seed}.png" },
          { "graph": "image_blend.json", "sizes": [8, 9], "name": "out/blend_{size}.png" } ] }"#,
    );
    let run = |extra: &[&str]| {
        let out = run_in(d, &[&["batch", "m.json"][..], extra].concat()).success();
        summary_counts(&String::from_utf8_lossy(&out.get_output().stdout))
    };
    assert_eq!(run(&[]), (200, 0, 200));
    let marble_0 = d.join("out/marble_0.png");
    let before = modified(&marble_0);
    std::thread::sleep(std::time::Duration::from_millis(20));
    assert_eq!(run(&[]), (200, 200, 0), "nothing changed");
    assert_eq!(
        modified(&marble_0),
        before,
        "an up-to-date file is not rewritten"
    );
    // Named from another folder, or by an absolute path, the jobs are the same.
    std::fs::create_dir_all(d.join("elsewhere")).unwrap();
    let absolute = d.join("m.json");
    for manifest in ["../m.json", absolute.to_str().unwrap()] {
        let out = run_in(&d.join("elsewhere"), &["batch", manifest]).success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        assert_eq!(summary_counts(&stdout), (200, 200, 0), "{manifest}");
    }
    // One graph changed: its 99 jobs.
    let wood = std::fs::read_to_string(d.join("wood.json")).unwrap();
    std::fs::write(
        d.join("wood.json"),
        wood.replace("\"frequency\": 14", "\"frequency\": 15"),
    )
    .unwrap();
    assert_eq!(run(&[]), (200, 101, 99));
    assert_eq!(modified(&marble_0), before);
    // A graph touched but not changed: nothing.
    std::fs::write(
        d.join("wood.json"),
        std::fs::read(d.join("wood.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(run(&[]), (200, 200, 0));
    // An image the blend reads: its two jobs.
    std::fs::copy(example("images/marble.png"), d.join("images/wood.png")).unwrap();
    assert_eq!(run(&[]), (200, 198, 2));
    // A file deleted (or replaced by another of a different length): its job.
    std::fs::remove_file(d.join("out/marble_7.png")).unwrap();
    std::fs::write(d.join("out/marble_8.png"), "not the render").unwrap();
    assert_eq!(run(&[]), (200, 198, 2));
    assert!(modified(&marble_0) == before);
    assert_eq!(run(&["--force"]), (200, 0, 200));
    assert!(modified(&marble_0) != before);
}

/// A batch interrupted by Ctrl+C says what it did, leaves no temporary and no empty
/// folder, and run again renders only the jobs it had not finished.
#[test]
fn an_interrupted_batch_resumes_where_it_stopped() {
    use std::os::unix::process::ExitStatusExt;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let terrain = example("eroded_terrain.json");
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graph": {terrain:?}, "seeds": {{ "from": 0, "count": 24 }}, "sizes": [512], "outputs": "all", "name": "out/{{seed}}/{{output}}.png" }} ] }}"#
        ),
    );
    let stamps = |d: &std::path::Path| -> usize {
        (0..24)
            .filter(|seed| {
                d.join(format!("out/{seed}/.height.png.texgraph-stamp"))
                    .exists()
            })
            .count()
    };
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("texgraph"))
        .current_dir(d)
        .args(["batch", "m.json", "--threads", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while stamps(d) < 2 {
        assert!(started.elapsed().as_secs() < 120, "no job finished");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signalling a child this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.signal(), Some(libc::SIGINT), "{:?}", out.status);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(stdout.contains("batch interrupted: "), "{stdout}");
    let (done, _, _) = summary_counts(&stdout);
    let finished = stamps(d);
    assert!((2..24).contains(&finished), "{finished} jobs finished");
    // A job that ends in the instant between the summary and the exit is not counted.
    assert!(done == finished || done + 1 == finished, "{stdout}");
    // What is on disk: the finished jobs' folders, each whole, and nothing else (a job
    // whose files landed as the signal came has them all, and no stamp: it is redone).
    let folders = crate::common::entries(&d.join("out"));
    assert!(
        folders.len() == finished || folders.len() == finished + 1,
        "{folders:?}"
    );
    let outputs = ["color.png", "height.png", "normal.png"];
    for folder in &folders {
        let entries = crate::common::entries(&d.join("out").join(folder));
        if entries.len() == 4 {
            assert_eq!(entries[0], ".height.png.texgraph-stamp");
            assert_eq!(entries[1..], outputs);
        } else {
            assert_eq!(entries, outputs, "out/{folder}");
        }
    }
    let out = run_in(d, &["batch", "m.json"]).success();
    let counts = summary_counts(&String::from_utf8_lossy(&out.get_output().stdout));
    assert_eq!(counts, (24, finished, 3 * (24 - finished)));
}

/// Outside a terminal (a CI log), a batch says what each job does as it does it, as plain
/// lines or, with `--log-format json`, one JSON object a line, the summary last.
#[test]
fn a_batch_outside_a_terminal_logs_every_job() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let marble = example("marble.json");
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graph": {marble:?}, "seeds": [1, 2, 3], "sizes": [16], "name": "m_{{seed}}.png" }} ] }}"#
        ),
    );
    // stdout and stderr are pipes here, as on a build server.
    let out = run_in(d, &["batch", "m.json", "--threads", "1"]).success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    for job in 0..3 {
        let seed = job + 1;
        assert!(
            stdout.contains(&format!("job {job} started: "))
                && stdout.contains(&format!("m_{seed}.png")),
            "{stdout}"
        );
        assert!(
            stdout.contains(&format!("job {job} done: 1 file in ")),
            "{stdout}"
        );
    }
    assert!(
        stdout
            .lines()
            .last()
            .unwrap()
            .starts_with("batch: 3 of 3 jobs done")
    );
    let out = run_in(d, &["batch", "m.json", "--log-format", "json"]).success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let events: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["up_to_date", "up_to_date", "up_to_date", "summary"]);
    let summary = &events[3];
    assert_eq!(
        (
            &summary["jobs"],
            &summary["up_to_date"],
            &summary["done"],
            &summary["rendered"],
            &summary["failed"]
        ),
        (&3.into(), &3.into(), &3.into(), &0.into(), &0.into())
    );
    let out = run_in(d, &["batch", "m.json", "--log-format", "json", "--force"]).success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    let done: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "done")
        .collect();
    assert_eq!(done.len(), 3, "{stdout}");
    assert!(
        done.iter()
            .all(|e| e["files"] == 1 && e["seconds"].as_f64().unwrap() >= 0.0)
    );
}

/// A render outside a terminal that takes more than a second says how far it is at every
/// tenth, on stderr.
#[test]
fn a_long_render_outside_a_terminal_reports_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let terrain = example("eroded_terrain.json");
    let out = run_in(
        dir.path(),
        &[
            "render",
            terrain.to_str().unwrap(),
            "--size",
            "4096x2048",
            "--threads",
            "1",
            "-o",
            "t.png",
        ],
    )
    .success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(!lines.is_empty(), "no progress in two seconds and more");
    for line in &lines {
        assert!(
            line.starts_with("rendering: ") && line.contains("/2048 rows) in "),
            "{line}"
        );
        // The percentage is the rows': "rendering: 19% (402/2048 rows) in …".
        let percent: u64 = line["rendering: ".len()..line.find('%').unwrap()]
            .parse()
            .unwrap();
        let rows: u64 = line[line.find('(').unwrap() + 1..line.find('/').unwrap()]
            .parse()
            .unwrap();
        assert_eq!(percent, rows * 100 / 2048, "{line}");
    }
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("rendering: 100% (2048/2048 rows)"),
        "{stderr}"
    );
}

/// `presets` in a job and `--preset` given twice write each set from one render, the
/// bytes of each preset alone; `{preset}` names a set's folder, else each goes into a
/// folder of its name.
#[test]
fn several_presets_come_from_one_render_each_as_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bricks = example("brick_wall.json");
    let bricks = bricks.to_str().unwrap();
    write_manifest(
        d,
        &format!(
            r#"{{ "jobs": [ {{ "graph": {bricks:?}, "sizes": [20], "presets": ["unreal", "gltf"], "name": "by_name/{{preset}}" }},
                            {{ "graph": {bricks:?}, "sizes": [20], "presets": ["unreal", "gltf"], "name": "inside" }} ] }}"#
        ),
    );
    let listed = listed(d, &[]);
    assert_eq!(
        listed,
        [
            "0  by_name/unreal",
            "0  by_name/gltf",
            "1  inside/unreal",
            "1  inside/gltf"
        ]
    );
    run_in(d, &["batch", "m.json"]).success();
    let out = run_in(
        d,
        &[
            "render", bricks, "--size", "20", "--preset", "unreal", "--preset", "gltf", "-o", "cli",
        ],
    )
    .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(stdout.contains("presets 'unreal', 'gltf': "), "{stdout}");
    for name in ["unreal", "gltf"] {
        run_in(
            d,
            &[
                "render",
                bricks,
                "--size",
                "20",
                "--preset",
                name,
                "-o",
                &format!("alone_{name}"),
            ],
        )
        .success();
        let alone = d.join(format!("alone_{name}"));
        let files = crate::common::entries(&alone);
        for folder in [
            d.join("by_name").join(name),
            d.join("inside").join(name),
            d.join("cli").join(name),
        ] {
            assert_eq!(
                crate::common::entries(&folder),
                files,
                "{}",
                folder.display()
            );
            for file in &files {
                assert!(
                    std::fs::read(alone.join(file)).unwrap()
                        == std::fs::read(folder.join(file)).unwrap(),
                    "{} differs",
                    folder.join(file).display()
                );
            }
        }
    }
    // A preset named twice, or with `preset` too, is refused.
    write_manifest(
        d,
        &format!(r#"{{ "jobs": [ {{ "graph": {bricks:?}, "presets": ["gltf", "gltf"] }} ] }}"#),
    );
    let out = run_in(d, &["batch", "m.json"]).code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        stderr.contains("field 'presets', entry 1: 'gltf' is listed twice"),
        "{stderr}"
    );
}
