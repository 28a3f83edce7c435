//! Measuring memory, and ending a run cleanly when it runs out.
//!
//! Two meters, one answer ([`usage`]):
//! - [`CountingAlloc`], installed by a binary as its `#[global_allocator]`, counts the bytes
//!   live on the heap exactly, at the cost of one relaxed atomic add per allocation;
//! - otherwise the resident set size from `/proc/self/statm`, re-read at most every few
//!   milliseconds so polling it in a loop stays cheap.
//!
//! Polling a soft limit in every loop ([`crate::Control::should_stop`]) turns most memory
//! exhaustion into an ordinary `unknown`. A single allocation can still jump far past the limit,
//! and without any limit the operating system can refuse memory; Rust's answer to a failed
//! allocation is to abort the process. [`CountingAlloc`] therefore also enforces a *hard* limit
//! ([`set_hard_limit`]) and catches allocations the system refuses: instead of aborting, it calls
//! the emergency handler registered with [`set_emergency_handler`], which must not allocate
//! (the CLI's handler writes `unknown` with raw `write(2)` calls and exits).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static COUNTING: AtomicBool = AtomicBool::new(false);
static HARD_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static HANDLER: AtomicUsize = AtomicUsize::new(0);
static IN_EMERGENCY: AtomicBool = AtomicBool::new(false);

/// A global allocator that counts live heap bytes (see the module docs). Install it with
/// `#[global_allocator] static A: cove_control::memory::CountingAlloc = CountingAlloc;`.
pub struct CountingAlloc;

/// What the emergency handler is told: the size of the allocation that could not be served.
pub type EmergencyHandler = fn(requested: usize) -> !;

#[inline]
fn on_alloc(size: usize) -> bool {
    let live = LIVE.fetch_add(size, Ordering::Relaxed) + size;
    if live > PEAK.load(Ordering::Relaxed) {
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
    if !COUNTING.load(Ordering::Relaxed) {
        COUNTING.store(true, Ordering::Relaxed);
    }
    live <= HARD_LIMIT.load(Ordering::Relaxed)
}

#[cold]
fn emergency(requested: usize) -> ! {
    // A handler that allocates would come back here; the flag makes that an abort instead of
    // an endless recursion.
    if IN_EMERGENCY.swap(true, Ordering::SeqCst) {
        std::process::abort();
    }
    let h = HANDLER.load(Ordering::SeqCst);
    if h != 0 {
        // SAFETY: only `set_emergency_handler` stores into HANDLER, and it stores a valid
        // `EmergencyHandler` function pointer.
        let f: EmergencyHandler = unsafe { std::mem::transmute::<usize, EmergencyHandler>(h) };
        f(requested)
    }
    std::process::abort()
}

// SAFETY: every method forwards to `System` with the same layout and only adds bookkeeping.
unsafe impl GlobalAlloc for CountingAlloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !on_alloc(layout.size()) && !IN_EMERGENCY.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            emergency(layout.size());
        }
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            emergency(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !on_alloc(layout.size()) && !IN_EMERGENCY.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            emergency(layout.size());
        }
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            emergency(layout.size());
        }
        p
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded with the caller's pointer and layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !on_alloc(new_size - old) && !IN_EMERGENCY.load(Ordering::Relaxed) {
            LIVE.fetch_sub(new_size - old, Ordering::Relaxed);
            emergency(new_size);
        }
        // SAFETY: forwarded with the caller's pointer, layout and size.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            if new_size > old {
                LIVE.fetch_sub(new_size - old, Ordering::Relaxed);
            }
            emergency(new_size);
        }
        if new_size < old {
            LIVE.fetch_sub(old - new_size, Ordering::Relaxed);
        }
        p
    }
}

/// Bytes live on the heap, if [`CountingAlloc`] is the global allocator (and has served an
/// allocation), else `None`.
pub fn counted_bytes() -> Option<u64> {
    COUNTING
        .load(Ordering::Relaxed)
        .then(|| LIVE.load(Ordering::Relaxed) as u64)
}

/// The largest number of live heap bytes seen by [`CountingAlloc`], if it is installed.
pub fn peak_counted_bytes() -> Option<u64> {
    COUNTING
        .load(Ordering::Relaxed)
        .then(|| PEAK.load(Ordering::Relaxed) as u64)
}

static RSS_CACHE: AtomicU64 = AtomicU64::new(0);
static RSS_STAMP: AtomicU64 = AtomicU64::new(0);

fn epoch() -> Instant {
    use std::sync::OnceLock;
    static E: OnceLock<Instant> = OnceLock::new();
    *E.get_or_init(Instant::now)
}

/// The resident set size of this process in bytes, from `/proc/self/statm` (0 where that
/// file does not exist). Re-read at most every 5 ms.
pub fn resident_bytes() -> u64 {
    let now = epoch().elapsed().as_micros() as u64 + 1;
    let stamp = RSS_STAMP.load(Ordering::Relaxed);
    if stamp != 0 && now.saturating_sub(stamp) < 5_000 {
        return RSS_CACHE.load(Ordering::Relaxed);
    }
    let v = read_statm().unwrap_or(0);
    RSS_CACHE.store(v, Ordering::Relaxed);
    RSS_STAMP.store(now, Ordering::Relaxed);
    v
}

fn read_statm() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = s.split_whitespace().nth(1)?.parse().ok()?;
    // SAFETY: sysconf has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    Some(pages * if page > 0 { page as u64 } else { 4096 })
}

/// Memory in use by this process: live heap bytes when [`CountingAlloc`] is installed, else
/// the resident set size.
pub fn usage() -> u64 {
    counted_bytes().unwrap_or_else(resident_bytes)
}

/// Hands memory the allocator holds but no longer uses back to the system.
///
/// Why: glibc's allocator keeps what a thread freed in that thread's arena, so after a
/// portfolio entry ends, its hundreds of megabytes stay resident (and count against a
/// container's or a competition's memory limit, which measure resident memory) although
/// the heap is small again. Called when an engine's run ends; a no-op elsewhere than on
/// glibc.
pub fn release_free() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's arenas to the system;
    // it takes no pointers and is thread-safe.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Sets the hard limit (live heap bytes) above which [`CountingAlloc`] calls the emergency
/// handler instead of allocating. Has no effect without [`CountingAlloc`].
pub fn set_hard_limit(bytes: u64) {
    HARD_LIMIT.store(
        usize::try_from(bytes).unwrap_or(usize::MAX),
        Ordering::Relaxed,
    );
}

/// Registers the function [`CountingAlloc`] calls when an allocation passes the hard limit or
/// is refused by the system. It must not allocate and must not return normally.
pub fn set_emergency_handler(h: EmergencyHandler) {
    HANDLER.store(h as usize, Ordering::SeqCst);
}

/// Writes `bytes` to a file descriptor without allocating (for emergency handlers).
pub fn raw_write(fd: i32, bytes: &[u8]) {
    let mut rest = bytes;
    while !rest.is_empty() {
        // SAFETY: the pointer and length describe a live slice.
        let n = unsafe { libc::write(fd, rest.as_ptr().cast(), rest.len()) };
        if n <= 0 {
            return;
        }
        rest = &rest[n as usize..];
    }
}

/// Ends the process at once with `code`, without running destructors or allocating.
pub fn raw_exit(code: i32) -> ! {
    // SAFETY: `_exit` has no preconditions and does not return.
    unsafe { libc::_exit(code) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn resident_size_is_measured() {
        assert!(super::resident_bytes() > 0);
        assert!(super::usage() > 0);
    }
}
