// Game records the page downloads and loads: PGN where the game's records are SAN (chess and the
// Different Armies, with the tags the match runner writes), elsewhere a `variant` line and a
// `fen … moves …` line. Reading takes either back, moves as the record writes them or as move
// strings (the engine reads both).

// Whether a game's record is PGN: the games whose moves are written in SAN.
export function writesPgn(game) {
  return game === "chess" || game.startsWith("cwda-");
}

const tag = (name, value) => `[${name} "${String(value).replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"]`;

// PGN of a two-player game: `players` ({name}), `seats` (who sat there: human or engine),
// `start` (the start's position string, or null for the standard start), `records` (the moves in
// SAN), `result` (1-0, 0-1, 1/2-1/2 or *), `firstPly` (plies before the first move).
export function pgnText({ game, players, seats, start, records, result, firstPly, date }) {
  const tags = [tag("Event", "tessera board"), tag("Site", "?"), tag("Date", date), tag("Round", "-")];
  players.forEach((p, i) => tags.push(tag(p.name, seats[i])));
  tags.push(tag("Result", result));
  if (game !== "chess") tags.push(tag("Variant", game));
  if (game !== "chess" || start) tags.push(tag("SetUp", "1"), tag("FEN", start));
  tags.push(tag("PlyCount", records.length));
  const n = players.length;
  const tokens = [];
  records.forEach((san, i) => {
    const ply = firstPly + i;
    if (ply % n === 0) tokens.push(`${ply / n + 1}.`);
    else if (i === 0) tokens.push(`${Math.floor(ply / n) + 1}...`);
    tokens.push(san);
  });
  tokens.push(result);
  // Export format: lines of at most 79 characters.
  const lines = [""];
  for (const t of tokens) {
    const last = lines.length - 1;
    if (lines[last] && lines[last].length + 1 + t.length > 79) lines.push(t);
    else lines[last] = lines[last] ? `${lines[last]} ${t}` : t;
  }
  return `${tags.join("\n")}\n\n${lines.join("\n")}\n`;
}

// The record of a game without PGN: its id, then its start and moves as `position` takes them.
export function lineText(game, start, moves) {
  return `variant ${game}\nfen ${start}${moves.length ? ` moves ${moves.join(" ")}` : ""}\n`;
}

// A record read: {game (null: the one on the page), start (null: the standard start), moves}, or
// {error}.
export function parseRecord(text) {
  if (/^\s*\[/.test(text)) {
    const tags = new Map([...text.matchAll(/\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]/g)].map((m) => [m[1], m[2].replace(/\\(.)/g, "$1")]));
    const body = text
      .replace(/\[[^\]]*\]/g, " ")
      .replace(/\{[^}]*\}/g, " ")
      .replace(/;[^\n]*/g, " ")
      .replace(/\([^)]*\)/g, " ")
      .replace(/\$\d+/g, " ");
    const moves = body
      .split(/\s+/)
      .map((t) => t.replace(/^\d+\.(\.\.)?/, ""))
      .filter((t) => t && !/^(1-0|0-1|1\/2-1\/2|\*)$/.test(t));
    return { game: tags.get("Variant") || "chess", start: tags.get("FEN") || null, moves };
  }
  let game = null;
  for (const raw of text.split("\n")) {
    const line = raw.trim().replace(/^position\s+/, "");
    if (!line) continue;
    let m;
    if ((m = line.match(/^variant\s+(\S+)$/))) game = m[1];
    else if ((m = line.match(/^(?:fen\s+(.+?)|startpos)(?:\s+moves\s+(.*))?$/))) {
      return { game, start: m[1] || null, moves: (m[2] || "").split(/\s+/).filter(Boolean) };
    } else return { error: `not a game record: ${line.slice(0, 60)}` };
  }
  return { error: "not a game record: no fen … moves … line" };
}
