// Drawing the board from a state passed in: what the engine's listings said (cells, men,
// pieces, players) and what the page marks (cells selected, targets, the last move).

// Players are named after colours in every game: draw them in those, with a fallback.
const NAMED_COLOURS = { White: "#f5f5f5", Black: "#222222", Red: "#d64541", Yellow: "#f1c40f", Blue: "#2e86de", Green: "#27ae60", Orange: "#e67e22" };
const FALLBACK_COLOURS = ["#f5f5f5", "#222222", "#d64541", "#2e86de", "#27ae60", "#e67e22"];
export function colourOf(players, p) {
  const player = players[p];
  return (player && NAMED_COLOURS[player.name]) || FALLBACK_COLOURS[p % FALLBACK_COLOURS.length];
}
// Text on a man: white on dark colours, black on light ones.
function inkOn(players, p) {
  return ["#222222", "#2e86de"].includes(colourOf(players, p)) ? "#fff" : "#000";
}
const NS = "http://www.w3.org/2000/svg";

// ---------------------------------------------------------------- drawing
function levelBoxes(view) {
  const boxes = view.levels.map(() => ({ x0: Infinity, y0: Infinity, x1: -Infinity, y1: -Infinity }));
  for (const c of view.cells) {
    const b = boxes[c.level];
    for (const [x, y] of c.outline) {
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
// Draws `view` into `svg`: the geometry (`levels`, `shape`, `cells`), `players`, `men`,
// `pieces`, the cells `selected`, `targets` and of the `lastMove`, turned for the seat `seat`;
// `on.click` and `on.hover` get a cell's name.
export function drawBoard(svg, view, on) {
  svg.replaceChildren();
  if (!view.cells.length) return;
  const boxes = levelBoxes(view);
  const columns = Math.ceil(Math.sqrt(view.levels.length));
  const gap = 0.8;
  const width = Math.max(...boxes.map((b) => b.x1 - b.x0));
  const height = Math.max(...boxes.map((b) => b.y1 - b.y0));
  const rows = Math.ceil(view.levels.length / columns);
  const angle = view.players.length ? (360 / view.players.length) * view.seat : 0;
  svg.setAttribute("viewBox", `0 0 ${columns * (width + gap)} ${rows * (height + gap + 0.6)}`);
  const groups = boxes.map((b, l) => {
    const g = document.createElementNS(NS, "g");
    const ox = (l % columns) * (width + gap) + gap / 2;
    const oy = Math.floor(l / columns) * (height + gap + 0.6) + 0.6;
    // Drawing coordinates have y upwards: flip them into the level's box.
    const cx = (b.x0 + b.x1) / 2, cy = (b.y0 + b.y1) / 2;
    g.setAttribute("transform", `translate(${ox + width / 2} ${oy + height / 2}) rotate(${angle}) scale(1 -1) translate(${-cx} ${-cy})`);
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
    if (view.lastMove.includes(c.name)) classes.push("last");
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
    const man = view.men.get(c.name);
    let label = c.name;
    if (man) {
      g.setAttribute("data-piece", man.player + man.code);
      const p = view.players.findIndex((q) => q.code === man.player);
      const m = document.createElementNS(NS, "g");
      m.setAttribute("class", "man");
      // Text is drawn upright whatever the level's rotation.
      m.setAttribute("transform", `translate(${c.x} ${c.y}) scale(1 -1) rotate(${-angle})`);
      const circle = document.createElementNS(NS, "circle");
      circle.setAttribute("r", "0.36");
      circle.setAttribute("fill", colourOf(view.players, p));
      m.appendChild(circle);
      const text = document.createElementNS(NS, "text");
      text.setAttribute("fill", inkOn(view.players, p));
      text.textContent = man.code;
      m.appendChild(text);
      // The owner's letter too, so that players differ by more than colour.
      const owner = document.createElementNS(NS, "text");
      owner.setAttribute("class", "owner");
      owner.setAttribute("y", "0.25");
      owner.setAttribute("fill", inkOn(view.players, p));
      owner.textContent = man.player;
      m.appendChild(owner);
      g.appendChild(m);
      const info = view.pieces.get(man.code);
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
}
