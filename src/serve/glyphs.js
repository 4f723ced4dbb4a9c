// Drawings of the men, as SVG markup one cell wide centred on the origin (y downwards): the
// familiar silhouettes for the six chess pieces (drawn for this project) and, for every other
// kind, a picture of how it moves made from the movement components `pieces` lists: rides as
// lines to the edge, leaps as dots where they land, hops as lines with the screen across them,
// curved rides as arcs, bent rides as a step and the lines after it. A move to another level is
// drawn hollow, a move that only moves as a square, one that only captures as a diamond.

// Silhouettes in a 100 × 100 box, y downwards.
const SILHOUETTES = {
  Pawn: "M32,87 L68,87 L65,77 L57,72 C62,61 60,50 56,45 A14,14 0 1,0 44,45 C40,50 38,61 43,72 L35,77 Z",
  Rook: "M27,88 L73,88 L73,80 L66,76 L63,41 L71,35 L71,16 L62,16 L62,24 L55,24 L55,16 L45,16 L45,24 L38,24 L38,16 L29,16 L29,35 L37,41 L34,76 L27,80 Z",
  Bishop:
    "M29,88 L71,88 L71,81 L60,77 C70,65 69,46 50,27 C31,46 30,65 40,77 L29,81 Z M46,52 L58,40 L61,43 L49,55 Z " +
    "M50,26 A6,6 0 1,1 50.1,26 Z",
  Knight:
    "M29,88 L75,88 C76,68 71,50 64,39 C59,29 51,22 44,19 L41,10 L36,20 C28,25 22,35 19,46 C17,53 22,57 28,54 " +
    "L38,48 C43,51 44,56 39,62 C33,69 29,77 29,88 Z",
  Queen:
    "M28,88 L72,88 L70,80 L64,76 L77,37 L62,58 L58,28 L50,55 L42,28 L38,58 L23,37 L36,76 L30,80 Z " +
    "M23,37 m-5,0 a5,5 0 1,0 10,0 a5,5 0 1,0 -10,0 M42,28 m-5,0 a5,5 0 1,0 10,0 a5,5 0 1,0 -10,0 " +
    "M58,28 m-5,0 a5,5 0 1,0 10,0 a5,5 0 1,0 -10,0 M77,37 m-5,0 a5,5 0 1,0 10,0 a5,5 0 1,0 -10,0",
  King:
    "M30,88 L70,88 L68,80 L62,76 C73,64 77,47 66,44 C59,42 54,48 50,56 C46,48 41,42 34,44 C23,47 27,64 38,76 L32,80 Z " +
    "M47,12 L53,12 L53,20 L61,20 L61,26 L53,26 L53,40 L47,40 L47,26 L39,26 L39,20 L47,20 Z",
};

// The components of a `pieces` line's `moves` text, with `owner`'s vectors where they differ by
// player: [{kind: leap|ride|hop|curve|bent, mode, range, vectors, legs}], and {kind: note, text}
// for what is said in words only (a pawn's double step, en passant, promotion).
export function movementOf(text, owner) {
  // Parts are separated by "; ", as are the players' lists and a bent rider's legs.
  const parts = [];
  for (const seg of text.split("; ")) {
    if (parts.length && (/^[A-Z][a-z]+: /.test(seg) || seg.startsWith("("))) parts[parts.length - 1] += `; ${seg}`;
    else parts.push(seg);
  }
  const vectors = (s) => {
    const lists = s.split("; ");
    const own = lists.find((l) => l.startsWith(`${owner}: `)) || lists[0];
    return [...own.matchAll(/\((-?\d+),(-?\d+)(?:,(-?\d+))?\)/g)].map((m) => [+m[1], +m[2], +(m[3] || 0)]);
  };
  const out = [];
  for (const part of parts) {
    let m;
    if ((m = part.match(/^leaps(?: \((moving|capturing) only\))? by (.*)$/))) {
      out.push({ kind: "leap", mode: m[1] || "both", vectors: vectors(m[2]) });
    } else if ((m = part.match(/^rides(?: \((moving|capturing) only\))?(?: up to (\d+) steps)? along (.*)$/))) {
      out.push({ kind: "ride", mode: m[1] || "both", range: m[2] ? +m[2] : 0, vectors: vectors(m[3]) });
    } else if ((m = part.match(/^moves as a rider and captures by hopping over exactly one man along (.*)$/))) {
      out.push({ kind: "hop", mode: "both", vectors: vectors(m[1]) });
    } else if ((m = part.match(/^rides a curved path .*? round (.*) \(every cell passed must be empty\)$/))) {
      out.push({ kind: "curve", mode: "both", vectors: vectors(m[1]) });
    } else if ((m = part.match(/rides on: (.*)$/))) {
      const legs = m[1].split("; ").map((leg) => leg.split(" then ")).map(([first, then]) => ({ first: vectors(first)[0], then: vectors(then) }));
      out.push({ kind: "bent", mode: "both", vectors: [], legs });
    } else {
      out.push({ kind: "note", mode: "both", vectors: [], text: part });
    }
  }
  return out;
}

