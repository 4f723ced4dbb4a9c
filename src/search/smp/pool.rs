//! The Lazy SMP helper threads, started once and kept between searches (Stockfish's
//! `ThreadPool`): a search hands its helpers to threads that already exist instead of spawning
//! them. With more threads than cores the helpers take turns ([`Turns`]), so that the main
//! thread always has a core: it reads the clock and `stop`, and answers on time.

use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{JoinHandle, Thread};

/// The most threads one search may use (`Threads`' bound). Beyond the cores the helpers take
/// turns and the search still starts and stops on time (`tests/engine_limits.rs` holds 256 threads
/// to it on two cores); each thread costs its stack and its move-ordering tables.
pub const MAX_THREADS: usize = 512;

/// Nodes a helper searches in one turn when the helpers outnumber the cores left to them.
pub(in crate::search) const TURN_NODES: u64 = 16 * 1024;

/// Stack of each helper thread: the search recurses as deep as the main thread's.
const HELPER_STACK_BYTES: usize = 64 << 20;

/// The helper threads for searches of `threads()` threads: the caller's own thread is the main
/// one, so `threads - 1` helpers (none for one thread). Each sleeps on its own inbox between
/// searches, so that an idle pool costs nothing and a search wakes exactly its helpers (a
/// work-stealing pool's idle threads spin, which with hundreds of them starved the main thread).
#[derive(Default)]
pub struct HelperPool {
    helpers: Vec<Helper>,
    /// Helpers that may search at once: the cores the main thread leaves (at least one).
    seats: usize,
}

/// One helper thread and its inbox.
struct Helper {
    inbox: Arc<Inbox>,
    thread: Option<JoinHandle<()>>,
}

/// What a helper thread is asked to do.
enum Letter {
    Run(Box<dyn FnOnce() + Send>),
    /// The pool is dropped: the thread ends.
    Quit,
}

#[derive(Default)]
struct Inbox {
    letter: Mutex<Option<Letter>>,
    arrived: Condvar,
}

impl Inbox {
    fn post(&self, letter: Letter) {
        *self.letter.lock().unwrap_or_else(PoisonError::into_inner) = Some(letter);
        self.arrived.notify_one();
    }

    fn serve(&self) {
        loop {
            let mut slot = self.letter.lock().unwrap_or_else(PoisonError::into_inner);
            while slot.is_none() {
                slot = self.arrived.wait(slot).unwrap_or_else(PoisonError::into_inner);
            }
            match slot.take() {
                Some(Letter::Run(job)) => {
                    drop(slot);
                    job();
                }
                Some(Letter::Quit) | None => return,
            }
        }
    }
}

/// How many helpers of a search are still running; waited for before the search returns.
#[derive(Default)]
struct Running {
    count: Mutex<usize>,
    finished: Condvar,
}

impl Running {
    fn finish(&self) {
        let mut n = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        *n -= 1;
        if *n == 0 {
            self.finished.notify_all();
        }
    }

    fn wait(&self) {
        let mut n = self.count.lock().unwrap_or_else(PoisonError::into_inner);
        while *n > 0 {
            n = self.finished.wait(n).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Waits for a search's helpers when dropped, so that they never outlive what they borrow, even
/// when the main thread unwinds.
struct JoinOnDrop<'a>(&'a Running);

impl Drop for JoinOnDrop<'_> {
    fn drop(&mut self) {
        self.0.wait();
    }
}

impl HelperPool {
    /// A pool for searches of `threads` threads (1 to [`MAX_THREADS`]); an error when the system
    /// will not start them.
    pub fn new(threads: usize) -> Result<Self, String> {
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(format!("threads must be from 1 to {MAX_THREADS}"));
        }
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        let mut pool = HelperPool { helpers: Vec::new(), seats: cores.saturating_sub(1).max(1) };
        for i in 1..threads {
            let inbox = Arc::new(Inbox::default());
            let served = inbox.clone();
            let thread = std::thread::Builder::new()
                .name(format!("tessera-helper-{i}"))
                .stack_size(HELPER_STACK_BYTES)
                .spawn(move || served.serve())
                .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
            pool.helpers.push(Helper { inbox, thread: Some(thread) });
        }
        Ok(pool)
    }

    /// Threads a search uses: the helpers and the caller's own.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Runs `helper(t)` on helper `t` (from 1) while `main` runs on the caller's thread, and
    /// returns `main`'s answer once every helper is done. A helper that panics is only done.
    pub(in crate::search) fn run<R>(&self, helper: &(dyn Fn(usize) + Sync), main: impl FnOnce() -> R) -> R {
        let running = Arc::new(Running { count: Mutex::new(self.helpers.len()), finished: Condvar::new() });
        let join = JoinOnDrop(&running);
        // SAFETY: the jobs hold `helper` only while they run, and `join` waits for every job to
        // finish before this function returns or unwinds, so `helper` outlives every use.
        let helper: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(helper) };
        for (t, h) in (1..).zip(&self.helpers) {
            let running = running.clone();
            h.inbox.post(Letter::Run(Box::new(move || {
                let _ = catch_unwind(AssertUnwindSafe(|| helper(t)));
                running.finish();
            })));
        }
        let answer = main();
        drop(join);
        answer
    }

    /// Turns for this pool's helpers when they outnumber the cores the main thread leaves them.
    pub(in crate::search) fn turns(&self) -> Option<Turns> {
        (self.helpers.len() > self.seats).then(|| Turns::new(self.seats))
    }
}

