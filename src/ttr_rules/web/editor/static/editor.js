"use strict";
// The map workbench page: draws the map document the server holds, sends edits, shows problems.
const SVG = "http://www.w3.org/2000/svg";
const COLORS = {gray: "#a7a7a7", red: "#d62828", orange: "#f77f00", yellow: "#f6d32d",
  green: "#2a9d48", blue: "#1d6fd6", purple: "#9b5de5", black: "#222", white: "#fafafa"};
const HINTS = {
  select: "Drag a city to move it; click a city or a route to change it; drag a selected route's round handle to bend it (? lists the keys).",
  city: "Click the board where the new city goes.",
  route: "Click the first city, then the second.",
  ticket: "Click the two cities of the ticket.",
};
let state = null;
let mode = "select";
let picked = null;           // the first city of a route or ticket being made
let selected = null;         // {city: name} | {route: index} | {ticket: index} | {country: name}
let dragging = null;         // the pending drag's cancel, for Escape
let justDragged = false;
const board = document.getElementById("board");

function $(id) { return document.getElementById(id); }

async function call(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({message: "the server's answer is not JSON"}));
  if (!response.ok) {
    $("message").textContent = data.message || "the server refused";
    return null;
  }
  $("message").textContent = "";
  show(data);
  return data;
}

const edit = (change) => call("POST", "/api/edit", {edit: change});

function frame() {
  const f = state.map.frame || {};
  return {w: f.width || 1000, h: f.height || 700};
}

function place(name) {
  const city = state.map.cities.find((c) => c.name === name);
  const {w, h} = frame();
  return city && city.position ? [city.position[0] * w, city.position[1] * h] : null;
}

function el(tag, attributes, parent) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function draw() {
  if (!state) return;
  const {w, h} = frame();
  board.setAttribute("viewBox", `0 0 ${w} ${h}`);
  board.replaceChildren();
  el("rect", {x: 0, y: 0, width: w, height: h, fill: "#eef3e2"}, board);
  const bg = state.background_place || {x: 0, y: 0, scale: 1, locked: true};
  if (state.background) {
    el("image", {id: "background-image", href: backgroundHref(), x: bg.x * w, y: bg.y * h,
      width: bg.scale * w, height: bg.scale * h, preserveAspectRatio: "none", opacity: 0.55}, board);
  }
  const car = (state.map.frame && state.map.frame.car_length) || w * 0.035;
  const twins = {};
  state.map.routes.forEach((route, index) => {
    const key = [route.a, route.b].sort().join("\u0000");
    (twins[key] = twins[key] || []).push(index);
  });
  state.map.routes.forEach((route, index) => {
    const a = place(route.a), b = place(route.b);
    if (!a || !b) return;
    const g = el("g", {class: "route", "data-route": index}, board);
    if (isSelected("route", index)) g.classList.add("selected");
    const heat = heatOf(index);
    const fill = heat === null ? COLORS[route.color] || COLORS.gray : heat;
    const pair = twins[[route.a, route.b].sort().join("\u0000")];
    const lead = state.map.routes[pair[0]];
    const flip = lead.a === route.a ? 1 : -1;
    const shift = pair.length < 2 ? 0 : (pair[0] === index ? -7 : 7) * flip;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]) || 1;
    const nx = -(b[1] - a[1]) / len * shift, ny = (b[0] - a[0]) / len * shift;
    const curve = curveOf(a, b, bendOf(route));
    const path = (dx, dy) => `M${a[0] + dx},${a[1] + dy} Q${curve.control[0] + dx},${curve.control[1] + dy} ${b[0] + dx},${b[1] + dy}`;
    if (route.spaces && route.spaces.length) {
      for (const [x, y, angle] of route.spaces) {
        el("rect", {x: x * w - car / 2, y: y * h - car / 6, width: car, height: car / 3, rx: 3,
          fill, transform: `rotate(${angle} ${x * w} ${y * h})`,
          "stroke-dasharray": route.tunnel ? "4 3" : ""}, g);
      }
    } else {
      const dash = Math.max(2, curve.length / Math.max(1, route.length) - 4);
      el("path", {class: "outline", d: path(nx, ny), stroke: "#333", "stroke-width": 12, fill: "none"}, g);
      el("path", {d: path(nx, ny), stroke: fill, fill: "none",
        "stroke-width": 9, "stroke-dasharray": `${dash} 4`, "stroke-dashoffset": -2}, g);
      const mid = el("text", {x: curve.middle[0] + nx * 2, y: curve.middle[1] + ny * 2 + 5,
        "text-anchor": "middle", "font-size": 14, "font-weight": "bold"}, g);
      mid.textContent = route.length + (route.tunnel ? " T" : "") +
        (route.ferry_locomotives ? ` F${route.ferry_locomotives}` : "") +
        (route.mountain ? ` M${route.mountain}` : "");
    }
    if (bendOf(route)) el("path", {class: "hit", d: path(0, 0)}, g);
    else el("line", {class: "hit", x1: a[0], y1: a[1], x2: b[0], y2: b[1]}, g);
    g.addEventListener("click", (event) => { event.stopPropagation(); pick({route: index}); });
  });
  const borders = ringed();
  for (const city of state.map.cities) {
    const at = place(city.name);
    if (!at) continue;
    const g = el("g", {class: "city", "data-city": city.name}, board);
    if (isSelected("city", city.name)) g.classList.add("selected");
    if (picked === city.name) g.classList.add("picked");
    el("circle", {cx: at[0], cy: at[1], r: 10}, g);
    // A ring, as a rounded square: the city's one circle stays its only circle to click.
    if (borders.has(city.name)) {
      el("rect", {class: "country-ring", x: at[0] - 16, y: at[1] - 16, width: 32, height: 32, rx: 16}, g);
    }
    const label = el("text", {x: at[0] + 13, y: at[1] - 10, class: "city-label"}, g);
    label.textContent = city.name;
    g.addEventListener("pointerdown", (event) => startDrag(event, city.name));
  }
  if (selected && selected.route !== undefined && state.map.routes[selected.route] && mode === "select") {
    bendHandle(selected.route);
  }
  if (state.background && !bg.locked) backgroundHandles(bg);
}

