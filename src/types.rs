//! The engine's basic values: cells, players, piece types, sets of players, and tables indexed
//! by them.
//!
//! Each is a newtype over a small integer, so that a cell is never mistaken for a piece type and
//! the tables say what they are indexed by. Conversions to `usize` happen here, once.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// Most players a game may have.
pub const MAX_PLAYERS: usize = 4;
/// Most piece types a game may define (the position keeps one bitboard per type).
pub const MAX_TYPES: usize = 32;
/// Most cells a board may have (a move packs a cell in 9 bits).
pub const MAX_CELLS: usize = 512;

/// A value usable as a table index.
pub trait Key: Copy {
    fn index(self) -> usize;
    fn from_index(i: usize) -> Self;
}

macro_rules! key_newtype {
    ($(#[doc = $doc:literal])* $name:ident($repr:ty), $max:expr, $what:literal) => {
        $(#[doc = $doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
        pub struct $name($repr);

        impl $name {
            /// The value with this index.
            #[inline(always)]
            pub const fn new(i: usize) -> Self {
                debug_assert!(i < $max, concat!($what, " index out of range"));
                $name(i as $repr)
            }
            #[inline(always)]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
            /// The stored integer, for packing into moves and men.
            #[inline(always)]
            pub const fn raw(self) -> $repr {
                self.0
            }
        }

        impl Key for $name {
            #[inline(always)]
            fn index(self) -> usize {
                self.0 as usize
            }
            #[inline(always)]
            fn from_index(i: usize) -> Self {
                $name::new(i)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($what, "{}"), self.0)
            }
        }
    };
}

key_newtype!(
    /// A cell of the board: its canonical index (rules files), below [`MAX_CELLS`].
    Cell(u16), MAX_CELLS, "cell "
);
key_newtype!(
    /// A player by turn order (0 moves first). A man's orientation is also a player: the one
    /// whose "forward" it uses.
    Player(u8), MAX_PLAYERS, "player "
);
key_newtype!(
    /// A piece type: its index in the game's piece list.
    PieceType(u8), MAX_TYPES, "type "
);

impl Player {
    /// Every player of a game with `count` players, in turn order.
    pub fn all(count: usize) -> impl Iterator<Item = Player> + Clone {
        (0..count).map(Player::new)
    }
}

impl PieceType {
    /// Every type of a game with `count` types.
    pub fn all(count: usize) -> impl Iterator<Item = PieceType> + Clone {
        (0..count).map(PieceType::new)
    }
}

/// A set of players, one bit per player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PlayerSet(u8);

impl PlayerSet {
    pub const EMPTY: PlayerSet = PlayerSet(0);

    /// Players `0..count`.
    pub fn first(count: usize) -> PlayerSet {
        Player::all(count).collect()
    }
    #[inline(always)]
    pub const fn only(p: Player) -> PlayerSet {
        PlayerSet(1 << p.0)
    }
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> PlayerSet {
        PlayerSet(bits)
    }
    #[inline(always)]
    pub const fn has(self, p: Player) -> bool {
        self.0 >> p.0 & 1 == 1
    }
    #[inline(always)]
    pub fn insert(&mut self, p: Player) {
        self.0 |= 1 << p.0;
    }
    #[inline(always)]
    pub fn remove(&mut self, p: Player) {
        self.0 &= !(1 << p.0);
    }
    #[inline(always)]
    pub const fn without(self, p: Player) -> PlayerSet {
        PlayerSet(self.0 & !(1 << p.0))
    }
    /// The players of `self` not in `other`.
    #[inline(always)]
    pub const fn minus(self, other: PlayerSet) -> PlayerSet {
        PlayerSet(self.0 & !other.0)
    }
    #[inline(always)]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The lowest player in the set.
    #[inline(always)]
    pub fn first_player(self) -> Option<Player> {
        self.iter().next()
    }
    #[inline(always)]
    pub fn iter(self) -> impl Iterator<Item = Player> {
        set_bits(u32::from(self.0)).map(Player::new)
    }
}

/// The indices of the set bits of `bits`, lowest first.
#[inline(always)]
fn set_bits(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(i)
    })
}

/// A set of piece types, one bit per type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypeSet(u32);

impl TypeSet {
    pub fn of(types: &[PieceType]) -> Self {
        TypeSet(types.iter().fold(0, |acc, t| acc | 1 << t.index()))
    }
    #[inline(always)]
    pub fn has(self, t: PieceType) -> bool {
        self.0 >> t.index() & 1 == 1
    }
    #[inline(always)]
    pub fn with(self, t: PieceType) -> Self {
        TypeSet(self.0 | 1 << t.index())
    }
    #[inline(always)]
    pub fn without(self, t: PieceType) -> Self {
        TypeSet(self.0 & !(1 << t.index()))
    }
    #[inline(always)]
    pub fn intersects(self, other: TypeSet) -> bool {
        self.0 & other.0 != 0
    }
    #[inline(always)]
    pub fn iter(self) -> impl Iterator<Item = PieceType> {
        set_bits(self.0).map(PieceType::new)
    }
}

