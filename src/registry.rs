//! Compiled games, built once per game id and kept for the life of the process, so that
//! positions can refer to their tables with a plain `&'static` reference.

use std::any::Any;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::game::GameDef;
use crate::tables::Game;

type Cache = Mutex<HashMap<(String, usize), &'static (dyn Any + Send + Sync)>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The compiled tables of `def` for width `W` (built on first use).
pub fn compiled<const W: usize>(def: GameDef) -> &'static Game<W> {
    let key = (def.id.clone(), W);
    let mut map = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(game) = map.get(&key).and_then(|g| g.downcast_ref::<Game<W>>()) {
        return game;
    }
    let game: &'static Game<W> = Box::leak(Box::new(Game::<W>::build(def)));
    map.insert(key, game);
    game
}

/// Bitboard width (64-bit words) needed for `cells` cells.
pub fn width_for(cells: usize) -> usize {
    match cells {
        0..=64 => 1,
        65..=256 => 4,
        257..=384 => 6,
        _ => 8,
    }
}
