// wargrid playground: draws a board described by the server as SVG and asks the
// JSON API for paths, ranges, sight, fog and territories as the person clicks.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const TEAM_COLORS = ["#1f5fbf", "#c42b1c"];
const HELP = {
  path: "Click a start cell, then a goal cell: the A* path and its cost appear. Change the unit class to see it change.",
  range: "Click a cell: every cell reachable within the budget, shaded by points left. Enemy units (Units tool) exert zones of control.",
  sight: "Move the mouse over the board: the field of view follows it (and the visibility polygon on square boards).",
  units: "Click to place a unit of the chosen team; click it again to remove it.",
  fog: "The fog of war of the chosen team: dark is unknown, grey explored, clear in sight. Click one of its units, then a cell, to move it.",
  territory: "Split the board between N players: territories and the fairness report.",
  paint: "Click or drag to paint terrain; paths and ranges update.",
};

const state = {
  board: null,
  meta: null,
  cellEls: [],
  tool: "path",
  start: null,
  goal: null,
  rangeStart: null,
  sightCell: -1,
  sightPoint: null,
  hoverCell: -1,
  units: [],
  nextUnit: 1,
  fogUnit: null,
  painting: false,
  paintQueue: new Map(),
  territory: null,
};

const $ = (id) => document.getElementById(id);

function setStatus(text, kind) {
  const el = $("status");
  el.textContent = text;
  el.className = kind || "";
}

// views whose newest request supersedes the older ones: an older answer that
// arrives late is dropped (the caller sees null), so it cannot paint over what a
// newer click or edit asked for
const LATEST_WINS = new Set(["path", "range", "zones", "partition"]);
const issued = {};

async function api(name, payload) {
  const ticket = (issued[name] = (issued[name] || 0) + 1);
  const opts = payload === undefined
    ? { method: "GET" }
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload) };
  let slow = setTimeout(() => setStatus(`${name}: working (the first query of a kind compiles it: up to half a minute, once)`, "busy"), 400);
  let res, data;
  try {
    res = await fetch(`/api/${name}`, opts);
    data = await res.json();
  } catch (err) {
    clearTimeout(slow);
    setStatus(`${name}: the server did not answer (${err.message})`, "error");
    throw err;
  }
  clearTimeout(slow);
  if (LATEST_WINS.has(name) && issued[name] !== ticket) {
    const e = new Error(`${name}: superseded by a newer request`);
    e.stale = true;
    throw e;
  }
  if (!res.ok) {
    const msg = (data && data.error) || `HTTP ${res.status}`;
    setStatus(`${name}: ${msg}`, "error");
    const e = new Error(msg);
    e.status = res.status;
    throw e;
  }
  return data;
}

// ---- geometry ---------------------------------------------------------------------------
function cellXY(id) {
  const w = state.board.width;
  return [id % w, Math.floor(id / w)];
}
function cellId(x, y) { return y * state.board.width + x; }
function center(id) {
  const c = state.board.centers;
  return [c[2 * id], c[2 * id + 1]];
}
function polyPoints(id, scale) {
  const [cx, cy] = center(id);
  const s = scale || 1;
  return state.board.corners.map(([dx, dy]) => `${(cx + dx * s).toFixed(4)},${(cy + dy * s).toFixed(4)}`).join(" ");
}
function el(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}
function valid(id) { return !state.board.valid || state.board.valid[id] === 1; }

