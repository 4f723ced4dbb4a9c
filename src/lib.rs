//! tessera: an engine for multi-player and three-dimensional chess variants.
//!
//! Layers, lowest first: [`types`] (cells, players, piece types), [`bitboard`], [`geometry`],
//! [`movement`] (piece components), [`game`] (definitions) and [`games`] (one file per game),
//! [`moves`] (men and moves), [`tables`] (derived per game), [`position`] with [`attacks`] and
//! [`movegen`], [`notation`], [`eval`], [`tt`], [`search`], [`session`] (a game and its position
//! behind one width-independent interface) and [`protocol`] (the UCI-style text loop); beside
//! them [`describe`] (listings for GUIs), [`bench`], [`selfplay`] (`tessera match`)
//! and [`serve`] (the board in the browser, `tessera serve`); `simd` holds the learned network's
//! hot loops in wide registers.

pub mod attacks;
pub mod bench;
pub mod bitboard;
pub mod describe;
mod error;
pub mod eval;
pub mod game;
pub mod games;
pub mod geometry;
pub mod movegen;
pub mod movement;
pub mod moves;
pub mod notation;
pub mod params;
pub mod position;
pub mod protocol;
pub mod registry;
pub mod search;
pub mod selfplay;
pub mod serve;
pub mod session;
mod simd;
pub mod tables;
pub mod tt;
pub mod types;
