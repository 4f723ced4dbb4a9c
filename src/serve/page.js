// The board page's controller. It knows no rules: it asks the engine (over the link of link.js)
// for the cells (`geometry`), the men (`board`), the moves (`legal`), the state (`status`) and
// the pieces (`pieces`), keeps the game, and has board.js draw what it is told.

import { Link, field, moveCells as cellsOf, parseBoard, parseGeometry, parsePieces, parsePlayers, promotionOf as promotionIn } from "/link.js";
import { colourOf as colourIn, drawBoard, inkOn, orientation } from "/board.js";
import { glyph, movementWords } from "/glyphs.js";
import { lineText, parseRecord, pgnText, writesPgn } from "/records.js";

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------- state
const state = {
  link: null,
  game: null,
  players: [], // {code, name}
  cells: [], // {name, index, level, x, y, outline}
  byName: new Map(),
  levels: [],
  shape: "square",
  pieces: new Map(), // code -> {name, moves}
  start: null, // position string, or null for the start position
  moves: [],
  movers: [], // the player who played each move
  generation: 0, // counts new games and take-backs: a search's move for an older one is dropped
  searchGeneration: 0,
  legal: [],
  men: new Map(), // cell name -> {player, code}
  toMove: 0,
  over: false,
  selected: [], // cells clicked for the move being made
  searching: null, // "play" | "analyse" | null
  stopped: null, // resolves the wait of a `stop` when its bestmove arrives
  clocks: [],
  turnStarted: 0,
  view: 0,
  camps: [], // per player, the cells its men stood on at the start: its side of the board
  letters: false, // men drawn as letters instead of drawings
  startCounts: [], // per player, its men at the start by kind
  hovered: null, // the cell under the pointer
  reach: new Set(), // the cells the man hovered reaches on an empty board
  viewing: null, // the ply shown while stepping through the moves (null: the game as it stands)
  inCheck: new Set(), // names of the players whose royal piece is attacked
  records: [], // the moves as the engine's `record` writes them
  searchLines: [],
};

