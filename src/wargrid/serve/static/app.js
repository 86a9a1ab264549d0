// wargrid playground: draws a board described by the server on canvases (terrain,
// then what a tool shades) under an SVG layer of lines and marks kept at a fixed
// width on screen, and asks the JSON API for paths, ranges, sight, fog and
// territories as the person clicks, taps or types.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const TEAM_COLORS = ["#1f5fbf", "#c42b1c"];
// territories: Paul Tol's "muted" and "light" schemes (colour-blind safe), distinct from the terrain's
const PLAYER_COLORS = ["#CC6677", "#332288", "#DDCC77", "#117733", "#88CCEE", "#882255", "#44AA99", "#999933",
  "#AA4499", "#EE8866", "#77AADD", "#EEDD88", "#FFAABB", "#99DDFF", "#BBCC33", "#000000"];
const HELP = {
  path: "Click a start cell, then a goal: the A* path and its cost. Drag the start or goal to move it. Step through shows the search.",
  range: "Click a cell: every cell reachable within the budget, with the points left. Enemy units (Units tool) exert zones of control.",
  sight: "Move the mouse (or tap) over the board: the field of view follows (and the visibility polygon on square and hex boards).",
  units: "Click to place a unit of the chosen team; click it again to remove it.",
  field: "Click a goal: the flow field toward it (an arrow per cell: its first step, thinned when cells are small) over the cost to reach the goal as colour, with its scale; numbers where cells are 16 px or more.",
  fog: "The fog of war of the chosen team: dark is unknown, grey explored, clear in sight. Click one of its units, then a cell in its reach, to move it.",
  territory: "Split the board between N players: territories, their borders and the fairness report.",
  paint: "Click or drag to paint terrain (two fingers pan on a touch screen); paths and zones update. Undo with Ctrl+Z.",
};
const QUERY_TOOLS = { path: "path", explain: "path", range: "range", zones: "range", fov: "sight", fog: "fog", partition: "territory", field: "field" };

const state = {
  board: null, meta: null, params: null, tool: "path",
  start: null, goal: null, rangeStart: null, fieldGoal: null, field: null, sightCell: -1, sightPoint: null, hoverCell: -1, cursor: -1,
  units: [], nextUnit: 1, fogUnit: null, territory: null,
  view: { scale: 20, ox: 0, oy: 0 },
  fills: null, dims: [null, null], borders: null,
  pathData: null, rangeData: null, fogData: null, explain: null,
  undo: [], redo: [], paintQueue: new Map(), painting: false,
};
const $ = (id) => document.getElementById(id);

function setStatus(text, kind) {
  const e = $("status");
  e.textContent = text;
  e.className = kind || "";
}

// ---- the API ------------------------------------------------------------------------------
// views whose newest request supersedes the older ones: a late older answer is dropped
const LATEST_WINS = new Set(["path", "range", "zones", "partition", "explain", "fog", "field"]);
const issued = {};
const answered = new Set();  // kinds of request the server has answered once (its kernels are loaded)
// each tab keeps its own boards on the server: a tab id that lives as long as the tab
const TAB = (() => {
  try {
    let t = sessionStorage.getItem("wargrid-tab");
    if (!t) { t = Array.from(crypto.getRandomValues(new Uint8Array(12)), (v) => v.toString(16).padStart(2, "0")).join(""); sessionStorage.setItem("wargrid-tab", t); }
    return t;
  } catch (e) { return ""; }
})();

async function api(name, payload, signal) {
  // signal: an AbortSignal that drops the request (a stale one: no error shown)
  const ticket = (issued[name] = (issued[name] || 0) + 1);
  const opts = payload === undefined
    ? { method: "GET" }
    : { method: "POST", headers: { "Content-Type": "application/json", "X-Wargrid-Tab": TAB }, body: JSON.stringify(payload), signal };
  setStatus(`${name}: working…`, "busy");
  const slow = answered.has(name) ? 0
    : setTimeout(() => setStatus(`${name}: working… (the server's first query of a kind may wait for its kernels)`, "busy"), 1500);
  let res, data = null;
  try {
    res = await fetch(`/api/${name}`, opts);
    const text = await res.text();
    try { data = JSON.parse(text); } catch (e) {
      if (res.ok) throw new Error(`the server's answer was not JSON (HTTP ${res.status})`);
    }
  } catch (err) {
    clearTimeout(slow);
    if (err.name === "AbortError") { err.stale = true; setStatus(`${name}: dropped for a newer one`); throw err; }
    setStatus(`${name}: the server did not answer (${err.message})`, "error");
    throw err;
  }
  clearTimeout(slow);
  answered.add(name);
  if (LATEST_WINS.has(name) && issued[name] !== ticket) {
    const e = new Error(`${name}: superseded by a newer request`);
    e.stale = true;
    throw e;
  }
  if (!res.ok) {
    const msg = (data && data.error) || `the server failed (HTTP ${res.status}${res.statusText ? " " + res.statusText : ""})`;
    failed(name, msg);
    const e = new Error(msg);
    e.status = res.status;
    throw e;
  }
  return data;
}

function failed(name, msg) {
  // an error replaces the result it was meant to update: nothing stale stays on screen
  setStatus(`${name}: ${msg}`, "error");
  if (QUERY_TOOLS[name] && QUERY_TOOLS[name] === state.tool) clearToolView();
  showResult(`<span class="error">${esc(name)}: ${esc(msg)}</span>`);
}

function refuse(msg) {
  setStatus(msg, "error");
  showResult(`<span class="error">${esc(msg)}</span>`);
  return null;
}

// numbers from the form, checked against the server's limits before anything is sent
function readNumber(id, name, integer) {
  const lim = (state.meta && state.meta.limits && state.meta.limits[name]) || [-Infinity, Infinity];
  const text = $(id).value.trim();
  const v = Number(text);
  const what = `${name} must be ${integer ? "an integer" : "a number"} in ${lim[0]}..${lim[1]}`;
  if (text === "" || !isFinite(v) || (integer && !Number.isInteger(v))) throw new Error(`${what}; got ${text === "" ? "nothing" : JSON.stringify(text)}`);
  if (v < lim[0] || v > lim[1]) throw new Error(`${what}; got ${v}`);
  return v;
}
function checked(fn) {
  try { return fn(); } catch (e) { refuse(e.message); return null; }
}

// ---- the board's geometry ------------------------------------------------------------------
function b64bytes(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function decodeBoard(d) {
  const n = d.width * d.height;
  const b = { ...d, n };
  if (typeof d.terrain === "string") {
    b.terrain = b64bytes(d.terrain);
    const o = b64bytes(d.overlay);
    b.overlay = new Int16Array(n);
    for (let i = 0; i < n; i++) b.overlay[i] = o[i] === 255 ? -1 : o[i];
    b.valid = d.valid === null ? null : b64bytes(d.valid);
  } else {
    b.terrain = Uint8Array.from(d.terrain);
    b.overlay = Int16Array.from(d.overlay);
    b.valid = d.valid === null ? null : Uint8Array.from(d.valid);
  }
  b.cx = new Float64Array(n);
  b.cy = new Float64Array(n);
  const c = d.centers;
  if (d.layers === "binary-lattice") {
    // the board repeats with period 2: centre(x, y) = centre(x % 2, y % 2) + (x / 2) step-x + (y / 2) step-y
    const ex = [c[8] - c[0], c[9] - c[1]], ey = [c[10] - c[0], c[11] - c[1]];
    for (let y = 0; y < d.height; y++) {
      for (let x = 0; x < d.width; x++) {
        const k = (x % 2) + 2 * (y % 2), hx = Math.floor(x / 2), hy = Math.floor(y / 2), id = y * d.width + x;
        b.cx[id] = c[2 * k] + hx * ex[0] + hy * ey[0];
        b.cy[id] = c[2 * k + 1] + hx * ex[1] + hy * ey[1];
      }
    }
  } else {
    const f = typeof c === "string" ? new Float32Array(b64bytes(c).buffer) : c;
    for (let i = 0; i < n; i++) { b.cx[i] = f[2 * i]; b.cy[i] = f[2 * i + 1]; }
  }
  // buckets of one drawing unit, to find the cell under a point without a search
  const [x0, y0, x1, y1] = d.bounds;
  b.bw = Math.max(1, Math.ceil(x1 - x0) + 1);
  b.bh = Math.max(1, Math.ceil(y1 - y0) + 1);
  const counts = new Int32Array(b.bw * b.bh + 1);
  const key = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const k = Math.min(b.bh - 1, Math.max(0, Math.floor(b.cy[i] - y0))) * b.bw + Math.min(b.bw - 1, Math.max(0, Math.floor(b.cx[i] - x0)));
    key[i] = k;
    counts[k + 1]++;
  }
  for (let k = 0; k < b.bw * b.bh; k++) counts[k + 1] += counts[k];
  b.bstart = counts.slice();
  b.bcells = new Int32Array(n);
  const fill = counts.slice();
  for (let i = 0; i < n; i++) b.bcells[fill[key[i]]++] = i;
  return b;
}

function cellXY(id) { const w = state.board.width; return [id % w, Math.floor(id / w)]; }
function cellId(x, y) { return y * state.board.width + x; }
function valid(id) { return !state.board.valid || state.board.valid[id] === 1; }
function center(id) { return [state.board.cx[id], state.board.cy[id]]; }
function corners(id) {
  const b = state.board;
  return b.corners.map(([dx, dy]) => [b.cx[id] + dx, b.cy[id] + dy]);
}
function polyPoints(id) { return corners(id).map(([x, y]) => `${x.toFixed(4)},${y.toFixed(4)}`).join(" "); }

function inside(id, px, py) {
  const p = corners(id);
  let sign = 0;
  for (let i = 0; i < p.length; i++) {
    const [ax, ay] = p[i], [bx, by] = p[(i + 1) % p.length];
    const s = Math.sign((bx - ax) * (py - ay) - (by - ay) * (px - ax));
    if (s === 0) continue;
    if (sign === 0) sign = s;
    else if (s !== sign) return false;
  }
  return true;
}

function cellAt(px, py) {
  // the board cell holding the drawing point (px, py), or -1
  const b = state.board;
  if (!b) return -1;
  const [x0, y0] = b.bounds;
  const kx = Math.floor(px - x0), ky = Math.floor(py - y0);
  let best = -1, bestD = Infinity;
  for (let yy = ky - 1; yy <= ky + 1; yy++) {
    if (yy < 0 || yy >= b.bh) continue;
    for (let xx = kx - 1; xx <= kx + 1; xx++) {
      if (xx < 0 || xx >= b.bw) continue;
      const k = yy * b.bw + xx;
      for (let j = b.bstart[k]; j < b.bstart[k + 1]; j++) {
        const id = b.bcells[j];
        if (!valid(id)) continue;
        const d = (b.cx[id] - px) ** 2 + (b.cy[id] - py) ** 2;
        if (d < bestD && inside(id, px, py)) { best = id; bestD = d; }
      }
    }
  }
  return best;
}

function neighbors(id) {
  // the cells one step away, by the topology's rule (the server's dx, dy by parity)
  const b = state.board, r = b.neighbors;
  if (!r) return across(id);
  const [x, y] = cellXY(id);
  const par = r.parity === 1 ? (x & 1) : r.parity === 2 ? (y & 1) : 0;
  const out = [];
  for (let d = 0; d < r.dx[par].length; d++) {
    let nx = x + r.dx[par][d];
    const ny = y + r.dy[par][d];
    if (r.wrap) nx = (nx + b.width) % b.width;
    out.push(nx >= 0 && ny >= 0 && nx < b.width && ny < b.height && valid(ny * b.width + nx) ? ny * b.width + nx : -1);
  }
  return out;
}

function across(id) {
  // the cells across each edge of cell id (-1 where the board ends)
  const p = corners(id), [cx, cy] = center(id);
  const out = [];
  for (let i = 0; i < p.length; i++) {
    const mx = (p[i][0] + p[(i + 1) % p.length][0]) / 2, my = (p[i][1] + p[(i + 1) % p.length][1]) / 2;
    out.push(cellAt(mx + (mx - cx) * 0.15, my + (my - cy) * 0.15));
  }
  return out;
}

// ---- the view: zoom and pan -----------------------------------------------------------------
function stageSize() { const r = $("board").getBoundingClientRect(); return [r.width, r.height, r.left, r.top]; }
function toWorld(sx, sy) { const v = state.view; return [(sx - v.ox) / v.scale, (sy - v.oy) / v.scale]; }
function toScreen(wx, wy) { const v = state.view; return [wx * v.scale + v.ox, wy * v.scale + v.oy]; }