let backgroundVersion = Date.now();
// The cities ringed on the board: a selected country's border cities, or the places of a
// selected ticket (a country by its border cities).
function ringed() {
  const spread = (name) => { const c = countryNamed(name); return c ? c.end_points || [] : [name]; };
  if (!selected) return new Set();
  if (selected.country !== undefined) return new Set(spread(selected.country));
  const ticket = selected.ticket !== undefined ? state.map.tickets[selected.ticket] : null;
  if (!ticket) return new Set();
  return new Set([ticket.a, ...ticketEnds(ticket).map((end) => end.to)].flatMap(spread));
}

function backgroundHref() { return `/api/background?v=${backgroundVersion}`; }

function bendOf(route) {
  return typeof route.bend === "number" ? Math.max(-0.5, Math.min(0.5, route.bend)) : 0;
}

// The quadratic curve the server lays a bent route's spaces on (layout.py): its middle lies
// ``bend`` times the distance off the straight line, to the right going from a to b.
function curveOf(a, b, bend) {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const control = [(a[0] + b[0]) / 2 - dy * bend * 2, (a[1] + b[1]) / 2 + dx * bend * 2];
  const middle = [(a[0] + b[0]) / 2 - dy * bend, (a[1] + b[1]) / 2 + dx * bend];
  const length = Math.hypot(dx, dy) * (1 + 8 / 3 * bend * bend);
  return {control, middle, length};
}

function bendHandle(index) {
  const route = state.map.routes[index];
  const a = place(route.a), b = place(route.b);
  if (!a || !b) return;
  const dx = b[0] - a[0], dy = b[1] - a[1], square = dx * dx + dy * dy || 1;
  const middle = curveOf(a, b, bendOf(route)).middle;
  const handle = el("circle", {class: "bend-handle", id: "bend-handle", cx: middle[0], cy: middle[1], r: 9}, board);
  const title = el("title", {}, handle);
  title.textContent = "drag to bend the route; double-click to straighten it";
  const preview = el("path", {class: "bend-preview", fill: "none", stroke: "#e63946", "stroke-width": 3,
    "stroke-dasharray": "6 4", "pointer-events": "none"}, board);
  const bendAt = (event) => {
    const [x, y] = boardPoint(event), {w, h} = frame();
    const px = x * w - (a[0] + b[0]) / 2, py = y * h - (a[1] + b[1]) / 2;
    return Math.max(-0.5, Math.min(0.5, Math.round((px * -dy + py * dx) / square * 1000) / 1000));
  };
  handle.addEventListener("dblclick", (event) => {
    event.stopPropagation();
    edit({op: "bend_route", index, bend: 0});
  });
  handle.addEventListener("click", (event) => event.stopPropagation());
  handle.addEventListener("pointerdown", (event) => {
    event.stopPropagation();
    event.preventDefault();
    let bend = bendOf(route), moved = false;
    const move = (e) => {
      moved = true;
      bend = bendAt(e);
      const curve = curveOf(a, b, bend);
      handle.setAttribute("cx", curve.middle[0]);
      handle.setAttribute("cy", curve.middle[1]);
      preview.setAttribute("d", `M${a[0]},${a[1]} Q${curve.control[0]},${curve.control[1]} ${b[0]},${b[1]}`);
    };
    dragWith(move, () => { if (moved) edit({op: "bend_route", index, bend}); }, draw);
  });
}

