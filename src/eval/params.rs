//! The evaluation's parameters: every tunable number, with its range, and the defaults.

crate::params::tunable! {
    /// Tunable evaluation parameters (centipawns unless said otherwise). Names without `_eg` are
    /// middle-game weights (or apply in both phases); `_eg` ones are their end-game weights.
    EvalParams, "evaluation parameter",
    /// Value per average empty-board move, for pieces without a given value.
    value_per_move: 0..=200,
    /// Constant part of a derived value.
    value_base: 0..=1000,
    /// Value of a pawn-like man without a given value.
    pawn_value: 10..=1000,
    /// Added to the end-game value of pawn-like men.
    pawn_eg_value: -300..=300,
    /// Added to the end-game value of pieces that only leap.
    leaper_eg_value: -300..=300,
    /// Added to the end-game value of the other pieces (riders).
    rider_eg_value: -300..=300,
    /// Added to the middle-game value of leapers and of riders in the evaluation's material (the
    /// values of exchanges and of the game phase stay the definition's).
    leaper_value: -300..=300,
    rider_value: -300..=300,
    /// Added to a rider's middle-game and end-game value per average empty-board move it has, in
    /// 1/4 centipawns: one shift for all riders cannot price both a Bishop and a Queen.
    rider_move_value_quarter: -100..=100,
    rider_move_value_eg_quarter: -100..=100,
    /// Added to a piece's middle-game and end-game value in proportion to its exchange value, in
    /// thousandths of it: with the shifts above alone a chess Queen rises and falls with the
    /// Rooks and Bishops.
    material_scale_permille: -500..=500,
    material_scale_eg_permille: -500..=500,
    /// The game's learned square values (its profile's `squares`, where it has them), in
    /// thousandths of the fitted centipawns: 1000 as fitted, 0 off.
    square_values_permille: 0..=2000,
    /// The game's learned royal-pawn values (its profile's `royal_pawns`, where it has them),
    /// in thousandths of the fitted centipawns: 1000 as fitted, 0 off (chess plays 700).
    royal_pawn_values_permille: 0..=2000,
    /// The game's learned correction network (its profile's `network`, where it has one), in
    /// thousandths of its fitted output: 1000 as fitted, 0 off.
    network_permille: 0..=2000,
    /// Piece-square bonus per empty-board move above the piece's average, in 1/4 centipawns.
    centrality_quarter: 0..=200,
    centrality_eg_quarter: 0..=200,
    /// The same for the royal piece (negative: it is safer where it has fewer moves).
    royal_centrality_quarter: -200..=200,
    royal_centrality_eg_quarter: -200..=200,
    /// Middle-game bonus for the royal piece per unit of the centrality of its cell's pawn line
    /// (the mean over the line's cells of the centrality `pawn_centre_quarter` counts), in 1/4
    /// centipawns. Negative: a royal piece is safer on the lines at the sides, which open later
    /// than the centre's. Its own moves cannot tell those apart (a chess King has five on e1 and
    /// on g1).
    royal_line_centrality_quarter: -200..=200,
    /// Penalty per step the royal piece stands towards the opponents' side (counted as its pawns'
    /// steps to promotion), in the middle game.
    royal_advance: -100..=100,
    /// Pawn bonus per step closer to its promotion zone.
    pawn_advance: 0..=100,
    pawn_advance_eg: 0..=100,
    /// Middle-game pawn bonus per unit of the cell's centrality (the pieces' moves from it on the
    /// empty board against their averages), in 1/4 centipawns.
    pawn_centre_quarter: -100..=100,
    /// A passed pawn (no enemy pawn ahead or able to capture on its way): this bonus times the
    /// square of the share of its way it has made.
    passed: 0..=300,
    passed_eg: 0..=500,
    /// Penalty for a pawn no friendly pawn could ever protect.
    isolated: 0..=100,
    isolated_eg: 0..=100,
    /// Penalty for a pawn with a friendly pawn ahead on its way.
    doubled: 0..=100,
    doubled_eg: 0..=100,
    /// Penalty for a pawn, not isolated, whose steps no friendly pawn could ever protect, with a
    /// step attacked or held by an enemy pawn: it can neither advance nor be defended.
    backward: 0..=100,
    backward_eg: 0..=100,
    /// Bonus for a pawn a friendly pawn protects.
    supported: 0..=100,
    supported_eg: 0..=100,
    /// A passed pawn whose every step is onto a man (of any side): its passed bonus falls by
    /// this many percent.
    passed_blocked: 0..=100,
    /// A passed pawn in the end game: bonus per royal step from the nearest enemy royal piece to
    /// a cell it steps to ...
    passed_enemy_king_eg: 0..=100,
    /// ... and penalty per royal step from its own; both times the square of the share of its way
    /// it has made, as `passed`.
    passed_king_eg: 0..=100,
    /// Bonus for having the move.
    tempo: 0..=100,
    /// Mobility: bonus per cell a piece (not a pawn, not royal) can move to that no enemy pawn
    /// attacks, counted from its average number of moves on the empty board, in 1/4 centipawns.
    mobility_quarter: 0..=100,
    mobility_eg_quarter: 0..=100,
    /// King safety (middle game): penalty per attack of an opponent's piece (not a pawn, not
    /// royal) on a cell next to the royal piece...
    king_attack: 0..=100,
    /// ... and per such attack times the number of attacking pieces, in 1/8 centipawns.
    king_danger: 0..=100,
    /// King safety (middle game): bonus per own pawn next to the royal piece or a step ahead of
    /// such a cell.
    king_shield: 0..=100,
    /// King safety (middle game): penalty per cell, not holding an own man, on the lines of the
    /// opponents' rider types through the royal piece, up to the first man on each.
    king_exposure: 0..=100,
    /// Two men of a colour-bound type on different colours.
    pair: 0..=200,
    pair_eg: 0..=200,
    /// Penalty per two riders of one type and one owner that are not colour-bound (two Rooks):
    /// the second adds less than the first, as Kaufman's redundancy of the major pieces.
    redundancy: 0..=200,
    /// A rider with a ride along a pawn line free of pawns (open) ...
    open_line: 0..=100,
    /// ... or free of own pawns only (half-open).
    half_open_line: 0..=100,
    /// A leaper on a cell a friendly pawn protects and no enemy pawn can ever attack.
    outpost: 0..=100,
    outpost_eg: 0..=100,
    /// A piece with at most two moves to cells neither its own men hold nor enemy pawns attack:
    /// penalty per move it lacks of three.
    trapped: 0..=300,
    trapped_eg: 0..=300,
    /// Threats against a man that is neither a pawn nor royal: attacked by an enemy pawn ...
    threat_pawn: 0..=300,
    threat_pawn_eg: 0..=300,
    /// ... by an enemy piece of lower value (and no pawn) ...
    threat_lesser: 0..=300,
    threat_lesser_eg: 0..=300,
    /// ... or attacked by any enemy man and defended by none of its owner's (hanging).
    hanging: 0..=300,
    hanging_eg: 0..=300,
    /// Against a bare royal piece: bonus per move it lacks, where it stands, against its most
    /// mobile cell on the empty board (driving it to the edge).
    mopup_edge: 0..=100,
    /// Against a bare royal piece: bonus per royal step the own royal piece is closer to it than
    /// the greatest distance on the board (it helps to mate).
    mopup_close: 0..=100,
    /// Against a bare royal piece: bonus per halving of the cells it can reach by steps over cells
    /// the stronger player does not attack, against all the cells it may stand on (boxing it in).
    mopup_box: 0..=400,
    /// Against a bare royal piece: the same on its own level only, by steps that stay on it. On a
    /// board of several levels a wall must be built on each; this pays for the first before the
    /// whole box shrinks.
    mopup_level_box: 0..=400,
    /// Against a bare royal piece: bonus per cell next to it (one of its steps) that the stronger
    /// player attacks (the mating net closing where the box cannot, on boards without walls).
    mopup_cover: 0..=100,
    /// While every opponent has only its royal piece left: bonus per man the player keeps besides
    /// its own royal piece. Its men are what mates, so none is given up for the first of two
    /// mates (three Rooks mate two bare Kings on the hex board; two Rooks rarely mate the last).
    /// A mate also starts paying the next bare opponent's mop-up (only the best one counts
    /// before), so a man must outweigh that as well: 300 did not in wildhoney3.
    mopup_men: 0..=1000,
    /// With three or more players: bonus to a player for each opponent it has checkmated, on top
    /// of the largest mop-up term that opponent could have given on any cell (so that mating a
    /// bare royal piece always beats driving it to the edge, by this much at least).
    elimination: 0..=2000,
    /// With three or more players, once one of them is out or bare: the value of a sure win over a
    /// draw, on the evaluation's scale (raised by the root player's lead where it is ahead), with
    /// which a search reads the positions below a further elimination on its root's scale of
    /// places (`search::placing`; 0: as they are, and another player's win is a loss).
    placing_stake: 0..=20000,
}