function fit() {
  const b = state.board;
  if (!b) return;
  const [w, h] = stageSize();
  const [x0, y0, x1, y1] = b.bounds;
  const m = 0.5;
  const s = Math.max(0.5, Math.min((w - 8) / (x1 - x0 + 2 * m), (h - 8) / (y1 - y0 + 2 * m)));
  state.view = { scale: s, ox: (w - (x1 - x0) * s) / 2 - x0 * s, oy: (h - (y1 - y0) * s) / 2 - y0 * s };
  redraw();
}

function zoomAt(sx, sy, factor) {
  const v = state.view;
  const s = Math.min(400, Math.max(0.5, v.scale * factor));
  const [wx, wy] = toWorld(sx, sy);
  state.view = { scale: s, ox: sx - wx * s, oy: sy - wy * s };
  redraw();
}

function pan(dx, dy) { state.view.ox += dx; state.view.oy += dy; redraw(); }

let frame = 0;
function redraw() {
  if (frame) return;
  frame = requestAnimationFrame(() => { frame = 0; drawAll(); });
}

function sizeCanvas(c, w, h) {
  const r = window.devicePixelRatio || 1;
  if (c.width !== Math.round(w * r) || c.height !== Math.round(h * r)) { c.width = Math.round(w * r); c.height = Math.round(h * r); }
  const ctx = c.getContext("2d");
  const v = state.view;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, c.width, c.height);
  ctx.setTransform(r * v.scale, 0, 0, r * v.scale, r * v.ox, r * v.oy);
  return ctx;
}

function visibleIds() {
  // cells whose centre is on screen (with a margin): what a frame draws
  const b = state.board;
  const [w, h] = stageSize();
  const [ax, ay] = toWorld(-30, -30), [bx, by] = toWorld(w + 30, h + 30);
  const out = [];
  for (let i = 0; i < b.n; i++) {
    if (b.cx[i] >= ax && b.cx[i] <= bx && b.cy[i] >= ay && b.cy[i] <= by && valid(i)) out.push(i);
  }
  return out;
}

function addPoly(ctx, id) {
  const b = state.board, cs = b.corners, x = b.cx[id], y = b.cy[id];
  ctx.moveTo(x + cs[0][0], y + cs[0][1]);
  for (let k = 1; k < cs.length; k++) ctx.lineTo(x + cs[k][0], y + cs[k][1]);
  ctx.closePath();
}

const CHUNK = 16;  // cells per fill: a path of many cells rasterises slower than several small ones (Skia: 16 cells a path is ~5x quicker than 256)

function fillGroups(ctx, ids, colorOf, stroke) {
  // cells grouped by colour, filled (or stroked) a chunk at a time
  const groups = new Map();
  for (const id of ids) {
    const c = colorOf(id);
    if (!c) continue;
    let g = groups.get(c);
    if (!g) groups.set(c, (g = []));
    g.push(id);
  }
  for (const [c, g] of groups) {
    ctx.fillStyle = c;
    for (let i = 0; i < g.length; i += CHUNK) {
      ctx.beginPath();
      for (let j = i; j < Math.min(g.length, i + CHUNK); j++) addPoly(ctx, g[j]);
      if (stroke) ctx.stroke(); else ctx.fill();
    }
  }
}

function strokeSegments(ctx, segs) {
  // segs: flat [x1, y1, x2, y2, ...]
  for (let i = 0; i < segs.length; i += 4 * CHUNK) {
    ctx.beginPath();
    for (let j = i; j < Math.min(segs.length, i + 4 * CHUNK); j += 4) { ctx.moveTo(segs[j], segs[j + 1]); ctx.lineTo(segs[j + 2], segs[j + 3]); }
    ctx.stroke();
  }
}

function groundColor(id) { const b = state.board; return b.terrains[b.terrain[id]].color; }

// the terrain canvas is drawn again only when the view or the ground changes: a tool's answer redraws the shade alone
let terrainKey = "";
let terrainDraws = 0;
function terrainChanged() { terrainKey = ""; }

function drawAll() {
  const b = state.board;
  if (!b) return;
  const t0 = performance.now();
  const [w, h] = stageSize();
  const ids = visibleIds();
  const v = state.view, s = v.scale;
  if (state.explain && state.explain.fits !== undefined && (s >= 16) !== state.explain.fits && $("explain-numbers").checked) {
    explainFrame();  // numbers fit now, or no longer: the frame as numbers or as colour (drawn on the next frame)
  }
  const key = `${w}x${h} ${s} ${v.ox} ${v.oy} ${window.devicePixelRatio || 1}`;
  if (key !== terrainKey || b !== state.drawnBoard) {
    paintTerrain(sizeCanvas($("terrain"), w, h), ids, s);
    terrainKey = key;
    state.drawnBoard = b;
    terrainDraws++;
  }
  paintShade(sizeCanvas($("shade"), w, h), ids, s, true);
  // the SVG layer shows the same part of the drawing
  const [wx, wy] = toWorld(0, 0);
  $("overlay").setAttribute("viewBox", `${wx} ${wy} ${w / s} ${h / s}`);
  drawLabels(ids);
  const r = markRadius().toFixed(4);
  for (const c of $("marks").children) c.setAttribute("r", r);
  const ms = performance.now() - t0;
  $("board").dataset.drawn = String(ids.length);
  $("board").dataset.drawMs = ms.toFixed(1);
  $("board").dataset.scale = s.toFixed(3);
  $("board").dataset.terrainDraws = String(terrainDraws);
  document.dispatchEvent(new CustomEvent("board-drawn", { detail: { ms, cells: ids.length } }));
}

function paintLayers(ctx, shade, ids, s) {
  paintTerrain(ctx, ids, s);
  paintShade(shade, ids, s, false);
}

function paintTerrain(ctx, ids, s) {
  // terrain: the ground, grid lines when cells are big enough to see them, roads as lines
  fillGroups(ctx, ids, groundColor);
  if (s >= 9) {
    ctx.strokeStyle = "#00000030";
    ctx.lineWidth = 1 / s;
    fillGroups(ctx, ids, () => "#000", true);
  }
  drawRoads(ctx, ids);
}

let scratch = null;
function paintShade(ctx, ids, s, onScreen) {
  // the tool's shading: fills, dimming, borders
  if (state.fills) {
    ctx.globalAlpha = state.fills.alpha;
    fillGroups(ctx, ids, (id) => state.fills.colors[id]);
    ctx.globalAlpha = 1;
  }
  for (const d of state.dims) {
    if (!d) continue;
    let kept = 0;
    for (const id of ids) kept += d.keep[id];
    if (onScreen && 2 * kept < ids.length) {
      // few cells kept (a field of view): dim the board's box on a scratch canvas, cut the kept cells out
      // of it and lay it over: fewer cells to fill than dimming every other cell one by one
      const c = ctx.canvas;
      scratch = scratch || document.createElement("canvas");
      const sc = sizeCanvas(scratch, c.width / (window.devicePixelRatio || 1), c.height / (window.devicePixelRatio || 1));
      const [x0, y0, x1, y1] = state.board.bounds;
      sc.fillStyle = d.color;
      sc.fillRect(x0, y0, x1 - x0, y1 - y0);
      sc.globalCompositeOperation = "destination-out";
      fillGroups(sc, ids, (id) => (d.keep[id] ? "#000" : null));
      sc.globalCompositeOperation = "source-over";
      ctx.save();
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = d.alpha;
      ctx.drawImage(scratch, 0, 0);
      ctx.restore();
    } else {
      ctx.globalAlpha = d.alpha;
      fillGroups(ctx, ids, (id) => (d.keep[id] ? null : d.color));
      ctx.globalAlpha = 1;
    }
  }
  if (state.borders) {
    ctx.strokeStyle = "#111";
    ctx.lineWidth = Math.max(2, Math.min(4, s * 0.12)) / s;
    strokeSegments(ctx, state.borders);
  }
  // arrows are picked at each drawing from the cells on screen, thinned for this zoom
  let segs = null;
  if (state.explain && state.explain.k > 1) segs = arrowsOf(ids, s, searchStep, 0, 0.6);
  else if (state.field && $("field-arrows").checked) segs = arrowsOf(ids, s, flowStep, -0.25, 0.35);
  if (segs) drawArrows(ctx, segs, s);
  if (onScreen) {
    if (segs) { $("board").dataset.arrows = String(segs.length / 4); $("board").dataset.arrowStride = String(segs.stride); }
    else delete $("board").dataset.arrows;
  }
}

function searchStep(id) {
  // the cell a closed cell of the shown search frame came from (-1: none)
  const e = state.explain, i = e.index.get(id);
  return i === undefined || i < 1 || i >= e.k ? -1 : e.data.came_from[i];
}

function flowStep(id) {
  // the flow field's first step from id (-1: none)
  const d = state.field.next[id];
  if (d < 0) return -1;
  const n = neighbors(id)[d];
  return n === undefined ? -1 : n;
}

function arrowsOf(ids, s, stepOf, from, to) {
  // an arrow along each cell's step (from and to: where it starts and ends, in parts of the step), one cell in
  // stride x stride so that arrows stay at least ~12 px apart at this zoom
  const b = state.board;
  const stride = s >= 12 ? 1 : Math.ceil(12 / s);
  const out = [];
  out.stride = stride;
  for (const id of ids) {
    if (stride > 1 && ((id % b.width) % stride || Math.floor(id / b.width) % stride)) continue;
    const n = stepOf(id);
    if (n < 0) continue;
    const ax = b.cx[id], ay = b.cy[id], dx = b.cx[n] - ax, dy = b.cy[n] - ay;
    if (Math.abs(dx) > 3 || Math.abs(dy) > 3) continue;  // across a wrapped board's seam
    out.push(ax + from * dx, ay + from * dy, ax + to * dx, ay + to * dy);
  }
  return out;
}

function showScale(colorOf, top, what) {
  // the colour scale of a heat map: swatches from 0 to top
  if (colorOf === null) { $("scale").replaceChildren(); $("scale").hidden = true; return; }
  const frag = document.createDocumentFragment();
  const cap = document.createElement("span");
  cap.textContent = what;
  frag.appendChild(cap);
  for (let i = 0; i <= 6; i++) {
    const v = (top * i) / 6, sw = document.createElement("span");
    sw.className = "step";
    sw.style.background = colorOf(v);
    sw.dataset.value = fmt(v);
    sw.textContent = i === 0 || i === 6 || i === 3 ? fmt(v) : "";
    frag.appendChild(sw);
  }
  $("scale").replaceChildren(frag);
  $("scale").hidden = false;
  $("scale").dataset.top = fmt(top);
}

async function doField() {
  $("marks").replaceChildren();
  if (state.fieldGoal === null) { showResult("Click a goal cell: the flow field toward it."); return; }
  mark(state.fieldGoal, "goal");
  const asOf = resultSeq;
  const data = await api("field", { ...base(), goal: cellXY(state.fieldGoal), unit: unitClass() }).catch(() => null);
  if (!data || state.tool !== "field") return;
  const cost = new Float32Array(b64bytes(data.cost).buffer), next = new Int8Array(b64bytes(data.next).buffer);
  state.field = { cost, next, top: data.top, goal: state.fieldGoal };
  const items = [], labels = [];
  for (let id = 0; id < cost.length; id++) {
    if (!isFinite(cost[id])) continue;
    items.push([id, heat(cost[id], data.top)]);
    labels.push([id, fmt(cost[id])]);
  }
  setFills(items, 0.8);
  state.labels = labels;
  showScale((v) => heat(v, data.top), data.top, `cost to the goal (${data.unit}):`);
  $("board").dataset.reached = String(data.reached);
  const small = state.view.scale < 16;
  showResult(`Flow field toward ${cellXY(state.fieldGoal).join(", ")} for <b>${esc(data.unit)}</b>: <b id="field-count">${data.reached}</b> cells reach the goal, ` +
    `the dearest at <b>${fmt(data.top)}</b>. Colour: the cost to the goal (Map.flow_field's cost, the distance field from the goal), light 0 to dark ${fmt(data.top)}` +
    (small ? "; zoom in to 16 px cells for numbers." : "; numbers: the cost.") + " Arrows: each cell's first step (Map.flow_field's next).", asOf);
  setStatus("flow field");
  updateHover();
  redraw();
  updateLink();
}