const round = (x) => Math.round(x * 1000) / 1000;
const pt = ([x, y]) => `${round(x)},${round(y)}`;
const len = ([x, y]) => Math.hypot(x, y);
const unit = (p) => [p[0] / len(p), p[1] / len(p)];
const times = (p, k) => [p[0] * k, p[1] * k];

// A mark where a move lands: the shape says its mode, a hollow one another level.
function landing(p, otherLevel, mode, ink) {
  const fill = otherLevel ? "none" : ink;
  const r = 0.045;
  if (len(p) < 1e-9) return `<circle r="${otherLevel ? 0.1 : 0.05}" fill="none" stroke="${ink}" stroke-width="0.025"/>`;
  const [x, y] = p;
  if (mode === "moving") return `<rect x="${round(x - r)}" y="${round(y - r)}" width="${2 * r}" height="${2 * r}" fill="${fill}" stroke="${ink}" stroke-width="0.02"/>`;
  if (mode === "capturing") {
    const d = r * 1.3;
    return `<polygon points="${pt([x, y - d])} ${pt([x + d, y])} ${pt([x, y + d])} ${pt([x - d, y])}" fill="${fill}" stroke="${ink}" stroke-width="0.02"/>`;
  }
  return `<circle cx="${round(x)}" cy="${round(y)}" r="${r}" fill="${fill}" stroke="${ink}" stroke-width="0.02"/>`;
}

// The picture of how a man moves, in the drawing's axes (y upwards; `axes` are where the first
// two lattice axes go), as a set of marks.
function movementMarks(components, axes, ink) {
  const project = ([a, b]) => [a * axes[0][0] + b * axes[1][0], a * axes[0][1] + b * axes[1][1]];
  const edge = 0.36;
  const reach = Math.max(1.5, ...components.flatMap((c) => (c.kind === "leap" ? c.vectors.map((v) => len(project(v))) : [])));
  const scale = 0.33 / reach;
  const marks = new Set();
  const line = (a, b, extra = "") => marks.add(`<line x1="${round(a[0])}" y1="${round(a[1])}" x2="${round(b[0])}" y2="${round(b[1])}" stroke="${ink}" stroke-width="0.03"${extra}/>`);
  const dash = { both: "", moving: ` stroke-dasharray="0.05 0.03"`, capturing: ` stroke-dasharray="0.015 0.025"` };
  for (const c of components) {
    for (const v of c.vectors) {
      const p = project(v);
      const across = v[2] !== 0;
      if (c.kind === "leap") {
        marks.add(landing(times(p, scale), across, c.mode, ink));
        continue;
      }
      if (len(p) < 1e-9) {
        // Straight up and down the levels: two rings.
        marks.add(`<circle r="0.1" fill="none" stroke="${ink}" stroke-width="0.025"/><circle r="0.15" fill="none" stroke="${ink}" stroke-width="0.025"/>`);
        continue;
      }
      const u = unit(p);
      if (c.kind === "curve") {
        const n = [-u[1], u[0]];
        for (const side of [1, -1]) {
          const end = times(u, edge * 0.8);
          const control = [u[0] * 0.2 + n[0] * 0.18 * side, u[1] * 0.2 + n[1] * 0.18 * side];
          marks.add(`<path d="M0,0 Q${pt(control)} ${pt(end)}" fill="none" stroke="${ink}" stroke-width="0.025"/>`);
        }
        continue;
      }
      const length = c.range ? edge * Math.min(1, (c.range + 1) / 6) : edge;
      const end = times(u, length);
      line([0, 0], end, dash[c.mode]);
      if (across) marks.add(landing(end, true, "both", ink));
      if (c.range) {
        const n = times([-u[1], u[0]], 0.05);
        line([end[0] + n[0], end[1] + n[1]], [end[0] - n[0], end[1] - n[1]]);
      }
      if (c.kind === "hop") {
        // The screen it jumps over.
        const mid = times(u, length * 0.6);
        const n = times([-u[1], u[0]], 0.07);
        marks.add(`<line x1="${round(mid[0] + n[0])}" y1="${round(mid[1] + n[1])}" x2="${round(mid[0] - n[0])}" y2="${round(mid[1] - n[1])}" stroke="${ink}" stroke-width="0.05"/>`);
      }
    }
    for (const leg of c.legs || []) {
      const corner = times(project(leg.first), scale * 1.2);
      line([0, 0], corner);
      for (const t of leg.then) line(corner, [corner[0] + unit(project(t))[0] * 0.2, corner[1] + unit(project(t))[1] * 0.2]);
    }
  }
  return [...marks].join("");
}

