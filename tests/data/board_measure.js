// The cars, cities and labels of the board on the web page, measured in screen pixels
// (tests/test_web_board_legibility.py): route ends away from their cities, cars of
// different routes that overlap, city labels under 11 px, and labels (of cities and countries)
// whose boxes, as the browser lays the text out, overlap another label or a city's circle;
// claimed routes without one owner number of at least 11 px.
(ends) => {
  const svg = document.querySelector('#board svg');
  const m = svg.getScreenCTM();
  const screen = (x, y) => { const p = svg.createSVGPoint(); p.x = x; p.y = y; const s = p.matrixTransform(m); return [s.x, s.y]; };
  const cars = [];
  for (const g of svg.querySelectorAll('g[data-route]')) {
    for (const r of g.querySelectorAll('rect.space')) {
      const x = +r.getAttribute('x'), y = +r.getAttribute('y');
      const w = +r.getAttribute('width'), h = +r.getAttribute('height');
      const t = /rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)/.exec(r.getAttribute('transform') || '');
      const [a, cx, cy] = t ? [+t[1] * Math.PI / 180, +t[2], +t[3]] : [0, x + w / 2, y + h / 2];
      const turn = (px, py) => screen(cx + (px - cx) * Math.cos(a) - (py - cy) * Math.sin(a),
                                      cy + (px - cx) * Math.sin(a) + (py - cy) * Math.cos(a));
      const mid = y + h / 2;
      cars.push({ route: +g.dataset.route, length: w * m.a,
        corners: [turn(x, y), turn(x + w, y), turn(x + w, y + h), turn(x, y + h)],
        ends: [turn(x, mid), turn(x + w, mid)] });
    }
  }
  const cities = {};
  for (const g of svg.querySelectorAll('g.city[data-city]')) {
    const c = g.querySelector('circle');
    const [x, y] = screen(+c.getAttribute('cx'), +c.getAttribute('cy'));
    cities[g.dataset.city] = { x, y, r: +c.getAttribute('r') * m.a };
  }
  const detached = [];
  const byRoute = new Map();
  for (const car of cars) (byRoute.get(car.route) || byRoute.set(car.route, []).get(car.route)).push(car);
  for (const [route, row] of byRoute) {
    for (const name of ends[route]) {
      const city = cities[name];
      let gap = Infinity, length = 0;
      for (const car of row) {
        length = Math.max(length, car.length);
        for (const [x, y] of car.ends) gap = Math.min(gap, Math.hypot(x - city.x, y - city.y) - city.r);
      }
      if (gap > length + 0.5) detached.push(`route ${route} ends ${gap.toFixed(1)} px from ${name} (a car is ${length.toFixed(1)} px)`);
    }
  }
  const apart = (p, q) => {
    for (const poly of [p, q]) for (let i = 0; i < 4; i++) {
      const [x0, y0] = poly[i], [x1, y1] = poly[(i + 1) % 4];
      const nx = y0 - y1, ny = x1 - x0;
      const a = p.map(([x, y]) => nx * x + ny * y), b = q.map(([x, y]) => nx * x + ny * y);
      const tolerance = 0.15 * Math.hypot(nx, ny);  // the document rounds to a tenth of a pixel
      if (Math.max(...a) <= Math.min(...b) + tolerance || Math.max(...b) <= Math.min(...a) + tolerance) return true;
    }
    return false;
  };
  const overlaps = [];
  for (let i = 0; i < cars.length; i++) for (let j = i + 1; j < cars.length; j++) {
    const p = cars[i], q = cars[j];
    if (p.route === q.route) continue;
    const [px, py] = p.corners[0], [qx, qy] = q.corners[0];
    if (Math.abs(px - qx) > p.length + q.length || Math.abs(py - qy) > p.length + q.length) continue;
    if (!apart(p.corners, q.corners)) overlaps.push(`a car of route ${p.route} overlaps one of route ${q.route}`);
  }
  const small = [...svg.querySelectorAll('text.city-label')]
    .map((t) => [t.textContent, parseFloat(t.getAttribute('font-size')) * m.a])
    .filter(([, px]) => px < 11 - 0.01).map(([name, px]) => `${name}: ${px.toFixed(2)} px`);
  const labels = [...svg.querySelectorAll('text.city-label, text.country-label')].map((t) => {
    const b = t.getBBox();
    const [x0, y0] = screen(b.x, b.y), [x1, y1] = screen(b.x + b.width, b.y + b.height);
    return { name: t.textContent, box: [x0, y0, x1, y1] };
  });
  const crowded = [];
  const cut = 0.5;  // a shared sliver under half a pixel is no overlap
  for (let i = 0; i < labels.length; i++) {
    const [a0, b0, a1, b1] = labels[i].box;
    for (let j = i + 1; j < labels.length; j++) {
      const [c0, d0, c1, d1] = labels[j].box;
      if (Math.min(a1, c1) - Math.max(a0, c0) > cut && Math.min(b1, d1) - Math.max(b0, d0) > cut)
        crowded.push(`the labels of ${labels[i].name} and ${labels[j].name} overlap`);
    }
    for (const [name, c] of Object.entries(cities)) {
      const dx = Math.max(a0 - c.x, 0, c.x - a1), dy = Math.max(b0 - c.y, 0, c.y - b1);
      if (Math.hypot(dx, dy) < c.r - cut) crowded.push(`the label of ${labels[i].name} covers the city ${name}`);
    }
  }
  const claimed = [...svg.querySelectorAll('g.route.claimed')];
  const unmarked = claimed.filter((g) => g.querySelectorAll('text.owner-mark').length !== 1)
    .map((g) => `claimed route ${g.dataset.route} has no single owner number`);
  for (const t of svg.querySelectorAll('text.owner-mark')) {
    const px = parseFloat(t.getAttribute('font-size')) * m.a;
    if (px < 11 - 0.01) unmarked.push(`the owner number of route ${t.closest('g.route').dataset.route} is ${px.toFixed(2)} px`);
  }
  return { cars: cars.length, cities: Object.keys(cities).length, detached, overlaps, small, crowded,
    claimed: claimed.length, unmarked };
}