const moveCells = (mv) => cellsOf(mv, state.byName);
const promotionOf = (mv) => promotionIn(mv, state.byName);
const colourOf = (p) => colourIn(state.players, p);
function playerIndex(name) {
  return state.players.findIndex((p) => p.name === name);
}
function draw() {
  const area = $("board-area");
  const room = { width: area.clientWidth, height: window.innerHeight - area.getBoundingClientRect().top - 16 };
  const plies = state.viewing ?? state.moves.length;
  const lastMoves = lastMovesOf(state.moves.slice(0, plies), state.movers);
  const view = { ...state, seat: state.view, targets: new Set(targetCells()), room, lastMoves, arrows: analysisArrows() };
  drawBoard($("board"), view, { click: clickCell, hover: showPieceInfo });
  markReach();
  showCaptured();
}
// Counts of each player's men by kind: per player index, code -> count.
function menCounts(men) {
  const counts = state.players.map(() => new Map());
  for (const m of men.values()) {
    const p = state.players.findIndex((q) => q.code === m.player);
    if (p >= 0) counts[p].set(m.code, (counts[p].get(m.code) || 0) + 1);
  }
  return counts;
}
// The men each player has lost since the start: the kinds it has fewer of, less as many as it has
// gained by promotion (a promotion keeps the number of men), pawns first.
function showCaptured() {
  const now = menCounts(state.men);
  state.players.forEach((owner, p) => {
    const cell = document.querySelector(`[data-captured="${owner.code}"]`);
    if (!cell || !state.startCounts[p]) return;
    const start = state.startCounts[p];
    let promoted = [...now[p]].reduce((sum, [code, n]) => sum + Math.max(0, n - (start.get(code) || 0)), 0);
    const fewer = [...start].flatMap(([code, n]) => Array(Math.max(0, n - (now[p].get(code) || 0))).fill(code));
    fewer.sort((a, b) => Number(state.pieces.get(b)?.pawn) - Number(state.pieces.get(a)?.pawn));
    const lost = fewer.filter((code) => (state.pieces.get(code)?.pawn && promoted > 0 ? (promoted--, false) : true));
    const key = lost.join(" ");
    if (cell.dataset.lost === key) return;
    cell.dataset.lost = key;
    cell.replaceChildren(
      ...lost.map((code) => {
        const span = document.createElement("span");
        span.setAttribute("data-kind", code);
        span.title = state.pieces.get(code)?.name || code;
        span.innerHTML = `<svg viewBox="-0.5 -0.5 1 1" aria-hidden="true">${glyph(state.pieces.get(code), owner, colourOf(p), inkOn(state.players, p), state.axes, "scale(1 -1)")}</svg>`;
        return span;
      }),
    );
  });
}
// Every kind of man of the game as the board draws it for the player viewed, with its name.
function showLegend() {
  const p = state.view;
  const owner = state.players[p];
  if (!owner) return;
  const { angle } = orientation(state, p);
  const items = [...state.pieces].map(([code, info]) => {
    const li = document.createElement("li");
    li.setAttribute("data-kind", code);
    li.innerHTML = `<svg viewBox="-0.5 -0.5 1 1" aria-hidden="true">${glyph(info, owner, colourOf(p), inkOn(state.players, p), state.axes, `rotate(${angle}) scale(1 -1)`)}</svg> `;
    li.append(`${info.name} (${code})`);
    return li;
  });
  $("legend").querySelector("ul").replaceChildren(...items);
}
// The seat viewed: the player chosen under "View from".
function setView(p) {
  state.view = p;
  $("rotate").value = String(p);
  draw();
  showLegend();
}
// Each player's last move, from the moves played and who played them.
function lastMovesOf(moves, movers) {
  const last = state.players.map(() => []);
  moves.forEach((mv, i) => { last[movers[i]] = moveCells(mv); });
  return last;
}
// Hovering a man shows where it moves on an empty board (the engine's `reach`) and how, in words.
async function showPieceInfo(cell) {
  if (cell === state.hovered) return;
  state.hovered = cell;
  const man = state.men.get(cell);
  const info = man && state.pieces.get(man.code);
  const owner = man && state.players.find((p) => p.code === man.player);
  $("piece-info").textContent = info ? `${owner.name} ${info.name} (${man.code}, value ${info.value}): ${movementWords(info.moves, owner.name)}` : cell;
  const [line] = man ? await state.link.ask(`reach ${cell}`) : [""];
  if (state.hovered !== cell) return;
  const words = (line || "").split(" ");
  state.reach = new Set(words[0] === "reach" ? words.slice(2) : []);
  markReach();
}
function markReach() {
  for (const el of document.querySelectorAll("[data-reach]")) el.removeAttribute("data-reach");
  for (const cell of state.reach) {
    const el = document.querySelector(`[data-cell="${cell}"]`);
    if (el) el.setAttribute("data-reach", "yes");
  }
}

function seatOf(p) {
  const sel = document.querySelector(`select[data-seat="${state.players[p].code}"]`);
  return sel ? sel.value : "human";
}
function seatSetting(p, field) {
  const input = document.querySelector(`input[data-${field}="${state.players[p].code}"]`);
  return input ? Number(input.value) : 0;
}

// ---------------------------------------------------------------- moving
// Legal moves that go on from the cells clicked so far.
function candidates() {
  return state.legal.filter((mv) => {
    const cells = moveCells(mv);
    return cells.length >= state.selected.length && state.selected.every((c, i) => cells[i] === c);
  });
}
function targetCells() {
  if (!state.selected.length) return [];
  const n = state.selected.length;
  return candidates().map((mv) => moveCells(mv)[n]).filter(Boolean);
}
function humanToMove() {
  return state.viewing === null && !state.over && state.searching !== "play" && seatOf(state.toMove) === "human";
}
// The moves that end with the legs clicked so far.
function completed() {
  return candidates().filter((mv) => moveCells(mv).length === state.selected.length);
}
function clickCell(name) {
  if (!humanToMove()) return;
  const n = state.selected.length;
  if (n >= 2 && name === state.selected[n - 1] && !targetCells().includes(name)) {
    // The last cell again: stop the multi-leg move after the legs clicked.
    const done = completed();
    if (done.length) return choose(done);
  }
  state.selected.push(name);
  let left = candidates();
  if (!left.length) {
    // Not a continuation: start again from this cell.
    state.selected = state.legal.some((mv) => moveCells(mv)[0] === name) ? [name] : [];
    left = candidates();
  }
  const complete = left.filter((mv) => moveCells(mv).length === state.selected.length);
  const longer = left.filter((mv) => moveCells(mv).length > state.selected.length);
  if (state.selected.length >= 2 && complete.length && !longer.length) return choose(complete);
  $("hint").textContent = complete.length && longer.length ? "Click the next leg, or this cell again (or Finish) to stop here." : "";
  $("finish").hidden = !(complete.length && longer.length);
  draw();
}
function finishMove() {
  const done = completed();
  if (humanToMove() && done.length) choose(done);
}
// One of the moves with the same cells: ask for the promotion if they differ by it.
function choose(moves) {
  if (moves.length === 1) return play(moves[0]);
  const box = $("promotion");
  box.replaceChildren();
  for (const mv of moves) {
    const b = document.createElement("button");
    const suffix = promotionOf(mv);
    const info = state.pieces.get(suffix.toUpperCase());
    b.textContent = suffix ? (info ? info.name : suffix) : "no promotion";
    b.setAttribute("data-promotion", suffix);
    b.addEventListener("click", () => { box.hidden = true; play(mv); });
    box.appendChild(b);
  }
  box.hidden = false;
}
async function play(mv) {
  state.selected = [];
  $("hint").textContent = "";
  $("finish").hidden = true;
  await stopSearch();
  record(mv);
  await refresh();
}
// Appends a move played by the player to move, charging its clock.
function record(mv) {
  chargeClock();
  state.moves.push(mv);
  state.movers.push(state.toMove);
}

