//! Running short of memory is an error message, never an abort: under an address-space
//! limit (`ulimit -v`) and a cgroup memory limit (a container's), a render either
//! succeeds or says how much it needs, with exit code 2 and nothing written.
#![cfg(target_os = "linux")]

use crate::common::example;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs `cmd` under an address-space limit (`ulimit -v`) of `mib` MiB.
fn limit_address_space(cmd: &mut Command, mib: u64) {
    let limit = libc::rlimit {
        rlim_cur: mib << 20,
        rlim_max: mib << 20,
    };
    // SAFETY: setrlimit is async-signal-safe and touches only the child's limits.
    unsafe {
        cmd.pre_exec(move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

fn texgraph() -> PathBuf {
    assert_cmd::cargo::cargo_bin("texgraph")
}

/// Checks one run: success with the file written, or exit 2 with a memory error and
/// nothing written; never a signal, a panic or an allocator abort.
fn assert_done_or_refused(what: &str, dir: &Path, output: &Output) -> bool {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("panicked") && !stderr.contains("memory allocation"),
        "{what}: {stderr}"
    );
    match output.status.code() {
        Some(0) => {
            assert!(dir.join("x.png").is_file(), "{what}");
            true
        }
        Some(2) => {
            assert!(stderr.starts_with("error: "), "{what}: {stderr}");
            assert!(stderr.contains("memory"), "{what}: {stderr}");
            let left: Vec<_> = std::fs::read_dir(dir).unwrap().collect();
            assert!(left.is_empty(), "{what}: left {left:?}");
            false
        }
        _ => panic!("{what}: ended with {:?}: {stderr}", output.status),
    }
}

#[test]
fn address_space_limits_give_errors_not_aborts() {
    // (limit MiB, threads, size, graph, must it render?)
    let cases = [
        (300, 1, 1024, "marble.json", Some(true)),
        (300, 8, 1024, "marble.json", Some(true)),
        // Streamed in bands: a few MiB whatever the size.
        (300, 8, 4096, "marble.json", Some(true)),
        (300, 64, 2048, "marble.json", None),
        // A flood fill labels its whole mask: 1.75 GiB of shapes at 8192².
        (300, 1, 8192, "cobblestones.json", Some(false)),
        (700, 8, 4096, "marble.json", Some(true)),
        (700, 256, 4096, "marble.json", None),
        (700, 8, 4096, "eroded_terrain.json", None),
        (700, 2, 16384, "cobblestones.json", Some(false)),
        (1500, 16, 8192, "marble_slab.json", None),
    ];
    for (mib, threads, size, graph, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let mut cmd = Command::new(texgraph());
        cmd.current_dir(dir.path())
            .args(["render", example(graph).to_str().unwrap(), "-o", "x.png"])
            .args([
                "--size",
                &size.to_string(),
                "--threads",
                &threads.to_string(),
            ]);
        limit_address_space(&mut cmd, mib);
        let what = format!("{graph} at {size}² on {threads} threads under {mib} MiB");
        let rendered = assert_done_or_refused(&what, dir.path(), &cmd.output().unwrap());
        if let Some(expected) = expected {
            assert_eq!(rendered, expected, "{what}");
        }
    }
}

/// A new memory cgroup under this process's own (v1), or `None` where cgroups cannot be
/// made (no permission, no v1 memory controller).
fn memory_cgroup(limit: u64) -> Option<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| {
        let mut f = l.splitn(3, ':');
        let (_, controllers, path) = (f.next()?, f.next()?, f.next()?);
        controllers
            .split(',')
            .any(|c| c == "memory")
            .then(|| path.to_owned())
    })?;
    let group = Path::new("/sys/fs/cgroup/memory")
        .join(path.trim_start_matches('/'))
        .join(format!("texgraph-test-{}", std::process::id()));
    std::fs::create_dir(&group).ok()?;
    if std::fs::write(group.join("memory.limit_in_bytes"), limit.to_string()).is_err() {
        let _ = std::fs::remove_dir(&group);
        return None;
    }
    Some(group)
}

#[test]
fn cgroup_memory_limits_are_honoured() {
    // Over a cgroup limit the kernel does not fail an allocation: it kills the process.
    // Only the check before rendering can turn that into an error.
    let Some(group) = memory_cgroup(300 << 20) else {
        eprintln!("no memory cgroup can be made here; the cgroup limit is not tested");
        return;
    };
    // Marble streams in bands at any size; a flood fill (cobblestones) is whole.
    let cases = [
        ("marble.json", 1024, true),
        ("marble.json", 4096, true),
        ("cobblestones.json", 4096, false),
        ("cobblestones.json", 8192, false),
    ];
    for (graph, size, expected) in cases {
        let dir = tempfile::tempdir().unwrap();
        let script = format!(
            "echo $$ > '{}' && exec '{}' render '{}' -o x.png --size {size}",
            group.join("cgroup.procs").display(),
            texgraph().display(),
            example(graph).display(),
        );
        let output = Command::new("sh")
            .args(["-c", &script])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let what = format!("{graph} at {size}² in a 300 MiB cgroup");
        assert_eq!(
            assert_done_or_refused(&what, dir.path(), &output),
            expected,
            "{what}"
        );
    }
    let _ = std::fs::remove_dir(&group);
}

#[test]
fn an_image_too_large_for_the_memory_limit_is_refused_before_decoding() {
    let dir = tempfile::tempdir().unwrap();
    let photo =
        image::ImageBuffer::<image::Luma<u16>, _>::from_pixel(4096, 4096, image::Luma([30000]));
    photo.save(dir.path().join("big.png")).unwrap();
    std::fs::write(
        dir.path().join("g.json"),
        r#"{ "format": "texgraph", "version": 1, "nodes": [
            { "id": "photo", "type": "image", "params": { "path": "big.png" } },
            { "id": "out", "type": "output", "inputs": { "color": "photo" } } ] }"#,
    )
    .unwrap();
    for (mib, command) in [(300u64, "render"), (300, "validate"), (400, "render")] {
        let mut cmd = Command::new(texgraph());
        cmd.current_dir(dir.path()).args([command, "g.json"]);
        if command == "render" {
            cmd.args(["-o", "x.png", "--size", "64"]);
        }
        limit_address_space(&mut cmd, mib);
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            !stderr.contains("memory allocation") && output.status.code().is_some(),
            "{command} under {mib} MiB: {stderr}"
        );
        assert!(
            stderr.contains("node 'photo', field 'path'")
                && stderr.contains("big.png is 4096x4096; reading it needs about 512 MiB"),
            "{command} under {mib} MiB: {stderr}"
        );
        assert!(!dir.path().join("x.png").exists());
    }
}
