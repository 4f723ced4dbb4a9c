"use strict";
// Drawing the board and reading the engine's listings (geometry, board, pieces) and move texts.
// Loaded before page.js, in the same script: it uses page.js's `state` and `$` only when called.

// Players are named after colours in every game: draw them in those, with a fallback.
const NAMED_COLOURS = { White: "#f5f5f5", Black: "#222222", Red: "#d64541", Yellow: "#f1c40f", Blue: "#2e86de", Green: "#27ae60", Orange: "#e67e22" };
const FALLBACK_COLOURS = ["#f5f5f5", "#222222", "#d64541", "#2e86de", "#27ae60", "#e67e22"];
function colourOf(p) {
  const player = state.players[p];
  return (player && NAMED_COLOURS[player.name]) || FALLBACK_COLOURS[p % FALLBACK_COLOURS.length];
}
// Text on a man: white on dark colours, black on light ones.
function inkOn(p) {
  return ["#222222", "#2e86de"].includes(colourOf(p)) ? "#fff" : "#000";
}
const NS = "http://www.w3.org/2000/svg";

// ---------------------------------------------------------------- move text
// The cells of a one-leg move text and the promotion suffix, by the longest cell names.
function splitCells(text) {
  const out = [];
  let rest = text;
  while (rest.length && out.length < 2) {
    let best = null;
    for (let n = Math.min(rest.length, 8); n >= 1; n--) {
      if (state.byName.has(rest.slice(0, n))) { best = rest.slice(0, n); break; }
    }
    if (!best) break;
    out.push(best);
    rest = rest.slice(best.length);
  }
  return { cells: out, suffix: rest };
}
// A move as the list of cells clicked: the from-cell and to-cell of each leg in turn (a Charge's
// legs may start from different cells).
function moveCells(mv) {
  if (mv === "0000") return [];
  return mv.split(",").flatMap((leg) => splitCells(leg).cells);
}
function promotionOf(mv) {
  return mv.includes(",") ? "" : splitCells(mv).suffix;
}

// ---------------------------------------------------------------- parsing engine answers
function parseGeometry(lines) {
  // Level names may hold spaces ("rank 10"): they run from `names` to `shape`.
  const head = lines[0].match(/ names (.*?)(?: shape (\S+))?$/) || [];
  state.levels = (head[1] || "").split(",");
  state.shape = head[2] || "square";
  state.cells = [];
  state.byName = new Map();
  for (const l of lines.slice(1)) {
    if (!l.startsWith("cell ")) continue;
    const w = l.split(" ");
    const outline = l.split(" outline ")[1].split(" ").map((p) => p.split(",").map(Number));
    const cell = { name: w[1], index: +w[3], level: +w[5], x: +w[7], y: +w[9], outline };
    state.cells.push(cell);
    state.byName.set(cell.name, cell);
  }
}
function parsePieces(lines) {
  state.pieces = new Map();
  for (const l of lines) {
    const m = l.match(/^piece code (\S+) name (.+?) royal \S+ pawn \S+ value (\S+) moves (.*)$/);
    if (m) state.pieces.set(m[1], { name: m[2], value: m[3], moves: m[4] });
  }
}
function parseBoard(lines) {
  state.men = new Map();
  for (const l of lines) {
    const w = l.split(" ");
    if (w[0] === "man") state.men.set(w[1], { player: w[2], code: w[3] });
  }
}
function playerIndex(name) {
  return state.players.findIndex((p) => p.name === name);
}

