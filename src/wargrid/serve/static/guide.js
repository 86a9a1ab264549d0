// wargrid guide: small diagrams, each isolating one idea, drawn from the hex formulas that wargrid.grids.hexes
// implements (axial q, r; cube s = -q - r; flat-top hexes of corner radius 1). Static: no request leaves the page.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const SQ3 = Math.sqrt(3);
const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];  // wargrid's HEX_DIRECTIONS
const DIAG = [[2, -1], [1, -2], [-1, -1], [-2, 1], [-1, 2], [1, 1]];
const key = (q, r) => `${q},${r}`;
const center = (q, r) => [1.5 * q, SQ3 * (r + q / 2)];
const dist = (a, b) => (Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[0] + a[1] - b[0] - b[1])) / 2;

function hexRound(q, r) {
  const s = -q - r;
  let rq = Math.round(q), rr = Math.round(r), rs = Math.round(s);
  const dq = Math.abs(rq - q), dr = Math.abs(rr - r), ds = Math.abs(rs - s);
  if (dq > dr && dq > ds) rq = -rr - rs; else if (dr > ds) rr = -rq - rs;
  return [rq, rr];
}
function line(a, b) {
  const n = dist(a, b), out = [];
  for (let i = 0; i <= n; i++) {
    const t = n === 0 ? 0 : i / n;
    out.push(hexRound(a[0] + (b[0] - a[0]) * t + 2e-6, a[1] + (b[1] - a[1]) * t + 1e-6));  // Hex.line_to's nudge
  }
  return out;
}
function ring(c, radius) {
  if (radius === 0) return [c];
  const out = [];
  let h = [c[0] + DIRS[4][0] * radius, c[1] + DIRS[4][1] * radius];
  for (let d = 0; d < 6; d++) for (let k = 0; k < radius; k++) { out.push(h); h = [h[0] + DIRS[d][0], h[1] + DIRS[d][1]]; }
  return out;
}
function rotateRight(h, c) { const q = h[0] - c[0], r = h[1] - c[1], s = -q - r; return [-r + c[0], -s + c[1]]; }
function disc(radius) { const out = []; for (let q = -radius; q <= radius; q++) for (let r = Math.max(-radius, -q - radius); r <= Math.min(radius, -q + radius); r++) out.push([q, r]); return out; }

function diagram(section, cells, paint, onHover) {
  // one SVG of hexes; paint(poly, [q, r]) styles each; onHover([q, r] or null) redraws
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("class", "diagram");
  const xs = cells.map((h) => center(...h)[0]), ys = cells.map((h) => center(...h)[1]);
  svg.setAttribute("viewBox", `${Math.min(...xs) - 1.1} ${Math.min(...ys) - 1.0} ${Math.max(...xs) - Math.min(...xs) + 2.2} ${Math.max(...ys) - Math.min(...ys) + 2.0}`);
  const polys = new Map();
  for (const h of cells) {
    const [cx, cy] = center(...h);
    const p = document.createElementNS(SVGNS, "polygon");
    p.setAttribute("points", [0, 1, 2, 3, 4, 5].map((i) => `${(cx + Math.cos(i * Math.PI / 3)).toFixed(3)},${(cy + Math.sin(i * Math.PI / 3)).toFixed(3)}`).join(" "));
    p.dataset.hex = key(...h);
    svg.appendChild(p);
    polys.set(key(...h), p);
  }
  const marks = document.createElementNS(SVGNS, "g");
  svg.appendChild(marks);
  const readout = document.createElement("div");
  readout.className = "readout";
  readout.setAttribute("aria-live", "polite");
  section.insertBefore(svg, section.querySelector("pre"));
  section.insertBefore(readout, section.querySelector("pre"));
  const api = {
    svg, polys, marks, readout, hover: null,
    text(h, t) { const [x, y] = center(...h); const e = document.createElementNS(SVGNS, "text"); e.setAttribute("x", x); e.setAttribute("y", y); e.textContent = t; marks.appendChild(e); },
    draw() { marks.replaceChildren(); for (const [k, p] of polys) { p.setAttribute("class", ""); paint(p, k.split(",").map(Number), api); } if (onHover) onHover(api.hover, api); },
  };
  const pick = (ev) => { const t = ev.target.closest("polygon"); return t ? t.dataset.hex.split(",").map(Number) : null; };
  svg.addEventListener("pointermove", (ev) => { const h = pick(ev); if (String(h) !== String(api.hover)) { api.hover = h; api.draw(); } });
  svg.addEventListener("pointerdown", (ev) => { api.hover = pick(ev); api.draw(); });
  api.draw();
  return api;
}