/// The defaults. A game's profile gives its own values over them (`EvalParams { .., ..PARAMS }`,
/// in its file under `src/games/`).
pub const PARAMS: EvalParams = EvalParams {
    value_per_move: 33,
    value_base: 100,
    pawn_value: 100,
    pawn_eg_value: 0,
    leaper_eg_value: 0,
    rider_eg_value: 0,
    leaper_value: 0,
    rider_value: 0,
    rider_move_value_quarter: 0,
    rider_move_value_eg_quarter: 0,
    material_scale_permille: 0,
    material_scale_eg_permille: 0,
    square_values_permille: 1000,
    royal_pawn_values_permille: 0,
    network_permille: 0,
    centrality_quarter: 12,
    centrality_eg_quarter: 12,
    royal_centrality_quarter: 4,
    royal_centrality_eg_quarter: 4,
    royal_line_centrality_quarter: 0,
    royal_advance: 0,
    pawn_advance: 6,
    pawn_advance_eg: 6,
    pawn_centre_quarter: 0,
    passed: 0,
    passed_eg: 0,
    isolated: 0,
    isolated_eg: 0,
    doubled: 0,
    doubled_eg: 0,
    backward: 0,
    backward_eg: 0,
    supported: 0,
    supported_eg: 0,
    passed_blocked: 0,
    passed_enemy_king_eg: 0,
    passed_king_eg: 0,
    tempo: 10,
    mobility_quarter: 0,
    mobility_eg_quarter: 0,
    king_attack: 0,
    king_danger: 0,
    king_shield: 0,
    king_exposure: 0,
    pair: 0,
    pair_eg: 0,
    redundancy: 0,
    open_line: 0,
    half_open_line: 0,
    outpost: 0,
    outpost_eg: 0,
    trapped: 0,
    trapped_eg: 0,
    threat_pawn: 0,
    threat_pawn_eg: 0,
    threat_lesser: 0,
    threat_lesser_eg: 0,
    hanging: 0,
    hanging_eg: 0,
    mopup_edge: 60,
    mopup_close: 16,
    mopup_box: 60,
    mopup_level_box: 0,
    mopup_cover: 10,
    mopup_men: 600,
    elimination: 200,
    placing_stake: 0,
};

impl Default for EvalParams {
    fn default() -> Self {
        PARAMS
    }
}