// ---- drawing ------------------------------------------------------------------------------
function drawBoard() {
  const b = state.board;
  const svg = $("board");
  const [x0, y0, x1, y1] = b.bounds;
  const m = 0.3;
  const box = `${x0 - m} ${y0 - m} ${x1 - x0 + 2 * m} ${y1 - y0 + 2 * m}`;
  svg.setAttribute("viewBox", box);
  $("overlay").setAttribute("viewBox", box);
  for (const r of $("overlay").querySelectorAll("rect.all")) {
    r.setAttribute("x", x0);
    r.setAttribute("y", y0);
    r.setAttribute("width", x1 - x0);
    r.setAttribute("height", y1 - y0);
  }
  svg.dataset.kind = b.kind;
  const cells = $("cells");
  const frag = document.createDocumentFragment();
  state.cellEls = new Array(b.width * b.height);
  for (let id = 0; id < b.width * b.height; id++) {
    if (!valid(id)) continue;
    const p = el("polygon", { points: polyPoints(id), "data-id": id, fill: colorOf(id) });
    state.cellEls[id] = p;
    frag.appendChild(p);
  }
  cells.replaceChildren(frag);
  // dimming stays inside the board's own cells (hex boards do not fill their bounding box);
  // one path of every cell, used as a clip on boards small enough to redraw it cheaply
  const clip = b.width * b.height <= 20000 && (!b.square || b.valid !== null);
  $("board-outline").setAttribute("d", clip ? cellIdsAll().map((id) => `M${polyPoints(id)}Z`).join("") : "");
  for (const r of $("overlay").querySelectorAll("rect.dim")) {
    if (clip) r.setAttribute("clip-path", "url(#board-clip)");
    else r.removeAttribute("clip-path");
  }
  clearOverlays();
  drawUnits();
  fillTerrainControls();
}

function colorOf(id) {
  const b = state.board;
  const o = b.overlay ? b.overlay[id] : -1;
  return b.terrains[o >= 0 ? o : b.terrain[id]].color;
}

function cellIdsAll() {
  const out = [];
  for (let id = 0; id < state.board.width * state.board.height; id++) if (valid(id)) out.push(id);
  return out;
}

function recolor(id) {
  const p = state.cellEls[id];
  if (p) p.setAttribute("fill", colorOf(id));
}

function clearOverlays() {
  state.hoverCell = -1;
  $("hover-cell").setAttribute("points", "");
  $("shade").replaceChildren();
  undim();
  $("path").setAttribute("points", "");
  $("vispoly").setAttribute("points", "");
  $("marks").replaceChildren();
}

function shade(items) {
  // items: [id, color, opacity]
  const frag = document.createDocumentFragment();
  for (const [id, color, op] of items) {
    frag.appendChild(el("polygon", { points: polyPoints(id), fill: color, "fill-opacity": op, "data-id": id }));
  }
  $("shade").replaceChildren(frag);
}

function dim(layer, ids, color, op) {
  // darken the whole board except the cells ids (drawn as holes in a mask): the work grows
  // with the cells kept, not with the board
  const holes = $(`holes${layer}`);
  const rect = $(`dim${layer}`);
  if (ids === null) {
    holes.replaceChildren();
    rect.style.display = "none";
    return;
  }
  const frag = document.createDocumentFragment();
  for (const id of ids) frag.appendChild(el("polygon", { points: polyPoints(id), "data-id": id }));
  holes.replaceChildren(frag);
  rect.setAttribute("fill", color);
  rect.setAttribute("fill-opacity", op);
  rect.style.display = "inline";
}

function undim() { dim(0, null); dim(1, null); }

function labels(items) {
  // small numbers written in cells (points left); only on boards small enough to read them
  if (state.board.width > 48 || state.board.height > 48) return;
  const frag = document.createDocumentFragment();
  for (const [id, text] of items) {
    const [cx, cy] = center(id);
    const t = el("text", { x: cx, y: cy, class: "label" });
    t.textContent = text;
    frag.appendChild(t);
  }
  $("shade").appendChild(frag);
}

function mark(id, cls) {
  const [cx, cy] = center(id);
  $("marks").appendChild(el("circle", { cx, cy, r: 0.36, class: cls }));
}

function drawUnits() {
  const frag = document.createDocumentFragment();
  for (const u of state.units) {
    const [cx, cy] = center(cellId(u.x, u.y));
    frag.appendChild(el("circle", { cx, cy, r: 0.3, fill: TEAM_COLORS[u.team], "data-team": u.team, "data-id": cellId(u.x, u.y) }));
  }
  $("units").replaceChildren(frag);
}

