//! Running work on a thread with a large stack.
//!
//! Input terms can be nested hundreds of thousands of levels deep. The hot passes walk terms
//! with explicit stacks; the remaining recursive passes (and code written later) are protected
//! by running a whole run on a thread whose stack is large enough for any term that fits in
//! memory in practice. Thread stacks are reserved, not committed: the pages are only touched as
//! deep as the recursion goes.

/// Stack size for [`with_large_stack`]: 1 GiB of reserved address space.
pub const LARGE_STACK: usize = 1 << 30;

/// Runs `f` on a fresh thread with a stack of [`LARGE_STACK`] bytes and returns its result.
/// A panic in `f` is resumed on the caller's thread. If no such thread can be created (an
/// address-space limit), progressively smaller stacks are tried, and finally `f` runs on the
/// caller's thread.
pub fn with_large_stack<R: Send, F: FnOnce() -> R + Send>(f: F) -> R {
    // The closure waits in a cell: a thread that cannot be created drops the closure handed to
    // `spawn_scoped`, which only takes it out of the cell once it runs.
    let cell = std::sync::Mutex::new(Some(f));
    let take = || cell.lock().ok().and_then(|mut c| c.take());
    let mut size = LARGE_STACK;
    let ran = std::thread::scope(|scope| {
        while size >= 16 << 20 {
            let builder = std::thread::Builder::new()
                .name("cove-work".into())
                .stack_size(size);
            match builder.spawn_scoped(scope, || take().map(|g| g())) {
                Ok(handle) => {
                    return match handle.join() {
                        Ok(r) => r,
                        Err(p) => std::panic::resume_unwind(p),
                    };
                }
                Err(_) => size /= 4,
            }
        }
        None
    });
    match ran {
        Some(r) => r,
        None => (take().expect("the closure runs exactly once"))(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            1 + std::hint::black_box(depth(n - 1))
        }
    }

    #[test]
    fn deep_recursion_fits() {
        assert_eq!(with_large_stack(|| depth(1_000_000)), 1_000_000);
    }

    #[test]
    fn panics_are_resumed() {
        let r = std::panic::catch_unwind(|| with_large_stack(|| panic!("boom")));
        assert!(r.is_err());
    }
}