// Follows the pointer until it is let go (``done``) or Escape is pressed (``cancel``).
function dragWith(move, done, cancel) {
  const stop = () => {
    window.removeEventListener("pointermove", move);
    window.removeEventListener("pointerup", up);
    dragging = null;
  };
  // The click that ends a drag selects nothing and makes no city.
  const up = (e) => { stop(); justDragged = true; setTimeout(() => { justDragged = false; }, 0); done(e); };
  window.addEventListener("pointermove", move);
  window.addEventListener("pointerup", up);
  dragging = () => { stop(); cancel(); };
}

function backgroundHandles(bg) {
  const {w, h} = frame();
  const size = Math.max(12, w / 70);
  // A handle stays on the board even when its corner of the image is off it.
  const at = (v, most) => Math.min(most - size / 2, Math.max(size / 2, v)) - size / 2;
  const square = (cls, x, y, title) => {
    const node = el("rect", {class: `bg-handle ${cls}`, x: at(x, w), y: at(y, h), width: size, height: size}, board);
    el("title", {}, node).textContent = title;
    node.addEventListener("click", (event) => event.stopPropagation());
    return node;
  };
  const image = board.querySelector("#background-image");
  const mover = square("move", (bg.x + bg.scale / 2) * w, (bg.y + bg.scale / 2) * h, "drag to move the background");
  const scaler = square("scale", (bg.x + bg.scale) * w, (bg.y + bg.scale) * h, "drag to scale the background");
  const follow = (handle, next) => (event) => {
    event.stopPropagation();
    event.preventDefault();
    const start = boardPoint(event);
    let place = bg;
    const move = (e) => {
      const [x, y] = boardPoint(e);
      place = next(x - start[0], y - start[1]);
      image.setAttribute("x", place.x * w);
      image.setAttribute("y", place.y * h);
      image.setAttribute("width", place.scale * w);
      image.setAttribute("height", place.scale * h);
      mover.setAttribute("x", at((place.x + place.scale / 2) * w, w));
      mover.setAttribute("y", at((place.y + place.scale / 2) * h, h));
      scaler.setAttribute("x", at((place.x + place.scale) * w, w));
      scaler.setAttribute("y", at((place.y + place.scale) * h, h));
    };
    dragWith(move, () => placeBackground({x: place.x, y: place.y, scale: place.scale}), draw);
  };
  const clamp = (v, low, high) => Math.round(Math.min(high, Math.max(low, v)) * 10000) / 10000;
  mover.addEventListener("pointerdown", follow(mover, (dx, dy) => ({
    x: clamp(bg.x + dx, -1, 1), y: clamp(bg.y + dy, -1, 1), scale: bg.scale})));
  // The scale follows the corner along the diagonal (the image keeps its aspect).
  scaler.addEventListener("pointerdown", follow(scaler, (dx, dy) => ({
    x: bg.x, y: bg.y, scale: clamp(bg.scale + (dx + dy) / 2, 0.1, 10)})));
}

function placeBackground(place) {
  return call("PUT", "/api/background/place", place);
}

function isSelected(kind, key) { return selected && selected[kind] === key; }

function boardPoint(event) {
  const box = board.getBoundingClientRect();
  return [Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)),
    Math.min(1, Math.max(0, (event.clientY - box.top) / box.height))];
}

function startDrag(event, name) {
  event.stopPropagation();
  event.preventDefault();
  if (mode === "route" || mode === "ticket") { cityClicked(name); return; }
  const start = [event.clientX, event.clientY];
  let moved = false;
  const circle = event.currentTarget;
  circle.classList.add("dragging");
  const move = (e) => {
    if (Math.hypot(e.clientX - start[0], e.clientY - start[1]) > 3) moved = true;
    if (!moved) return;
    const [x, y] = boardPoint(e), {w, h} = frame();
    circle.querySelector("circle").setAttribute("cx", x * w);
    circle.querySelector("circle").setAttribute("cy", y * h);
    circle.querySelector("text").setAttribute("x", x * w + 13);
    circle.querySelector("text").setAttribute("y", y * h - 10);
  };
  const up = (e) => {
    circle.classList.remove("dragging");
    if (moved) {
      const [x, y] = boardPoint(e);
      edit({op: "move_city", name, x: round(x), y: round(y)});
    } else {
      cityClicked(name);
    }
  };
  dragWith(move, up, () => { circle.classList.remove("dragging"); draw(); });
}

const round = (v) => Math.round(v * 100000) / 100000;

function cityClicked(name) {
  if (mode === "route" || mode === "ticket") {
    if (picked === null) {
      picked = name;
      draw();
      $("hint").textContent = `${name} picked: click the second city (Esc: cancel).`;
      return;
    }
    if (picked === name) { picked = null; draw(); return; }
    const a = picked;
    picked = null;
    $("hint").textContent = HINTS[mode];
    if (mode === "route") {
      const pa = place(a), pb = place(name);
      const car = (state.map.frame && state.map.frame.car_length) || frame().w * 0.035;
      const length = Math.max(1, Math.min(8, Math.round(Math.hypot(pb[0] - pa[0], pb[1] - pa[1]) / (car * 1.2))));
      edit({op: "add_route", a, b: name, length}).then((data) => {
        if (data) pick({route: data.map.routes.length - 1});
        else draw();
      });
    } else {
      edit({op: "add_ticket", a, b: name}).then((data) => {
        if (data) pick({ticket: data.map.tickets.length - 1});
        else draw();
      });
    }
    return;
  }
  pick({city: name});
}