function fillTerrainControls() {
  const b = state.board;
  const legend = $("legend");
  legend.replaceChildren(...b.terrains.map((t) => {
    const li = document.createElement("li");
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = t.color;
    li.append(sw, t.name);
    return li;
  }));
  const keep = $("paint-terrain").value;
  $("paint-terrain").replaceChildren(...b.terrains.map((t) => new Option(t.name, t.name)));
  if (b.terrains.some((t) => t.name === keep)) $("paint-terrain").value = keep;
  const unit = $("unit").value;
  $("unit").replaceChildren(...b.classes.map((c) => new Option(c, c)));
  if (b.classes.includes(unit)) $("unit").value = unit;
}

function showResult(html) {
  // colours are set through the DOM: the page's content policy allows no inline style attributes
  $("result").innerHTML = html;
  for (const e of $("result").querySelectorAll("[data-color]")) e.style.background = e.dataset.color;
}
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
function fmt(v) { return v === null || v === undefined ? "∞" : (Math.round(v * 100) / 100).toString(); }

// ---- boards -----------------------------------------------------------------------------
async function newBoard(ev) {
  if (ev) ev.preventDefault();
  const payload = {
    kind: $("kind").value,
    width: parseInt($("width").value, 10),
    height: parseInt($("height").value, 10),
    seed: parseInt($("seed").value, 10) || 0,
  };
  const data = await api("board", payload).catch(() => null);
  if (data) loadBoard(data);
}

function loadBoard(data) {
  state.board = data;
  // the form shows the board that is on screen
  $("kind").value = data.kind;
  $("width").value = data.width;
  $("height").value = data.height;
  state.start = state.goal = state.rangeStart = null;
  state.sightCell = -1;
  state.units = [];
  state.fogUnit = null;
  state.territory = null;
  drawBoard();
  showResult("—");
  setStatus(`${data.source}: ${data.width} × ${data.height}`);
  $("board").dataset.session = data.session;
  if (state.tool === "fog" || state.tool === "territory") refreshTool();
}

async function upload() {
  const f = $("upload").files[0];
  if (!f) return;
  if (f.size > 1500000) {
    setStatus(`${f.name} is ${f.size} bytes; the playground opens map files up to 1.5 MB`, "error");
    return;
  }
  const text = await f.text();
  const data = await api("upload", { name: f.name, text }).catch(() => null);
  if (data) loadBoard(data);
  $("upload").value = "";
}

// ---- tools --------------------------------------------------------------------------------
function base() { return { session: state.board.session }; }
function unitClass() { return $("unit").value || null; }

async function doPath() {
  $("path").setAttribute("points", "");
  $("marks").replaceChildren();
  if (state.start !== null) mark(state.start, "start");
  if (state.goal !== null) mark(state.goal, "goal");
  if (state.start === null || state.goal === null) {
    showResult(state.start === null ? "Click a start cell." : "Now click a goal cell.");
    return;
  }
  const data = await api("path", {
    ...base(), start: cellXY(state.start), goal: cellXY(state.goal), unit: unitClass(), ...sides(state.start),
  }).catch(() => null);
  if (!data) return false;
  if (!data.cells) {
    showResult(`No path for <b>${esc(data.unit)}</b>: the goal is unreachable.`);
    setStatus("no path");
    return;
  }
  const pts = data.cells.map(([x, y]) => center(cellId(x, y)).map((v) => v.toFixed(4)).join(","));
  $("path").setAttribute("points", pts.join(" "));
  showResult(`Path for <b>${esc(data.unit)}</b>: <b id="path-cost">${fmt(data.cost)}</b> movement points, ${data.cells.length - 1} steps.`);
  setStatus("path found");
}