function drawArrows(ctx, segs, s) {
  // arrows (flat [x1, y1, x2, y2, ...], head at x2, y2) of a fixed width and head size on screen
  ctx.strokeStyle = "#333";
  ctx.fillStyle = "#333";
  ctx.lineWidth = 1.2 / s;
  strokeSegments(ctx, segs);
  const head = 4.5 / s;
  for (let i = 0; i < segs.length; i += 4 * CHUNK) {
    ctx.beginPath();
    for (let j = i; j < Math.min(segs.length, i + 4 * CHUNK); j += 4) {
      const x = segs[j + 2], y = segs[j + 3], dx = x - segs[j], dy = y - segs[j + 1], len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len;
      ctx.moveTo(x, y);
      ctx.lineTo(x - head * ux + 0.6 * head * uy, y - head * uy - 0.6 * head * ux);
      ctx.lineTo(x - head * ux - 0.6 * head * uy, y - head * uy + 0.6 * head * ux);
      ctx.closePath();
    }
    ctx.fill();
  }
}

function roadSegments() {
  // each road or bridge cell joined to the next such cells across its edges (and corners on 8-direction boards)
  const b = state.board;
  const segs = [];
  for (let id = 0; id < b.n; id++) {
    if (b.overlay[id] < 0 || !valid(id)) continue;
    let linked = false;
    for (const n of neighbors(id)) {
      if (n < 0 || b.overlay[n] < 0) continue;
      linked = true;
      if (n > id) segs.push([id, n]);
    }
    if (!linked) segs.push([id, id]);
  }
  b.roads = segs;
  terrainChanged();
}

function drawRoads(ctx, ids) {
  const b = state.board;
  if (!b.roads || !b.roads.length) return;
  const s = state.view.scale;
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  const byColor = new Map();
  for (const [a, c] of b.roads) {
    if (b.overlay[a] < 0 || b.overlay[c] < 0) continue;  // painted over: drawn again when the segments are
    const col = b.terrains[b.overlay[a]].color;
    let p = byColor.get(col);
    if (!p) byColor.set(col, (p = []));
    p.push(b.cx[a], b.cy[a], a === c ? b.cx[a] + 0.01 : b.cx[c], b.cy[c]);
  }
  const width = Math.max(2.5, Math.min(10, s * 0.3)) / s;
  for (const [col, p] of byColor) {
    ctx.strokeStyle = "#ffffffb0";
    ctx.lineWidth = width + 2 / s;
    strokeSegments(ctx, p);
    ctx.strokeStyle = col;
    ctx.lineWidth = width;
    strokeSegments(ctx, p);
  }
}

function drawLabels(ids) {
  // per-cell numbers (points left, search costs), when cells are big enough to read them
  const g = $("labels");
  const items = state.labels;
  const s = state.view.scale;
  if (!items || s < 16) { g.replaceChildren(); return; }
  const show = new Set(ids);
  const frag = document.createDocumentFragment();
  const size = Math.min(0.45, 13 / s);
  for (const [id, text] of items) {
    if (!show.has(id)) continue;
    const t = el("text", { x: state.board.cx[id], y: state.board.cy[id], "font-size": size.toFixed(3) });
    t.textContent = text;
    frag.appendChild(t);
  }
  g.replaceChildren(frag);
}

// ---- what the tools draw ---------------------------------------------------------------------
function el(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  return e;
}

function setFills(items, alpha) {
  // items: [[id, colour], ...]
  if (!items) { state.fills = null; redraw(); return; }
  const colors = new Array(state.board.n);
  for (const [id, c] of items) colors[id] = c;
  state.fills = { colors, alpha, count: items.length };
  $("board").dataset.shaded = String(items.length);
  redraw();
}

function setDim(layer, ids, color, alpha) {
  // darken every cell but ids
  if (ids === null) { state.dims[layer] = null; redraw(); return; }
  const keep = new Uint8Array(state.board.n);
  for (const id of ids) keep[id] = 1;
  state.dims[layer] = { keep, color, alpha, count: ids.length };
  redraw();
}

function markRadius() { return Math.max(0.38, 9 / state.view.scale); }
function mark(id, cls) {
  const [cx, cy] = center(id);
  $("marks").appendChild(el("circle", { cx, cy, r: markRadius(), class: cls, "data-id": id }));
}

function drawUnits() {
  const frag = document.createDocumentFragment();
  for (const u of state.units) {
    const [cx, cy] = center(cellId(u.x, u.y));
    frag.appendChild(el("circle", { cx, cy, r: 0.32, fill: TEAM_COLORS[u.team], "data-team": u.team, "data-id": cellId(u.x, u.y) }));
  }
  $("units").replaceChildren(frag);
}

function clearToolView() {
  setFills(null);
  setDim(0, null);
  setDim(1, null);
  state.borders = null;
  state.labels = null;
  state.pathData = state.rangeData = state.fogData = state.field = null;
  showScale(null);
  stopExplain();
  $("path").setAttribute("points", "");
  $("vispoly").setAttribute("points", "");
  state.sightPolygon = null;
  $("rays").replaceChildren();
  $("line-marks").replaceChildren();
  $("marks").replaceChildren();
  for (const c of $("units").children) c.style.display = "";
  redraw();
}

let resultSeq = 0;  // messages shown so far
function showResult(html, asOf) {
  // asOf: the count of messages when the answer shown was asked for; a newer message (a refused move, a
  // warning) stays, and the late answer's text is dropped (its drawing is still the newest of its kind)
  if (asOf !== undefined && asOf !== resultSeq) return;
  resultSeq++;
  // colours are set through the DOM: the page's content policy allows no inline style attributes
  $("result").innerHTML = html;
  // on a phone the sheet is closed most of the time: the result's first line stays over the board
  const line = $("result").querySelector("p") || $("result");
  const text = line.textContent.trim();
  $("summary").textContent = text === "—" ? "" : text.length > 140 ? text.slice(0, 139) + "…" : text;
  for (const e of $("result").querySelectorAll("[data-color]")) e.style.background = e.dataset.color;
}
function esc(s) { return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]); }
function fmt(v) { return v === null || v === undefined ? "∞" : (Math.round(v * 100) / 100).toString(); }
function palette(i) { return PLAYER_COLORS[i % PLAYER_COLORS.length]; }

// ---- legend and hover -------------------------------------------------------------------------
function entryCost(id) {
  const b = state.board;
  const unit = unitClass() || b.classes[0];
  const o = b.overlay[id];
  const c = b.costs[unit] ? b.costs[unit][o >= 0 ? o : b.terrain[id]] : null;
  return c;
}

function fillLegend() {
  const b = state.board;
  const unit = unitClass() || b.classes[0];
  const head = `<tr><th></th><th>terrain</th><th>cost (${esc(unit)})</th><th>sight</th></tr>`;
  const rows = b.terrains.map((t, i) => {
    const c = b.costs[unit] ? b.costs[unit][i] : null;
    return `<tr data-terrain="${esc(t.name)}"><td><span class="swatch" data-color="${esc(t.color)}"></span></td><td>${esc(t.name)}</td>` +
      `<td>${c === null ? "impassable" : fmt(c)}</td><td>${t.blocks_sight ? (b.elevation ? "blocks*" : "blocks") : ""}</td></tr>`;
  });
  $("legend").innerHTML = head + rows.join("");
  for (const e of $("legend").querySelectorAll("[data-color]")) e.style.background = e.dataset.color;
  const keys = {
    path: [["#d81b60", "path (A*)"], ["#004d40", "start (ringed)"], ["#d81b60", "goal (ringed)"], ["#bcd4e6", "searched (step-through)"], ["#f6c667", "frontier (open set)"]],
    range: [["#ffd54f", "reachable, more points left"], ["#e6550d", "reachable, few points left"], ["#c42b1c", "zone of control: the move stops"], ["#0d1b2a", "out of reach (dimmed)"]],
    sight: [["#ffe98a", "visibility polygon (lit area)"], ["#0d1b2a", "out of sight (dimmed)"]],
    field: [[heat(0, 1), "the goal: cost 0"], [heat(1, 1), "the dearest cell (scale at the bottom right)"], ["#333", "arrow: the cell's first step toward the goal"]],
    units: [[TEAM_COLORS[0], "blue unit"], [TEAM_COLORS[1], "red unit"]],
    fog: [["#1b1b1b", "explored, out of sight (grey)"], ["#0b0b0b", "never seen (dark)"]],
    territory: [[PLAYER_COLORS[0], "a player's land (bordered)"], ["#111", "border between players"]],
    paint: [],
  }[state.tool] || [];
  const rule = b.elevation
    ? "<li id=\"sight-rule\">* sight: blocking terrain blocks the view unless it stands lower than the viewer's cell (heights in the hover line); the lit cells and the polygon follow this one rule</li>"
    : "<li id=\"sight-rule\">sight: blocking terrain blocks the view; the lit cells and the polygon follow this one rule</li>";
  $("keys").innerHTML = keys.map(([c, t]) => `<li><span class="swatch" data-color="${c}"></span>${esc(t)}</li>`).join("") +
    "<li>roads and bridges: lines over the ground</li>" + (state.tool === "sight" ? rule : "");
  for (const e of $("keys").querySelectorAll("[data-color]")) e.style.background = e.dataset.color;
}

// grid steps between two cells, from their centres (hex and staggered: axial coordinates; wrap ignored)
function gridSteps(a, c) {
  const b = state.board, dx = b.cx[c] - b.cx[a], dy = b.cy[c] - b.cy[a];
  if (b.kind === "square-4") return Math.round(Math.abs(dx) + Math.abs(dy));
  if (b.kind === "square-8") return Math.round(Math.max(Math.abs(dx), Math.abs(dy)));
  let q, r;
  if (b.kind === "staggered") { q = dx; r = dy - q / 2; }
  else {
    const s = Math.hypot(b.corners[0][0], b.corners[0][1]);
    if (b.kind === "hex-flat") { q = dx / (1.5 * s); r = dy / (Math.sqrt(3) * s) - q / 2; }
    else { r = dy / (1.5 * s); q = dx / (Math.sqrt(3) * s) - r / 2; }
  }
  return Math.round((Math.abs(q) + Math.abs(r) + Math.abs(q + r)) / 2);
}

// the cell the current view measures from: the path's start, the range's start, the viewer
function viewOrigin() {
  if (state.tool === "path" && state.start !== null) return [state.start, "the start"];
  if (state.tool === "range" && state.rangeStart !== null) return [state.rangeStart, "the unit"];
  if (state.tool === "field" && state.fieldGoal !== null) return [state.fieldGoal, "the goal"];
  if (state.tool === "sight" && state.sightCell >= 0) return [state.sightCell, "the viewer"];
  return null;
}

// ---- hex coordinates (wargrid.grids.hexes: axial q, r; cube s = -q - r) -------------------------
const SQ3 = Math.sqrt(3);
const HEX_DIAGONALS = [[2, -1], [1, -2], [-1, -1], [-2, 1], [-1, 2], [1, 1]];
function hexGrid() { const g = state.board && state.board.grid; return g && g.kind === "hex" ? g : null; }
function axialOf(x, y, off) {
  if (off === "odd-q") return [x, y - (x - (x & 1)) / 2];
  if (off === "even-q") return [x, y - (x + (x & 1)) / 2];
  if (off === "odd-r") return [x - (y - (y & 1)) / 2, y];
  return [x - (y + (y & 1)) / 2, y];
}
function offsetOf(q, r, off) {
  if (off === "odd-q") return [q, r + (q - (q & 1)) / 2];
  if (off === "even-q") return [q, r + (q + (q & 1)) / 2];
  if (off === "odd-r") return [q + (r - (r & 1)) / 2, r];
  return [q + (r + (r & 1)) / 2, r];
}
function hexSize() { const c = state.board.corners[0]; return Math.hypot(c[0], c[1]); }
function pixelToAxial(dx, dy, flat) {
  // a drawing offset from a hex's centre, in axial steps (fractional)
  const s = hexSize();
  return flat ? [(2 / 3) * dx / s, (-dx / 3 + dy / SQ3) / s] : [(dx / SQ3 - dy / 3) / s, (2 / 3) * dy / s];
}
function axialToPixel(q, r, flat) {
  const s = hexSize();
  return flat ? [1.5 * q * s, SQ3 * (r + q / 2) * s] : [SQ3 * (q + r / 2) * s, 1.5 * r * s];
}
function cubeRound(q, r) {
  // round each of q, r, s; the one that moved most is set again from the other two (they sum to 0)
  const s = -q - r;
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  let reset = "s";
  if (dq > dr && dq > ds) { rq = -rr - rs; reset = "q"; } else if (dr > ds) { rr = -rq - rs; reset = "r"; } else rs = -rq - rr;
  return { q: rq + 0, r: rr + 0, s: rs + 0, reset, moved: { q: dq, r: dr, s: ds }[reset] };
}
function hexCell(q, r) {
  // the board cell of axial (q, r), or -1 off the board
  const g = hexGrid(), b = state.board;
  let [x, y] = offsetOf(q, r, g.offset || "odd-q");
  if (g.wrap_x) x = ((x % b.width) + b.width) % b.width;
  return x >= 0 && y >= 0 && x < b.width && y < b.height && valid(cellId(x, y)) ? cellId(x, y) : -1;
}