board.addEventListener("click", (event) => {
  if (justDragged) return;
  if (mode !== "city") { selected = null; draw(); form(); return; }
  const [x, y] = boardPoint(event);
  const names = new Set(state.map.cities.map((c) => c.name));
  let n = state.map.cities.length + 1;
  while (names.has(`City ${n}`)) n += 1;
  const name = `City ${n}`;
  edit({op: "add_city", name, x: round(x), y: round(y)}).then((data) => { if (data) pick({city: name}); });
});

function pick(what) {
  selected = what;
  draw();
  form();
  markLists();
}

// The selected ticket or country stands out in its list.
function markLists() {
  $("tickets").querySelectorAll("li").forEach((item, index) => {
    item.classList.toggle("selected", isSelected("ticket", index));
  });
  $("countries").querySelectorAll("li").forEach((item) => {
    item.classList.toggle("selected", isSelected("country", item.dataset.country));
  });
}

function field(label, input) {
  const wrap = document.createElement("label");
  wrap.append(label + " ", input);
  return wrap;
}

function input(type, value, attributes = {}) {
  const node = document.createElement("input");
  node.type = type;
  if (type === "checkbox") node.checked = value; else node.value = value;
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  return node;
}

function button(text, action) {
  const node = document.createElement("button");
  node.type = "button";
  node.textContent = text;
  node.addEventListener("click", action);
  return node;
}

function form() {
  const box = $("form");
  box.replaceChildren();
  if (!selected) { box.textContent = "Click a city or a route."; return; }
  if (selected.city !== undefined) {
    const city = state.map.cities.find((c) => c.name === selected.city);
    if (!city) { box.textContent = "Click a city or a route."; return; }
    const name = input("text", city.name, {maxlength: 60, id: "city-name"});
    box.append(field("city", name),
      button("Rename", () => edit({op: "rename_city", name: city.name, to: name.value})
        .then((d) => { if (d) pick({city: name.value}); })),
      button("Delete city", () => edit({op: "delete_city", name: city.name}).then(() => pick(null))));
  } else if (selected.route !== undefined) {
    const route = state.map.routes[selected.route];
    if (!route) return;
    const length = input("number", route.length, {min: 1, max: 20, id: "route-length"});
    const color = document.createElement("select");
    color.id = "route-color";
    for (const c of Object.keys(COLORS)) color.add(new Option(c, c, false, c === route.color));
    const tunnel = input("checkbox", !!route.tunnel, {id: "route-tunnel"});
    const ferry = input("number", route.ferry_locomotives || 0, {min: 0, max: 20, id: "route-ferry"});
    const mountain = input("number", route.mountain || 0, {min: 0, max: 20, id: "route-mountain"});
    const heading = document.createElement("p");
    heading.textContent = `route ${route.a} – ${route.b}`;
    box.append(heading, field("length", length), field("colour", color), field("tunnel", tunnel),
      field("ferry locomotives", ferry), field("mountain marks", mountain),
      button("Apply", () => edit({op: "update_route", index: selected.route,
        length: Number(length.value), color: color.value, tunnel: tunnel.checked,
        ferry_locomotives: Number(ferry.value), mountain: Number(mountain.value)})),
      button("Delete route", () => edit({op: "delete_route", index: selected.route}).then(() => pick(null))));
    if (bendOf(route)) {
      box.append(button("Straighten", () => edit({op: "bend_route", index: selected.route, bend: 0})));
    }
  } else if (selected.ticket !== undefined) {
    ticketForm(box, selected.ticket);
  } else if (selected.country !== undefined) {
    countryForm(box, selected.country);
  }
}

// The cities and countries, as options of a drop-down (countries in a group of their own).
function placeSelect(value, attributes = {}) {
  const node = document.createElement("select");
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  const cities = document.createElement("optgroup");
  cities.label = "cities";
  for (const c of state.map.cities) cities.append(new Option(c.name, c.name, false, c.name === value));
  node.append(cities);
  const countries = state.map.countries || [];
  if (countries.length) {
    const group = document.createElement("optgroup");
    group.label = "countries";
    for (const c of countries) group.append(new Option(c.name, c.name, false, c.name === value));
    node.append(group);
  }
  return node;
}

function countryNamed(name) { return (state.map.countries || []).find((c) => c.name === name); }

function ticketEnds(ticket) {
  if (ticket.destinations) return ticket.destinations.map((d) => ({to: d.to, points: d.points}));
  return [{to: ticket.b, points: ticket.points}];
}