// A man's drawing: `piece` ({name, royal, moves}) owned by `owner` ({name, code}) in `colour` with
// `ink` on it; `frame` turns the picture of its moves into the board's view (an SVG transform).
export function glyph(piece, owner, colour, ink, axes, frame) {
  const outline = ink === "#fff" ? "#ddd" : "#222";
  const letter = `<text x="0.3" y="0.32" font-size="0.2" font-weight="700" text-anchor="middle" dominant-baseline="central" fill="${outline}" stroke="${colour}" stroke-width="0.05" paint-order="stroke">${owner.code}</text>`;
  const shape = SILHOUETTES[piece.name];
  if (shape) {
    return `<path d="${shape}" transform="translate(-0.42 -0.44) scale(0.0084)" fill="${colour}" stroke="${outline}" stroke-width="3" fill-rule="evenodd"/>${letter}`;
  }
  const royal = piece.royal ? `<circle r="0.33" fill="none" stroke="${ink}" stroke-width="0.02"/>` : "";
  const marks = movementMarks(movementOf(piece.moves, owner.name), axes, ink);
  return `<circle r="0.4" fill="${colour}" stroke="#111" stroke-width="0.03"/>${royal}<g transform="${frame}">${marks}</g>${letter}`;
}

// How a man moves in one line of words, from the same components as its drawing.
export function movementWords(text, owner) {
  const levels = (vs) => {
    const across = vs.filter((v) => v[2] !== 0).length;
    return across === 0 ? "" : across === vs.length ? ", all to other levels" : `, ${across} to other levels`;
  };
  const only = { both: "", moving: " (moving only)", capturing: " (capturing only)" };
  // A leap's shape: its steps along the axes, largest first (2:1 for a Knight).
  const shapes = (vs) => [...new Set(vs.map((v) => v.map(Math.abs).filter(Boolean).sort((a, b) => b - a).join(":")))].join(", ");
  const phrases = movementOf(text, owner).map((c) => {
    const ways = `${c.vectors.length} ways${levels(c.vectors)}`;
    switch (c.kind) {
      case "leap":
        if (c.vectors.every((v) => Math.max(...v.map(Math.abs)) === 1)) return `steps one cell${only[c.mode]} (${ways})`;
        return `leaps ${shapes(c.vectors)}${only[c.mode]} (${ways})`;
      case "ride":
        return `slides${c.range ? ` up to ${c.range} cells` : ""}${only[c.mode]} along ${c.vectors.length} lines${levels(c.vectors)}`;
      case "hop":
        return `slides along ${c.vectors.length} lines${levels(c.vectors)}, capturing only by hopping over one man`;
      case "curve":
        return `slides along curved paths, ${c.vectors.length} ways, turning one place further at each step`;
      case "bent":
        return `steps ${c.legs.length} ways, then may slide on outwards`;
      default:
        return c.text;
    }
  });
  return phrases.join("; ");
}