function sides(id) {
  // the unit standing on the start cell (or a blue one) moves: the other team are enemies,
  // the rest of its own team are friends (crossed, not stopped on)
  const [x, y] = cellXY(id);
  const here = state.units.find((u) => u.x === x && u.y === y);
  const team = here ? here.team : 0;
  return {
    enemies: state.units.filter((u) => u.team !== team).map((u) => [u.x, u.y]),
    friends: state.units.filter((u) => u.team === team && u !== here).map((u) => [u.x, u.y]),
  };
}

async function doRange() {
  $("marks").replaceChildren();
  if ($("show-zones").checked) return doZones();
  if (state.rangeStart === null) {
    shade([]);
    showResult("Click a cell to see its movement range.");
    return;
  }
  mark(state.rangeStart, "start");
  const budget = parseFloat($("budget").value);
  const data = await api("range", {
    ...base(), start: cellXY(state.rangeStart), budget: isFinite(budget) ? budget : 0,
    unit: unitClass(), ...sides(state.rangeStart),
  }).catch(() => null);
  if (!data) return;
  const reached = data.cells.map(([x, y]) => cellId(x, y));
  dim(0, reached, "#0d1b2a", 0.6);
  const items = [];
  for (const [x, y, left] of data.cells) {
    const f = data.budget > 0 ? left / data.budget : 1;
    items.push([cellId(x, y), `hsl(${(60 + 60 * f).toFixed(0)},90%,${(70 - 25 * f).toFixed(0)}%)`, 0.55]);
  }
  for (const [x, y] of data.zoc || []) items.push([cellId(x, y), "#c42b1c", 0.45]);
  shade(items);
  labels(data.cells.map(([x, y, left]) => [cellId(x, y), fmt(left)]));
  $("board").dataset.reached = data.cells.length;
  showResult(`Range of <b>${esc(data.unit)}</b> with ${fmt(data.budget)} points: <b>${data.cells.length}</b> cells` +
    (data.zoc && data.zoc.length ? `, ${data.zoc.length} stopped by zones of control` : "") + ".");
  setStatus("range shown");
}

async function doZones() {
  undim();
  const data = await api("zones", { ...base(), unit: unitClass() }).catch(() => null);
  if (!data) return;
  const items = [];
  data.labels.forEach((z, id) => { if (z >= 0) items.push([id, palette(z), 0.45]); });
  shade(items);
  state.zonesHtml = `<b id="zone-count">${data.count}</b> connectivity zones for <b>${esc(data.unit)}</b>: ` +
    "cells of one colour can reach each other.";
  showResult(state.zonesHtml);
  setStatus("connectivity zones");
}

let sightBusy = false;
let sightNext = null;
async function doSight(id, point) {
  // one request at a time; while it runs, only the latest mouse position waits its turn
  if (id < 0) return;
  if (sightBusy) { sightNext = [id, point]; return; }
  sightBusy = true;
  try {
    const radius = parseInt($("radius").value, 10) || 1;
    const req = { ...base(), origin: cellXY(id), radius };
    if (point && state.board.square) req.point = point;
    const data = await api("fov", req).catch(() => null);
    if (data && state.tool === "sight") {
      dim(0, data.visible, "#0d1b2a", 0.55);
      $("board").dataset.visible = data.visible.length;
      $("marks").replaceChildren();
      mark(id, "origin");
      $("vispoly").setAttribute("points", data.polygon ? data.polygon.map(([x, y]) => `${x},${y}`).join(" ") : "");
      $("board").dataset.sight = cellXY(id).join(",");
      $("board").dataset.polygon = data.polygon ? data.polygon.length : 0;
      showResult(`From ${cellXY(id).join(", ")}: <b id="fov-count">${data.visible.length}</b> cells in view within radius ${radius}.` +
        (data.polygon ? ` Visibility polygon: ${data.polygon.length} corners.` : ""));
      setStatus("field of view");
    }
  } finally {
    sightBusy = false;
  }
  if (sightNext) {
    const [n, p] = sightNext;
    sightNext = null;
    doSight(n, p);
  }
}