function coordinates(id) {
  // the hovered cell in every system its board has: offset (the board's own), axial and cube, doubled
  const b = state.board, [x, y] = cellXY(id), g = b.grid || {};
  if (g.kind !== "hex") return `offset (${x}, ${y})`;
  const off = g.offset || "odd-q";
  const [q, r] = axialOf(x, y, off);
  const doubled = off.endsWith("q") ? `doubled (${q}, ${2 * r + q})` : `doubled (${2 * q + r}, ${r})`;
  return `${off} (${x}, ${y}) · axial (${q}, ${r}) · cube (${q}, ${r}, ${-q - r}) · ${doubled}`;
}

function diagonals(id) {
  // the cells across a corner that are not neighbours: hexes two steps away between two neighbours, a square's
  // corner cells on 4-direction boards (on 8-direction boards they are neighbours)
  const b = state.board, g = hexGrid(), [x, y] = cellXY(id);
  if (g) {
    const [q, r] = axialOf(x, y, g.offset || "odd-q");
    return HEX_DIAGONALS.map(([dq, dr]) => hexCell(q + dq, r + dr));
  }
  if (b.kind !== "square-4") return [];
  return [[1, 1], [1, -1], [-1, 1], [-1, -1]].map(([dx, dy]) => {
    const nx = x + dx, ny = y + dy;
    return nx >= 0 && ny >= 0 && nx < b.width && ny < b.height && valid(cellId(nx, ny)) ? cellId(nx, ny) : -1;
  });
}

function showNeighbors(id) {
  // the hovered cell's neighbours (and diagonals on 8-direction boards) outlined; its diagonals dashed
  const frag = document.createDocumentFragment(), diag = document.createDocumentFragment();
  if (id >= 0 && $("show-coords").checked) {
    for (const n of neighbors(id)) if (n >= 0) frag.appendChild(el("polygon", { points: polyPoints(n) }));
    for (const n of diagonals(id)) if (n >= 0) diag.appendChild(el("polygon", { points: polyPoints(n), "data-id": n }));
  }
  $("nbrs").replaceChildren(frag);
  $("diags").replaceChildren(diag);
}

function blocksSight(id, viewer) {
  // the sight rule of Map.fov: sight-blocking ground or overlay blocks, unless it stands lower than the viewer's cell
  const b = state.board, o = b.overlay[id];
  const wall = b.terrains[b.terrain[id]].blocks_sight || (o >= 0 && b.terrains[o].blocks_sight);
  return Boolean(wall) && !(b.elevation && b.elevation[id] < b.elevation[viewer]);
}

function lineSamples(a, c) {
  // the straight line from cell a to cell c sampled once a step: [[fractional x, y (drawing units)], cell] per sample.
  // Hex boards: Hex.line_to (cube lerp of both ends nudged by (+2e-6, +1e-6), each sample cube-rounded);
  // square and staggered boards: centre to centre, n = the larger of the x and y steps, each sample in the cell holding it
  const b = state.board, g = hexGrid(), out = [];
  if (g) {
    const off = g.offset || "odd-q", flat = g.orientation !== "pointy";
    const [aq, ar] = axialOf(...cellXY(a), off), [cq, cr] = axialOf(...cellXY(c), off);
    const n = (Math.abs(cq - aq) + Math.abs(cr - ar) + Math.abs(cq + cr - aq - ar)) / 2;
    for (let i = 0; i <= n; i++) {
      const t = n === 0 ? 0 : i / n, dq = (cq - aq) * t, dr = (cr - ar) * t;
      const h = cubeRound(aq + 2e-6 + dq, ar + 1e-6 + dr);
      const [px, py] = axialToPixel(dq, dr, flat);
      out.push([[b.cx[a] + px, b.cy[a] + py], hexCell(h.q, h.r)]);
    }
    return out;
  }
  const [ax, ay] = cellXY(a), [cx, cy] = cellXY(c);
  const n = Math.max(Math.abs(cx - ax), Math.abs(cy - ay));
  for (let i = 0; i <= n; i++) {
    const t = n === 0 ? 0 : i / n, px = b.cx[a] + (b.cx[c] - b.cx[a]) * t, py = b.cy[a] + (b.cy[c] - b.cy[a]) * t;
    out.push([[px, py], i === 0 ? a : i === n ? c : cellAt(px + 2e-6, py + 1e-6)]);
  }
  return out;
}

function showLine() {
  // the line from the view's origin (the start, the unit, the viewer) to the hovered cell, each step's sample and
  // the cell it rounds to, and the first cell on it that blocks sight
  const target = state.hoverCell, origin = viewOrigin();
  const off = () => { $("line-info").textContent = ""; $("line-marks").replaceChildren(); delete $("board").dataset.line; delete $("board").dataset.blocker; };
  if (!$("show-line").checked || !state.board) return off();
  if (!origin) { off(); $("line-info").textContent = "line: place a start, a unit or a viewer first"; return; }
  if (target < 0 || target === origin[0]) return off();
  const a = origin[0], samples = lineSamples(a, target);
  let blocker = -1;
  for (let i = 1; i < samples.length - 1 && blocker < 0; i++) if (samples[i][1] >= 0 && blocksSight(samples[i][1], a)) blocker = i;
  const frag = document.createDocumentFragment(), r = (2.5 / state.view.scale).toFixed(4);
  samples.forEach(([, id], i) => {
    if (id < 0) return;
    const cls = i === blocker ? "blocker" : blocker >= 0 && i > blocker ? "shadowed" : "on";
    frag.appendChild(el("polygon", { points: polyPoints(id), class: cls, "data-id": id }));
  });
  const [ax, ay] = center(a), [tx, ty] = center(target);
  frag.appendChild(el("line", { x1: ax, y1: ay, x2: tx, y2: ty }));
  for (const [[px, py]] of samples) frag.appendChild(el("circle", { cx: px, cy: py, r, class: "sample" }));
  $("line-marks").replaceChildren(frag);
  const xy = (id) => (id < 0 ? "off the board" : `(${cellXY(id).join(", ")})`);
  const f = (v) => (v + 0).toFixed(2);
  const steps = samples.slice(1).map(([[px, py], id]) => `(${f(px)}, ${f(py)})→${xy(id)}`);
  const b = state.board, bid = blocker >= 0 ? samples[blocker][1] : -1;
  const name = bid >= 0 ? b.terrains[b.overlay[bid] >= 0 && b.terrains[b.overlay[bid]].blocks_sight ? b.overlay[bid] : b.terrain[bid]].name : "";
  let text = `line ${xy(a)} → ${xy(target)}: ${samples.length - 1} steps; ` +
    (bid >= 0 ? `blocked at ${xy(bid)} (${name}): the cells after it are in its shadow` : "no cell on it blocks sight") +
    `. Samples → cells: ${steps.slice(0, 12).join(" ")}${steps.length > 12 ? " …" : ""}`;
  if (state.tool === "sight" && state.dims[0] && a === state.sightCell) {
    text += ` · Map.fov: ${state.dims[0].keep[target] ? "in view" : "not in view"} (shadowcasting, not this one line)`;
  }
  $("line-info").textContent = text;
  $("board").dataset.line = samples.map(([, id]) => (id < 0 ? "-" : cellXY(id).join(","))).join(" ");
  $("board").dataset.blocker = bid >= 0 ? cellXY(bid).join(",") : "";
}

function showRays() {
  // the visibility polygon's rays on demand: a segment from the light to each corner
  const p = state.sightPolygon;
  if (!$("show-rays").checked || state.tool !== "sight" || !p || !p.points.length) { $("rays").replaceChildren(); $("board").dataset.rays = "0"; return; }
  const frag = document.createDocumentFragment(), [lx, ly] = p.light;
  for (const [x, y] of p.points) frag.appendChild(el("line", { x1: lx, y1: ly, x2: x, y2: y }));
  $("rays").replaceChildren(frag);
  $("board").dataset.rays = String(p.points.length);
}

function showRounding() {
  // pixel -> cell on demand: the pointer's fractional coordinate and the cell it rounds to
  const p = state.pointer, on = $("show-rounding").checked && p && state.board;
  if (!on) { $("rounding").textContent = ""; $("round-marks").replaceChildren(); delete $("board").dataset.rounding; return; }
  const b = state.board, g = hexGrid(), [px, py] = p, f = (v) => (v + 0).toFixed(2);
  let text, cell;
  if (g) {
    // fractional axial from the nearest hex centre found by shape, so any board origin and hex size work
    const near = state.hoverCell >= 0 ? state.hoverCell : cellAt(px, py);
    if (near < 0) { $("rounding").textContent = ""; $("round-marks").replaceChildren(); return; }
    const [x0, y0] = cellXY(near), [q0, r0] = axialOf(x0, y0, g.offset || "odd-q");
    const [dq, dr] = pixelToAxial(px - b.cx[near], py - b.cy[near], g.orientation !== "pointy");
    const q = q0 + dq, r = r0 + dr, c = cubeRound(q, r);
    cell = hexCell(c.q, c.r);
    const [ox, oy] = offsetOf(c.q, c.r, g.offset || "odd-q");
    text = `pixel (${f(px)}, ${f(py)}) → cube (${f(q)}, ${f(r)}, ${f(-q - r)}) → rounded (${c.q}, ${c.r}, ${c.s}): ` +
      `${c.reset} moved most in rounding (${c.moved.toFixed(2)}), so ${c.reset} = ${{ q: "−r−s", r: "−q−s", s: "−q−r" }[c.reset]} → ` +
      `${g.offset || "odd-q"} (${ox}, ${oy})`;
    $("board").dataset.rounding = `${c.q},${c.r},${c.s}`;
    $("board").dataset.fraction = `${q.toFixed(4)},${r.toFixed(4)}`;
  } else {
    cell = cellAt(px, py);
    if (cell < 0) { $("rounding").textContent = ""; $("round-marks").replaceChildren(); return; }
    const [x, y] = cellXY(cell);
    text = b.square
      ? `pixel (${f(px)}, ${f(py)}) → floor → (${x}, ${y}) (tile (x, y) covers x..x+1, y..y+1)`
      : `pixel (${f(px)}, ${f(py)}) → the staggered square holding it: (${x}, ${y})`;
    $("board").dataset.rounding = `${x},${y}`;
  }
  $("rounding").textContent = text;
  const frag = document.createDocumentFragment();
  if (cell >= 0) {
    const [cx, cy] = center(cell);
    frag.appendChild(el("line", { x1: px, y1: py, x2: cx, y2: cy }));
    frag.appendChild(el("circle", { cx, cy, r: (3 / state.view.scale).toFixed(4), class: "to" }));
  }
  frag.appendChild(el("circle", { cx: px, cy: py, r: (3.5 / state.view.scale).toFixed(4), class: "from" }));
  $("round-marks").replaceChildren(frag);
}