const WALLS = new Set(["1,-2", "1,-1", "1,0", "-2,1", "-1,1", "0,2", "-1,-1"]);
const TOPICS = {
  coordinates(sec) {
    diagram(sec, disc(3), (p, h, d) => { if (String(h) === String(d.hover)) p.classList.add("hover"); }, (h, d) => {
      if (!h) { d.readout.textContent = "hover a hex"; return; }
      const [q, r] = h, col = q, row = r + (q - (q & 1)) / 2;
      d.readout.textContent = `axial (${q}, ${r}) · cube (${q}, ${r}, ${-q - r}) · offset odd-q (${col}, ${row}) · doubled-q (${q}, ${2 * r + q})`;
      d.readout.dataset.axial = `${q},${r}`;
    });
  },
  neighbors(sec) {
    diagram(sec, disc(3), (p, h, d) => {
      const c = d.hover || [0, 0];
      if (DIRS.some(([a, b]) => h[0] === c[0] + a && h[1] === c[1] + b)) p.classList.add("on");
      if (DIAG.some(([a, b]) => h[0] === c[0] + a && h[1] === c[1] + b)) p.classList.add("alt");
      if (String(h) === String(c)) p.classList.add("hover");
    }, (h, d) => { d.readout.textContent = "yellow: the 6 neighbours · blue: the 6 diagonals"; });
  },
  distances(sec) {
    diagram(sec, disc(3), (p, h, d) => { d.text(h, String(dist([0, 0], h))); if (String(h) === String(d.hover)) p.classList.add("hover"); },
      (h, d) => { d.readout.textContent = h ? `distance from (0, 0) to (${h}): ${dist([0, 0], h)}` : "numbers: steps from the centre"; });
  },
  lines(sec) {
    diagram(sec, disc(4), (p, h, d) => {
      const on = d.hover ? line([0, 0], d.hover).map(String) : [];
      if (on.includes(String(h))) p.classList.add("on");
    }, (h, d) => {
      if (!h) { d.readout.textContent = "hover a hex to draw the line from the centre"; return; }
      const [x, y] = center(...h);
      const l = document.createElementNS(SVGNS, "line");
      l.setAttribute("x1", 0); l.setAttribute("y1", 0); l.setAttribute("x2", x); l.setAttribute("y2", y);
      d.marks.appendChild(l);
      const cells = line([0, 0], h);
      d.readout.textContent = `${cells.length} hexes: ${cells.map((c) => `(${c})`).join(" ")}`;
      d.readout.dataset.line = cells.map((c) => c.join(",")).join(" ");
    });
  },
  rings(sec) {
    const order = new Map();
    [0, 1, 2].forEach((k) => ring([0, 0], k).forEach((h) => order.set(String(h), order.size)));
    diagram(sec, disc(3), (p, h, d) => {
      if (ring([0, 0], 2).some((x) => String(x) === String(h))) p.classList.add("on");
      if (order.has(String(h))) d.text(h, String(order.get(String(h))));
    }, (h, d) => { d.readout.textContent = "yellow: ring(2) · numbers: spiral(2) order"; });
  },
  rotation(sec) {
    diagram(sec, disc(3), (p, h, d) => {
      if (!d.hover) return;
      let r = d.hover;
      for (let k = 1; k < 6; k++) { r = rotateRight(r, [0, 0]); if (String(r) === String(h)) { p.classList.add("on"); d.text(h, String(k)); } }
      if (String(h) === String(d.hover)) p.classList.add("hover");
    }, (h, d) => { d.readout.textContent = h ? `(${h}) turned right 1 to 5 times by 60° about the centre` : "hover a hex"; });
  },
  range(sec) {
    diagram(sec, disc(3), (p, h) => { if (dist([0, 0], h) <= 2) p.classList.add("on"); },
      (h, d) => { d.readout.textContent = `range(2): ${disc(2).length} hexes`; });
  },
  astar(sec) {
    const cells = disc(3), start = [-3, 1], goal = [3, -1];
    const ok = new Set(cells.map(String).filter((k) => !WALLS.has(k.replace(",", ","))));
    // A*: f = g + h, ties to the larger g; every step costs 1
    const g = new Map([[String(start), 0]]), closed = [], open = new Map([[String(start), start]]);
    while (open.size) {
      let best = null;
      for (const [k, h] of open) {
        const f = g.get(k) + dist(h, goal), bf = best && g.get(String(best)) + dist(best, goal);
        if (!best || f < bf || (f === bf && g.get(k) > g.get(String(best)))) best = h;
      }
      open.delete(String(best));
      closed.push(best);
      if (String(best) === String(goal)) break;
      for (const [a, b] of DIRS) {
        const n = [best[0] + a, best[1] + b], k = String(n);
        if (!ok.has(k) || closed.some((c) => String(c) === k)) continue;
        if (!g.has(k) || g.get(String(best)) + 1 < g.get(k)) { g.set(k, g.get(String(best)) + 1); open.set(k, n); }
      }
    }
    diagram(sec, cells, (p, h, d) => {
      const k = String(h);
      if (WALLS.has(k)) p.classList.add("wall");
      else if (closed.some((c) => String(c) === k)) p.classList.add("closed");
      else if (open.has(k)) p.classList.add("open");
      if (k === String(start)) d.text(h, "S");
      if (k === String(goal)) d.text(h, "G");
    }, (h, d) => {
      const k = String(h);
      d.readout.textContent = h && g.has(k) ? `(${h}): g ${g.get(k)}, h ${dist(h, goal)}, f ${g.get(k) + dist(h, goal)}` : `${closed.length} hexes closed, ${open.size} open`;
    });
  },
  fov(sec) {
    const seen = (h) => { const l = line([0, 0], h); return l.slice(1, -1).every((c) => !WALLS.has(String(c))); };
    diagram(sec, disc(3), (p, h) => {
      if (WALLS.has(String(h))) p.classList.add("wall");
      if (!seen(h)) p.classList.add("dark");
      else if (!WALLS.has(String(h))) p.classList.add("on");
    }, (h, d) => { d.readout.textContent = "from the centre: yellow seen, dark hidden, walls seen and blocking"; });
  },
  partition(sec) {
    const seeds = [[-2, 0], [2, -2], [1, 2]];
    diagram(sec, disc(3), (p, h, d) => {
      let best = 0;
      seeds.forEach((s, i) => { if (dist(s, h) < dist(seeds[best], h)) best = i; });
      p.classList.add(`p${best}`);
      if (seeds.some((s) => String(s) === String(h))) d.text(h, String(best + 1));
    }, (h, d) => { d.readout.textContent = "three players: each hex to the nearest start"; });
  },
  leptons(sec) {
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "diagram");
    svg.setAttribute("viewBox", "-0.1 -0.1 3.2 2.2");
    for (let y = 0; y < 2; y++) for (let x = 0; x < 3; x++) {
      const p = document.createElementNS(SVGNS, "polygon");
      p.setAttribute("points", `${x},${y} ${x + 1},${y} ${x + 1},${y + 1} ${x},${y + 1}`);
      svg.appendChild(p);
    }
    const dot = document.createElementNS(SVGNS, "circle");
    dot.setAttribute("r", "0.06");
    svg.appendChild(dot);
    const out = document.createElement("div");
    out.className = "readout";
    out.textContent = "hover: the point in leptons";
    svg.addEventListener("pointermove", (ev) => {
      const pt = svg.createSVGPoint(); pt.x = ev.clientX; pt.y = ev.clientY;
      const w = pt.matrixTransform(svg.getScreenCTM().inverse());
      const lx = Math.max(0, Math.min(767, Math.round(w.x * 256))), ly = Math.max(0, Math.min(511, Math.round(w.y * 256)));
      dot.setAttribute("cx", lx / 256); dot.setAttribute("cy", ly / 256);
      out.textContent = `leptons (${lx}, ${ly}) · cell (${lx >> 8}, ${ly >> 8}) · inside the cell (${lx & 255}, ${ly & 255})`;
    });
    sec.insertBefore(svg, sec.querySelector("pre"));
    sec.insertBefore(out, sec.querySelector("pre"));
  },
  ladder(sec) {
    const names = ["free", "cloaked enemy", "moving unit", "destroyable", "friend", "impassable"];
    const cats = [[0, 0, 2, 0, 0], [0, 5, 4, 5, 0], [0, 5, 0, 3, 0]];
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("class", "diagram");
    svg.setAttribute("viewBox", "-0.1 -0.1 5.2 3.2");
    const shade = ["#f3ecd9", "#e8d8f0", "#cfe3f3", "#f6c667", "#9ecae1", "#5b5247"];
    cats.forEach((row, y) => row.forEach((c, x) => {
      const p = document.createElementNS(SVGNS, "polygon");
      p.setAttribute("points", `${x},${y} ${x + 1},${y} ${x + 1},${y + 1} ${x},${y + 1}`);
      p.style.fill = shade[c];
      svg.appendChild(p);
      const t = document.createElementNS(SVGNS, "text");
      t.setAttribute("x", x + 0.5); t.setAttribute("y", y + 0.5); t.textContent = String(c);
      svg.appendChild(t);
    }));
    const out = document.createElement("div");
    out.className = "readout";
    out.textContent = names.map((n, i) => `${i} ${n}`).join(" · ");
    sec.insertBefore(svg, sec.querySelector("pre"));
    sec.insertBefore(out, sec.querySelector("pre"));
  },
};

for (const sec of document.querySelectorAll("section[data-topic]")) {
  const a = document.createElement("a");
  a.href = `#${sec.id}`;
  a.textContent = sec.querySelector("h2").textContent;
  document.getElementById("toc").appendChild(a);
  TOPICS[sec.dataset.topic](sec);
}
document.body.dataset.ready = "1";
