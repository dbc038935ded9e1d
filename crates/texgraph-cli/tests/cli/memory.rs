//! Running short of memory is an error message, never an abort: under an address-space
//! limit (`ulimit -v`) and a cgroup memory limit (a container's), a render either
//! succeeds or says how much it needs, with exit code 2 and nothing written.
#![cfg(target_os = "linux")]

use crate::common::{Unavailable, example, not_tested};

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

/// A memory cgroup made for a test, removed when dropped (its processes have ended by
/// then).
struct Cgroup {
    dir: PathBuf,
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// A new memory cgroup limited to `limit` bytes, where the core looks for limits: under
/// this process's own group in the v1 memory hierarchy (/sys/fs/cgroup/memory), or, on
/// the unified (v2) hierarchy, a child of its root (/sys/fs/cgroup), as a group that
/// holds processes cannot give its children a memory controller.
fn memory_cgroup(limit: u64) -> Result<Cgroup, Unavailable> {
    let failed = |what: &str, e: std::io::Error| Unavailable::Failed(format!("{what}: {e}"));
    let name = format!("texgraph-test-{}", std::process::id());
    // "#subsys_name hierarchy num_cgroups enabled": hierarchy 0 is the unified one.
    let controllers = std::fs::read_to_string("/proc/cgroups")
        .map_err(|e| Unavailable::Lacking(format!("no /proc/cgroups: {e}")))?;
    let hierarchy = controllers.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        (fields.first() == Some(&"memory") && fields.get(3) == Some(&"1"))
            .then(|| fields.get(1).copied())
            .flatten()
    });
    let Some(hierarchy) = hierarchy else {
        return Err(Unavailable::Lacking(
            "the kernel has no memory cgroup controller, or it is disabled".into(),
        ));
    };
    let (group, limit_file) = if hierarchy != "0" {
        // v1: the memory controller's own hierarchy.
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| failed("reading /proc/self/cgroup", e))?;
        let path = texgraph_core::memory::cgroup_paths(&own).1.ok_or_else(|| {
            Unavailable::Failed(format!("no v1 memory group in /proc/self/cgroup: {own}"))
        })?;
        let parent = Path::new("/sys/fs/cgroup/memory").join(path.trim_start_matches('/'));
        if !parent.join("memory.limit_in_bytes").is_file() {
            return Err(Unavailable::Failed(format!(
                "memory is a v1 controller, but {} is not its group",
                parent.display()
            )));
        }
        (parent.join(name), "memory.limit_in_bytes")
    } else {
        // v2: the memory controller must be given to the root's children.
        let root = Path::new("/sys/fs/cgroup");
        let available = std::fs::read_to_string(root.join("cgroup.controllers"))
            .map_err(|e| failed("/sys/fs/cgroup is no cgroup2 hierarchy", e))?;
        if !available.split_whitespace().any(|c| c == "memory") {
            return Err(Unavailable::Failed(format!(
                "the unified hierarchy has no memory controller (it has: {})",
                available.trim()
            )));
        }
        let subtree = root.join("cgroup.subtree_control");
        let given = std::fs::read_to_string(&subtree)
            .map_err(|e| failed("reading cgroup.subtree_control", e))?;
        if !given.split_whitespace().any(|c| c == "memory") {
            std::fs::write(&subtree, "+memory")
                .map_err(|e| failed("enabling memory in cgroup.subtree_control", e))?;
        }
        (root.join(name), "memory.max")
    };
    std::fs::create_dir(&group).map_err(|e| failed(&format!("making {}", group.display()), e))?;
    let group = Cgroup { dir: group };
    std::fs::write(group.dir.join(limit_file), limit.to_string())
        .map_err(|e| failed(&format!("writing {limit_file}"), e))?;
    Ok(group)
}

#[test]
fn cgroup_memory_limits_are_honoured() {
    // Over a cgroup limit the kernel does not fail an allocation: it kills the process.
    // Only the check before rendering can turn that into an error.
    let group = match memory_cgroup(300 << 20) {
        Ok(group) => group,
        Err(why) => return not_tested("a render under a cgroup memory limit", why),
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
        // The shell moves itself into the group, then becomes texgraph; it says which
        // group it is in first, so that a move that did not happen is seen.
        let script = format!(
            "echo $$ > '{}' && cat /proc/self/cgroup >&2 && exec '{}' render '{}' -o x.png --size {size}",
            group.dir.join("cgroup.procs").display(),
            texgraph().display(),
            example(graph).display(),
        );
        let output = Command::new("sh")
            .args(["-c", &script])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let what = format!("{graph} at {size}² in a 300 MiB cgroup");
        // /proc/self/cgroup's lines ("4:memory:/…", "0::/…") start with a digit;
        // texgraph's with "error:" or "warning:".
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let (groups, said): (Vec<&str>, Vec<&str>) = stderr
            .lines()
            .partition(|l| l.starts_with(|c: char| c.is_ascii_digit()));
        let name = group.dir.file_name().unwrap().to_string_lossy();
        assert!(
            groups.iter().any(|l| l.ends_with(&format!("/{name}"))),
            "{what}: the render did not run in the group: {stderr}"
        );
        let output = Output {
            stderr: said
                .iter()
                .map(|l| format!("{l}\n"))
                .collect::<String>()
                .into_bytes(),
            ..output
        };
        assert_eq!(
            assert_done_or_refused(&what, dir.path(), &output),
            expected,
            "{what}"
        );
    }
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