function updateHover() {
  const id = state.hoverCell >= 0 ? state.hoverCell : state.cursor;
  const b = state.board;
  if (!b || id < 0 || id >= b.n) { $("hover").textContent = ""; $("coords").textContent = ""; $("hover-cell").setAttribute("points", ""); showNeighbors(-1); return; }
  $("hover-cell").setAttribute("points", state.hoverCell >= 0 ? polyPoints(state.hoverCell) : "");
  showNeighbors(state.hoverCell);
  const [x, y] = cellXY(id);
  $("coords").textContent = $("show-coords").checked ? coordinates(id) : "";
  if (state.tool === "fog" && state.fogData && !state.fogData.explored[id]) {
    $("hover").textContent = `(${x}, ${y}) unexplored`;
    return;
  }
  const o = b.overlay[id];
  const parts = [`(${x}, ${y}) ${b.terrains[b.terrain[id]].name}${o >= 0 ? " + " + b.terrains[o].name : ""}`];
  const c = entryCost(id);
  parts.push(`entry ${c === null ? "impassable" : fmt(c)} for ${unitClass() || b.classes[0]}`);
  if (b.elevation && state.tool === "sight") parts.push(`height ${fmt(b.elevation[id])}`);
  if (state.tool === "path" && state.pathData) {
    const k = state.pathData.index.get(id);
    if (k !== undefined) parts.push(`on the path: cost so far ${fmt(state.pathData.so_far[k])}, step ${k} of ${state.pathData.cells.length - 1}`);
  }
  if (state.tool === "path" && state.explain) {
    const e = state.explain.data, k = state.explain.index.get(id);
    if (k !== undefined && k < state.explain.k) {
      const g = e.cost[k], h = e.h[k] * e.hscale;
      const f = e.algorithm === "astar" ? g + h : e.algorithm === "greedy" ? h : g;
      parts.push(`searched: g ${fmt(g)}, h ${fmt(h)}, f ${fmt(f)}`);
    }
  }
  if (state.tool === "field" && state.field) {
    const c = state.field.cost[id];
    parts.push(isFinite(c) ? `cost to the goal ${fmt(c)}` : "no way to the goal");
  }
  if (state.tool === "range" && state.rangeData) {
    const left = state.rangeData.left.get(id);
    if (left !== undefined) {
      parts.push(state.rangeData.zoc.has(id) ? "zone of control: the move stops here"
        : `points left ${fmt(left)}, cost so far ${fmt(state.rangeData.budget - left)}`);
    } else parts.push("out of reach");
  }
  const origin = viewOrigin();
  if (origin !== null && origin[0] !== id) {
    const k = gridSteps(origin[0], id);
    parts.push(`${k} step${k === 1 ? "" : "s"} from ${origin[1]}`);
  }
  $("hover").textContent = parts.join(" · ");
}

// ---- boards -----------------------------------------------------------------------------------
function boardForm() {
  return checked(() => ({
    kind: $("kind").value,
    width: readNumber("width", "width", true),
    height: readNumber("height", "height", true),
    seed: readNumber("seed", "seed", true),
  }));
}

async function newBoard(ev, params) {
  if (ev) ev.preventDefault();
  const p = params || boardForm();
  if (!p) return null;
  const data = await api("board", { ...p, layers: "binary" }).catch(() => null);
  if (data) { loadBoard(data, p); $("seed").value = p.seed; }
  return data;
}

function loadBoard(data, params) {
  const t0 = performance.now();
  state.board = decodeBoard(data);
  state.orig = { terrain: state.board.terrain.slice(), overlay: state.board.overlay.slice() };
  state.params = params || null;
  $("kind").value = data.kind;
  $("width").value = data.width;
  $("height").value = data.height;
  state.start = state.goal = state.rangeStart = state.fieldGoal = null;
  state.sightCell = -1;
  state.hoverCell = -1;
  state.cursor = -1;
  state.units = [];
  state.fogUnit = null;
  state.territory = null;
  state.undo = [];
  state.redo = [];
  roadSegments();
  fillTerrainControls();
  clearToolView();
  drawUnits();
  $("cursor").setAttribute("points", "");
  updateHover();
  updateHistoryButtons();
  showResult("—");
  setStatus(`${data.source}: ${data.width} × ${data.height}`);
  $("board").dataset.session = data.session;
  fit();
  requestAnimationFrame(() => { $("board").dataset.loadMs = (performance.now() - t0).toFixed(1); });
  refreshTool();
  updateLink();
}

function fillTerrainControls() {
  const b = state.board;
  const keep = $("paint-terrain").value;
  $("paint-terrain").replaceChildren(...b.terrains.map((t) => new Option(t.name, t.name)));
  if (b.terrains.some((t) => t.name === keep)) $("paint-terrain").value = keep;
  const unit = $("unit").value;
  $("unit").replaceChildren(...b.classes.map((c) => new Option(c, c)));
  if (b.classes.includes(unit)) $("unit").value = unit;
  fillLegend();
}

async function upload() {
  const f = $("upload").files[0];
  if (!f) return;
  if (f.size > 1500000) {
    refuse(`${f.name} is ${f.size} bytes; the playground opens map files up to 1.5 MB`);
    return;
  }
  const text = await f.text();
  const prop = $("terrain-property").value.trim() || "terrain";
  const data = await api("upload", { name: f.name, text, terrain_property: prop, layers: "binary" }).catch(() => null);
  if (data) loadBoard(data, null);
  $("upload").value = "";
}

// ---- tools --------------------------------------------------------------------------------------
function base() { return { session: state.board.session }; }
function unitClass() { return $("unit").value || null; }

function markEnds() {
  // the start and the goal ringed, the old path gone
  $("path").setAttribute("points", "");
  $("marks").replaceChildren();
  state.pathData = null;
  if (state.start !== null) mark(state.start, "start");
  if (state.goal !== null) mark(state.goal, "goal");
}

// while a search is dragged, the path is asked for once the pointer rests (or is let go): a request per step
// would compete with the search's own; one still running when the pointer moves on is dropped
let pathTimer = 0, pathAbort = null;
function pathLater(ms) {
  clearTimeout(pathTimer);
  if (pathAbort) pathAbort.abort();
  pathAbort = null;
  pathTimer = setTimeout(() => {
    if (state.tool !== "path") return;
    pathAbort = new AbortController();
    doPath(pathAbort.signal);
  }, ms);
}

async function doPath(signal) {
  markEnds();
  if (state.start === null || state.goal === null) {
    showResult(state.start === null ? "Click a start cell." : "Now click a goal cell (another cell than the start).");
    updateHover();
    return;
  }
  const asOf = resultSeq;
  const data = await api("path", {
    ...base(), start: cellXY(state.start), goal: cellXY(state.goal), unit: unitClass(), ...sides(state.start),
  }, signal).catch(() => null);
  if (!data) return false;
  if (!data.cells) {
    showResult(`No path for <b>${esc(data.unit)}</b>: <span id="no-path">${esc(data.reason || "the goal is unreachable")}</span>.`, asOf);
    setStatus("no path");
    updateHover();
    return;
  }
  const pts = data.cells.map(([x, y]) => center(cellId(x, y)).map((v) => v.toFixed(4)).join(","));
  $("path").setAttribute("points", pts.join(" "));
  state.pathData = { ...data, index: new Map(data.cells.map(([x, y], k) => [cellId(x, y), k])) };
  showResult(`Path for <b>${esc(data.unit)}</b>: <b id="path-cost">${fmt(data.cost)}</b> movement points, ${data.cells.length - 1} steps.`, asOf);
  setStatus("path found");
  updateHover();
  updateLink();
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
    setFills(null);
    showResult("Click a cell to see its movement range.");
    return;
  }
  mark(state.rangeStart, "start");
  const budget = checked(() => readNumber("budget", "budget", false));
  if (budget === null) { clearToolView(); mark(state.rangeStart, "start"); return; }
  const asOf = resultSeq;
  const data = await api("range", {
    ...base(), start: cellXY(state.rangeStart), budget, unit: unitClass(), ...sides(state.rangeStart),
  }).catch(() => null);
  if (!data) return;
  const reached = data.cells.map(([x, y]) => cellId(x, y));
  setDim(0, reached, "#0d1b2a", 0.6);
  const zoc = new Set((data.zoc || []).map(([x, y]) => cellId(x, y)));
  const items = [];
  for (const [x, y, left] of data.cells) {
    const id = cellId(x, y);
    items.push([id, zoc.has(id) ? "#c42b1c" : rangeColor(left, data.budget)]);
  }
  setFills(items, 0.55);
  showScale((v) => rangeColor(v, data.budget), data.budget, "points left:");
  state.rangeData = { left: new Map(data.cells.map(([x, y, l]) => [cellId(x, y), l])), zoc, budget: data.budget };
  state.labels = data.cells.map(([x, y, left]) => [cellId(x, y), zoc.has(cellId(x, y)) ? "■" : fmt(left)]);
  $("board").dataset.reached = data.cells.length;
  const why = data.reason ? ` <span id="range-reason">(${esc(data.reason)})</span>` : "";
  showResult(`Range of <b>${esc(data.unit)}</b> with ${fmt(data.budget)} points: <b>${data.cells.length}</b> cells` +
    (zoc.size ? `, ${zoc.size} stopped by zones of control (■)` : "") + `.${why}`, asOf);
  setStatus("range shown");
  updateHover();
  redraw();
  updateLink();
}

function rangeColor(left, budget) {
  const f = budget > 0 ? left / budget : 1;
  return `hsl(${(20 + 30 * f).toFixed(0)},95%,${(55 + 15 * f).toFixed(0)}%)`;
}

async function doZones() {
  setDim(0, null);
  state.labels = null;
  const asOf = resultSeq;
  const data = await api("zones", { ...base(), unit: unitClass() }).catch(() => null);
  if (!data) return;
  const items = [];
  data.labels.forEach((z, id) => { if (z >= 0) items.push([id, palette(z)]); });
  setFills(items, 0.5);
  state.zonesHtml = `<b id="zone-count">${data.count}</b> connectivity zones for <b>${esc(data.unit)}</b>: ` +
    "cells of one colour can reach each other.";
  showResult(state.zonesHtml, asOf);
  setStatus("connectivity zones");
}

