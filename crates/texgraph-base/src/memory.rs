//! How much memory this process may still take: the least of the machine's available
//! memory, the headroom of its cgroup (a container's or a service's memory limit), and
//! the headroom of its address-space limit (`ulimit -v`, `RLIMIT_AS`). A render is
//! refused up front when it would not fit, and the buffers it allocates are allocated
//! fallibly, so running short is an error message, never an abort.

use std::sync::atomic::{AtomicBool, Ordering};

/// Address space each worker thread takes beyond the work it does: its stack and guard
/// page, and (unless [`fit_allocator_to_address_limit`] capped them) the malloc arena
/// glibc gives a busy thread, which reserves 64 MiB.
pub fn thread_address_space() -> u64 {
    const STACK: u64 = 4 << 20;
    const ARENA: u64 = 64 << 20;
    if ARENAS_CAPPED.load(Ordering::Relaxed) {
        STACK
    } else {
        STACK + ARENA
    }
}

static ARENAS_CAPPED: AtomicBool = AtomicBool::new(false);

/// Under an address-space limit (`ulimit -v`), asks glibc's malloc to share two arenas
/// between all threads instead of reserving 64 MiB of address space for each busy one,
/// which would exhaust a modest limit with a few threads and no real memory used.
/// Programs call this once at start, before their threads; without a limit it does
/// nothing.
pub fn fit_allocator_to_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if address_space_headroom().is_some() {
        // SAFETY: mallopt only changes malloc's tuning; M_ARENA_MAX takes a count.
        if unsafe { libc::mallopt(libc::M_ARENA_MAX, 2) } == 1 {
            ARENAS_CAPPED.store(true, Ordering::Relaxed);
        }
    }
}

/// What limits this process's memory right now, each as the bytes still free under it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Headroom {
    /// The machine's available memory (`MemAvailable`).
    pub machine: Option<u64>,
    /// The tightest cgroup memory limit over this process, less the group's usage.
    pub cgroup: Option<u64>,
    /// `RLIMIT_AS` less the address space in use.
    pub address_space: Option<u64>,
}

impl Headroom {
    /// Reads the limits of this process.
    pub fn of_this_process() -> Self {
        Self {
            machine: read("/proc/meminfo").and_then(|t| mem_available(&t)),
            cgroup: cgroup_headroom(),
            address_space: address_space_headroom(),
        }
    }

    /// Bytes that a render on `threads` threads may allocate: the least headroom, with
    /// each thread's own address space taken from the address-space limit.
    pub fn for_threads(&self, threads: usize) -> Option<u64> {
        let threads_space = thread_address_space().saturating_mul(threads as u64);
        let address_space = self
            .address_space
            .map(|free| free.saturating_sub(threads_space));
        [self.machine, self.cgroup, address_space]
            .into_iter()
            .flatten()
            .min()
    }
}