function ticketForm(box, index) {
  const ticket = state.map.tickets[index];
  if (!ticket) return;
  const facts = state.tickets[index] || {};
  const each = facts.destinations || [facts];
  const heading = document.createElement("p");
  heading.textContent = `ticket ${ticketText(ticket)}`;
  const from = placeSelect(ticket.a, {id: "ticket-a"});
  const rows = document.createElement("div");
  rows.id = "ticket-destinations";
  const addRow = (to, points, fact) => {
    const row = document.createElement("div");
    row.className = "dest";
    const where = placeSelect(to, {"aria-label": "destination"});
    const value = input("number", points ?? "", {min: 1, max: 100, "aria-label": "points", placeholder: "auto"});
    const note = document.createElement("span");
    note.className = "facts";
    note.textContent = fact ? describe(fact) : "";
    const remove = button("✕", () => { row.remove(); });
    remove.title = "remove this destination";
    row.append(where, value, remove, note);
    rows.append(row);
  };
  ticketEnds(ticket).forEach((end, n) => addRow(end.to, end.points, each[n]));
  const long = input("checkbox", !!ticket.long, {id: "ticket-long"});
  const penalty = document.createElement("p");
  if (ticket.destinations) penalty.textContent = `penalty: −${ticket.penalty} (its lowest value, lost when no destination is reached)`;
  const apply = () => {
    const destinations = [...rows.querySelectorAll(".dest")].map((row) => {
      const value = row.querySelector("input").value;
      return {to: row.querySelector("select").value, points: value === "" ? null : Number(value)};
    });
    if (destinations.some((d) => d.points !== null && !Number.isInteger(d.points))) {
      $("message").textContent = "a ticket's points are a whole number";
      return;
    }
    edit({op: "set_ticket", index, a: from.value, destinations, long: long.checked});
  };
  box.append(heading, field("from", from), rows,
    button("Add destination", () => addRow(state.map.cities[0] ? state.map.cities[0].name : "", null, null)),
    penalty, field("long", long),
    button("Apply", apply),
    button("Delete ticket", () => edit({op: "delete_ticket", index}).then(() => pick(null))));
  // The first destination's points keep their old id for the one-destination case.
  const first = rows.querySelector("input");
  if (first) first.id = "ticket-points";
}

function countryForm(box, name) {
  const country = name === "" ? {name: "", end_points: []} : countryNamed(name);
  if (!country) { box.textContent = "Click a city or a route."; return; }
  const heading = document.createElement("p");
  heading.textContent = name === "" ? "a new country: its name and the border cities where it is reached"
    : `country ${country.name}: reached at ${country.end_points.length} border ${country.end_points.length === 1 ? "city" : "cities"}`;
  const title = input("text", country.name, {maxlength: 60, id: "country-name"});
  const places = document.createElement("select");
  places.multiple = true;
  places.id = "country-places";
  places.size = Math.min(8, Math.max(3, state.map.cities.length));
  for (const c of state.map.cities) {
    places.add(new Option(c.name, c.name, false, (country.end_points || []).includes(c.name)));
  }
  const chosen = () => [...places.selectedOptions].map((o) => o.value);
  const apply = () => {
    const to = title.value.trim();
    if (!to) { $("message").textContent = "a country needs a name"; return; }
    edit({op: "set_country", name: name === "" ? to : name, to, places: chosen()})
      .then((d) => { if (d) pick({country: to}); });
  };
  box.append(heading, field("name", title), field("border cities (Ctrl+click for several)", places),
    button(name === "" ? "Add country" : "Apply", apply));
  if (name !== "") {
    box.append(button("Delete country", () => edit({op: "delete_country", name}).then(() => pick(null))));
  }
}

function ticketText(ticket) {
  if (!ticket.destinations) return `${ticket.a} – ${ticket.b} (${ticket.points})`;
  return `${ticket.a} – ` + ticket.destinations.map((d) => `${d.to} ${d.points}`).join(", ") +
    ` (penalty −${ticket.penalty})`;
}

function describe(facts) {
  if (facts.shortest === null || facts.shortest === undefined) return "no path yet";
  const off = facts.difference;
  const word = off === 0 ? "equal to" : off > 0 ? `${off} more than` : `${-off} less than`;
  return `shortest path ${facts.shortest} ${facts.shortest === 1 ? "space" : "spaces"}; points ${word} it`;
}

// What a selected route or ticket is, beyond its place in the list (another tab may delete one
// and move the next into its place).
function identity(data, what) {
  const item = what.route !== undefined ? data.map.routes[what.route]
    : what.ticket !== undefined ? data.map.tickets[what.ticket] : undefined;
  return item === undefined ? null : JSON.stringify([item.a, item.b, item.destinations]);
}

