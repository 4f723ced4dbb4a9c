// The link to the engine and the readers of its answers: a WebSocket speaking the protocol of
// protocol.md, and parsers of the listings the page draws from (`geometry`, `pieces`, `board`,
// `status`) and of move texts. Nothing here touches the page.

// ---------------------------------------------------------------- the link to the engine
export class Link {
  // `onClose` gets the reason the server gave for closing ("" without one).
  constructor(url, onClose) {
    this.ws = new WebSocket(url);
    this.pending = []; // waiting `ask`s: {lines, resolve}
    this.onSearch = () => {};
    this.opened = new Promise((resolve, reject) => {
      this.ws.onopen = resolve;
      this.ws.onerror = reject;
    });
    this.ws.onmessage = (e) => e.data.split("\n").forEach((l) => this.line(l));
    // The server says why it closed (full, a page that fell behind, ...): shown as it is.
    this.ws.onclose = (e) => onClose(e.reason || "");
    this.chain = Promise.resolve();
  }
  line(l) {
    if (l.startsWith("bestmove") || (l.startsWith("info ") && !l.startsWith("info string"))) {
      this.onSearch(l);
      return;
    }
    const waiting = this.pending[0];
    if (!waiting) return;
    if (l === "readyok") {
      this.pending.shift();
      waiting.resolve(waiting.lines);
    } else {
      waiting.lines.push(l);
    }
  }
  send(cmd) { this.ws.send(cmd); }
  // Sends `cmd` and resolves with the lines it printed (up to the `readyok` of an `isready`).
  ask(cmd) {
    const run = () => new Promise((resolve) => {
      this.pending.push({ lines: [], resolve });
      this.ws.send(cmd + "\nisready");
    });
    this.chain = this.chain.then(run, run);
    return this.chain;
  }
}

// ---------------------------------------------------------------- parsing engine answers
// The players a game announces (`info string game <id> players <code>:<name>,...`).
export function parsePlayers(lines) {
  const line = lines.find((l) => l.startsWith("info string game ")) || "";
  const players = (line.split(" players ")[1] || "").split(" ")[0].split(",").filter(Boolean);
  return players.map((p) => ({ code: p.split(":")[0], name: p.split(":")[1] }));
}
// The cells of `geometry`: {levels, shape, cells, byName}.
export function parseGeometry(lines) {
  // Level names may hold spaces ("rank 10"): they run from `names` to `shape`.
  const head = lines[0].match(/ names (.*?)(?: shape (\S+))?(?: axes (\S+) (\S+))?$/) || [];
  // Where a step along the lattice's first two axes goes in the drawing.
  const axes = head[3] ? [head[3], head[4]].map((a) => a.split(",").map(Number)) : [[1, 0], [0, 1]];
  const geometry = { levels: (head[1] || "").split(","), shape: head[2] || "square", axes, cells: [], byName: new Map() };
  for (const l of lines.slice(1)) {
    if (!l.startsWith("cell ")) continue;
    const w = l.split(" ");
    const outline = l.split(" outline ")[1].split(" ").map((p) => p.split(",").map(Number));
    const cell = { name: w[1], index: +w[3], level: +w[5], x: +w[7], y: +w[9], outline };
    geometry.cells.push(cell);
    geometry.byName.set(cell.name, cell);
  }
  return geometry;
}
// The piece types of `pieces`: code -> {name, royal, pawn, value, moves}.
export function parsePieces(lines) {
  const pieces = new Map();
  for (const l of lines) {
    const m = l.match(/^piece code (\S+) name (.+?) royal (\S+) pawn (\S+) value (\S+) moves (.*)$/);
    if (m) pieces.set(m[1], { name: m[2], royal: m[3] === "yes", pawn: m[4] === "yes", value: m[5], moves: m[6] });
  }
  return pieces;
}
// The men of `board`: cell name -> {player, code}.
export function parseBoard(lines) {
  const men = new Map();
  for (const l of lines) {
    const w = l.split(" ");
    if (w[0] === "man") men.set(w[1], { player: w[2], code: w[3] });
  }
  return men;
}
// The word after `name` in a line's words (null: none).
export function field(words, name) {
  const i = words.indexOf(name);
  return i < 0 ? null : words[i + 1];
}

// ---------------------------------------------------------------- move text
// The cells of a one-leg move text and the promotion suffix, by the longest cell names.
function splitCells(text, byName) {
  const out = [];
  let rest = text;
  while (rest.length && out.length < 2) {
    let best = null;
    for (let n = Math.min(rest.length, 8); n >= 1; n--) {
      if (byName.has(rest.slice(0, n))) { best = rest.slice(0, n); break; }
    }
    if (!best) break;
    out.push(best);
    rest = rest.slice(best.length);
  }
  return { cells: out, suffix: rest };
}
// A move as the list of cells clicked: the from-cell and to-cell of each leg in turn (a Charge's
// legs may start from different cells).
export function moveCells(mv, byName) {
  if (mv === "0000") return [];
  return mv.split(",").flatMap((leg) => splitCells(leg, byName).cells);
}
export function promotionOf(mv, byName) {
  return mv.includes(",") ? "" : splitCells(mv, byName).suffix;
}