impl fmt::Debug for PlayerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Player::index)).finish()
    }
}

impl FromIterator<Player> for PlayerSet {
    fn from_iter<I: IntoIterator<Item = Player>>(iter: I) -> Self {
        let mut s = PlayerSet::EMPTY;
        for p in iter {
            s.insert(p);
        }
        s
    }
}

/// A table with one entry per key (per cell, per player, per type).
#[derive(Clone, PartialEq, Eq)]
pub struct Table<K, V> {
    items: Vec<V>,
    key: PhantomData<fn(K)>,
}

impl<K: Key, V> Table<K, V> {
    /// A table of `len` entries, entry `k` being `f(k)`.
    pub fn from_fn(len: usize, f: impl FnMut(K) -> V) -> Self {
        Table { items: (0..len).map(K::from_index).map(f).collect(), key: PhantomData }
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, V> {
        self.items.iter()
    }
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, V> {
        self.items.iter_mut()
    }
    /// (key, entry) pairs in key order.
    pub fn entries(&self) -> impl Iterator<Item = (K, &V)> {
        self.items.iter().enumerate().map(|(i, v)| (K::from_index(i), v))
    }
    pub fn get(&self, k: K) -> Option<&V> {
        self.items.get(k.index())
    }
}

impl<K: Key, V: Clone> Table<K, V> {
    /// A table of `len` copies of `v`.
    pub fn filled(len: usize, v: V) -> Self {
        Table { items: vec![v; len], key: PhantomData }
    }
}

impl<K, V> Default for Table<K, V> {
    fn default() -> Self {
        Table { items: Vec::new(), key: PhantomData }
    }
}

impl<K, V> From<Vec<V>> for Table<K, V> {
    fn from(items: Vec<V>) -> Self {
        Table { items, key: PhantomData }
    }
}

impl<K: Key, V> FromIterator<V> for Table<K, V> {
    fn from_iter<I: IntoIterator<Item = V>>(iter: I) -> Self {
        Table { items: iter.into_iter().collect(), key: PhantomData }
    }
}

impl<K: Key, V> Index<K> for Table<K, V> {
    type Output = V;
    #[inline(always)]
    fn index(&self, k: K) -> &V {
        &self.items[k.index()]
    }
}

impl<K: Key, V> IndexMut<K> for Table<K, V> {
    #[inline(always)]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.items[k.index()]
    }
}

impl<'a, K, V> IntoIterator for &'a Table<K, V> {
    type Item = &'a V;
    type IntoIter = std::slice::Iter<'a, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<K, V: fmt::Debug> fmt::Debug for Table<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.items).finish()
    }
}

/// A fixed array with one entry per key value below `N`: no allocation, for the position's
/// per-player and per-type state.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ByKey<K, V, const N: usize>(pub [V; N], PhantomData<fn(K)>);

/// One entry per player.
pub type PerPlayer<V> = ByKey<Player, V, MAX_PLAYERS>;
/// One entry per piece type.
pub type PerType<V> = ByKey<PieceType, V, MAX_TYPES>;

impl<K, V: Copy, const N: usize> ByKey<K, V, N> {
    pub const fn splat(v: V) -> Self {
        ByKey([v; N], PhantomData)
    }
}

impl<K, V: Copy + Default, const N: usize> Default for ByKey<K, V, N> {
    fn default() -> Self {
        ByKey([V::default(); N], PhantomData)
    }
}

impl<K: Key, V, const N: usize> Index<K> for ByKey<K, V, N> {
    type Output = V;
    #[inline(always)]
    fn index(&self, k: K) -> &V {
        &self.0[k.index()]
    }
}

impl<K: Key, V, const N: usize> IndexMut<K> for ByKey<K, V, N> {
    #[inline(always)]
    fn index_mut(&mut self, k: K) -> &mut V {
        &mut self.0[k.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_sets() {
        let mut s = PlayerSet::first(3);
        assert_eq!(s.len(), 3);
        s.remove(Player::new(1));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![Player::new(0), Player::new(2)]);
        assert!(s.has(Player::new(2)) && !s.has(Player::new(1)));
        assert_eq!(s.without(Player::new(0)), PlayerSet::only(Player::new(2)));
        assert_eq!(s.first_player(), Some(Player::new(0)));
        assert_eq!(PlayerSet::EMPTY.first_player(), None);
        assert_eq!([Player::new(3)].into_iter().collect::<PlayerSet>().bits(), 8);
    }

    #[test]
    fn tables_are_indexed_by_their_key() {
        let mut t: Table<Cell, u32> = Table::from_fn(4, |c: Cell| c.index() as u32 * 10);
        t[Cell::new(2)] += 1;
        assert_eq!(t[Cell::new(2)], 21);
        assert_eq!(t.entries().map(|(c, &v)| (c.index(), v)).last(), Some((3, 30)));
        let mut pp = PerPlayer::splat(0);
        pp[Player::new(3)] = 7;
        assert_eq!(pp.0, [0, 0, 0, 7]);
    }
}