fn read(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok()
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
pub fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The cgroup folders of this process, from a `/proc/self/cgroup` text: the unified (v2)
/// hierarchy's path, then a v1 memory controller's.
pub fn cgroup_paths(proc_cgroup: &str) -> (Option<String>, Option<String>) {
    let mut unified = None;
    let mut memory_v1 = None;
    for line in proc_cgroup.lines() {
        let mut fields = line.splitn(3, ':');
        let (Some(_), Some(controllers), Some(path)) =
            (fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if controllers.is_empty() {
            unified = Some(path.to_owned());
        } else if controllers.split(',').any(|c| c == "memory") {
            memory_v1 = Some(path.to_owned());
        }
    }
    (unified, memory_v1)
}

/// A cgroup limit file's value: bytes, or `None` for "max" (no limit) and nonsense.
pub fn limit_value(text: &str) -> Option<u64> {
    let value: u64 = text.trim().parse().ok()?;
    // v1 writes "no limit" as a huge page-rounded number.
    (value < 1 << 60).then_some(value)
}

/// The least `limit − usage` over this process's cgroup and its ancestors.
fn cgroup_headroom() -> Option<u64> {
    let (unified, memory_v1) = cgroup_paths(&read("/proc/self/cgroup")?);
    let mut best: Option<u64> = None;
    let mut consider = |root: &str, path: &str, limit: &str, usage: &str| {
        let mut folder = std::path::PathBuf::from(root);
        folder.push(path.trim_start_matches('/'));
        // Limits of enclosing groups apply too.
        for dir in folder.ancestors().take_while(|d| d.starts_with(root)) {
            let text = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
            let Some(max) = text(limit).as_deref().and_then(limit_value) else {
                continue;
            };
            let used = text(usage)
                .and_then(|u| u.trim().parse::<u64>().ok())
                .unwrap_or(0);
            let free = max.saturating_sub(used);
            best = Some(best.map_or(free, |b| b.min(free)));
        }
    };
    if let Some(path) = unified {
        consider("/sys/fs/cgroup", &path, "memory.max", "memory.current");
    }
    if let Some(path) = memory_v1 {
        consider(
            "/sys/fs/cgroup/memory",
            &path,
            "memory.limit_in_bytes",
            "memory.usage_in_bytes",
        );
    }
    best
}

/// `RLIMIT_AS` less this process's address space (`VmSize`), when there is a limit.
#[cfg(target_os = "linux")]
fn address_space_headroom() -> Option<u64> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given and nothing else.
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
        || limit.rlim_cur == libc::RLIM_INFINITY
    {
        return None;
    }
    let in_use = read("/proc/self/status").and_then(|t| vm_size(&t))?;
    Some(limit.rlim_cur.saturating_sub(in_use))
}

#[cfg(not(target_os = "linux"))]
fn address_space_headroom() -> Option<u64> {
    None
}

/// `VmSize` of a `/proc/self/status` text, in bytes.
pub fn vm_size(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmSize:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The bytes this process can still allocate on one thread, when that is fewer than
/// `needed`: a caller about to allocate `needed` bytes refuses instead, since a failed
/// allocation aborts the process. `None` when `needed` fits or nothing limits it.
pub fn short_of(needed: u64) -> Option<u64> {
    Headroom::of_this_process()
        .for_threads(1)
        .filter(|&room| needed > room)
}

/// `items` collected into a vector reserved up front for `len` of them, or `None` when
/// the memory is not there.
pub fn try_collect<T>(len: usize, items: impl IntoIterator<Item = T>) -> Option<Vec<T>> {
    let mut buffer = Vec::new();
    buffer.try_reserve_exact(len).ok()?;
    buffer.extend(items.into_iter().take(len));
    Some(buffer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_texts_are_read() {
        let meminfo =
            "MemTotal:       24000000 kB\nMemFree:        1000 kB\nMemAvailable:   2048 kB\n";
        assert_eq!(mem_available(meminfo), Some(2048 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        let status = "Name:\ttexgraph\nVmPeak:\t  9000 kB\nVmSize:\t    4096 kB\n";
        assert_eq!(vm_size(status), Some(4096 * 1024));
    }

    #[test]
    fn cgroup_files_are_read() {
        assert_eq!(
            cgroup_paths("0::/system.slice/render.service\n"),
            (Some("/system.slice/render.service".to_owned()), None)
        );
        let v1 = "12:pids:/x\n7:memory:/docker/abc\n1:name=systemd:/docker/abc\n";
        assert_eq!(cgroup_paths(v1), (None, Some("/docker/abc".to_owned())));
        assert_eq!(
            cgroup_paths("9:cpu,memory:/a\n0::/b\n").1.as_deref(),
            Some("/a")
        );
        assert_eq!(limit_value("max\n"), None);
        assert_eq!(limit_value("536870912\n"), Some(512 << 20));
        assert_eq!(limit_value("9223372036854771712"), None);
    }

    #[test]
    fn the_tightest_limit_wins_and_threads_take_address_space() {
        let room = Headroom {
            machine: Some(20 << 30),
            cgroup: Some(2 << 30),
            address_space: Some(1 << 30),
        };
        let thread = thread_address_space();
        assert_eq!(room.for_threads(1), Some((1 << 30) - thread));
        assert_eq!(room.for_threads(8), Some((1 << 30) - 8 * thread));
        assert_eq!(room.for_threads(300), Some(0));
        let unlimited = Headroom {
            machine: Some(20 << 30),
            ..Headroom::default()
        };
        assert_eq!(unlimited.for_threads(64), Some(20 << 30));
        assert_eq!(Headroom::default().for_threads(4), None);
    }

    #[test]
    fn this_process_has_some_headroom() {
        // Whatever the machine, the process can take at least a few megabytes.
        let room = Headroom::of_this_process().for_threads(1);
        assert!(room.is_none_or(|bytes| bytes > 4 << 20), "{room:?}");
    }

    #[test]
    fn impossible_buffers_are_none() {
        assert!(try_collect(usize::MAX / 2, std::iter::repeat(0u8)).is_none());
        assert!(try_collect(usize::MAX / 8, std::iter::repeat(1.0f32)).is_none());
        assert_eq!(try_collect(3, std::iter::repeat(7u16)), Some(vec![7, 7, 7]));
        assert_eq!(try_collect(2, [1, 2, 3]), Some(vec![1, 2]));
    }
}