function show(data) {
  state = data;
  $("file").textContent = data.file;
  $("unsaved").hidden = !data.unsaved;
  $("undo").disabled = !data.can_undo;
  $("redo").disabled = !data.can_redo;
  $("recovery").hidden = !data.recovery;
  $("problem-count").textContent = `(${data.problems.length})`;
  const list = $("problems");
  list.replaceChildren();
  for (const problem of data.problems) {
    const item = document.createElement("li");
    item.textContent = problem.message;
    item.addEventListener("click", () => locate(problem));
    list.appendChild(item);
  }
  const tickets = $("tickets");
  tickets.replaceChildren();
  data.map.tickets.forEach((ticket, index) => {
    const item = document.createElement("li");
    const facts = data.tickets[index] || {};
    item.textContent = `${ticketText(ticket)}: ` + (facts.destinations
      ? facts.destinations.map((d) => `${d.to}: ${describe(d)}`).join("; ") : describe(facts));
    item.addEventListener("click", () => pick({ticket: index}));
    tickets.appendChild(item);
  });
  const countries = $("countries");
  countries.replaceChildren();
  for (const country of data.map.countries || []) {
    const item = document.createElement("li");
    item.textContent = `${country.name}: ${(country.end_points || []).join(", ") || "no border cities"}`;
    item.dataset.country = country.name;
    item.addEventListener("click", () => pick({country: country.name}));
    countries.append(item);
  }
  for (const [id, keep] of [["ticket-from", 0], ["ticket-to", 1]]) {
    const old = $(id);
    let value = old.options.length > keep ? old.value : (data.map.cities[keep] || {}).name;
    if (keep && value === $("ticket-from").value) value = (data.map.cities[1] || {}).name;
    const fresh = placeSelect(value, {id, "aria-label": old.getAttribute("aria-label")});
    old.replaceWith(fresh);
  }
  markLists();
  showBackground(data);
  const routes = data.map.routes;
  $("lay-spaces").checked = routes.length > 0 && routes.every((r) => r.spaces);
  if (document.activeElement === document.body || !$("map-name").value) {
    $("map-name").value = data.map.name || "";
    $("map-title").value = data.map.title || "";
    $("map-version").value = data.map.version || "";
  }
  draw();
  form();
  showRules();
}

let ruleDefaults = {};

function showRules() {
  const box = $("rule-fields");
  if (box.childElementCount !== Object.keys(ruleDefaults).length) buildRules(box);
  // Refreshed in place: the field being typed in keeps its text, the others show the map's.
  const set = state.map.rules || {};
  for (const field of box.querySelectorAll("[data-rule]")) {
    const name = field.dataset.rule;
    const value = name in set ? set[name] : ruleDefaults[name];
    if (field !== document.activeElement) {
      if (field.type === "checkbox") field.checked = !!value; else field.value = value;
    }
    field.parentElement.firstChild.textContent = `${name.replaceAll("_", " ")}${name in set ? " *" : ""} `;
  }
}

function buildRules(box) {
  box.replaceChildren();
  for (const [name, fallback] of Object.entries(ruleDefaults)) {
    const field = typeof fallback === "boolean" ? input("checkbox", fallback) : input("number", fallback);
    field.dataset.rule = name;
    field.title = `default: ${fallback}`;
    field.addEventListener("change", () => {
      const value = field.type === "checkbox" ? field.checked : Number(field.value);
      if (field.type !== "checkbox" && !Number.isInteger(value)) {
        $("message").textContent = `the rule ${name.replaceAll("_", " ")} is a whole number`;
        return;
      }
      edit({op: "set_rule", name, value});
    });
    const label = document.createElement("label");
    label.append(document.createTextNode(""), field);
    box.append(label);
  }
}

function locate(problem) {
  if (problem.city !== undefined) pick({city: problem.city});
  else if (problem.route !== undefined) pick({route: problem.route});
  else if (problem.ticket !== undefined) pick({ticket: problem.ticket});
  else if (problem.rule !== undefined) {
    $("rules").open = true;
    const field = document.querySelector(`[data-rule="${CSS.escape(problem.rule)}"]`);
    if (field) { field.focus(); field.classList.add("flash"); }
  }
  const node = problem.city !== undefined ? board.querySelector(`[data-city="${CSS.escape(problem.city)}"]`)
    : problem.route !== undefined ? board.querySelector(`[data-route="${problem.route}"]`) : null;
  if (node) node.classList.add("flash");
}

function setMode(name) {
  mode = name;
  picked = null;
  for (const b of document.querySelectorAll("#modes button")) {
    b.setAttribute("aria-pressed", String(b.dataset.mode === name));
  }
  $("hint").textContent = HINTS[name];
  draw();
}

for (const b of document.querySelectorAll("#modes button")) {
  b.addEventListener("click", () => setMode(b.dataset.mode));
}
$("undo").addEventListener("click", () => call("POST", "/api/undo"));
$("redo").addEventListener("click", () => call("POST", "/api/redo"));
$("save").addEventListener("click", () => call("POST", "/api/save").then((d) => {
  if (d) $("message").textContent = "";
}));
$("recover").addEventListener("click", () => call("POST", "/api/recover"));
$("map-details").addEventListener("click", () => edit({op: "set_details",
  name: $("map-name").value, title: $("map-title").value, version: $("map-version").value}));

