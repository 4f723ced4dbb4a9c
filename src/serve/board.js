// Drawing the board from a state passed in: what the engine's listings said (cells, men,
// pieces, players) and what the page marks (cells selected, targets, the last move).
import { glyph } from "/glyphs.js";

// Players are named after colours in every game: draw them in those, with a fallback.
const NAMED_COLOURS = { White: "#f5f5f5", Black: "#222222", Red: "#d64541", Yellow: "#f1c40f", Blue: "#2e86de", Green: "#27ae60", Orange: "#e67e22" };
const FALLBACK_COLOURS = ["#f5f5f5", "#222222", "#d64541", "#2e86de", "#27ae60", "#e67e22"];
export function colourOf(players, p) {
  const player = players[p];
  return (player && NAMED_COLOURS[player.name]) || FALLBACK_COLOURS[p % FALLBACK_COLOURS.length];
}
// Text on a man: white on dark colours, black on light ones.
export function inkOn(players, p) {
  return ["#222222", "#2e86de"].includes(colourOf(players, p)) ? "#fff" : "#000";
}
const NS = "http://www.w3.org/2000/svg";

// ---------------------------------------------------------------- drawing
// Each level's bounding box, of its drawing turned by `angle` degrees on the screen when given
// (y then downwards, turned about the unturned box's centre, which `cx` and `cy` keep).
function levelBoxes(view, angle = null) {
  const boxes = view.levels.map(() => ({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }));
  const plain = angle === null ? null : levelBoxes(view);
  const [cos, sin] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
  for (const c of view.cells) {
    const b = boxes[c.level];
    for (let [x, y] of c.outline) {
      if (plain) {
        const u = plain[c.level];
        [b.cx, b.cy] = [(u.x0 + u.x1) / 2, (u.y0 + u.y1) / 2];
        const [dx, dy] = [x - b.cx, b.cy - y];
        [x, y] = [dx * cos - dy * sin, dx * sin + dy * cos];
      }
      b.x0 = Math.min(b.x0, x); b.x1 = Math.max(b.x1, x);
      b.y0 = Math.min(b.y0, y); b.y1 = Math.max(b.y1, y);
    }
  }
  return boxes;
}
function shade(shape, c) {
  if (shape === "hexagon") {
    const k = ((Math.round(c.x * 2) + Math.round(c.y / 0.866) * 3) % 3 + 3) % 3;
    return ["light", "mid", "dark"][k];
  }
  return (Math.round(c.x) + Math.round(c.y)) % 2 === 0 ? "dark" : "light";
}
// The number of columns of levels that draws them largest in `room` (its width and height),
// each level `width` × `height` with the gaps between them: a wide window lays the levels side by
// side, a tall one stacks them.
function bestColumns(count, width, height, gap, label, room) {
  let best = 1, scale = 0;
  for (let columns = 1; columns <= count; columns++) {
    const rows = Math.ceil(count / columns);
    const s = Math.min(room.width / (columns * (width + gap)), room.height / (rows * (height + gap + label)));
    if (s > scale) { best = columns; scale = s; }
  }
  return best;
}

// How the board is turned for the player `seat`: the rotation, in steps of the cells' own
// symmetry, that brings the seat's camp (`camps`, the cells its men stood on at the start) nearest
// the viewer, and whether the levels are laid out last to first (when the camp is on the first
// levels, as Black's in Ninjachess).
export function orientation(view, seat) {
  const boxes = levelBoxes(view);
  const own = (view.camps[seat] || []).map((n) => view.byName.get(n)).filter(Boolean);
  if (!own.length) return { angle: 0, reverse: false };
  const mean = (f) => own.reduce((sum, c) => sum + f(c), 0) / own.length;
  const dx = mean((c) => c.x - (boxes[c.level].x0 + boxes[c.level].x1) / 2);
  const dy = mean((c) => c.y - (boxes[c.level].y0 + boxes[c.level].y1) / 2);
  const step = view.shape === "hexagon" ? 60 : 90;
  // The camp's direction on the screen (y downwards, degrees clockwise) turned to straight down.
  const turn = Math.hypot(dx, dy) > 0.5 ? 90 - (Math.atan2(-dy, dx) * 180) / Math.PI : 0;
  const angle = ((Math.round(turn / step) * step) % 360 + 360) % 360;
  const reverse = view.levels.length > 1 && mean((c) => c.level) < (view.levels.length - 1) / 2 - 0.25;
  return { angle, reverse };
}