let sightBusy = false;
let sightNext = null;
async function doSight(id, point) {
  // one request at a time; while it runs, only the latest position waits its turn
  if (id < 0) return;
  if (sightBusy) { sightNext = [id, point]; return; }
  const radius = checked(() => readNumber("radius", "radius", true));
  if (radius === null) { clearToolView(); return; }
  sightBusy = true;
  try {
    const req = { ...base(), origin: cellXY(id), radius };
    if (point && state.board.square) req.point = point;
    const data = await api("fov", req).catch(() => null);
    const b = state.board;
    if (data && state.tool === "sight") {
      setDim(0, data.visible, "#0d1b2a", 0.55);
      $("board").dataset.visible = data.visible.length;
      $("marks").replaceChildren();
      mark(id, "origin");
      $("vispoly").setAttribute("points", data.polygon ? data.polygon.map(([x, y]) => `${x},${y}`).join(" ") : "");
      state.sightPolygon = data.polygon ? { points: data.polygon, light: req.point || center(id) } : null;
      showRays();
      showLine();
      $("board").dataset.sight = cellXY(id).join(",");
      $("board").dataset.polygon = data.polygon ? data.polygon.length : 0;
      const cut = data.polygon && data.polygon_radius < data.sight_radius - 1e-9;
      $("board").dataset.polygonCut = cut ? "1" : "";
      showResult(`From ${cellXY(id).join(", ")}: <b id="fov-count">${data.visible.length}</b> cells in view within radius ${radius}` +
        (b.elevation ? ` (viewer's height ${fmt(b.elevation[id])})` : "") + "." +
        (data.polygon ? ` Visibility polygon: ${data.polygon.length} corners` +
          (cut ? `, drawn within ${fmt(data.polygon_radius)} units of the viewer (many blockers in range: the lit cells go on to the full radius)` : "") + "." : ""));
      setStatus("field of view");
      requestAnimationFrame(() => document.dispatchEvent(new CustomEvent("sight-drawn", { detail: { cell: id } })));
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

async function doFog() {
  const team = parseInt($("team").value, 10);
  const radius = checked(() => readNumber("radius", "radius", true));
  if (radius === null) { clearToolView(); return; }
  const units = state.units.map((u) => [u.id, u.x, u.y, u.team]);
  const asOf = resultSeq;
  const data = await api("fog", { ...base(), units, team, radius }).catch(() => null);
  if (!data || state.tool !== "fog") return;
  const seen = new Uint8Array(state.board.n), explored = new Uint8Array(state.board.n);
  for (const v of data.visible) seen[v] = 1;
  for (const v of data.explored) explored[v] = 1;
  state.fogData = { seen, explored };
  // explored but out of sight: grey; never seen: near black (the two dims stack)
  setDim(0, data.visible, "#1b1b1b", 0.45);
  setDim(1, data.explored, "#0b0b0b", 0.73);
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
    `${data.explored.length} explored. Click one of its units, then a cell in its reach, to move it.`, asOf);
  setStatus("fog of war");
  updateHover();
}

async function fogClick(id) {
  const [x, y] = cellXY(id);
  const team = parseInt($("team").value, 10);
  const here = state.units.find((u) => u.x === x && u.y === y);
  if (here && here.team === team) {
    state.fogUnit = here.id;
  } else if (!here && state.fogUnit !== null) {
    // a move goes only where the unit class can walk within a move's budget: no teleports
    const u = state.units.find((v) => v.id === state.fogUnit);
    if (!u) return;
    const budget = checked(() => readNumber("move-budget", "budget", false));
    if (budget === null) return;
    const from = cellId(u.x, u.y);
    const r = await api("range", { ...base(), start: [u.x, u.y], budget, unit: unitClass(), ...sides(from) }).catch(() => null);
    if (!r) return;
    if (!r.cells.some(([cx, cy]) => cx === x && cy === y)) {
      const t = state.board.terrains[state.board.terrain[id]].name;
      refuse(`the ${unitClass()} unit at (${u.x}, ${u.y}) cannot reach (${x}, ${y}) (${t}) with ${fmt(budget)} points`);
      $("board").dataset.refused = `${x},${y}`;
      return;
    }
    u.x = x;
    u.y = y;
    drawUnits();
  } else {
    return;
  }
  doFog();
}

async function doTerritory() {
  const players = checked(() => readNumber("players", "players", true));
  if (players === null) { clearToolView(); return; }
  const mode = $("partition-mode").value || null;
  const req = { ...base(), players, mode, unit: unitClass() };
  if (mode === "scattered") {
    req.max_chunk = checked(() => readNumber("max-chunk", "max_chunk", true));
    if (req.max_chunk === null) { clearToolView(); return; }
  }
  const data = await api("partition", req).catch(() => null);
  if (!data) return;
  state.territory = data;
  const items = [];
  data.owners.forEach((o, id) => { if (o >= 0) items.push([id, palette(o)]); });
  setFills(items, 0.6);
  // borders: the edges between cells of different owners
  const borders = [];
  let edges = 0;
  for (let id = 0; id < state.board.n; id++) {
    const o = data.owners[id];
    if (o < 0) continue;
    const p = corners(id), nb = across(id);
    for (let i = 0; i < p.length; i++) {
      const n = nb[i];
      if (n >= 0 && data.owners[n] === o) continue;
      if (n > id && data.owners[n] >= 0) continue;  // drawn once, from the lower id
      borders.push(...p[i], ...p[(i + 1) % p.length]);
      edges++;
    }
  }
  state.borders = borders;
  $("board").dataset.borders = String(edges);
  $("marks").replaceChildren();
  for (const s of data.seeds || []) if (s) mark(cellId(s[0], s[1]), "origin");
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
  const scattered = data.mode === "scattered"
    ? "<p>Scattered mode: each player owns several small chunks (at most the largest-chunk size each) spread over the board, so no one holds one region.</p>" : "";
  showResult(`<p id="fairness">${esc(rep.mode || "")} split, ${verdict}: spread ${fmt(rep.spread)} (tolerance ${fmt(rep.tolerance)})</p>` +
    `<table>${head}${body.join("")}</table>${scattered}` +
    "<small>shape: perimeter / √cells, lower is more compact; mean steps: from the player's start (ringed) to its cells</small>");
  setStatus(`board split between ${players} players`);
}

function refreshTool() {
  if (!state.board) return;
  const t = state.tool;
  clearToolView();
  fillLegend();
  if (t === "path") return doPath();
  if (t === "range") return doRange();
  if (t === "field") return doField();
  if (t === "sight") { showResult("Move the mouse over the board, or tap a cell."); return; }
  if (t === "fog") return doFog();
  if (t === "territory") {
    if (state.territory) return doTerritory();
    showResult("Choose the number of players and split the board.");
    return;
  }
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

function lineHelp() {
  return $("show-line").checked ? (state.tool === "sight" ? " Line: click to place the viewer, hover a cell to draw the line to it."
    : " Line: from the start (Path) or the unit (Range) to the hovered cell.") : "";
}

function selectTool(t) {
  state.tool = t;
  $("help").textContent = HELP[t] + lineHelp();
  for (const o of document.querySelectorAll(".opt")) o.classList.toggle("on", o.dataset.for.split(" ").includes(t));
  $("board").dataset.tool = t;
  const r = document.querySelector(`input[name=tool][value=${t}]`);
  if (r && !r.checked) r.checked = true;
  refreshTool();
  updateLink();
}

// ---- the search, step by step ------------------------------------------------------------------
function stopExplain() {
  if (state.explain && state.explain.timer) clearInterval(state.explain.timer);
  state.explain = null;
  $("explain-info").textContent = "";
}

const SEARCH_NAMES = { astar: "A*", dijkstra: "Dijkstra", greedy: "greedy best-first", bfs: "breadth-first" };

async function startExplain() {
  if (state.start === null) return refuse("click a start cell first");
  const data = await api("explain", {
    ...base(), start: cellXY(state.start), goal: state.goal === null ? null : cellXY(state.goal), unit: unitClass(),
    algorithm: $("search-algorithm").value, early: $("search-early").checked, arrays: "binary",
  }).catch(() => null);
  if (!data) return null;
  decodeSearch(data);
  stopExplain();
  const index = new Map();
  data.order.forEach((id, i) => index.set(id, i));
  state.explain = { data, k: 0, timer: null, index };
  setStatus(`${SEARCH_NAMES[data.algorithm]}: ${data.order.length} cells closed`);
  return data;
}

function decodeSearch(d) {
  // the search's arrays arrive as base64 little-endian int32 (ids, counts) and float32 (g, h)
  if (d.arrays !== "binary") return;
  for (const k of ["order", "came_from", "opened", "opened_at"]) d[k] = new Int32Array(b64bytes(d[k]).buffer);
  for (const k of ["cost", "h"]) d[k] = new Float32Array(b64bytes(d[k]).buffer);
}

function heat(v, top) {
  // a sequential scale, light (0) to dark (top): the cost so far where numbers do not fit
  const f = top > 0 ? Math.min(1, v / top) : 0;
  return `hsl(${(205 - 160 * f).toFixed(0)},70%,${(88 - 50 * f).toFixed(0)}%)`;
}

function explainFrame() {
  const e = state.explain;
  if (!e) return;
  const { order, cost, opened, opened_at: openedAt } = e.data;
  const k = e.k;
  const b = state.board;
  const s = state.view.scale;
  const settled = new Uint8Array(b.n);
  for (let i = 0; i < k; i++) settled[order[i]] = 1;
  const open = [];
  for (let j = 0; j < opened.length && openedAt[j] <= k; j++) if (!settled[opened[j]]) open.push(opened[j]);
  const wantNumbers = $("explain-numbers").checked;
  const fits = s >= 16;
  const heatMap = wantNumbers && !fits;
  let top = 0;
  if (heatMap) for (let i = 0; i < k; i++) top = Math.max(top, cost[i] || 0);
  const items = [];
  for (let i = 0; i < k; i++) items.push([order[i], heatMap ? heat(cost[i] || 0, top) : "#bcd4e6"]);
  for (const id of open) items.push([id, "#f6c667"]);
  setFills(items, heatMap ? 0.85 : 0.75);
  showScale(heatMap ? (v) => heat(v, top) : null, top, "cost so far:");
  // the came-from arrows are drawn from the frame's cells on screen (paintShade), thinned for the zoom
  e.fits = fits;
  state.labels = wantNumbers ? Array.from(order.subarray ? order.subarray(0, k) : order.slice(0, k), (id, i) => [id, fmt(cost[i])]) : null;
  $("board").dataset.explainStep = String(k);
  $("board").dataset.openSet = String(open.length);
  $("board").dataset.heat = heatMap ? "1" : "";
  const done = k >= order.length;
  const name = SEARCH_NAMES[e.data.algorithm] || e.data.algorithm;
  $("explain-info").textContent = `${name}, step ${k} of ${order.length}: ${k} closed, ${open.length} in the open set` +
    (done && e.data.goal_reached ? " — goal reached" : "") +
    (done && (!e.data.goal_reached || e.data.early === false) ? " — every reachable cell searched" : "") +
    (heatMap ? `. Cells are ${s.toFixed(0)} px, too small for numbers (16 px): colour shows the cost so far, light 0 to dark ${fmt(top)}; zoom in for numbers.` : "");
  if (done) setStatus(`${name}: done, ${k} cells closed`);
  redraw();
}

async function explainPlay() {
  if (!state.explain) { if (!(await startExplain())) return; }
  const e = state.explain;
  if (e.timer) return;
  if (e.k >= e.data.order.length) e.k = 0;
  const per = Math.max(1, Math.ceil(e.data.order.length / 80));
  e.timer = setInterval(() => {
    e.k = Math.min(e.data.order.length, e.k + per);
    explainFrame();
    if (e.k >= e.data.order.length) { clearInterval(e.timer); e.timer = null; }
  }, 60);
  setStatus(`${SEARCH_NAMES[e.data.algorithm]}: playing`);
}
function explainPause() {
  if (state.explain && state.explain.timer) { clearInterval(state.explain.timer); state.explain.timer = null; }
  if (state.explain) setStatus(`${SEARCH_NAMES[state.explain.data.algorithm]}: paused at step ${state.explain.k}`);
}
async function explainStep() {
  if (!state.explain) { if (!(await startExplain())) return; }
  explainPause();
  state.explain.k = Math.min(state.explain.data.order.length, state.explain.k + 1);
  explainFrame();
}

// a drag of the start or the goal with a search shown runs the search again and shows its last frame
let liveBusy = false, liveAgain = false;
async function liveSearch() {
  if (liveBusy) { liveAgain = true; return; }
  liveBusy = true;
  const t0 = performance.now();
  try {
    const data = await startExplain();
    if (data) {
      state.explain.k = data.order.length;
      explainFrame();
      const ms = performance.now() - t0;
      requestAnimationFrame(() => {
        $("board").dataset.frontierMs = (performance.now() - t0).toFixed(1);
        document.dispatchEvent(new CustomEvent("frontier-drawn", { detail: { ms } }));
      });
    }
  } finally {
    liveBusy = false;
  }
  if (liveAgain) { liveAgain = false; liveSearch(); }
}

// ---- painting, undo and redo ----------------------------------------------------------------------
let paintTimer = null;
function paintCell(id) {
  const b = state.board;
  const name = $("paint-terrain").value;
  const tid = b.terrains.findIndex((t) => t.name === name);
  if (tid < 0 || (b.terrain[id] === tid && b.overlay[id] < 0)) return;
  if (!state.stroke) state.stroke = { before: new Map(), after: name };
  if (!state.stroke.before.has(id)) state.stroke.before.set(id, { t: b.terrain[id], o: b.overlay[id] });
  if (!state.paintQueue.has(id)) state.paintQueue.set(id, { t: b.terrain[id], o: b.overlay[id] });
  const road = b.overlay[id] >= 0;
  b.terrain[id] = tid;
  b.overlay[id] = -1;
  if (road) roadSegments();
  terrainChanged();
  redraw();
  if (!paintTimer) paintTimer = setTimeout(flushPaint, 120);
}

let painting = false;
async function flushPaint() {
  // one batch at a time: a batch sent while another is answered could let an older answer land last
  paintTimer = null;
  if (painting) return;
  painting = true;
  try {
    while (state.paintQueue.size) {
      const before = new Map(state.paintQueue);
      state.paintQueue.clear();
      const ok = await sendPaint([...before.keys()], $("paint-terrain").value, null);
      if (!ok) { state.stroke = null; return; }
    }
    if (state.painting || !state.stroke) return;
    // the stroke is over (the pointer is up) and every batch of it answered: one undo step
    const stroke = state.stroke;
    state.stroke = null;
    state.undo.push(stroke);
    state.redo = [];
    updateHistoryButtons();
    if (state.tool === "paint") await afterPaint();
    setStatus(`painted ${stroke.before.size} cell(s)`);
  } finally {
    painting = false;
  }
  if (state.paintQueue.size || (!state.painting && state.stroke)) flushPaint();
}

async function sendPaint(ids, terrain, overlay) {
  const b = state.board;
  const data = await api("paint", { ...base(), cells: ids.map(cellXY), terrain, overlay }).catch(() => null);
  if (!data) return false;
  data.cells.forEach(([x, y], i) => {
    const id = cellId(x, y);
    b.terrain[id] = data.terrain[i];
    b.overlay[id] = data.overlay[i];
  });
  roadSegments();
  redraw();
  updateHover();
  updateLink();
  return true;
}

async function undoPaint() {
  const step = state.undo.pop();
  if (!step) return;
  // cells go back in groups of the same old ground and overlay
  const groups = new Map();
  for (const [id, { t, o }] of step.before) {
    const k = `${t},${o}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(id);
  }
  const b = state.board;
  for (const [k, ids] of groups) {
    const [t, o] = k.split(",").map(Number);
    if (!(await sendPaint(ids, b.terrains[t].name, o >= 0 ? b.terrains[o].name : null))) { state.undo.push(step); return; }
  }
  state.redo.push(step);
  updateHistoryButtons();
  setStatus(`undid the painting of ${step.before.size} cell(s)`);
  if (state.tool === "paint" || state.tool === "path") refreshTool();
}

async function redoPaint() {
  const step = state.redo.pop();
  if (!step) return;
  if (!(await sendPaint([...step.before.keys()], step.after, null))) { state.redo.push(step); return; }
  state.undo.push(step);
  updateHistoryButtons();
  setStatus(`painted ${step.before.size} cell(s) again`);
  if (state.tool === "paint" || state.tool === "path") refreshTool();
}

function updateHistoryButtons() {
  $("undo").disabled = !state.undo.length;
  $("redo").disabled = !state.redo.length;
}

async function resetBoard() {
  if (state.params) return newBoard(null, state.params);
  return refuse("an opened file cannot be made again: open it again");
}

// ---- export and the shareable link -------------------------------------------------------------
function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

async function exportBoard(format) {
  const data = await api("export", { ...base(), format }).catch(() => null);
  if (!data) return;
  download(data.name, new Blob([data.text], { type: data.type }));
  setStatus(`saved ${data.name}`);
}

function drawOverlay(ctx, k) {
  // the SVG layer's marks (path, polygon, numbers, units, start and goal) onto a canvas in drawing units;
  // k: screen pixels per drawing unit, so that lines keep the width they have on screen
  const px = (e, prop) => parseFloat(getComputedStyle(e)[prop]) || 0;
  const paint = (e, fillIt) => {
    const st = getComputedStyle(e);
    if (fillIt && st.fill !== "none") { ctx.globalAlpha = parseFloat(st.fillOpacity); ctx.fillStyle = e.getAttribute("fill") || st.fill; ctx.fill(); }
    ctx.globalAlpha = 1;
    if (st.stroke !== "none" && px(e, "strokeWidth") > 0) { ctx.strokeStyle = st.stroke; ctx.lineWidth = px(e, "strokeWidth") / k; ctx.stroke(); }
  };
  const pts = (e) => (e.getAttribute("points") || "").trim().split(/\s+/).filter(Boolean).map((v) => v.split(",").map(Number));
  ctx.lineCap = "round";
  ctx.lineJoin = "round";
  for (const id of ["vispoly", "path"]) {
    const e = $(id), q = pts(e);
    if (!q.length) continue;
    ctx.beginPath();
    q.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
    if (id === "vispoly") ctx.closePath();
    paint(e, id === "vispoly");
  }
  for (const g of ["units", "marks"]) {
    for (const e of $(g).children) {
      if (e.style.display === "none") continue;
      ctx.beginPath();
      ctx.arc(+e.getAttribute("cx"), +e.getAttribute("cy"), +e.getAttribute("r"), 0, 2 * Math.PI);
      paint(e, true);
    }
  }
  if (state.labels && k >= 16) {
    ctx.fillStyle = "#111";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.font = `600 ${Math.min(0.45, 13 / k)}px system-ui, sans-serif`;
    for (const [id, text] of state.labels) ctx.fillText(text, state.board.cx[id], state.board.cy[id]);
  }
}

function exportPng() {
  // the whole board as it is shown (ground, roads, shading, marks), at the screen's zoom up to 4096 px a side
  const b = state.board;
  const [x0, y0, x1, y1] = b.bounds;
  const k = Math.max(1, Math.min(state.view.scale, 4096 / Math.max(x1 - x0, y1 - y0)));
  const c = document.createElement("canvas");
  c.width = Math.ceil((x1 - x0) * k);
  c.height = Math.ceil((y1 - y0) * k);
  const ctx = c.getContext("2d");
  ctx.setTransform(k, 0, 0, k, -x0 * k, -y0 * k);
  const ids = [];
  for (let i = 0; i < b.n; i++) if (valid(i)) ids.push(i);
  paintLayers(ctx, ctx, ids, k);
  drawOverlay(ctx, k);
  $("board").dataset.pngSize = `${c.width}x${c.height}`;
  c.toBlob((blob) => { download("board.png", blob); setStatus("saved board.png"); }, "image/png");
}

// the options a link carries: URL key, input id
const LINK_INPUTS = [["budget", "budget"], ["radius", "radius"], ["players", "players"], ["chunk", "max-chunk"],
  ["mb", "move-budget"], ["team", "team"], ["mode", "partition-mode"]];

function editsParam() {
  // painted cells, grouped by their new ground: "terrain.overlay.ids" with ids as base-36 gaps, groups joined by "~"
  const b = state.board, o = state.orig;
  if (!o) return "";
  const groups = new Map();
  for (let id = 0; id < b.n; id++) {
    if (b.terrain[id] === o.terrain[id] && b.overlay[id] === o.overlay[id]) continue;
    const k = `${b.terrain[id].toString(36)}.${b.overlay[id] < 0 ? "x" : b.overlay[id].toString(36)}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(id);
  }
  return [...groups].map(([k, ids]) => `${k}.${ids.map((id, i) => (i ? id - ids[i - 1] : id).toString(36)).join("-")}`).join("~");
}

function linkParams() {
  const p = new URLSearchParams();
  if (!state.params) return null;
  p.set("kind", state.params.kind);
  p.set("w", state.params.width);
  p.set("h", state.params.height);
  p.set("seed", state.params.seed);
  p.set("tool", state.tool);
  if (unitClass()) p.set("unit", unitClass());
  const xy = (id) => cellXY(id).join(",");
  if (state.start !== null) p.set("start", xy(state.start));
  if (state.goal !== null) p.set("goal", xy(state.goal));
  if (state.rangeStart !== null) p.set("from", xy(state.rangeStart));
  if (state.fieldGoal !== null) p.set("to", xy(state.fieldGoal));
  if (state.units.length) p.set("units", state.units.map((u) => `${u.x},${u.y},${u.team}`).join(";"));
  for (const [k, id] of LINK_INPUTS) if ($(id).value !== $(id).defaultValue && $(id).value !== "") p.set(k, $(id).value);
  const edits = editsParam();
  if (edits) p.set("edits", edits);
  return p;
}

function updateLink() {
  if (!state.board) return;
  const p = linkParams();
  history.replaceState(null, "", p && p.toString() ? `?${p}` : location.pathname);
}

function linkProblems(q) {
  // what is wrong with a link's board, in words (empty: nothing)
  const out = [];
  const kinds = [...$("kind").options].map((o) => o.value);
  if (!kinds.includes(q.get("kind"))) out.push(`kind=${q.get("kind")} is not a board kind (${kinds.join(", ")})`);
  for (const [k, name] of [["w", "width"], ["h", "height"], ["seed", "seed"]]) {
    const lim = (state.meta.limits || {})[name] || [0, Infinity];
    const v = Number(q.get(k));
    if (!q.has(k) || q.get(k).trim() === "" || !Number.isInteger(v) || v < lim[0] || v > lim[1]) {
      out.push(`${k}=${q.has(k) ? q.get(k) : "(missing)"} is not a ${name} (an integer in ${lim[0]}..${lim[1]})`);
    }
  }
  return out;
}

async function applyEdits(text) {
  const b = state.board;
  for (const group of text.split("~")) {
    const [t36, o36, ids36] = group.split(".");
    const t = parseInt(t36, 36), o = o36 === "x" ? -1 : parseInt(o36, 36);
    if (!b.terrains[t] || (o >= 0 && !b.terrains[o]) || !ids36) return false;
    let id = 0;
    const ids = ids36.split("-").map((v, i) => (id = (i ? id : 0) + parseInt(v, 36)));
    if (ids.some((v) => !Number.isInteger(v) || v < 0 || v >= b.n)) return false;
    for (let i = 0; i < ids.length; i += 4096) {
      if (!(await sendPaint(ids.slice(i, i + 4096), b.terrains[t].name, o >= 0 ? b.terrains[o].name : null))) return false;
    }
  }
  return true;
}

async function fromLink() {
  // a link names a board (kind, size, seed), its painted cells, the tool, its options and markers
  const q = new URLSearchParams(location.search);
  if (!q.has("kind")) return false;
  const problems = linkProblems(q);
  if (problems.length) {
    await newBoard();
    refuse(`This link cannot be opened: ${problems.join("; ")}. Showing a new board instead.`);
    $("board").dataset.badLink = "1";
    return true;
  }
  const num = (k) => Number(q.get(k));
  const params = { kind: q.get("kind"), width: num("w"), height: num("h"), seed: num("seed") };
  const data = await newBoard(null, params);
  if (!data) return true;
  if (q.has("edits") && !(await applyEdits(q.get("edits")))) refuse("the link's painted cells could not all be read");
  const cell = (k) => {
    if (!q.has(k)) return null;
    const [x, y] = q.get(k).split(",").map(Number);
    return Number.isInteger(x) && Number.isInteger(y) && x >= 0 && y >= 0 && x < data.width && y < data.height ? cellId(x, y) : null;
  };
  if (q.has("unit") && state.board.classes.includes(q.get("unit"))) $("unit").value = q.get("unit");
  for (const [k, id] of LINK_INPUTS) if (q.has(k)) $(id).value = q.get(k);
  state.start = cell("start");
  state.goal = cell("goal");
  state.rangeStart = cell("from");
  state.fieldGoal = cell("to");
  if (q.has("units")) {
    for (const part of q.get("units").split(";")) {
      const [x, y, team] = part.split(",").map(Number);
      if (x >= 0 && y >= 0 && x < data.width && y < data.height && (team === 0 || team === 1)) state.units.push({ id: state.nextUnit++, x, y, team });
    }
    drawUnits();
  }
  selectTool(HELP[q.get("tool")] ? q.get("tool") : "path");
  if (q.get("tool") === "territory") doTerritory();
  return true;
}

// ---- pointer, touch, wheel and keys -----------------------------------------------------------
function eventCell(ev) {
  const [, , left, top] = stageSize();
  const [wx, wy] = toWorld(ev.clientX - left, ev.clientY - top);
  return cellAt(wx, wy);
}

function activate(id, point) {
  // a click, a tap or Enter on cell id
  if (id < 0 || !state.board) return;
  const t = state.tool;
  if (t === "path") {
    stopExplain();
    if (state.start === null || state.goal !== null) { state.start = id; state.goal = null; }
    else if (id === state.start) { setStatus("the goal must be another cell than the start"); return; }
    else state.goal = id;
    doPath();
  } else if (t === "range") {
    state.rangeStart = id;
    doRange();
  } else if (t === "field") {
    state.fieldGoal = id;
    doField();
  } else if (t === "units") {
    const [x, y] = cellXY(id);
    const i = state.units.findIndex((u) => u.x === x && u.y === y);
    if (i >= 0) state.units.splice(i, 1);
    else if (state.units.length < 200) state.units.push({ id: state.nextUnit++, x, y, team: parseInt($("team").value, 10) });
    drawUnits();
    refreshTool();
    updateLink();
  } else if (t === "sight") {
    state.sightCell = id;
    doSight(id, point);
  } else if (t === "fog") {
    fogClick(id);
  } else if (t === "paint") {
    paintCell(id);
  }
}

const pointers = new Map();
let gesture = null;

function sightFollow(ev, id) {
  // on square boards the light follows the pointer inside its tile; elsewhere the view moves cell by cell.
  // With the line shown, the viewer stays where it was clicked and the line runs to the pointer.
  if ($("show-line").checked && state.sightCell >= 0) return;
  let point = null;
  if (state.board.square) {
    const [, , left, top] = stageSize();
    const [px, py] = toWorld(ev.clientX - left, ev.clientY - top);
    const [x, y] = cellXY(id);
    point = [Math.min(Math.max(Math.round(px * 1000) / 1000, x), x + 1), Math.min(Math.max(Math.round(py * 1000) / 1000, y), y + 1)];
  }
  const last = state.sightPoint;
  const moved = point && (!last || Math.abs(point[0] - last[0]) + Math.abs(point[1] - last[1]) > 0.05);
  if (id !== state.sightCell || moved) {
    state.sightCell = id;
    state.sightPoint = point;
    doSight(id, point);
  }
}

function onPointerDown(ev) {
  if (!state.board) return;
  $("board").focus({ preventScroll: true });
  try { $("board").setPointerCapture(ev.pointerId); } catch (e) { /* a synthetic pointer cannot be captured */ }
  pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
  if (pointers.size === 2) {
    // two fingers: pinch to zoom, move to pan
    const [a, b] = [...pointers.values()];
    gesture = { kind: "pinch", d: Math.hypot(a[0] - b[0], a[1] - b[1]), mid: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2] };
    state.painting = false;
    return;
  }
  const id = eventCell(ev);
  if (state.tool === "paint" && ev.button === 0) {
    state.painting = true;
    gesture = { kind: "paint" };
    if (id >= 0) paintCell(id);
  } else if (state.tool === "path" && id >= 0 && (id === state.start || id === state.goal) && state.goal !== null) {
    gesture = { kind: "drag", which: id === state.start ? "start" : "goal", moved: false };
  } else {
    gesture = { kind: "tap", x: ev.clientX, y: ev.clientY, last: [ev.clientX, ev.clientY], id };
  }
  ev.preventDefault();
}

function onPointerMove(ev) {
  if (!state.board) return;
  const id = eventCell(ev);
  const [, , bl, bt] = stageSize();
  state.pointer = toWorld(ev.clientX - bl, ev.clientY - bt);
  if (!pointers.has(ev.pointerId) && state.tool === "sight" && id >= 0) sightFollow(ev, id);
  if (ev.pointerType === "mouse" || pointers.size === 0) {
    if (id !== state.hoverCell) { state.hoverCell = id; updateHover(); showLine(); }
    showRounding();
  }
  if (!pointers.has(ev.pointerId)) return;
  pointers.set(ev.pointerId, [ev.clientX, ev.clientY]);
  if (!gesture) return;
  const [, , left, top] = stageSize();
  if (gesture.kind === "pinch" && pointers.size >= 2) {
    const [a, b] = [...pointers.values()];
    const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
    const mid = [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2];
    pan(mid[0] - gesture.mid[0], mid[1] - gesture.mid[1]);
    if (gesture.d > 0 && d > 0) zoomAt(mid[0] - left, mid[1] - top, d / gesture.d);
    gesture.d = d;
    gesture.mid = mid;
  } else if (gesture.kind === "paint") {
    if (id >= 0) paintCell(id);
  } else if (gesture.kind === "drag") {
    const cur = gesture.which === "start" ? state.start : state.goal;
    const other = gesture.which === "start" ? state.goal : state.start;
    if (id >= 0 && id !== cur && id !== other) {
      if (gesture.which === "start") state.start = id; else state.goal = id;
      gesture.moved = true;
      // with a search shown, its frontier follows each step and the path the pointer's rest
      if (state.explain !== null) { markEnds(); liveSearch(); pathLater(150); }
      else { stopExplain(); doPath(); }  // live: the newest answer wins
    }
  } else if (gesture.kind === "tap" || gesture.kind === "pan") {
    if (gesture.kind === "tap" && Math.hypot(ev.clientX - gesture.x, ev.clientY - gesture.y) > 6) gesture.kind = "pan";
    if (gesture.kind === "pan") {
      pan(ev.clientX - gesture.last[0], ev.clientY - gesture.last[1]);
      gesture.last = [ev.clientX, ev.clientY];
    }
    if (state.tool === "sight" && ev.pointerType !== "mouse" && id >= 0 && gesture.kind === "tap") sightFollow(ev, id);
  }
}

function onPointerUp(ev) {
  pointers.delete(ev.pointerId);
  const g = gesture;
  if (pointers.size === 0) gesture = null;
  if (!g) return;
  if (g.kind === "paint") { state.painting = false; clearTimeout(paintTimer); flushPaint(); return; }
  if (g.kind === "tap" && ev.type === "pointerup") {
    const id = eventCell(ev);
    let point = null;
    if (state.tool === "sight" && state.board.square && id >= 0) {
      const [, , left, top] = stageSize();
      const [px, py] = toWorld(ev.clientX - left, ev.clientY - top);
      const [x, y] = cellXY(id);
      point = [Math.min(Math.max(px, x), x + 1), Math.min(Math.max(py, y), y + 1)];
    }
    if (id >= 0) { state.cursor = id; showCursor(false); }
    activate(id, point);
  }
  if (g.kind === "drag" && g.moved) {
    if (state.explain !== null) pathLater(0);
    updateLink();
  }
}

function onWheel(ev) {
  if (!state.board) return;
  ev.preventDefault();
  const [, , left, top] = stageSize();
  zoomAt(ev.clientX - left, ev.clientY - top, Math.exp(-ev.deltaY * (ev.ctrlKey ? 0.01 : 0.0015)));
}

function showCursor(visible) {
  $("cursor").setAttribute("points", visible && state.cursor >= 0 ? polyPoints(state.cursor) : "");
  $("board").dataset.cursor = state.cursor >= 0 ? cellXY(state.cursor).join(",") : "";
}

function moveCursor(dx, dy) {
  // to the cell across an edge (or a corner) that lies best in the arrow's direction
  const b = state.board;
  if (state.cursor < 0) {
    const [w, h] = stageSize();
    const [wx, wy] = toWorld(w / 2, h / 2);
    state.cursor = cellAt(wx, wy);
    if (state.cursor < 0) state.cursor = [...Array(b.n).keys()].find(valid);
  } else {
    const [cx, cy] = center(state.cursor);
    const cands = across(state.cursor);
    for (const [px, py] of corners(state.cursor)) cands.push(cellAt(px + (px - cx) * 0.3, py + (py - cy) * 0.3));
    let best = -1, score = 0.3;
    for (const n of cands) {
      if (n < 0 || n === state.cursor) continue;
      const vx = b.cx[n] - cx, vy = b.cy[n] - cy, len = Math.hypot(vx, vy);
      const s = (vx * dx + vy * dy) / len - 0.01 * len;
      if (s > score) { score = s; best = n; }
    }
    if (best >= 0) state.cursor = best;
  }
  // keep the cursor on screen
  const [sx, sy] = toScreen(...center(state.cursor));
  const [w, h] = stageSize();
  if (sx < 20 || sy < 20 || sx > w - 20 || sy > h - 20) pan(w / 2 - sx, h / 2 - sy);
  showCursor(true);
  updateHover();
  if (state.tool === "sight") doSight(state.cursor, null);
}

function onKey(ev) {
  if (!state.board) return;
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  if (dirs[ev.key]) { moveCursor(...dirs[ev.key]); ev.preventDefault(); return; }
  const [w, h] = stageSize();
  if (ev.key === "Enter" || ev.key === " ") {
    if (state.cursor < 0) moveCursor(0, 0);
    activate(state.cursor, null);
    if (state.tool === "paint") flushPaint();
    ev.preventDefault();
  } else if (ev.key === "+" || ev.key === "=") { zoomAt(w / 2, h / 2, 1.25); ev.preventDefault(); }
  else if (ev.key === "-") { zoomAt(w / 2, h / 2, 0.8); ev.preventDefault(); }
  else if (ev.key === "0") { fit(); ev.preventDefault(); }
  else if (ev.key === "Escape") { state.cursor = -1; showCursor(false); updateHover(); }
}

function onGlobalKey(ev) {
  if (ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT")) return;
  if ((ev.ctrlKey || ev.metaKey) && ev.key.toLowerCase() === "z" && !ev.shiftKey) { undoPaint(); ev.preventDefault(); }
  else if ((ev.ctrlKey || ev.metaKey) && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) { redoPaint(); ev.preventDefault(); }
}

// the page's hooks for its browser tests and for scripts: where a cell is on screen, and back
window.playground = {
  screenOf(x, y) {
    const [, , left, top] = stageSize();
    const [sx, sy] = toScreen(...center(cellId(x, y)));
    return [sx + left, sy + top];
  },
  cellAt(clientX, clientY) {
    const [, , left, top] = stageSize();
    const id = cellAt(...toWorld(clientX - left, clientY - top));
    return id < 0 ? null : cellXY(id);
  },
  cellSize() { return state.view.scale; },
  fillOf(x, y) { return state.fills ? state.fills.colors[cellId(x, y)] || null : null; },
  ground(x, y) { const id = cellId(x, y); return [state.board.terrain[id], state.board.overlay[id]]; },
  roads() { return state.board.roads.length; },
  zoomTo(scale) { const [w, h] = stageSize(); zoomAt(w / 2, h / 2, scale / state.view.scale); },
  resetSearch() { stopExplain(); clearToolView(); doPath(); },
  fieldStep(x, y) {
    // where the flow field's arrow at (x, y) points (null: no arrow)
    const f = state.field, id = cellId(x, y);
    if (!f || f.next[id] < 0) return null;
    const n = neighbors(id)[f.next[id]];
    return n === undefined || n < 0 ? null : cellXY(n);
  },
  roadPairs() { return state.board.roads.filter(([a, c]) => a !== c).length; },
  roadsDrawn() { const b = state.board; return b.roads.filter(([a, c]) => b.overlay[a] >= 0 && b.overlay[c] >= 0).length; },
};

async function init() {
  $("board-form").addEventListener("submit", newBoard);
  $("upload").addEventListener("change", upload);
  for (const r of document.querySelectorAll("input[name=tool]")) r.addEventListener("change", () => selectTool(r.value));
  const board = $("board");
  board.addEventListener("pointerdown", onPointerDown);
  board.addEventListener("pointermove", onPointerMove);
  board.addEventListener("pointerup", onPointerUp);
  board.addEventListener("pointercancel", onPointerUp);
  board.addEventListener("pointerleave", () => { if (!pointers.size) { state.hoverCell = -1; state.pointer = null; updateHover(); showRounding(); } });
  board.addEventListener("wheel", onWheel, { passive: false });
  board.addEventListener("keydown", onKey);
  document.addEventListener("keydown", onGlobalKey);
  new ResizeObserver(() => redraw()).observe(board);
  $("zoom-in").addEventListener("click", () => { const [w, h] = stageSize(); zoomAt(w / 2, h / 2, 1.4); });
  $("zoom-out").addEventListener("click", () => { const [w, h] = stageSize(); zoomAt(w / 2, h / 2, 1 / 1.4); });
  $("zoom-fit").addEventListener("click", fit);
  $("toggle-panel").addEventListener("click", () => {
    const open = document.body.classList.toggle("panel-open");
    $("toggle-panel").setAttribute("aria-expanded", String(open));
  });
  $("unit").addEventListener("change", () => { stopExplain(); refreshTool(); updateLink(); });
  $("budget").addEventListener("change", refreshTool);
  for (const [, id] of LINK_INPUTS) $(id).addEventListener("change", () => updateLink());
  $("show-zones").addEventListener("change", refreshTool);
  $("team").addEventListener("change", () => { if (state.tool === "fog") refreshTool(); });
  $("radius").addEventListener("change", refreshTool);
  $("split").addEventListener("click", doTerritory);
  $("clear-units").addEventListener("click", () => { state.units = []; drawUnits(); refreshTool(); updateLink(); });
  $("undo").addEventListener("click", undoPaint);
  $("redo").addEventListener("click", redoPaint);
  $("reset").addEventListener("click", resetBoard);
  $("export-json").addEventListener("click", () => exportBoard("wargrid"));
  $("export-tmx").addEventListener("click", () => exportBoard("tmx"));
  $("export-png").addEventListener("click", exportPng);
  $("share").addEventListener("click", async () => {
    if (!state.params) {
      refuse("A board opened from a file cannot be linked (a link rebuilds a generated board): share the file (Save JSON) instead.");
      return;
    }
    updateLink();
    try { await navigator.clipboard.writeText(location.href); setStatus("link copied"); } catch (e) { setStatus(`link: ${location.href}`); }
  });
  $("explain-play").addEventListener("click", explainPlay);
  $("explain-pause").addEventListener("click", explainPause);
  $("explain-step").addEventListener("click", explainStep);
  $("explain-numbers").addEventListener("change", explainFrame);
  $("show-coords").addEventListener("change", updateHover);
  $("show-rounding").addEventListener("change", showRounding);
  $("show-line").addEventListener("change", () => { showLine(); $("help").textContent = HELP[state.tool] + lineHelp(); });
  $("show-rays").addEventListener("change", showRays);
  $("field-arrows").addEventListener("change", redraw);
  for (const id of ["search-algorithm", "search-early"]) $(id).addEventListener("change", () => { const on = state.explain; stopExplain(); if (on) explainPlay(); });
  try {
    state.meta = await api("meta");
    $("partition-mode").replaceChildren(...(state.meta.partition_modes || []).map((m) => new Option(m, m)));
    const lim = state.meta.limits || {};
    for (const [id, name] of [["width", "width"], ["height", "height"], ["seed", "seed"], ["players", "players"], ["radius", "radius"], ["max-chunk", "max_chunk"]]) {
      if (lim[name]) { $(id).min = lim[name][0]; $(id).max = lim[name][1]; }
    }
  } catch (e) {
    return;
  }
  selectTool("path");
  if (!(await fromLink())) await newBoard();
  document.body.dataset.ready = "1";
}

init();