async function download(path) {
  const response = await fetch(path);
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    $("message").textContent = data.message || "the export failed";
    return;
  }
  const name = (response.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name ? name[1] : "map";
  link.click();
  URL.revokeObjectURL(link.href);
  const file = link.download;
  noted = true;
  $("message").classList.add("note");
  $("message").textContent = file.endsWith(".zip")
    ? `${file} downloaded: pip install ${file}, then ttr maps lists ${state.map.name}`
    : `${file} downloaded`;
}

// A note (an export done) reads as one until the next message, an error or nothing.
let noted = false;
new MutationObserver(() => {
  if (!noted) $("message").classList.remove("note");
  noted = false;
}).observe($("message"), {childList: true, characterData: true, subtree: true});
$("export-map").addEventListener("click", () => download("/api/export/map"));
$("export-plugin").addEventListener("click", () => download("/api/export/plugin"));

const MODE_KEYS = {"1": "select", "2": "city", "3": "route", "4": "ticket"};

function toggleHelp(open) {
  const help = $("help");
  help.hidden = open === undefined ? !help.hidden : !open;
  $("help-button").setAttribute("aria-expanded", String(!help.hidden));
}
$("help-button").addEventListener("click", () => toggleHelp());

function deleteSelected() {
  if (!selected) return;
  const gone = () => pick(null);
  if (selected.city !== undefined) edit({op: "delete_city", name: selected.city}).then(gone);
  else if (selected.route !== undefined) edit({op: "delete_route", index: selected.route}).then(gone);
  else if (selected.ticket !== undefined) edit({op: "delete_ticket", index: selected.ticket}).then(gone);
  else if (selected.country) edit({op: "delete_country", name: selected.country}).then(gone);
}

// Escape undoes the most recent thing begun: a drag, the first click of a pair, the help.
function escape() {
  if (dragging) dragging();
  else if (picked !== null) { picked = null; draw(); $("hint").textContent = HINTS[mode]; }
  else if (!$("help").hidden) toggleHelp(false);
  else if (mode !== "select") setMode("select");
  else pick(null);
}

window.addEventListener("keydown", (event) => {
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(document.activeElement.tagName);
  const key = event.key.toLowerCase();
  const command = event.ctrlKey || event.metaKey;
  if (command && key === "z" && !typing) {
    event.preventDefault();
    call("POST", event.shiftKey ? "/api/redo" : "/api/undo");
  } else if (command && key === "y" && !typing) {
    event.preventDefault();
    call("POST", "/api/redo");
  } else if (command && key === "s") {
    event.preventDefault();
    call("POST", "/api/save");
  } else if (key === "escape") {
    if (typing) document.activeElement.blur();
    escape();
  } else if (typing || command || event.altKey) {
    return;
  } else if (key === "delete" || key === "backspace") {
    event.preventDefault();
    deleteSelected();
  } else if (event.key === "?") {
    toggleHelp();
  } else if (MODE_KEYS[key]) {
    setMode(MODE_KEYS[key]);
  }
});

$("lay-spaces").addEventListener("change", () => {
  edit({op: "lay_spaces", on: $("lay-spaces").checked}).then((d) => { if (!d) show(state); });
});

$("ticket-add").addEventListener("click", () => {
  edit({op: "add_ticket", a: $("ticket-from").value, b: $("ticket-to").value}).then((data) => {
    if (data) pick({ticket: data.map.tickets.length - 1});
  });
});
$("country-new").addEventListener("click", () => pick({country: ""}));

function showBackground(data) {
  $("background-place").hidden = !data.background;
  const place = data.background_place;
  if (!place) return;
  for (const [id, key] of [["bg-x", "x"], ["bg-y", "y"], ["bg-scale", "scale"]]) {
    if (document.activeElement !== $(id)) $(id).value = place[key];  // not under the typist
    $(id).disabled = place.locked;
  }
  $("bg-lock").checked = place.locked;
}
for (const [id, key] of [["bg-x", "x"], ["bg-y", "y"], ["bg-scale", "scale"]]) {
  $(id).addEventListener("change", () => {
    const value = Number($(id).value);
    if ($(id).value === "" || !Number.isFinite(value)) { $("message").textContent = `the background's ${key} is a number`; return; }
    placeBackground({[key]: value});
  });
}
$("bg-lock").addEventListener("change", () => placeBackground({locked: $("bg-lock").checked}));

window.addEventListener("beforeunload", (event) => {
  if (state && state.unsaved) {
    event.preventDefault();
    event.returnValue = "";
  }
});

let playtest = null;

