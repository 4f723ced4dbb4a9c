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

/// Bitboard width (64-bit words) needed for `cells` cells. Every width is a copy of the engine
/// (it is a const generic), so there are few: 3 words fit the 180-cell hex prisms, whose
/// bitboard operations are then a quarter cheaper than at 4.
pub fn width_for(cells: usize) -> usize {
    match cells {
        0..=64 => 1,
        65..=192 => 3,
        193..=256 => 4,
        257..=384 => 6,
        _ => 8,
    }
}

/// `$body` with `W` the width [`width_for`] gives `$cells` cells (a const generic chosen at run
/// time: one arm per width).
macro_rules! with_width {
    ($cells:expr, $W:ident => $body:expr) => {
        match $crate::registry::width_for($cells) {
            1 => {
                const $W: usize = 1;
                $body
            }
            3 => {
                const $W: usize = 3;
                $body
            }
            4 => {
                const $W: usize = 4;
                $body
            }
            6 => {
                const $W: usize = 6;
                $body
            }
            _ => {
                const $W: usize = 8;
                $body
            }
        }
    };
}
pub(crate) use with_width;
