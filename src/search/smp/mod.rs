//! Lazy SMP: the iterative deepening of a search by a main thread and helper threads over one
//! transposition table (`threads`), the helper threads kept between searches (`pool`), and the
//! deferral of moves another thread is searching (`abdada`).

pub(super) mod abdada;
pub(super) mod pool;
mod threads;

pub use pool::{HelperPool, MAX_THREADS};
pub use threads::think;
