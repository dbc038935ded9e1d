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
        stdout.contains("3 of 3 jobs done, 3 files written, 0 failed"),
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
        stderr.contains("error: job 1") && stderr.contains("m_2.png"),
        "{stderr}"
    );
    assert!(d.join("m_1.png").is_file() && d.join("m_3.png").is_file());
}