function boardPoint(ev) {
  // the mouse position in drawing units
  const svg = $("board");
  const m = svg.getScreenCTM();
  if (!m) return null;
  const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
  return [Math.round(p.x * 1000) / 1000, Math.round(p.y * 1000) / 1000];
}

async function doFog() {
  const team = parseInt($("team").value, 10);
  const radius = parseInt($("radius").value, 10) || 1;
  const units = state.units.map((u) => [u.id, u.x, u.y, u.team]);
  const data = await api("fog", { ...base(), units, team, radius }).catch(() => null);
  if (!data || state.tool !== "fog") return;
  const seen = new Uint8Array(state.board.width * state.board.height);
  for (const v of data.visible) seen[v] = 1;
  // explored but out of sight: grey; never seen: near black (the two dims stack)
  dim(0, data.visible, "#1b1b1b", 0.45);
  dim(1, data.explored, "#0b0b0b", 0.73);
  // the other team's units are hidden under the fog
  for (const c of $("units").children) {
    const hidden = parseInt(c.dataset.team, 10) !== team && !seen[parseInt(c.dataset.id, 10)];
    c.style.display = hidden ? "none" : "";
  }
  $("marks").replaceChildren();
  const sel = state.units.find((u) => u.id === state.fogUnit);
  if (sel) mark(cellId(sel.x, sel.y), "origin");
  const mine = state.units.filter((u) => u.team === team).length;
  $("board").dataset.visible = data.visible.length;
  $("board").dataset.explored = data.explored.length;
  showResult(`Team <b>${team === 0 ? "blue" : "red"}</b> sees <b>${data.visible.length}</b> cells with ${mine} unit(s); ` +
    `${data.explored.length} explored. Click one of its units, then a cell, to move it.`);
  setStatus("fog of war");
}

function fogClick(id) {
  const [x, y] = cellXY(id);
  const team = parseInt($("team").value, 10);
  const here = state.units.find((u) => u.x === x && u.y === y);
  if (here && here.team === team) {
    state.fogUnit = here.id;
  } else if (!here && state.fogUnit !== null) {
    const u = state.units.find((v) => v.id === state.fogUnit);
    if (u) { u.x = x; u.y = y; drawUnits(); }
  } else {
    return;
  }
  doFog();
}

// player colours chosen to stand out from the terrain's greens, blues and browns
const PLAYER_COLORS = ["#e6194b", "#f58231", "#911eb4", "#ffe119", "#f032e6", "#000075", "#fabed4", "#800000",
  "#dcbeff", "#46f0f0", "#808000", "#ffd8b1", "#4363d8", "#aaffc3", "#9a6324", "#3cb44b"];

function palette(i) {
  return PLAYER_COLORS[i % PLAYER_COLORS.length];
}

async function doTerritory() {
  const players = parseInt($("players").value, 10);
  const mode = $("partition-mode").value || null;
  const req = { ...base(), players, mode, unit: unitClass() };
  if (mode === "scattered") req.max_chunk = parseInt($("max-chunk").value, 10) || 1;
  const data = await api("partition", req).catch(() => null);
  if (!data) return;
  state.territory = data;
  const items = [];
  data.owners.forEach((o, id) => { if (o >= 0) items.push([id, palette(o), 0.62]); });
  shade(items);
  $("marks").replaceChildren();
  for (const [x, y] of data.seeds || []) mark(cellId(x, y), "origin");
  const rep = data.report || {};
  const cols = ["cells", "chunks", "compactness", "mean_distance"].filter((k) => Array.isArray(rep[k]));
  const names = { cells: "cells", chunks: "chunks", compactness: "shape", mean_distance: "mean steps" };
  const head = `<tr><th>player</th>${cols.map((k) => `<th>${esc(names[k])}</th>`).join("")}</tr>`;
  const body = [];
  for (let i = 0; i < players; i++) {
    body.push(`<tr><td><span class="swatch" data-color="${palette(i)}"></span>${i + 1}</td>` +
      cols.map((k) => `<td>${fmt(rep[k][i])}</td>`).join("") + "</tr>");
  }
  const verdict = rep.balanced === undefined ? "" : (rep.balanced ? "balanced" : "not balanced");
  showResult(`<p id="fairness">${esc(rep.mode || "")} split, ${verdict}: spread ${fmt(rep.spread)} (tolerance ${fmt(rep.tolerance)})</p>` +
    `<table>${head}${body.join("")}</table>` +
    "<small>shape: perimeter / √cells, lower is more compact; mean steps: from the player's start (ringed) to its cells</small>");
  setStatus(`board split between ${players} players`);
}

