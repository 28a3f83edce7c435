//! CPU time of the calling thread.
//!
//! Wall-clock time says little on a shared machine: the portfolio reports each engine's CPU
//! time, which is what an engine really cost and what stays comparable between a loaded and
//! a quiet run.

use std::time::Duration;

/// CPU time consumed so far by the calling thread (`None` where the platform has no
/// per-thread clock).
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec and the clock id is a constant.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 && ts.tv_sec >= 0 && ts.tv_nsec >= 0 {
            return Some(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32));
        }
        None
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_cpu_time_advances_with_work() {
        let Some(t0) = thread_cpu_time() else { return };
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        let t1 = thread_cpu_time().unwrap();
        assert!(t1 > t0);
    }
}
