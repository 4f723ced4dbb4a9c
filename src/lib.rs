//! tessera: an engine for multi-player and three-dimensional chess variants.
//!
//! The public surface is what the executable, the tests and the benchmarks use: [`session`] (a
//! game and its position behind one width-independent interface: open a game by id, set
//! positions, list moves, search), [`games`] (the game ids, their rules and engine profiles),
//! [`protocol`] (the UCI-style text loop), [`search`] (limits and settings of a search, the
//! multi-player searches), [`eval`] (the evaluation's parameters), [`notation`] (position
//! strings), [`tt`] (the transposition table), [`selfplay`] (`tessera match`, `tessera tune`),
//! [`serve`] (the board in the browser) and [`bench`].
//!
//! Inside, layers one way, lowest first: `types` (cells, players, piece types), `bitboard`,
//! `geometry`, `movement` (piece components), `game` (definitions), `moves` (men and moves),
//! `tables` and `registry` (derived per game), `position` with `attacks` and `movegen`,
//! `notation`, `eval`, `tt`, `search`, `session`, `protocol`; beside them `describe` (listings for
//! GUIs), `params` (named parameter tables) and `simd` (the learned network's hot loops).

mod attacks;
pub mod bench;
mod bitboard;
mod describe;
mod error;
pub mod eval;
mod fingerprint;
pub mod frames;
mod game;
pub mod games;
mod geometry;
mod movegen;
mod movement;
mod moves;
pub mod notation;
mod params;
mod position;
pub mod protocol;
mod registry;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod session;
mod simd;
mod tables;
pub mod tt;
mod types;