function refreshTool() {
  if (!state.board) return;
  const t = state.tool;
  if (t !== "sight") $("vispoly").setAttribute("points", "");
  undim();
  if (t !== "fog") for (const c of $("units").children) c.style.display = "";
  if (t === "path") { shade([]); return doPath(); }
  if (t === "range") { $("path").setAttribute("points", ""); return doRange(); }
  $("path").setAttribute("points", "");
  $("marks").replaceChildren();
  if (t === "sight") { shade([]); showResult("Move the mouse over the board."); return; }
  if (t === "fog") { shade([]); return doFog(); }
  if (t === "territory") {
    if (state.territory) return doTerritory();
    shade([]);
    showResult("Choose the number of players and split the board.");
    return;
  }
  shade([]);
  if (t === "paint") return afterPaint();
  showResult(`${state.units.length} unit(s) placed.`);
}

async function afterPaint() {
  // what depends on terrain follows the edit: the path between the chosen cells, and the zones
  const zones = $("show-zones").checked;
  if (zones) await doZones();
  if (state.start !== null && state.goal !== null) {
    const shown = await doPath();
    if (zones && shown !== false) $("result").insertAdjacentHTML("afterbegin", `<p>${state.zonesHtml}</p>`);
  } else if (!zones) {
    showResult("Click or drag over the board to paint.");
  }
}

function selectTool(t) {
  state.tool = t;
  $("help").textContent = HELP[t];
  for (const o of document.querySelectorAll(".opt")) o.classList.toggle("on", o.dataset.for.split(" ").includes(t));
  $("board").dataset.tool = t;
  refreshTool();
}

// ---- painting -------------------------------------------------------------------------------
let paintTimer = null;
function paintCell(id) {
  const name = $("paint-terrain").value;
  const tid = state.board.terrains.findIndex((t) => t.name === name);
  const o = state.board.overlay ? state.board.overlay[id] : -1;
  if (tid < 0 || (state.board.terrain[id] === tid && o < 0)) return;
  state.board.terrain[id] = tid;
  if (state.board.overlay) state.board.overlay[id] = -1;
  recolor(id);
  state.paintQueue.set(id, cellXY(id));
  if (!paintTimer) paintTimer = setTimeout(flushPaint, 120);
}

let painting = false;
async function flushPaint() {
  // one batch at a time: a batch sent while another is still answered could let
  // the older batch's zones or path, computed before the newer edit, land last
  paintTimer = null;
  if (painting) return;  // the batch in flight takes the queued cells when it ends
  painting = true;
  try {
    while (state.paintQueue.size) {
      const cells = [...state.paintQueue.values()];
      state.paintQueue.clear();
      const data = await api("paint", { ...base(), cells, terrain: $("paint-terrain").value }).catch(() => null);
      if (!data) return;
      data.cells.forEach(([x, y], i) => {
        const id = cellId(x, y);
        state.board.terrain[id] = data.terrain[i];
        if (state.board.overlay) state.board.overlay[id] = data.overlay[i];
        recolor(id);
      });
      if (state.paintQueue.size) continue;  // newer cells wait: show what follows from all of them
      if (state.tool === "paint") await afterPaint();
      if (!state.paintQueue.size) setStatus(`painted ${cells.length} cell(s)`);
    }
  } finally {
    painting = false;
  }
}