// ---------------------------------------------------------------- the game
function positionCommand(moves) {
  const base = state.start ? `position fen ${state.start}` : "position startpos";
  return moves.length ? `${base} moves ${moves.join(" ")}` : base;
}
async function refresh() {
  setViewing(null);
  // A refresh started for a game since replaced (a move arriving as a new game starts) stops at
  // its next step.
  const generation = state.generation;
  const link = state.link;
  const errors = await link.ask(positionCommand(state.moves));
  if (generation !== state.generation) return;
  if (errors.length) {
    $("hint").textContent = errors.join(" ");
    state.moves.pop();
    state.movers.pop();
  }
  const [board, legal, status, record] = await Promise.all([link.ask("board"), link.ask("legal"), link.ask("status"), link.ask("record")]);
  if (generation !== state.generation) return;
  state.records = (record[0] || "").split(" ").slice(1);
  state.men = parseBoard(board);
  state.hovered = null;
  state.reach = new Set();
  state.legal = (legal[0] || "").split(" ").filter(Boolean);
  showStatus(status[0] || "");
  showMoves();
  draw();
  // For tests and other tools: the position the page now shows.
  document.body.setAttribute("data-start", state.start || "startpos");
  document.body.setAttribute("data-plies", String(state.moves.length));
  next();
}
function showStatus(line) {
  const w = line.split(" ");
  state.over = w[1] === "over";
  state.inCheck = new Set((field(w, "incheck") || "").split(",").filter(Boolean));
  state.toMove = Math.max(0, playerIndex(w[w.indexOf("tomove") + 1]));
  let text;
  if (state.over) {
    const reason = w.includes("reason") ? w[w.indexOf("reason") + 1] : "";
    const placings = w.includes("placings") ? w[w.indexOf("placings") + 1].split(",") : [];
    text = `Game over (${reason}). ` + placings.map((p, i) => `${i + 1}. ${p.replace(/=/g, " = ")}`).join(", ");
  } else {
    text = `${state.players[state.toMove].name} to move`;
    if (state.legal.length === 1 && state.legal[0] === "0000") text += " (must pass)";
  }
  $("status").textContent = text;
  $("status").setAttribute("data-over", state.over ? "yes" : "no");
  showSummary(w);
}
// At the game's end: who won, the places and why, with a new game or an analysis of this one.
function showSummary(w) {
  const box = $("summary");
  box.hidden = !state.over;
  if (!state.over) return;
  const placings = (field(w, "placings") || "").split(",").filter(Boolean);
  const winner = field(w, "winner");
  const title = document.createElement("h2");
  title.textContent = winner ? `${winner} wins` : "Drawn";
  const reason = document.createElement("p");
  reason.textContent = `by ${(field(w, "reason") || "").replace(/-/g, " ")}`;
  const places = document.createElement("ol");
  places.replaceChildren(...placings.map((p) => Object.assign(document.createElement("li"), { textContent: p.replace(/=/g, " = ") })));
  const again = Object.assign(document.createElement("button"), { id: "summary-new", type: "button", textContent: "New game" });
  again.addEventListener("click", () => newGame(state.start));
  const analyse = Object.assign(document.createElement("button"), { id: "summary-analyse", type: "button", textContent: "Analyse this game" });
  analyse.addEventListener("click", () => {
    for (const s of document.querySelectorAll("select[data-seat]")) s.value = "human";
    $("analyse").checked = true;
    viewPly(0);
  });
  box.replaceChildren(title, reason, places, again, analyse);
}
// Shows the position after `ply` moves without taking any back (the game as it stands again at
// its last ply). Not while an engine seat is thinking; an analysis follows the position shown.
async function viewPly(ply) {
  if (state.searching === "play" || ply < 0 || ply > state.moves.length) return;
  await stopSearch();
  if (ply === state.moves.length) {
    await refresh();
    return;
  }
  const generation = state.generation;
  const link = state.link;
  await link.ask(positionCommand(state.moves.slice(0, ply)));
  const [board, status] = await Promise.all([link.ask("board"), link.ask("status")]);
  if (generation !== state.generation) return;
  state.men = parseBoard(board);
  state.inCheck = new Set((field((status[0] || "").split(" "), "incheck") || "").split(",").filter(Boolean));
  state.selected = [];
  setViewing(ply);
  draw();
  if ($("analyse").checked) startSearch("analyse");
}
function setViewing(ply) {
  state.viewing = ply;
  for (const li of document.querySelectorAll("#moves [data-ply]")) li.classList.toggle("viewing", Number(li.dataset.ply) === ply);
  if (ply === null) document.body.removeAttribute("data-view-ply");
  else document.body.setAttribute("data-view-ply", String(ply));
}
function showMoves() {
  const list = $("moves");
  list.replaceChildren();
  state.moves.forEach((mv, i) => {
    const li = document.createElement("li");
    li.setAttribute("data-ply", String(i + 1));
    li.setAttribute("data-move", mv);
    // As a record shows it: SAN in chess, the man and its cells elsewhere.
    li.textContent = state.records[i] || mv;
    li.addEventListener("click", () => viewPly(i + 1));
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}
// Starts the engine when an engine seat is to move, or the analysis on a human's turn.
function next() {
  state.turnStarted = performance.now();
  if (state.over) { showClocks(); return; }
  if (seatOf(state.toMove) === "engine") return startSearch("play");
  const pass = state.legal.length === 1 && state.legal[0] === "0000";
  if (pass) { $("hint").textContent = "No move: click a cell or wait to pass."; setTimeout(() => { if (humanToMove() && state.legal[0] === "0000") play("0000"); }, 600); return; }
  if ($("analyse").checked) startSearch("analyse");
}
async function startSearch(kind) {
  if (state.searching) return;
  state.searching = kind;
  state.searchLines = [];
  state.searchGeneration = state.generation;
  const link = state.link;
  const p = state.toMove;
  await link.ask(`setoption name MultiPV value ${kind === "analyse" ? Math.max(1, Number($("multipv").value) || 1) : 1}`);
  await link.ask(`setoption name Skill Level value ${kind === "play" ? Math.min(20, Math.max(0, seatSetting(p, "level"))) : 20}`);
  let go;
  if (kind === "analyse") go = "go infinite";
  else if ($("use-clock").checked) {
    const inc = Math.round(Number($("clock-inc").value) * 1000);
    go = "go " + state.players.map((q, i) => `${q.code}time ${Math.max(0, Math.round(state.clocks[i]))} ${q.code}inc ${inc}`).join(" ");
  } else go = `go movetime ${Math.max(10, seatSetting(p, "movetime") || 1000)}`;
  link.send(go);
}
function stopSearch() {
  if (!state.searching) return Promise.resolve();
  return new Promise((resolve) => {
    state.stopped = resolve;
    state.link.send("stop");
  });
}
function onSearchLine(l) {
  if (l.startsWith("info depth")) return showSearchInfo(l);
  if (!l.startsWith("bestmove")) return;
  const kind = state.searching;
  state.searching = null;
  if (state.stopped) { const r = state.stopped; state.stopped = null; r(); return; }
  const mv = l.split(" ")[1];
  // A move from a search of a game since replaced (new game, take back) is dropped.
  if (kind === "play" && mv && mv !== "(none)" && state.searchGeneration === state.generation) {
    record(mv);
    refresh();
  }
}
// The colours of the analysis lines, in their list and as their first move's arrow.
const LINE_COLOURS = ["#1b5fd1", "#d35400", "#8e44ad", "#16a085", "#c0392b", "#7f8c8d"];
// Each analysis line's first move as an arrow (its legs' cells), in its line's colour.
function analysisArrows() {
  if (!$("analyse").checked) return [];
  return state.searchLines.flatMap((line, i) => {
    const mv = line ? line.split("  ")[1].split(" ")[0] : "";
    return mv && mv !== "0000" ? [{ move: mv, cells: moveCells(mv), colour: LINE_COLOURS[i % LINE_COLOURS.length] }] : [];
  });
}
function showSearchInfo(l) {
  const w = l.split(" ");
  $("search-stats").textContent = `depth ${field(w, "depth")}  nodes ${field(w, "nodes")}  nps ${field(w, "nps")}` + (field(w, "currmove") ? `  at ${field(w, "currmove")}` : "");
  const k = Number(field(w, "multipv"));
  if (!k || !l.includes(" pv ")) return;
  const score = field(w, "score") === "mate" ? `mate ${field(w, "mate")}` : `${(Number(field(w, "cp")) / 100).toFixed(2)}`;
  state.searchLines[k - 1] = `${score}  ${l.split(" pv ")[1]}`;
  const list = $("analysis");
  list.replaceChildren();
  state.searchLines.forEach((line, i) => {
    if (!line) return;
    const li = document.createElement("li");
    li.textContent = line;
    li.style.borderLeft = `0.4em solid ${LINE_COLOURS[i % LINE_COLOURS.length]}`;
    list.appendChild(li);
  });
  draw();
  if (k === 1) showBars(w);
}
// A bar per player: its evaluation from its own point of view.
function showBars(w) {
  const values = state.players.map(() => 0);
  const scores = field(w, "scores");
  if (scores) {
    for (const part of scores.split(",")) {
      const [code, v] = part.split(":");
      const i = state.players.findIndex((p) => p.code === code);
      if (i >= 0) values[i] = Number(v);
    }
  } else if (field(w, "cp") !== null) {
    values[state.toMove] = Number(field(w, "cp"));
    values[1 - state.toMove] = -values[state.toMove];
  }
  const bars = $("bars");
  bars.replaceChildren();
  state.players.forEach((p, i) => {
    const row = document.createElement("div");
    row.className = "bar";
    row.setAttribute("data-bar", p.code);
    const fill = document.createElement("span");
    fill.className = "fill";
    const v = Math.max(-3000, Math.min(3000, values[i]));
    fill.style.width = `${Math.round(3 + Math.abs(v) / 20)}px`;
    fill.style.background = colourOf(i);
    row.append(`${p.name} `, fill, ` ${v > 0 ? "+" : ""}${(v / 100).toFixed(2)}`);
    bars.appendChild(row);
  });
}

// ---------------------------------------------------------------- clocks
function chargeClock() {
  if (!$("use-clock").checked) return;
  const spent = performance.now() - state.turnStarted;
  state.clocks[state.toMove] -= spent;
  state.clocks[state.toMove] += Number($("clock-inc").value) * 1000;
  state.turnStarted = performance.now();
}
function showClocks() {
  state.players.forEach((p, i) => {
    const cell = document.querySelector(`[data-clock="${p.code}"]`);
    if (!cell) return;
    let left = state.clocks[i];
    if ($("use-clock").checked && i === state.toMove && !state.over) left -= performance.now() - state.turnStarted;
    cell.textContent = $("use-clock").checked ? `${Math.max(0, left / 1000).toFixed(1)}s` : "";
    cell.classList.toggle("low", $("use-clock").checked && left < 10000);
    if ($("use-clock").checked && left < 0 && !state.over) {
      state.over = true;
      cell.classList.add("flag");
      $("status").textContent = `${p.name} lost on time`;
      $("status").setAttribute("data-over", "yes");
      stopSearch();
    }
  });
}

// ---------------------------------------------------------------- setting up
async function chooseGame(id) {
  document.body.removeAttribute("data-game");
  state.generation += 1;
  await stopSearch();
  const link = state.link;
  state.players = parsePlayers(await link.ask(`setoption name UCI_Variant value ${id}`));
  state.game = id;
  $("piece-info").textContent = "";
  Object.assign(state, parseGeometry(await link.ask("geometry")));
  state.pieces = parsePieces(await link.ask("pieces"));
  buildSeats();
  const rotate = $("rotate");
  rotate.replaceChildren(...state.players.map((p, i) => new Option(p.name, String(i))));
  await newGame(null);
  setView(0);
  document.body.setAttribute("data-game", id);
}
function buildSeats() {
  const body = $("seats").querySelector("tbody");
  body.replaceChildren();
  state.players.forEach((p, i) => {
    const tr = document.createElement("tr");
    const seat = document.createElement("select");
    seat.setAttribute("data-seat", p.code);
    seat.append(new Option("human", "human"), new Option("engine", "engine"));
    seat.value = i === 0 ? "human" : "engine";
    seat.addEventListener("change", () => {
      // A human seat is seen from its own side unless another human's already is.
      if (seatOf(state.view) !== "human") {
        const human = state.players.findIndex((_, q) => seatOf(q) === "human");
        if (human >= 0) setView(human);
      }
      if (!state.searching) next();
    });
    const ms = document.createElement("input");
    ms.type = "number"; ms.min = "10"; ms.value = "500"; ms.setAttribute("data-movetime", p.code);
    const level = document.createElement("input");
    level.type = "number"; level.min = "0"; level.max = "20"; level.value = "20"; level.setAttribute("data-level", p.code);
    const clock = document.createElement("td");
    clock.setAttribute("data-clock", p.code);
    const captured = document.createElement("td");
    captured.setAttribute("data-captured", p.code);
    captured.className = "captured";
    const name = document.createElement("td");
    name.textContent = `${p.name} (${p.code})`;
    name.style.color = colourOf(i) === "#f5f5f5" ? "#777" : colourOf(i);
    const cells = [name, seat, ms, level].map((el) => { if (el.tagName === "TD") return el; const td = document.createElement("td"); td.appendChild(el); return td; });
    tr.append(...cells, clock, captured);
    body.appendChild(tr);
  });
}
async function newGame(start) {
  state.generation += 1;
  await stopSearch();
  state.start = start;
  state.startCounts = [];
  state.moves = [];
  state.movers = [];
  state.selected = [];
  state.over = false;
  state.searchLines = [];
  $("analysis").replaceChildren();
  $("bars").replaceChildren();
  $("promotion").hidden = true;
  state.clocks = state.players.map(() => Number($("clock-base").value) * 60000);
  await state.link.ask("ucinewgame");
  await refresh();
  // The start's men say where each player's side of the board is.
  state.camps = state.players.map((p) => [...state.men].filter(([, m]) => m.player === p.code).map(([cell]) => cell));
  state.startCounts = menCounts(state.men);
  draw();
  showLegend();
}
// Takes back the last human move and the engine moves after it, so that the same human is to
// move again; with no human move to take back, one move goes and every seat becomes human (else
// the engine would play it again at once).
async function takeBack() {
  state.generation += 1;
  await stopSearch();
  if (!state.moves.length) return;
  const humanPly = state.movers.map((p) => seatOf(p) === "human").lastIndexOf(true);
  const keep = humanPly >= 0 ? humanPly : state.moves.length - 1;
  state.moves.length = keep;
  state.movers.length = keep;
  if (humanPly < 0) for (const s of document.querySelectorAll("select[data-seat]")) s.value = "human";
  state.selected = [];
  state.over = false;
  await refresh();
}
async function loadPosition() {
  const text = $("fen").value.trim();
  if (!text) return;
  const errors = await state.link.ask(`position fen ${text}`);
  if (errors.length) { $("hint").textContent = errors.join(" "); return; }
  for (const s of document.querySelectorAll("select[data-seat]")) s.value = "human";
  await newGame(text);
}
async function copyPosition() {
  const [fen] = await state.link.ask("fen");
  $("fen").value = fen;
  try { await navigator.clipboard.writeText(fen); } catch (e) { /* the text stays in the box */ }
}
// The start's position string (the game's own start when none was loaded).
async function startString() {
  if (state.start) return state.start;
  await state.link.ask("position startpos");
  const [fen] = await state.link.ask("fen");
  await state.link.ask(positionCommand(state.moves));
  return fen;
}
// The game as a file: PGN for the games written in SAN, a `fen … moves …` line for the others.
async function downloadGame() {
  const w = ((await state.link.ask("status"))[0] || "").split(" ");
  let text;
  if (writesPgn(state.game)) {
    const winner = playerIndex(field(w, "winner"));
    const result = w[1] !== "over" ? "*" : winner < 0 ? "1/2-1/2" : winner === 0 ? "1-0" : "0-1";
    const fields = (state.start || "").split(" ");
    const firstPly = state.start ? (Number(fields[5] || 1) - 1) * 2 + (fields[1] === "b" ? 1 : 0) : 0;
    const start = state.game === "chess" ? state.start : await startString();
    const date = new Date().toISOString().slice(0, 10).replace(/-/g, ".");
    const seats = state.players.map((_, i) => seatOf(i));
    text = pgnText({ game: state.game, players: state.players, seats, start, records: state.records, result, firstPly, date });
  } else {
    text = lineText(state.game, await startString(), state.moves);
  }
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
  a.download = `${state.game}.${writesPgn(state.game) ? "pgn" : "txt"}`;
  a.click();
}
// Loads a record (a file chosen under "Load game"): its game, its start and its moves, every seat
// human, the last position shown. A record the engine refuses changes nothing but the game.
async function loadRecord(text) {
  const record = parseRecord(text);
  if (record.error) { $("hint").textContent = record.error; return; }
  if (record.game && record.game !== state.game) {
    if (![...$("game").options].some((o) => o.value === record.game)) { $("hint").textContent = `unknown game ${record.game}`; return; }
    $("game").value = record.game;
    await chooseGame(record.game);
  }
  const base = record.start ? `position fen ${record.start}` : "position startpos";
  const errors = await state.link.ask(record.moves.length ? `${base} moves ${record.moves.join(" ")}` : base);
  if (errors.length) { $("hint").textContent = errors.join(" "); await state.link.ask(positionCommand(state.moves)); return; }
  const moves = ((await state.link.ask("played"))[0] || "").split(" ").slice(1);
  for (const seat of document.querySelectorAll("select[data-seat]")) seat.value = "human";
  await newGame(record.start);
  // Who made each move: the player to move before it.
  for (const mv of moves) {
    await state.link.ask(positionCommand(state.moves));
    const status = ((await state.link.ask("status"))[0] || "").split(" ");
    state.movers.push(Math.max(0, playerIndex(field(status, "tomove"))));
    state.moves.push(mv);
  }
  await refresh();
}

async function main() {
  const token = new URLSearchParams(location.search).get("token") || "";
  const link = new Link(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`, (reason) => {
    $("connection").textContent = reason ? `disconnected: ${reason}` : "disconnected";
  });
  state.link = link;
  link.onSearch = onSearchLine;
  await link.opened;
  $("connection").textContent = "connected";
  const uci = await link.ask("uci");
  const variants = (uci.find((l) => l.startsWith("option name UCI_Variant")) || "").split(" var ").slice(1);
  const select = $("game");
  select.replaceChildren(...variants.map((v) => new Option(v, v)));
  select.addEventListener("change", () => chooseGame(select.value));
  $("new-game").addEventListener("click", () => newGame(state.start));
  $("take-back").addEventListener("click", takeBack);
  $("finish").addEventListener("click", finishMove);
  $("rotate").addEventListener("change", () => setView(Number($("rotate").value)));
  $("board").addEventListener("mouseleave", () => {
    state.hovered = null;
    state.reach = new Set();
    markReach();
  });
  $("letters").addEventListener("change", () => { state.letters = $("letters").checked; draw(); });
  $("load").addEventListener("click", loadPosition);
  $("copy").addEventListener("click", copyPosition);
  $("download").addEventListener("click", downloadGame);
  $("record-file").addEventListener("change", async () => {
    const file = $("record-file").files[0];
    if (file) await loadRecord(await file.text());
    $("record-file").value = "";
  });
  $("analyse").addEventListener("change", async () => {
    if ($("analyse").checked) next();
    else if (state.searching === "analyse") await stopSearch();
    draw();
  });
  $("use-clock").addEventListener("change", () => newGame(state.start));
  setInterval(showClocks, 200);
  window.addEventListener("resize", draw);
  // The arrows step through the moves; Home and End go to the start and to the game as it stands.
  window.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    const now = state.viewing ?? state.moves.length;
    const to = { ArrowLeft: now - 1, ArrowRight: now + 1, Home: 0, End: state.moves.length }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    viewPly(to);
  });
  await chooseGame(select.value || "chess");
  document.body.setAttribute("data-ready", "yes");
}
main();