function heatOf(index) {
  if (!$("pt-heat").checked || !playtest || !playtest.route_claim_rates) return null;
  const rate = playtest.route_claim_rates[index];
  if (rate === undefined) return null;
  return `hsl(${Math.round(220 - 220 * rate)}, 85%, 50%)`;
}

const pct = (x) => x === null || x === undefined ? "–" : `${Math.round(x * 100)}%`;

function showPlaytest(data) {
  playtest = data;
  const box = $("pt-result");
  box.replaceChildren();
  $("pt-cancel").disabled = data.status !== "running";
  const line = (text) => { const p = document.createElement("p"); p.textContent = text; box.append(p); };
  if (data.status === "none") return;
  line(`${data.status}: ${data.done} of ${data.games} games` + (data.error ? ` (${data.error})` : ""));
  if (data.seats) {
    for (const seat of data.seats) {
      line(`seat ${seat.seat + 1} (${seat.agent}): wins ${pct(seat.win_rate)}, mean score ${seat.mean_score.toFixed(1)}`);
    }
    const sign = data.first_player_advantage >= 0 ? "+" : "−";
    line(`first player's advantage: ${sign}${pct(Math.abs(data.first_player_advantage))} wins over an even share`);
    line(`game length: ${data.mean_turns.toFixed(1)} turns on average`);
    line("never completed: " + (data.never_completed.length ? data.never_completed.join(", ") : "none"));
    const list = document.createElement("ul");
    list.id = "pt-tickets";
    for (const t of data.tickets) {
      const item = document.createElement("li");
      item.textContent = `${t.text}: completed ${pct(t.completion_rate)} (kept ${t.kept_per_game.toFixed(2)} a game)`;
      list.append(item);
    }
    box.append(list);
  }
  draw();
  if (data.status === "running") setTimeout(pollPlaytest, 500);
}

async function pollPlaytest() {
  const response = await fetch("/api/playtest");
  if (response.ok) showPlaytest(await response.json());
}

$("pt-start").addEventListener("click", async () => {
  const agents = $("pt-agents").value.split(",").map((a) => a.trim()).filter(Boolean);
  const response = await fetch("/api/playtest", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({games: Number($("pt-games").value), agents})});
  const data = await response.json().catch(() => ({message: "the server's answer is not JSON"}));
  if (!response.ok) { $("message").textContent = data.message; return; }
  $("message").textContent = "";
  showPlaytest(data);
});
$("pt-cancel").addEventListener("click", () => fetch("/api/playtest/cancel", {method: "POST"}).then(pollPlaytest));
$("pt-heat").addEventListener("change", draw);

$("background").addEventListener("change", async () => {
  const file = $("background").files[0];
  $("background").value = "";
  if (!file) return;
  if (file.size > 1.5 * 1024 * 1024) { $("message").textContent = "a background is at most 1.5 MiB"; return; }
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  backgroundVersion = Date.now();
  call("POST", "/api/background", {data: btoa(text)});
});
$("no-background").addEventListener("click", () => call("DELETE", "/api/background"));

$("import").addEventListener("change", async () => {
  const file = $("import").files[0];
  $("import").value = "";
  if (!file) return;
  if (file.size > 2 * 1024 * 1024) { $("message").textContent = "files of at most 2 MiB are imported"; return; }
  const kind = file.name.toLowerCase().endsWith(".json") ? "map" : $("import-kind").value;
  const response = await fetch(`/api/import/${kind}`, {method: "POST", body: await file.text(),
    headers: {"Content-Type": kind === "map" ? "application/json" : "text/csv"}});
  const data = await response.json().catch(() => ({message: "the server's answer is not JSON"}));
  if (!response.ok) { $("message").textContent = data.message; return; }
  $("message").textContent = "";
  show(data);
});

// Another tab may edit the same map: take its edits when the page is not in the middle of one.
setInterval(async () => {
  if (!state || document.hidden || picked !== null || typing()) return;
  const response = await fetch("/api/state");
  if (!response.ok) return;
  const data = await response.json();
  if (data.revision === state.revision || board.querySelector(".dragging")) return;
  if (selected && identity(state, selected) !== identity(data, selected)) selected = null;
  show(data);
}, 2000);

// A field of the side column being typed in: another tab's edits wait, so the text stays.
function typing() {
  const field = document.activeElement;
  return !!field && !!field.closest("aside") && ["INPUT", "SELECT", "TEXTAREA"].includes(field.tagName);
}

// Enter in a field of the side form does what its Rename or Apply button does.
$("form").addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.target.tagName !== "INPUT") return;
  const apply = [...$("form").querySelectorAll("button")]
    .find((b) => ["Rename", "Apply", "Add country"].includes(b.textContent));
  if (apply) { event.preventDefault(); apply.click(); }
});

setMode("select");
fetch("/api/rules").then((r) => r.json()).then((defaults) => {
  ruleDefaults = defaults;
  call("GET", "/api/state");
});
pollPlaytest();