// The drawings of the men of `view.men`, each kind and owner once, for the board's <defs>.
function glyphDefs(view, angle) {
  const defs = document.createElementNS(NS, "defs");
  const seen = new Set();
  for (const man of view.men.values()) {
    const key = `${man.player}-${man.code}`;
    const p = view.players.findIndex((q) => q.code === man.player);
    const info = view.pieces.get(man.code);
    if (seen.has(key) || p < 0 || !info) continue;
    seen.add(key);
    const g = document.createElementNS(NS, "g");
    g.id = `glyph-${key}`;
    g.innerHTML = glyph(info, view.players[p], colourOf(view.players, p), inkOn(view.players, p), view.axes, `rotate(${angle}) scale(1 -1)`);
    defs.appendChild(g);
  }
  return defs;
}

// Draws `view` into `svg`: the geometry (`levels`, `shape`, `cells`), `players`, `men`,
// `pieces`, the cells `selected` and `targets`, each player's last move (`lastMoves`, by player)
// and the royal pieces of the players `inCheck` (by name), turned for the seat `seat`, laid out
// to fit `room` (the width and height to fill); `on.click` and `on.hover` get a cell's name.
export function drawBoard(svg, view, on) {
  svg.replaceChildren();
  if (!view.cells.length) return;
  const { angle, reverse } = orientation(view, view.seat);
  const slot = (l) => (reverse ? view.levels.length - 1 - l : l);
  const boxes = levelBoxes(view, angle);
  const gap = 0.8;
  const label = view.levels.length > 1 ? 0.6 : 0;
  const width = Math.max(...boxes.map((b) => b.x1 - b.x0));
  const height = Math.max(...boxes.map((b) => b.y1 - b.y0));
  const columns = bestColumns(view.levels.length, width, height, gap, label, view.room);
  const rows = Math.ceil(view.levels.length / columns);
  const [w, h] = [columns * (width + gap), rows * (height + gap + label)];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  // As large as the room allows, the whole board in sight.
  svg.style.height = `${Math.max(120, Math.min(view.room.height, (view.room.width * h) / w))}px`;
  // Per cell, the players whose last move it was part of.
  const lastBy = new Map();
  view.lastMoves.forEach((cells, p) => cells.forEach((c) => lastBy.set(c, [...(lastBy.get(c) || []), p])));
  if (!view.letters) svg.appendChild(glyphDefs(view, angle));
  const places = [];
  const groups = boxes.map((b, l) => {
    const g = document.createElementNS(NS, "g");
    const ox = (slot(l) % columns) * (width + gap) + gap / 2;
    const oy = Math.floor(slot(l) / columns) * (height + gap + label) + label;
    // Drawing coordinates have y upwards: flip them, turn them and centre them in the level's box.
    const [mx, my] = [ox + width / 2 - (b.x0 + b.x1) / 2, oy + height / 2 - (b.y0 + b.y1) / 2];
    const [cos, sin] = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
    // Where a point of the level's drawing lands in the board's coordinates (as the transform).
    places[l] = (x, y) => [mx + (x - b.cx) * cos + (y - b.cy) * sin, my + (x - b.cx) * sin - (y - b.cy) * cos];
    g.setAttribute("transform", `translate(${mx} ${my}) rotate(${angle}) scale(1 -1) translate(${-b.cx} ${-b.cy})`);
    svg.appendChild(g);
    if (view.levels.length > 1) {
      const label = document.createElementNS(NS, "text");
      label.setAttribute("x", ox);
      label.setAttribute("y", oy - 0.15);
      label.setAttribute("class", "level-label");
      const name = view.levels[l];
      label.textContent = /^\w{1,2}$/.test(name) ? `Level ${name}` : name;
      svg.appendChild(label);
    }
    return g;
  });
  for (const c of view.cells) {
    const g = document.createElementNS(NS, "g");
    g.setAttribute("data-cell", c.name);
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "gridcell");
    const classes = ["cell", shade(view.shape, c)];
    if (view.selected.includes(c.name)) classes.push("selected");
    if (view.targets.has(c.name)) classes.push("target");
    const last = lastBy.get(c.name) || [];
    if (last.length) {
      classes.push("last");
      g.setAttribute("data-last", last.map((p) => view.players[p].code).join(""));
    }
    g.setAttribute("class", classes.join(" "));
    const poly = document.createElementNS(NS, "polygon");
    poly.setAttribute("points", c.outline.map(([x, y]) => `${x},${y}`).join(" "));
    // The last mover of the cell's colour marks it.
    if (last.length) poly.style.stroke = colourOf(view.players, last[last.length - 1]);
    g.appendChild(poly);
    // The cell's name, faint, below where a man stands.
    const coord = document.createElementNS(NS, "text");
    coord.setAttribute("class", "coord");
    coord.setAttribute("transform", `translate(${c.x} ${c.y}) scale(1 -1) rotate(${-angle}) translate(0 0.42)`);
    coord.textContent = c.name;
    g.appendChild(coord);
    const man = view.men.get(c.name);
    let label = c.name;
    if (man) {
      g.setAttribute("data-piece", man.player + man.code);
      const p = view.players.findIndex((q) => q.code === man.player);
      const m = document.createElementNS(NS, "g");
      m.setAttribute("class", "man");
      // Text is drawn upright whatever the level's rotation.
      m.setAttribute("transform", `translate(${c.x} ${c.y}) scale(1 -1) rotate(${-angle})`);
      const info = view.pieces.get(man.code);
      if (info && info.royal && view.players[p] && view.inCheck.has(view.players[p].name)) {
        // A royal piece in check: ringed.
        g.setAttribute("data-check", "yes");
        const ring = document.createElementNS(NS, "circle");
        ring.setAttribute("r", "0.46");
        ring.setAttribute("class", "check-ring");
        m.appendChild(ring);
      }
      if (view.letters) m.append(...letterMan(view, man, p));
      else {
        const use = document.createElementNS(NS, "use");
        use.setAttribute("href", `#glyph-${man.player}-${man.code}`);
        m.appendChild(use);
      }
      g.appendChild(m);
      label = `${c.name}: ${view.players[p] ? view.players[p].name : man.player} ${info ? info.name : man.code}`;
      const title = document.createElementNS(NS, "title");
      title.textContent = info ? `${label}. ${info.moves}` : label;
      g.appendChild(title);
    }
    g.setAttribute("aria-label", label);
    g.addEventListener("click", () => on.click(c.name));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); on.click(c.name); } });
    g.addEventListener("mouseenter", () => on.hover(c.name));
    groups[c.level].appendChild(g);
  }
  for (const arrow of view.arrows || []) svg.appendChild(drawArrow(arrow, view, places));
}

