// Where the studio's graph view looks: ui/graph_component.py puts this file into its component's script.
// view(net, data) frames the whole drawing when its labels stay legible, else the focus (a selection, the newest
// turn) at a legible zoom; either way a node the view shows is shown whole: no canvas edge runs through a node or
// its label. The layered layout draws turns as rows and node kinds as columns, so the canvas's edges are put in
// the gaps between rows and between columns.

function nodeBox(net, id) {
  // a node's box with its label as drawn: for a shape with its label below it (dot, square, diamond, triangle)
  // vis-network's getBoundingBox stops short of the label's last line (it adds the label's height to the shape's
  // bottom, but draws the label lower), so a view framed on it cut the labels of its bottom row
  const b = net.getBoundingBox(id);
  const n = net.body.nodes[id];
  if (!b || !n) return null;
  // the shape's border is drawn half outside its box, and a triangle's tip reaches past it by a sixth of its size
  const o = n.options, m = Math.max(o.borderWidth || 0, o.borderWidthSelected || 0) / 2 + 0.16 * (o.size || 0);
  const box = { left: b.left - m, right: b.right + m, top: b.top - m, bottom: b.bottom + m };
  const s = n.labelModule && n.labelModule.size;
  if (s && s.width > 0 && n.options.label) {
    box.left = Math.min(box.left, s.left); box.right = Math.max(box.right, s.left + s.width);
    box.top = Math.min(box.top, s.top); box.bottom = Math.max(box.bottom, s.top + s.height + 2);  // descenders
  }
  return box;
}

function extent(boxes) {
  const b = { left: Infinity, right: -Infinity, top: Infinity, bottom: -Infinity };
  for (const n of boxes) {
    b.left = Math.min(b.left, n.left); b.right = Math.max(b.right, n.right);
    b.top = Math.min(b.top, n.top); b.bottom = Math.max(b.bottom, n.bottom);
  }
  return b;
}

function bands(boxes, lo, hi) {
  // the drawing's rows (lo="top", hi="bottom") or columns along one axis: the nodes' spans, overlapping ones merged
  const spans = boxes.map((b) => [b[lo], b[hi]]).sort((p, q) => p[0] - q[0]);
  const out = [];
  for (const [s, e] of spans) {
    if (out.length && s <= out[out.length - 1][1]) out[out.length - 1][1] = Math.max(out[out.length - 1][1], e);
    else out.push([s, e]);
  }
  return out;
}

function place(rows, len, want, pad, focus) {
  // the start of a window `len` long, nearest `want`, whose two edges both fall between rows (each row it shows is
  // at least `pad` inside it, each other row wholly outside) and that holds `focus` [start, end] when that fits, or
  // shows a part of it when it does not; null when no such window exists
  const gaps = [[-Infinity, rows[0][0]]];
  for (let i = 1; i < rows.length; i++) gaps.push([rows[i - 1][1], rows[i][0]]);
  gaps.push([rows[rows.length - 1][1], Infinity]);
  let lo = -Infinity, hi = Infinity;
  if (focus && focus[1] - focus[0] + 2 * pad <= len) { lo = focus[1] + pad - len; hi = focus[0] - pad; }
  else if (focus) { lo = focus[0] + pad - len; hi = focus[1] - pad; }
  let best = null;
  for (const [s1, e1] of gaps) {
    for (const [s2, e2] of gaps) {
      // the near edge in gap 1, the far edge (start + len) in gap 2
      const a = Math.max(s1, s2 + pad - len, lo), b = Math.min(e1 - pad, e2 - len, hi);
      if (a > b) continue;
      const at = Math.min(Math.max(want, a), b);
      if (best === null || Math.abs(at - want) < Math.abs(best - want)) best = at;
    }
  }
  return best;
}