// ---------------------------------------------------------------- drawing
function levelBoxes() {
  const boxes = state.levels.map(() => ({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }));
  for (const c of state.cells) {
    const b = boxes[c.level];
    for (const [x, y] of c.outline) {
      b.x0 = Math.min(b.x0, x); b.x1 = Math.max(b.x1, x);
      b.y0 = Math.min(b.y0, y); b.y1 = Math.max(b.y1, y);
    }
  }
  return boxes;
}
function shade(c) {
  if (state.shape === "hexagon") {
    const k = ((Math.round(c.x * 2) + Math.round(c.y / 0.866) * 3) % 3 + 3) % 3;
    return ["light", "mid", "dark"][k];
  }
  return (Math.round(c.x) + Math.round(c.y)) % 2 === 0 ? "dark" : "light";
}
function draw() {
  const svg = $("board");
  svg.replaceChildren();
  if (!state.cells.length) return;
  const boxes = levelBoxes();
  const columns = Math.ceil(Math.sqrt(state.levels.length));
  const gap = 0.8;
  const width = Math.max(...boxes.map((b) => b.x1 - b.x0));
  const height = Math.max(...boxes.map((b) => b.y1 - b.y0));
  const rows = Math.ceil(state.levels.length / columns);
  const angle = state.players.length ? (360 / state.players.length) * state.view : 0;
  svg.setAttribute("viewBox", `0 0 ${columns * (width + gap)} ${rows * (height + gap + 0.6)}`);
  const groups = boxes.map((b, l) => {
    const g = document.createElementNS(NS, "g");
    const ox = (l % columns) * (width + gap) + gap / 2;
    const oy = Math.floor(l / columns) * (height + gap + 0.6) + 0.6;
    // Drawing coordinates have y upwards: flip them into the level's box.
    const cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
    g.setAttribute("transform", `translate(${ox + width / 2} ${oy + height / 2}) rotate(${angle}) scale(1 -1) translate(${-cx} ${-cy})`);
    svg.appendChild(g);
    if (state.levels.length > 1) {
      const label = document.createElementNS(NS, "text");
      label.setAttribute("x", ox);
      label.setAttribute("y", oy - 0.15);
      label.setAttribute("class", "level-label");
      const name = state.levels[l];
      label.textContent = /^\w{1,2}$/.test(name) ? `Level ${name}` : name;
      svg.appendChild(label);
    }
    return g;
  });
  const targets = new Set(targetCells());
  for (const c of state.cells) {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("data-cell", c.name);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "gridcell");
    const classes = ["cell", shade(c)];
    if (state.selected.includes(c.name)) classes.push("selected");
    if (targets.has(c.name)) classes.push("target");
    if (state.lastMove.includes(c.name)) classes.push("last");
    g.setAttribute("class", classes.join(" "));
    const poly = document.createElementNS(NS, "polygon");
    poly.setAttribute("points", c.outline.map(([x, y]) => `${x},${y}`).join(" "));
    g.appendChild(poly);
    // The cell's name, faint, below where a man stands.
    const coord = document.createElementNS(NS, "text");
    coord.setAttribute("class", "coord");
    coord.setAttribute("transform", `translate(${c.x} ${c.y}) scale(1 -1) rotate(${-angle}) translate(0 0.42)`);
    coord.textContent = c.name;
    g.appendChild(coord);
    const man = state.men.get(c.name);
    let label = c.name;
    if (man) {
      g.setAttribute("data-piece", man.player + man.code);
      const p = state.players.findIndex((q) => q.code === man.player);
      const m = document.createElementNS(NS, "g");
      m.setAttribute("class", "man");
      // Text is drawn upright whatever the level's rotation.
      m.setAttribute("transform", `translate(${c.x} ${c.y}) scale(1 -1) rotate(${-angle})`);
      const circle = document.createElementNS(NS, "circle");
      circle.setAttribute("r", "0.36");
      circle.setAttribute("fill", colourOf(p));
      m.appendChild(circle);
      const text = document.createElementNS(NS, "text");
      text.setAttribute("fill", inkOn(p));
      text.textContent = man.code;
      m.appendChild(text);
      // The owner's letter too, so that players differ by more than colour.
      const owner = document.createElementNS(NS, "text");
      owner.setAttribute("class", "owner");
      owner.setAttribute("y", "0.25");
      owner.setAttribute("fill", inkOn(p));
      owner.textContent = man.player;
      m.appendChild(owner);
      g.appendChild(m);
      const info = state.pieces.get(man.code);
      label = `${c.name}: ${state.players[p] ? state.players[p].name : man.player} ${info ? info.name : man.code}`;
      const title = document.createElementNS(NS, "title");
      title.textContent = info ? `${label}. ${info.moves}` : label;
      g.appendChild(title);
    }
    g.setAttribute("aria-label", label);
    g.addEventListener("click", () => clickCell(c.name));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickCell(c.name); } });
    g.addEventListener("mouseenter", () => showPieceInfo(c.name));
    groups[c.level].appendChild(g);
  }
}
function showPieceInfo(cell) {
  const man = state.men.get(cell);
  const info = man && state.pieces.get(man.code);
  $("piece-info").textContent = info ? `${info.name} (${man.code}, value ${info.value}): ${info.moves}` : cell;
}