impl Drop for HelperPool {
    fn drop(&mut self) {
        for h in &self.helpers {
            h.inbox.post(Letter::Quit);
        }
        for h in &mut self.helpers {
            if let Some(thread) = h.thread.take() {
                let _ = thread.join();
            }
        }
    }
}

/// Seats for the helpers that may search at once: a helper searches only while it holds one, and
/// every [`TURN_NODES`] nodes hands it to the helper that has waited longest. The main thread
/// needs no seat. A seat is handed to one waiting thread, which alone is woken.
pub(in crate::search) struct Turns {
    state: Mutex<TurnState>,
}

struct TurnState {
    free: usize,
    /// The helpers waiting for a seat, longest first.
    queue: VecDeque<Waiter>,
    /// The search is over: no more turns, every waiting helper goes home.
    closed: bool,
}

/// A waiting helper and the answer it is woken with.
struct Waiter {
    thread: Thread,
    answer: Arc<AtomicU8>,
}

const WAITING: u8 = 0;
const SEATED: u8 = 1;
const CLOSED: u8 = 2;

impl Turns {
    fn new(seats: usize) -> Self {
        Turns { state: Mutex::new(TurnState { free: seats, queue: VecDeque::new(), closed: false }) }
    }

    fn lock(&self) -> MutexGuard<'_, TurnState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for a seat; false once the search is over.
    pub fn take(&self) -> bool {
        let mut s = self.lock();
        if s.closed {
            return false;
        }
        if s.free > 0 && s.queue.is_empty() {
            s.free -= 1;
            return true;
        }
        Self::wait_in(s)
    }

    /// Hands the seat on if a helper waits for one, then waits for the next; false once the
    /// search is over.
    pub fn pass(&self) -> bool {
        let mut s = self.lock();
        if s.closed {
            return false;
        }
        let Some(next) = s.queue.pop_front() else { return true };
        next.wake(SEATED);
        Self::wait_in(s)
    }

    /// Joins the queue and sleeps until seated (true) or the search is closed (false).
    fn wait_in(mut s: MutexGuard<'_, TurnState>) -> bool {
        let answer = Arc::new(AtomicU8::new(WAITING));
        s.queue.push_back(Waiter { thread: std::thread::current(), answer: answer.clone() });
        drop(s);
        loop {
            match answer.load(Ordering::Acquire) {
                WAITING => std::thread::park(),
                a => return a == SEATED,
            }
        }
    }

    /// A helper is done with its seat.
    pub fn leave(&self) {
        let mut s = self.lock();
        match s.queue.pop_front() {
            Some(next) => next.wake(SEATED),
            None => s.free += 1,
        }
    }

    /// The search is over: every helper waiting for a seat stops.
    pub fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        for waiter in s.queue.drain(..) {
            waiter.wake(CLOSED);
        }
    }

    #[cfg(test)]
    fn waiting(&self) -> usize {
        self.lock().queue.len()
    }
}

impl Waiter {
    fn wake(self, answer: u8) {
        self.answer.store(answer, Ordering::Release);
        self.thread.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_counts_the_callers_thread() {
        assert_eq!(HelperPool::new(1).unwrap().threads(), 1);
        assert_eq!(HelperPool::new(3).unwrap().threads(), 3);
        assert!(HelperPool::new(0).is_err());
        assert!(HelperPool::new(MAX_THREADS + 1).is_err());
    }

    #[test]
    fn every_helper_runs_once_per_search_and_a_panic_ends_only_its_job() {
        let pool = HelperPool::new(4).unwrap();
        for _ in 0..3 {
            let seen = Mutex::new(Vec::new());
            let answer = pool.run(
                &|t| {
                    seen.lock().unwrap().push(t);
                    assert_ne!(t, 2, "a helper that panics");
                },
                || 7,
            );
            let mut seen = seen.into_inner().unwrap();
            seen.sort_unstable();
            assert_eq!((answer, seen), (7, vec![1, 2, 3]));
        }
    }

    #[test]
    fn turns_pass_a_seat_only_to_a_waiting_helper_and_end_when_closed() {
        let turns = Turns::new(1);
        assert!(turns.take());
        // Nobody waits: the seat is kept.
        assert!(turns.pass());
        std::thread::scope(|s| {
            let waiter = s.spawn(|| turns.take());
            while turns.waiting() == 0 {
                std::thread::yield_now();
            }
            // The waiter gets the seat, then this helper waits until the search is closed.
            let passer = s.spawn(|| turns.pass());
            assert!(waiter.join().unwrap());
            while turns.waiting() == 0 {
                std::thread::yield_now();
            }
            turns.close();
            assert!(!passer.join().unwrap());
        });
        assert!(!turns.take());
    }
}