function view(net, data) {
  const focus = (data.focus_ids || []).filter((id) => net.body.nodes[id]);
  net.__cwFocus = focus;
  const W = net.body.container.clientWidth, H = net.body.container.clientHeight, pad = 16;
  // vis-network's hidden pass draws every node, on screen or not, and clears the canvas: a label is placed (and
  // its box known) only when drawn, and new nodes below the old view had not been
  if (net.renderer && net.renderer._redraw) net.renderer._redraw(true);
  const boxes = Object.keys(net.body.nodes).map((id) => nodeBox(net, id)).filter(Boolean);
  if (!boxes.length) return;
  const all = extent(boxes);
  const aw = Math.max(1, all.right - all.left), ah = Math.max(1, all.bottom - all.top);
  // the whole drawing, with a margin, when its labels stay legible (never above 1:1, where a small graph only
  // looked blown up); measured here rather than by vis-network's fit(), which pads by a ratio and left labels out
  const whole = Math.min(1, (W - 2 * pad) / aw, (H - 2 * pad) / ah);
  if (whole >= 0.6 || !focus.length) {
    net.moveTo({ position: { x: (all.left + all.right) / 2, y: (all.top + all.bottom) / 2 }, scale: whole, animation: false });
    return;
  }
  const f = extent(focus.map((id) => nodeBox(net, id)).filter(Boolean));
  const fw = Math.max(1, f.right - f.left), fh = Math.max(1, f.bottom - f.top);
  // legible (0.6) and no closer than needed (0.8: a one-node focus at 1.0 showed it and three neighbours); the
  // drawing's full width when that stays legible, as every turn is as wide as the widest
  const s0 = Math.max(0.6, Math.min(0.8, (W - 2 * pad) / fw, (W - 2 * pad) / aw, (H - 2 * pad) / fh));
  const cols = bands(boxes, "left", "right"), rows = bands(boxes, "top", "bottom");
  // where the window would start along one axis, before the canvas's edges are moved off the nodes: the whole
  // drawing centred when it fits; else the focus centred, kept inside the drawing (a focus in the first column no
  // longer leaves the canvas's left half empty, and the newest turn sits at the bottom edge with the turns before
  // it above); a focus too large for the canvas from its start (the turn's first column: the user's message)
  const want = (lo, hi, flo, fhi, len, p) => {
    if (hi - lo + 2 * p <= len) return (lo + hi) / 2 - len / 2;
    if (fhi - flo + 2 * p > len) return flo - p;
    return Math.min(Math.max((flo + fhi) / 2 - len / 2, lo - p), hi + p - len);
  };
  // the zoom, within the legible range, whose edges fall between rows and columns nearest the wanted window
  // (cost in screen px, a change of zoom weighed as a shift): the top row of a view framed at the newest turn
  // was cut in half
  let best = null;
  for (let k = 0; k <= 80; k++) {
    const s = 0.6 + k * 0.0025;
    const Wu = W / s, Hu = H / s, p = pad / s;
    const wx = want(all.left, all.right, f.left, f.right, Wu, p), wy = want(all.top, all.bottom, f.top, f.bottom, Hu, p);
    const e = 8 / s;  // a shown node at least 8 px inside the canvas
    const x = place(cols, Wu, wx, e, [f.left, f.right]), y = place(rows, Hu, wy, e, [f.top, f.bottom]);
    if (x === null || y === null) continue;
    const cost = (Math.abs(x - wx) + Math.abs(y - wy)) * s + 400 * Math.abs(s - s0);
    if (best === null || cost < best.cost) best = { cost, s, x: x + Wu / 2, y: y + Hu / 2 };
  }
  if (best === null) {  // a row or a column larger than the canvas: the wanted window as it is
    const Wu = W / s0, Hu = H / s0, p = pad / s0;
    best = { s: s0, x: want(all.left, all.right, f.left, f.right, Wu, p) + Wu / 2, y: want(all.top, all.bottom, f.top, f.bottom, Hu, p) + Hu / 2 };
  }
  net.moveTo({ position: { x: best.x, y: best.y }, scale: best.s, animation: false });
}

function frame(net, data, done, passes = 3) {
  // view(), then again after the drawing it caused, until the view stands still (at most `passes` times): a label
  // below its shape is measured where it was last drawn, and the first measures of labels that had not been drawn
  // at their place yet were ~10 units short, so the first framing at 1400 px let the label tail of the row above
  // the newest turn peek into the top of the canvas
  net.__cwMoved = false;
  const at = [net.getViewPosition(), net.getScale()];
  view(net, data);
  const now = [net.getViewPosition(), net.getScale()];
  const moved = Math.abs(now[0].x - at[0].x) + Math.abs(now[0].y - at[0].y) > 0.5 || Math.abs(now[1] - at[1]) > 1e-4;
  if (passes > 1 && moved) {
    net.once("afterDrawing", () => { if (net.__cwMoved) { if (done) done(); } else frame(net, data, done, passes - 1); });
    net.redraw();
  } else if (done) done();
}