// A move as an arrow over the board, leg by leg (a leg to another level crosses between them).
function drawArrow({ move, cells, colour }, view, places) {
  const g = document.createElementNS(NS, "g");
  g.setAttribute("class", "arrow");
  g.setAttribute("data-arrow", move);
  for (let i = 0; i + 1 < cells.length; i += 2) {
    const [a, b] = [view.byName.get(cells[i]), view.byName.get(cells[i + 1])];
    if (!a || !b) continue;
    const [x1, y1] = places[a.level](a.x, a.y);
    const [x2, y2] = places[b.level](b.x, b.y);
    const length = Math.hypot(x2 - x1, y2 - y1) || 1;
    const [ux, uy] = [(x2 - x1) / length, (y2 - y1) / length];
    // The shaft stops where the head begins.
    const [hx, hy] = [x2 - ux * 0.35, y2 - uy * 0.35];
    const line = document.createElementNS(NS, "line");
    Object.entries({ x1, y1, x2: hx, y2: hy, stroke: colour, "stroke-width": 0.14, "stroke-linecap": "round" }).forEach(([k, v]) => line.setAttribute(k, v));
    const head = document.createElementNS(NS, "polygon");
    head.setAttribute("points", `${x2},${y2} ${hx - uy * 0.2},${hy + ux * 0.2} ${hx + uy * 0.2},${hy - ux * 0.2}`);
    head.setAttribute("fill", colour);
    g.append(line, head);
  }
  return g;
}

// A man as its code in a disc of its owner's colour (the letter style).
function letterMan(view, man, p) {
  const circle = document.createElementNS(NS, "circle");
  circle.setAttribute("r", "0.36");
  circle.setAttribute("class", "disc");
  circle.setAttribute("fill", colourOf(view.players, p));
  const text = document.createElementNS(NS, "text");
  text.setAttribute("fill", inkOn(view.players, p));
  text.textContent = man.code;
  // The owner's letter too, so that players differ by more than colour.
  const owner = document.createElementNS(NS, "text");
  owner.setAttribute("class", "owner");
  owner.setAttribute("y", "0.25");
  owner.setAttribute("fill", inkOn(view.players, p));
  owner.textContent = man.player;
  return [circle, text, owner];
}