// ---- events ---------------------------------------------------------------------------------
function idOf(ev) {
  const t = ev.target;
  if (!t || !t.dataset || t.dataset.id === undefined || t.parentNode.id !== "cells") return -1;
  return parseInt(t.dataset.id, 10);
}

function onClick(ev) {
  const id = idOf(ev);
  if (id < 0 || !state.board) return;
  const t = state.tool;
  if (t === "path") {
    if (state.start === null || state.goal !== null) { state.start = id; state.goal = null; }
    else state.goal = id;
    doPath();
  } else if (t === "range") {
    state.rangeStart = id;
    doRange();
  } else if (t === "units") {
    const [x, y] = cellXY(id);
    const i = state.units.findIndex((u) => u.x === x && u.y === y);
    if (i >= 0) state.units.splice(i, 1);
    else if (state.units.length < 200) state.units.push({ id: state.nextUnit++, x, y, team: parseInt($("team").value, 10) });
    drawUnits();
    refreshTool();
  } else if (t === "sight") {
    doSight(id);
  } else if (t === "fog") {
    fogClick(id);
  }
}

function onMove(ev) {
  const id = idOf(ev);
  if (id >= 0 && state.board && id !== state.hoverCell) {
    state.hoverCell = id;
    $("hover-cell").setAttribute("points", polyPoints(id));
    const [x, y] = cellXY(id);
    const b = state.board;
    const o = b.overlay ? b.overlay[id] : -1;
    $("hover").textContent = `(${x}, ${y}) ${b.terrains[b.terrain[id]].name}${o >= 0 ? " + " + b.terrains[o].name : ""}`;
  }
  if (state.tool === "sight" && id >= 0) {
    // on square boards the light follows the mouse inside its tile; elsewhere the view moves cell by cell
    let point = null;
    if (state.board.square) {
      const p = boardPoint(ev);
      const [x, y] = cellXY(id);
      if (p) point = [Math.min(Math.max(p[0], x), x + 1), Math.min(Math.max(p[1], y), y + 1)];
    }
    const last = state.sightPoint;
    const moved = point && (!last || Math.abs(point[0] - last[0]) + Math.abs(point[1] - last[1]) > 0.05);
    if (id !== state.sightCell || moved) {
      state.sightCell = id;
      state.sightPoint = point;
      doSight(id, point);
    }
  }
  if (state.tool === "paint" && state.painting && id >= 0) paintCell(id);
}

async function init() {
  $("board-form").addEventListener("submit", newBoard);
  $("upload").addEventListener("change", upload);
  for (const r of document.querySelectorAll("input[name=tool]")) r.addEventListener("change", () => selectTool(r.value));
  const svg = $("board");
  svg.addEventListener("click", onClick);
  svg.addEventListener("mousemove", onMove);
  svg.addEventListener("mousedown", (ev) => {
    if (state.tool !== "paint") return;
    state.painting = true;
    const id = idOf(ev);
    if (id >= 0) paintCell(id);
    ev.preventDefault();
  });
  window.addEventListener("mouseup", () => { if (state.painting) { state.painting = false; flushPaint(); } });
  $("unit").addEventListener("change", refreshTool);
  $("budget").addEventListener("change", refreshTool);
  $("show-zones").addEventListener("change", refreshTool);
  $("team").addEventListener("change", () => { if (state.tool === "fog") refreshTool(); });
  $("radius").addEventListener("change", refreshTool);
  $("split").addEventListener("click", doTerritory);
  $("clear-units").addEventListener("click", () => { state.units = []; drawUnits(); refreshTool(); });
  try {
    state.meta = await api("meta");
    $("partition-mode").replaceChildren(...(state.meta.partition_modes || []).map((m) => new Option(m, m)));
    $("width").max = $("height").max = state.meta.max_side;
  } catch (e) {
    return;
  }
  selectTool("path");
  await newBoard();
  document.body.dataset.ready = "1";
}

init();
