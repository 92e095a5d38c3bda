// The ttr-rules web page: a client of the JSON API (see docs/web.md). No build step.
"use strict";

// The board's player colours (ttr_rules.render.PLAYER_COLORS): none of them is a card colour.
const PLAYER_COLORS = ["#00b3c7", "#8b4513", "#ff4fa0", "#9acd32", "#4b4f9e", "#7a0f2e", "#006064", "#d4a373"];
// The card symbols of the colour-blind mode (ttr_rules.render.CARD_SYMBOLS).
const CARD_SYMBOLS = { purple: "◆", white: "○", blue: "▲", yellow: "★", orange: "●", black: "■", red: "♥", green: "♣", locomotive: "✦" };
const symbolsOn = () => localStorage.getItem("ttr-web:symbols") === "1";
const CARD_ORDER = ["purple", "white", "blue", "yellow", "orange", "black", "red", "green", "locomotive"];

const $ = (id) => document.getElementById(id);
// The page's fixed sentences (index.html's #texts); every other text comes from the server.
const say = (key) => document.querySelector(`#texts [data-key="${key}"]`).textContent;
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children) node.append(child);
  return node;
};

// ------------------------------------------------------------------ API

class ApiError extends Error {
  constructor(status, body) {
    super(body && body.message ? body.message : `HTTP ${status}`);
    this.status = status;
    this.body = body;
  }
}

const G = {
  id: null, token: null, seat: null, info: null, map: null, view: null, legal: [], panels: { tunnel: null, payment: null },
  tickets: [], seq: 0, steps: [], abort: null, refreshing: 0, posting: 0, posted: 0, selectedRoute: null, scoresShown: false,
};

function authHeaders() {
  return G.token ? { Authorization: `Bearer ${G.token}` } : {};
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { ...authHeaders(), ...(options.body ? { "Content-Type": "application/json" } : {}), ...(options.headers || {}) },
  });
  const text = await response.text();
  const body = text ? JSON.parse(text) : null;
  if (!response.ok) throw new ApiError(response.status, body);
  return body;
}

function toast(message) {
  const box = $("toast");
  box.textContent = message;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

// ------------------------------------------------------------------ routing

function parseHash() {
  const hash = location.hash.replace(/^#\/?/, "");
  const match = hash.match(/^game\/([A-Za-z0-9_-]+)(?:\?(.*))?$/);
  if (!match) return null;
  const params = new URLSearchParams(match[2] || "");
  return { id: match[1], token: params.get("token") };
}

async function route() {
  stopStream();
  const target = parseHash();
  if (!target) return showLobby();
  if (target.token) {
    localStorage.setItem(`ttr-web:${target.id}`, target.token);
    history.replaceState(null, "", `#game/${target.id}`);  // keep the token out of the address bar
  }
  await openGame(target.id, localStorage.getItem(`ttr-web:${target.id}`));
}

// ------------------------------------------------------------------ lobby

// A game the server does not hold (a wrong link, or a game that expired): say so, offer the lobby.
function showMissing(id) {
  $("game").hidden = true;
  $("lobby").hidden = true;
  $("missing").hidden = false;
  $("missing-id").textContent = id;
  $("status").textContent = say("missing");
  $("status").className = "status";
}

async function showLobby() {
  $("game").hidden = true;
  $("missing").hidden = true;
  $("lobby").hidden = false;
  $("status").textContent = say("lobby");
  $("status").className = "status";
  const [groups, agents, games] = await Promise.all([api("/api/map-groups"), api("/api/agents"), api("/api/games")]);
  const mapSelect = $("map-select");
  // Each board with its variants (other ticket decks on the same board) under it.
  const option = (m) => el("option", { value: m, text: m, selected: m === "europe" });
  mapSelect.replaceChildren(...groups.map((g) => g.maps.length === 1 ? option(g.maps[0])
    : el("optgroup", { label: g.board }, ...g.maps.map(option))));
  G.agentNames = agents;
  renderSeatChoices();
  renderPlayerCounts();
  const list = $("game-list");
  // The server words each game (its title and facts: age, open seats).
  list.replaceChildren(...games.slice().reverse().map((g) =>
    el("li", {}, el("span", {}, el("strong", { text: g.title }), el("br"),
      el("small", { class: "game-facts", text: g.facts })),
      el("a", { href: `#game/${g.id}`, text: say(localStorage.getItem(`ttr-web:${g.id}`) ? "play" : "watch") }))));
  if (!games.length) list.append(el("li", { text: say("no-games") }));
}

// The player counts the chosen map allows (its rules' min_players and max_players, as its map
// file says them; the defaults 2 and 5 where the answer has no rules).
async function renderPlayerCounts() {
  const name = $("map-select").value;
  let rules = {};
  try {
    rules = (await api(`/api/maps/${encodeURIComponent(name)}`)).rules || {};
  } catch (err) {
    rules = {};
  }
  if ($("map-select").value !== name) return;
  const low = rules.min_players ?? 2, high = rules.max_players ?? 5;
  const select = $("players-select");
  const previous = Number(select.value) || 2;
  const counts = [];
  for (let n = low; n <= high; n++) counts.push(n);
  select.replaceChildren(...counts.map((n) => el("option", { value: n, text: String(n), selected: n === Math.min(Math.max(previous, low), high) })));
  renderSeatChoices();
}

function renderSeatChoices() {
  const n = Number($("players-select").value);
  const box = $("seat-choices");
  const previous = [...box.querySelectorAll("select")].map((s) => s.value);
  box.replaceChildren(el("legend", { text: say("seats") }));
  for (let seat = 0; seat < n; seat++) {
    const fallback = seat === 0 ? "human" : (G.agentNames.includes("medium") ? "medium" : G.agentNames[0]);
    const chosen = previous[seat] || fallback;
    const select = el("select", { name: `seat-${seat}`, "data-seat": seat },
      el("option", { value: "human", text: say("human"), selected: chosen === "human" }),
      el("optgroup", { label: say("agents") },
        ...G.agentNames.map((a) => el("option", { value: a, text: a, selected: chosen === a }))));
    // "Player" and the seat's number, counted from 1 as the page shows seats
    box.append(el("label", {}, el("span", { class: "swatch", style: `background:${PLAYER_COLORS[seat]}` }),
      el("span", { class: "seat-word", text: say("player") }), el("span", { class: "seat-number", text: String(seat + 1) }), select));
  }
}

// The largest seed the server takes (ttr_rules.web.games.MAX_SEED).
const MAX_SEED = "9223372036854775807";

function seedInRange(text) {
  return /^\d+$/.test(text) && BigInt(text) <= BigInt(MAX_SEED);
}

async function createGame(event) {
  event.preventDefault();
  $("create-error").hidden = true;
  const agents = {};
  for (const select of $("seat-choices").querySelectorAll("select")) {
    if (select.value !== "human") agents[select.dataset.seat] = select.value;
  }
  const body = { map: $("map-select").value, players: Number($("players-select").value), agents };
  const seed = $("seed-input").value.trim();
  if (seed && !seedInRange(seed)) {
    $("create-error").textContent = say("seed");
    $("create-error").hidden = false;
    return;
  }
  // Sent as written: a JavaScript number would round a seed past 2^53.
  const text = JSON.stringify({ ...body, ...(seed ? { seed: "SEED" } : {}) }).replace('"SEED"', seed ? BigInt(seed).toString() : "");
  try {
    const created = await api("/api/games", { method: "POST", body: text });
    sessionStorage.setItem(`ttr-web-seats:${created.id}`, JSON.stringify(created.seats));
    if (created.seats.length) localStorage.setItem(`ttr-web:${created.id}`, created.seats[0].token);
    location.hash = `#game/${created.id}`;
  } catch (err) {
    $("create-error").textContent = err.message;
    $("create-error").hidden = false;
  }
}

// ------------------------------------------------------------------ game

async function openGame(id, token) {
  G.id = id; G.token = token; G.steps = []; G.seq = 0; G.scoresShown = false; G.selectedRoute = null; G.totals = null;
  $("lobby").hidden = true;
  $("missing").hidden = true;
  $("game").hidden = false;
  $("scores").hidden = true;
  $("log").replaceChildren();
  try {
    G.info = await api(`/api/games/${id}/info`);
    G.map = await api(`/api/maps/${G.info.map}`);
    G.view = await api(`/api/games/${id}`);
    G.panels = await api(`/api/games/${id}/panels`);
  } catch (err) {
    if (err.status === 403) {
      localStorage.removeItem(`ttr-web:${id}`);
      toast(say("bad-link"));
      return openGame(id, null);
    }
    if (err.status === 404) return showMissing(id);
    $("status").textContent = err.message;
    return;
  }
  G.seat = G.view.player;
  renderSeatLinks();
  await refresh();
  startStream();
}

function renderSeatLinks() {
  const seats = JSON.parse(sessionStorage.getItem(`ttr-web-seats:${G.id}`) || "[]");
  const others = seats.filter((s) => s.seat !== G.seat);
  $("seats-panel").hidden = others.length === 0;
  $("seat-links").replaceChildren(...others.map((s) => {
    const url = `${location.origin}/#game/${G.id}?token=${encodeURIComponent(s.token)}`;
    return el("li", {}, el("span", { class: "seat-name", text: playerName(s.seat) }), el("a", { href: url, target: "_blank", text: url }));
  }));
}

function playerName(seat) {
  // The seat's name for this page's reader, with its agent (GET /panels: "You", "Player 2 (medium)").
  const names = G.panels && G.panels.seats;
  return names && names[seat] ? names[seat].full : String(seat + 1);
}

// Live updates: Server-Sent Events read with fetch (so the token travels in a header, never in a URL).
function startStream() {
  const controller = new AbortController();
  G.abort = controller;
  (async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch(`/api/games/${G.id}/stream?since=${G.seq}`, { headers: authHeaders(), signal: controller.signal });
        if (!response.ok) throw new ApiError(response.status, null);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer = (buffer + value).replace(/\r\n/g, "\n");
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            handleMessage(buffer.slice(0, cut));
            buffer = buffer.slice(cut + 2);
          }
        }
      } catch (err) {
        if (controller.signal.aborted) return;
      }
      if (G.view && G.view.phase === "game over") return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
}

function stopStream() {
  if (G.abort) G.abort.abort();
  G.abort = null;
}

function handleMessage(chunk) {
  let event = "message";
  const data = [];
  for (const line of chunk.split("\n")) {
    if (line.startsWith("event:")) event = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (event !== "update" || !data.length) return;
  const update = JSON.parse(data.join("\n"));
  for (const step of update.steps) addStep(step);
  G.seq = Math.max(G.seq, update.seq);
  G.view = update.view;
  if (update.agent_error) toast(update.agent_error);
  refresh();
}

function setBusy(delta) {
  // A refresh or an action under way: what the page shows may be about to change.
  G.busy = (G.busy || 0) + delta;
  document.body.dataset.busy = G.busy > 0 ? "1" : "0";
}

async function refresh() {
  const ticket = ++G.refreshing;
  const posted = G.posted;
  setBusy(1);
  try {
    const mine = G.seat !== null && G.seat !== undefined;
    const [legal, tickets, board, view, panels] = await Promise.all([
      mine ? api(`/api/games/${G.id}/legal`) : Promise.resolve([]),
      mine ? api(`/api/games/${G.id}/tickets`) : Promise.resolve([]),
      fetch(`/api/games/${G.id}/board.svg?legend=false&size=${boardRequestSize()}${symbolsOn() ? "&symbols=true" : ""}`, { headers: authHeaders() }).then((r) => r.text()),
      api(`/api/games/${G.id}`),
      api(`/api/games/${G.id}/panels`),
    ]);
    if (ticket !== G.refreshing) return;  // a newer refresh is under way
    // The four answers are read one after another, so a move may fall between them: an action
    // of ours under way, or an agent's move that made it our turn. Never show such a mix (the
    // legal actions of one position beside the view of another): the next update redraws.
    if (G.posting || posted !== G.posted) return;
    const ours = G.seat !== null && G.seat !== undefined && view.phase !== "game over" && view.current === G.seat;
    if (mine && ours !== legal.length > 0) { setTimeout(refresh, 200); return; }
    G.legal = legal; G.tickets = tickets; G.view = view; G.panels = panels;
    clearHints();
    renderAll(board);
    if (view.phase === "game over") await showScores();
  } catch (err) {
    if (ticket === G.refreshing) toast(err.message);
  } finally {
    setBusy(-1);
  }
}

async function play(notation) {
  // One action at a time: until the answer is drawn, the controls on the page belong to the
  // position before it, so a second click (a double click, or a click on a control drawn just
  // before) would act on a position that is gone.
  if (G.posting) return;
  closeMenu();
  G.posting += 1;
  G.posted = (G.posted || 0) + 1;
  setBusy(1);
  try {
    try {
      G.view = await api(`/api/games/${G.id}/actions`, { method: "POST", body: JSON.stringify({ action: notation }) });
    } finally {
      G.posting -= 1;
    }
    await refresh();
  } catch (err) {
    toast(err.message);  // the server's message already says the reason
    refresh();  // show the position as the server has it
  } finally {
    setBusy(-1);
  }
}

// ------------------------------------------------------------------ rendering

function card(color, { count = null, tag = "div", onclick = null, playable = false } = {}) {
  const attrs = { class: `card c-${color || "none"}${color ? "" : " empty"}${playable ? " playable" : ""}`, title: color || "empty" };
  if (tag === "button") { attrs.type = "button"; attrs.disabled = !onclick; if (onclick) attrs.onclick = onclick; }
  const node = el(tag, attrs);
  if (count !== null) node.append(el("span", { class: "count", text: String(count) }));
  if (color && symbolsOn()) node.append(el("span", { class: "symbol", text: CARD_SYMBOLS[color] }));
  node.append(el("span", { text: color === "locomotive" ? "loco" : (color || "—") }));
  return node;
}

function byType(type) {
  return G.legal.filter((a) => a.type === type);
}

function renderAll(boardSvg) {
  const v = G.view;
  const over = v.phase === "game over";
  const mine = G.seat !== null && G.seat !== undefined;
  const myTurn = mine && !over && v.current === G.seat;
  const status = $("status");
  status.className = myTurn ? "status mine" : "status";
  status.textContent = G.panels.status;  // the server's words (GET /panels: frontend.turn_words)
  renderBoard(boardSvg);
  document.body.dataset.turn = over ? "over" : myTurn ? "mine" : "waiting";
  document.body.dataset.version = String(Number(document.body.dataset.version || 0) + 1);
  renderPlayers();
  renderTurnPanel(myTurn);
  // A hint is a seat's question during play: a watcher or a finished game has none to ask.
  document.querySelector(".hint-area").hidden = over || !mine;
  $("hint-button").disabled = !myTurn;  // a hint is for the decision at hand
  renderHand();
  renderTickets();
}

function renderBoard(svgText) {
  const board = $("board");
  board.innerHTML = svgText;
  showBoard(board);
  // A route that only substitute sets can pay (a Nordic ferry) is offered by claim_with_sets.
  const claims = [...byType("claim_route"), ...byType("claim_with_sets")];
  const claimable = new Set(claims.map((a) => a.route));
  for (const node of board.querySelectorAll("[data-route], g.route")) {
    const id = Number(node.dataset.route ?? (node.id || "").replace(/^route-/, ""));
    if (!claimable.has(id)) continue;
    node.classList.add("claimable");
    node.addEventListener("click", (e) => {
      for (const other of board.querySelectorAll(".route.selected")) other.classList.remove("selected");
      node.classList.add("selected");
      openRouteMenu(id, e);
    });
  }
  const stations = new Set(byType("build_station").map((a) => a.city));
  for (const node of board.querySelectorAll("g.city[data-city]")) {
    if (!stations.has(node.dataset.city)) continue;
    node.classList.add("buildable");
    node.addEventListener("click", () => { $("station-city").value = node.dataset.city; renderStationPayments(); });
  }
  board.classList.toggle("choosing", claims.length > 0);
  markTunnel(board);
  markLastMoves(board);
  drawTickets(board);
}

const SVG_NS = "http://www.w3.org/2000/svg";

function cityPoint(board, name) {
  const circle = board.querySelector(`g.city[data-city="${CSS.escape(name)}"] circle`);
  return circle ? [Number(circle.getAttribute("cx")), Number(circle.getAttribute("cy"))] : null;
}

function ticketState(t) {
  if (t.completed) return "done";
  return G.view.phase === "game over" ? "failed" : "open";
}

function drawTickets(board) {
  // Your kept tickets (open, done, or failed at the end) and, while you choose, the offered
  // ones: a dashed line between the two cities, drawn under the cities and taking no clicks.
  const cities = board.querySelector("#cities");
  if (!cities) return;
  const layer = document.createElementNS(SVG_NS, "g");
  layer.setAttribute("id", "page-tickets");
  layer.setAttribute("pointer-events", "none");
  const me = G.seat !== null && G.seat !== undefined ? G.view.seats[G.seat] : null;
  const offered = new Set(me && me.offered ? me.offered : []);
  const shown = G.tickets.filter((t) => t.kept || offered.has(t.id));
  for (const t of shown) {
    // A ticket to several destinations is drawn to the best one reached, else the nearest.
    const [from, to] = t.line || [t.a, t.b];
    const a = cityPoint(board, from); const b = cityPoint(board, to);
    if (!a || !b) continue;
    const line = document.createElementNS(SVG_NS, "line");
    const state = t.kept ? ticketState(t) : "offered";
    for (const [k, v] of Object.entries({ x1: a[0], y1: a[1], x2: b[0], y2: b[1] })) line.setAttribute(k, v);
    line.setAttribute("class", `page-ticket ticket-${state}`);
    line.dataset.ticket = t.id;
    layer.append(line);
    for (const p of [a, b]) {
      const ring = document.createElementNS(SVG_NS, "circle");
      for (const [k, v] of Object.entries({ cx: p[0], cy: p[1], r: 11 })) ring.setAttribute(k, v);
      ring.setAttribute("class", `page-ticket-end ticket-${state}`);
      layer.append(ring);
    }
  }
  cities.parentNode.insertBefore(layer, cities);
}

function markTunnel(board) {
  // The tunnel being paid for, or the route being paid card by card (substitute sets).
  const paying = G.view.phase === "payment" ? G.view.seats[G.view.current].payment : null;
  const t = G.view.tunnel || paying;
  if (!t) return;
  const node = board.querySelector(`g.route[data-route="${t.route}"]`);
  if (!node) return;
  node.classList.add("tunnel-pending");
  // On a phone the board pans inside its frame: show the tunnel once, then leave the panning
  // to the player.
  if (G.tunnelShown !== t.route) {
    G.tunnelShown = t.route;
    bringIntoView(board, node);
  }
}

function bringIntoView(frame, node) {
  // Pan the board so that ``node`` sits in its middle, if it is out of view.
  const f = frame.getBoundingClientRect();
  const b = node.getBoundingClientRect();
  if (b.left >= f.left && b.right <= f.right && b.top >= f.top && b.bottom <= f.bottom) return;
  panBoardBy(b.left + b.width / 2 - (f.left + f.width / 2), b.top + b.height / 2 - (f.top + f.height / 2));
}

function lastSteps() {
  // Each other player's latest step, in seat order.
  const latest = new Map();
  for (const step of G.steps) if (step.player !== null && step.player !== undefined) latest.set(step.player, step);
  return [...latest.entries()].filter(([seat]) => seat !== G.seat).sort((x, y) => x[0] - y[0]).map(([, step]) => step);
}

function markLastMoves(board) {
  const line = $("last-moves");
  const steps = lastSteps();
  line.replaceChildren(el("strong", { text: say("last-moves") }), " ",
    ...(steps.length ? steps.map((step, i) => el("span", { class: "last-move-item" },
      el("span", { class: "swatch", style: `background:${PLAYER_COLORS[step.player % PLAYER_COLORS.length]}` }),
      `${describeStep(step)}${i < steps.length - 1 ? " · " : ""}`)) : [el("span", { text: say("none-yet") })]));
  for (const step of steps) {
    for (const e of step.events) {
      if (e.type === "route_claimed" || e.type === "tunnel_declined" || e.type === "tunnel_revealed") {
        const node = board.querySelector(`g.route[data-route="${e.route}"]`);
        if (node) node.classList.add("last-move");
      } else if (e.type === "station_built") {
        const node = board.querySelector(`g.city[data-city="${CSS.escape(e.city)}"]`);
        if (node) node.classList.add("last-move");
      }
    }
  }
}

function openRouteMenu(routeId, event) {
  const menu = $("route-menu");
  // A route whose payment may use substitute sets also offers to start one (Nordic's
  // Lieksa – Murmansk): its cards are then picked one at a time in the payment panel.
  const options = [...byType("claim_route"), ...byType("claim_with_sets")].filter((a) => a.route === routeId);
  menu.replaceChildren(
    // the kit's words for the route (ttr_rules.frontend.route_label): track, colour, length, kind
    el("div", { class: "menu-title", text: options.length ? options[0].target : "" }),
    // each payment's caption from the server ("Pay 3 black + 1 locomotive": GET /legal)
    ...options.map((a) => el("button", { type: "button", class: "claim-option", "data-action": a.action, onclick: () => play(a.action), text: a.caption })),
    el("button", { type: "button", class: "cancel", onclick: closeMenu, text: say("cancel") }));
  const panel = menu.parentElement.getBoundingClientRect();
  menu.style.left = `${Math.max(4, Math.min(event.clientX - panel.left, panel.width - 260))}px`;
  menu.style.top = `${Math.max(4, event.clientY - panel.top + 8)}px`;
  menu.hidden = false;
}

function closeMenu() {
  $("route-menu").hidden = true;
  for (const node of document.querySelectorAll("#board .route.selected")) node.classList.remove("selected");
}

function renderPlayers() {
  const v = G.view;
  const over = v.phase === "game over";
  const totals = G.totals || {};
  // The columns and their headings come from the server (GET /panels): at the end the final
  // scores take the hand sizes' place, and a board without stations has no column for them.
  const cell = {
    player: (s, seat) => nameCell(seat),
    trains: (s) => el("td", { text: String(s.trains) }),
    cards: (s) => el("td", { text: String(s.hand_size) }),
    tickets: (s) => el("td", { text: String(s.ticket_count) + (s.offered_count ? `+${s.offered_count}` : "") }),
    stations: (s) => el("td", { text: String(v.rules.stations_per_player - s.stations.length) }),
    route_points: (s) => el("td", { text: String(s.route_points) }),
    total: (s, seat) => el("td", { class: "total", text: totals[seat] ?? "…" }),
  };
  const columns = G.panels.columns.filter((c) => cell[c.key]);
  const rows = [el("tr", {}, ...columns.map((c) => el("th", { text: c.title })))];
  v.seats.forEach((s, seat) => {
    rows.push(el("tr", { class: seat === v.current && !over ? "current" : "" },
      ...columns.map((c) => cell[c.key](s, seat))));
  });
  $("player-table").replaceChildren(...rows);
}

// The seat's colour and name, an agent's name on a line of its own: the side panel is narrow.
function nameCell(seat) {
  const agent = seat !== G.seat && G.info && G.info.seats[seat] && G.info.seats[seat].agent;
  return el("td", {}, el("span", { class: "swatch", style: `background:${PLAYER_COLORS[seat % PLAYER_COLORS.length]}` }),
    G.panels.seats[seat].name, ...(agent ? [el("span", { class: "agent", text: agent })] : []));
}

function renderTurnPanel(myTurn) {
  const v = G.view;
  $("turn-title").textContent = G.panels.title;  // the server's words (GET /panels)
  $("prompt").textContent = G.panels.prompt;
  // face-up row and piles
  const faceUp = new Map(byType("draw_face_up").map((a) => [a.slot, a.action]));
  $("face-up").replaceChildren(...v.face_up.map((color, slot) => {
    const action = faceUp.get(slot);
    const node = card(color, { tag: "button", playable: !!action, onclick: action ? () => play(action) : null });
    node.dataset.slot = slot;
    return node;
  }));
  $("deck-size").textContent = `(${v.deck_size})`;
  $("ticket-deck-size").textContent = `(${v.ticket_deck_size})`;
  const blind = byType("draw_blind")[0];
  const drawTickets = byType("draw_tickets")[0];
  setPile($("draw-blind"), blind);
  setPile($("draw-tickets"), drawTickets);
  renderTunnel(myTurn);
  renderPayment(myTurn);
  renderTicketChoice(myTurn);
  renderStations();
  // On a phone the sheet unfolds for each new decision, and drops the draws while tickets are
  // chosen (style.css), so that the board keeps most of the screen.
  const panel = $("turn-panel");
  panel.classList.toggle("choosing-tickets", !$("ticket-choice").hidden);
  const decision = `${v.turn}/${v.phase}/${v.current}`;
  if (panel.dataset.foldedAt !== decision) foldSheet(false);
  const others = G.legal.filter((a) => a.type === "pass");
  $("other-actions").replaceChildren(...others.map((a) => el("button", { type: "button", onclick: () => play(a.action), text: a.label })));
}

function foldSheet(folded) {
  const panel = $("turn-panel");
  panel.classList.toggle("folded", folded);
  panel.dataset.foldedAt = folded && G.view ? `${G.view.turn}/${G.view.phase}/${G.view.current}` : "";
  $("sheet-handle").setAttribute("aria-expanded", String(!folded));
}

function fitBoardAboveSheet() {
  // A phone's sheet is fixed at the bottom: the board and its zoom buttons take the height
  // left between the bar of last moves and the sheet (style.css).
  const panel = $("turn-panel");
  const fixed = getComputedStyle(panel).position === "fixed" && getComputedStyle(panel).display !== "none";
  const sheet = fixed ? Math.ceil(panel.getBoundingClientRect().height) : 0;
  const top = $("board").getBoundingClientRect().top + window.scrollY;
  const zoom = document.querySelector(".zoom-controls").getBoundingClientRect().height;
  const before = boardBox().h;
  document.body.style.setProperty("--sheet", `${sheet}px`);
  document.body.style.setProperty("--board-room", `${Math.max(192, Math.floor(innerHeight - sheet - top - zoom - 16))}px`);
  if (!Z.docW) return;
  if (Z.cy !== null) Z.cy += (boardBox().h - before) / (2 * Z.z);  // the view's top edge stays put
  applyBoardView();
}

function setPile(button, action) {
  button.disabled = !action;
  button.classList.toggle("playable", !!action);
  button.onclick = action ? () => play(action.action) : null;
}

function renderTunnel(myTurn) {
  // The words come from the server (GET /panels: ttr_rules.frontend.tunnel_words).
  const box = $("tunnel");
  const t = G.view.tunnel;
  if (!t || !G.panels.tunnel) { box.hidden = true; box.replaceChildren(); return; }
  const options = [...byType("pay_tunnel"), ...byType("decline_tunnel")];
  box.replaceChildren(
    el("div", { class: "tunnel-text", text: G.panels.tunnel }),
    el("div", { class: "cards" }, ...t.revealed.map((c) => card(c))),
    ...(myTurn ? options.map((a) => el("button", { type: "button", class: "tunnel-option", onclick: () => play(a.action), text: a.label })) : []));
  box.hidden = false;
}

function renderPayment(myTurn) {
  // A payment with substitute sets is picked card by card (docs/rules.md, "Payments"): each
  // pick is a button, and the claim appears as soon as the picked cards pay for the route.
  const box = $("payment");
  // The words come from the server (GET /panels: ttr_rules.frontend.payment_words).
  const paying = G.view.phase === "payment" ? G.view.seats[G.view.current].payment : null;
  if (!paying || !G.panels.payment) { box.hidden = true; box.replaceChildren(); return; }
  const mineNow = myTurn && G.seat === G.view.current;
  const picked = paying.cards || [];
  const text = G.panels.payment;
  const picks = mineNow ? byType("pay_card").map((a) => card(a.card, { tag: "button", playable: true, onclick: () => play(a.action) })) : [];
  const claims = mineNow ? byType("claim_route").map((a) => el("button", { type: "button", class: "primary payment-claim", onclick: () => play(a.action), text: a.label })) : [];
  box.replaceChildren(
    el("div", { class: "tunnel-text", text }),
    el("div", { class: "cards" }, ...picked.map((c) => card(c))),
    ...(picks.length && G.panels.pick ? [el("div", { text: G.panels.pick }), el("div", { class: "cards payment-picks" }, ...picks)] : []),
    ...claims);
  box.hidden = false;
}

function renderTicketChoice(myTurn) {
  const box = $("ticket-choice");
  const me = G.seat !== null && G.seat !== undefined ? G.view.seats[G.seat] : null;
  const keeps = byType("keep_tickets");
  if (!myTurn || !keeps.length || !me || !me.offered || !G.panels.keep) { box.hidden = true; box.replaceChildren(); return; }
  // Each offered ticket in the server's words (GET /tickets: its ends, its worth, "long").
  const offered = new Map(G.tickets.filter((t) => !t.kept).map((t) => [t.id, t]));
  const labels = me.offered.filter((id) => offered.has(id)).map((id) => {
    const t = offered.get(id);
    return el("label", {}, el("input", { type: "checkbox", value: id, checked: true }),
      el("span", { text: t.ends }), " ", el("strong", { text: t.worth }), ...(t.tag ? [" ", el("em", { text: t.tag })] : []));
  });
  const button = el("button", {
    type: "button", class: "primary", id: "keep-tickets",
    onclick: () => {
      const chosen = [...box.querySelectorAll("input:checked")].map((i) => i.value);
      play(`tickets keep ${chosen.join(",")}`);
    },
    text: G.panels.keep_button,
  });
  box.replaceChildren(el("div", { text: G.panels.keep }), ...labels, button);
  box.hidden = false;
}

function renderStations() {
  const cities = [...new Set(byType("build_station").map((a) => a.city))].sort();
  const area = $("station-area");
  area.hidden = cities.length === 0;
  const select = $("station-city");
  const current = select.value;
  select.replaceChildren(select.querySelector('option[value=""]'),
    ...cities.map((c) => el("option", { value: c, text: c, selected: c === current })));
  renderStationPayments();
}

function renderStationPayments() {
  const city = $("station-city").value;
  const options = byType("build_station").filter((a) => a.city === city);
  $("station-payments").replaceChildren(...options.map((a) =>
    el("button", { type: "button", onclick: () => play(a.action), text: a.caption })));
}

function renderHand() {
  const me = G.seat !== null && G.seat !== undefined ? G.view.seats[G.seat] : null;
  $("hand-panel").hidden = !me;
  if (!me) return;
  const hand = me.hand || {};
  const cards = CARD_ORDER.filter((c) => hand[c]).map((c) => card(c, { count: hand[c] }));
  $("my-hand").replaceChildren(...(cards.length ? cards : [el("span", { class: "hint", text: say("no-cards") })]));
}

function renderTickets() {
  const mine = G.seat !== null && G.seat !== undefined;
  $("tickets-panel").hidden = !mine;
  if (!mine) return;
  const kept = G.tickets.filter((t) => t.kept);
  // The server words each ticket (GET /tickets): its ends, where it stands, what it is worth
  // (with the points a ticket to several destinations loses, "5–11 (−5)").
  $("my-tickets").replaceChildren(...(kept.length ? kept.map((t) =>
    el("li", { class: `${ticketState(t)}${t.long ? " long" : ""}` },
      el("span", { text: t.ends }),
      el("span", { class: "state", text: t.status }),
      el("span", { class: "pts", text: t.worth }))) : [el("li", { class: "hint", text: say("no-tickets") })]));
}

// ------------------------------------------------------------------ board view: pan and zoom
// The board is asked for at the width it is shown at, so that its labels (never under 11 px
// of the picture) are at least 11 px on the screen; zooming and panning change only its
// viewBox, so the vector picture stays sharp at every zoom. Wheel, pinch, drag and the
// buttons zoom and pan; a drag never counts as a click on a route.

// The narrowest board asked for: a tall board may shrink to fit the window's height, down to
// 400 px; a phone pans a board 560 px wide rather than shrink its labels.
const BOARD_MIN = [400, 560];
const ZOOM_MAX = 5;
const Z = { z: 1, cx: null, cy: null, docW: 0, docH: 0, pointers: new Map(), dragged: false, moved: 0 };

function boardHeightLimit() {
  return Math.max(320, window.innerHeight - 110);
}

function boardRequestSize() {
  // As wide as the board's frame, or narrower so that a tall board fits the window's height,
  // but never under BOARD_MIN (a phone pans the board rather than shrink its labels).
  const width = Math.floor(boardBox().w) || 800;
  const frame = G.map && G.map.frame;
  const aspect = Z.docW ? Z.docH / Z.docW : frame ? frame.height / frame.width : 0.7;
  const fit = Math.min(width, boardHeightLimit() / aspect);
  return Math.floor(Math.min(4000, Math.max(BOARD_MIN[width >= 600 ? 0 : 1], fit)));
}

function showBoard(board) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const docW = Number(svg.getAttribute("width")); const docH = Number(svg.getAttribute("height"));
  if (docW !== Z.docW || docH !== Z.docH) Object.assign(Z, { z: 1, cx: null, cy: null, docW, docH });
  svg.setAttribute("width", "100%"); svg.setAttribute("height", "100%");
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  board.style.height = `${Math.round(Math.min(docH, boardHeightLimit()))}px`;
  if (!board.dataset.zoomable) listenToBoard(board);
  applyBoardView();
}

function boardBox() {
  // The board's inner size in screen pixels, unrounded (clientWidth rounds: a picture 671 px
  // wide would then be shown at 670.8 / 671 of its size).
  const board = $("board");
  const r = board.getBoundingClientRect();
  const border = board.offsetWidth - board.clientWidth;
  return { w: Math.max(1, r.width - border), h: Math.max(1, r.height - (board.offsetHeight - board.clientHeight)) };
}

function zoomLimits() {
  const { w, h } = boardBox();
  return [Math.min(1, w / Z.docW, h / Z.docH), ZOOM_MAX];
}

function applyBoardView() {
  const svg = $("board").querySelector("svg");
  if (!svg || !Z.docW) return;
  const { w, h } = boardBox();
  const [low, high] = zoomLimits();
  Z.z = Math.min(high, Math.max(low, Z.z));
  const vw = w / Z.z; const vh = h / Z.z;
  const clamp = (c, view, doc) => (view >= doc ? doc / 2 : Math.min(doc - view / 2, Math.max(view / 2, c)));
  Z.cx = clamp(Z.cx ?? vw / 2, vw, Z.docW);
  Z.cy = clamp(Z.cy ?? vh / 2, vh, Z.docH);
  svg.setAttribute("viewBox", `${Z.cx - vw / 2} ${Z.cy - vh / 2} ${vw} ${vh}`);
  $("board").dataset.zoom = Z.z.toFixed(3);
}

function zoomBoardAt(factor, clientX, clientY) {
  // Zoom by ``factor`` keeping the point under (clientX, clientY) where it is.
  const r = $("board").getBoundingClientRect();
  const { w, h } = boardBox();
  const px = (clientX ?? r.left + w / 2) - r.left; const py = (clientY ?? r.top + h / 2) - r.top;
  const before = Z.z;
  const [low, high] = zoomLimits();
  Z.z = Math.min(high, Math.max(low, Z.z * factor));
  Z.cx += (px - w / 2) * (1 / before - 1 / Z.z);
  Z.cy += (py - h / 2) * (1 / before - 1 / Z.z);
  applyBoardView();
}

function panBoardBy(dx, dy) {
  // Move the view by (dx, dy) screen pixels.
  Z.cx += dx / Z.z; Z.cy += dy / Z.z;
  applyBoardView();
}

function fitBoard() {
  Z.z = zoomLimits()[0]; Z.cx = Z.docW / 2; Z.cy = Z.docH / 2;
  applyBoardView();
}

function listenToBoard(board) {
  board.dataset.zoomable = "1";
  board.addEventListener("wheel", (e) => {
    e.preventDefault();
    zoomBoardAt(Math.exp(-Math.max(-100, Math.min(100, e.deltaY)) * 0.004), e.clientX, e.clientY);
  }, { passive: false });
  board.addEventListener("pointerdown", (e) => {
    Z.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (Z.pointers.size === 1) { Z.dragged = false; Z.moved = 0; }
  });
  board.addEventListener("pointermove", (e) => {
    const last = Z.pointers.get(e.pointerId);
    if (!last) return;
    const points = [...Z.pointers.values()];
    if (points.length === 2) {
      const other = points.find((p) => p !== last);
      const before = Math.hypot(last.x - other.x, last.y - other.y);
      const after = Math.hypot(e.clientX - other.x, e.clientY - other.y);
      if (before > 0) zoomBoardAt(after / before, (e.clientX + other.x) / 2, (e.clientY + other.y) / 2);
      Z.dragged = true;
    } else {
      Z.moved += Math.hypot(e.clientX - last.x, e.clientY - last.y);
      if (Z.moved > 6) {
        if (!Z.dragged) board.setPointerCapture(e.pointerId);
        Z.dragged = true;
        panBoardBy(last.x - e.clientX, last.y - e.clientY);
      }
    }
    Z.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const up = (e) => { Z.pointers.delete(e.pointerId); };
  board.addEventListener("pointerup", up);
  board.addEventListener("pointercancel", up);
  // A drag or a pinch ends with a click on what is under the finger: it is not one.
  board.addEventListener("click", (e) => {
    if (Z.dragged) { e.stopPropagation(); e.preventDefault(); Z.dragged = false; }
  }, true);
  $("zoom-in").addEventListener("click", () => zoomBoardAt(1.4));
  $("zoom-out").addEventListener("click", () => zoomBoardAt(1 / 1.4));
  $("zoom-fit").addEventListener("click", fitBoard);
  let resized = null;
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(() => { if (G.id && !$("game").hidden && Math.abs(boardRequestSize() - Z.docW) > 40) refresh(); else applyBoardView(); }, 250);
  });
}

// ------------------------------------------------------------------ log

function addStep(step) {
  if (step.seq <= G.steps.length) return;
  G.steps.push(step);
  const item = el("li", { class: step.player === G.seat ? "mine" : "", text: describeStep(step) });
  const log = $("log");
  log.append(item);
  log.scrollTop = log.scrollHeight;
}

function describeStep(step) {
  // The server words each step as this seat may read it (ttr_rules.render.describe_event).
  return step.text || "";
}

// ------------------------------------------------------------------ scores

async function showScores() {
  if (G.scoresShown) return;
  G.scoresShown = true;
  const result = await api(`/api/games/${G.id}/scores`);
  G.totals = Object.fromEntries(result.rows.map((r) => [r.player, r.cells[r.cells.length - 1]]));
  renderPlayers();
  // The headline, the headings and the cells come from the server (GET /scores, for this
  // reader: "You win!"); columns the rules cannot fill are already left out.
  const rows = [el("tr", {}, ...result.columns.map((h) => el("th", { text: h })))];
  for (const row of result.rows) {
    const [name, ...cells] = row.cells;
    rows.push(el("tr", { class: row.winner ? "winner" : "" },
      el("td", {}, el("span", { class: "swatch", style: `background:${PLAYER_COLORS[row.player % PLAYER_COLORS.length]}` }), name),
      ...cells.map((text, i) => el("td", { class: i === cells.length - 1 ? "total" : "", text }))));
  }
  $("score-table").replaceChildren(...rows);
  // Phones: the same table turned on its side (a column per player, the final score first),
  // so that the final score is in view without scrolling sideways.
  const grid = rows.map((tr) => [...tr.children]);
  const last = grid[0].length - 1;
  const order = [0, last, ...grid[0].keys()].filter((c, i, all) => all.indexOf(c) === i);
  $("score-table-narrow").replaceChildren(...order.map((col, i) => el("tr", { class: i === 1 ? "total-row" : "" },
    ...grid.map((row, r) => {
      const cell = el(i === 0 || r === 0 ? "th" : "td", { class: i === 1 && r > 0 ? "total" : "" });
      cell.append(...[...row[col].childNodes].map((n) => n.cloneNode(true)));
      return cell;
    }))));
  $("scores-title").textContent = result.headline;
  $("record-link").href = `/api/games/${G.id}/record`;
  $("scores").hidden = false;
}

// ------------------------------------------------------------------ hints

// What a good player would do now (GET /hint, the seat's view only); a click on a
// suggestion plays it. The list belongs to one position: any redraw clears it.
async function showHints() {
  const list = $("hints");
  const asked = G.posted;
  $("hint-button").disabled = true;
  list.hidden = false;
  list.replaceChildren(el("li", { text: say("thinking") }));
  try {
    const hints = await api(`/api/games/${G.id}/hint`);
    if (asked !== G.posted) return;
    list.replaceChildren(...(hints.length ? hints.map(hintItem) : [el("li", { text: say("no-hint") })]));
    list.scrollIntoView({ block: "nearest" });  // on a phone the list opens inside the bottom sheet
  } catch (err) {
    list.hidden = true;
    toast(err.message);
  } finally {
    $("hint-button").disabled = document.body.dataset.turn !== "mine";
  }
}

function hintItem(hint) {
  const item = el("li", {});
  // The kit's words for the action, and how it compares with the first (ttr_rules.agents.compared).
  const button = el("button", { type: "button", class: "hint-action", onclick: () => play(hint.action), text: hint.label || hint.action });
  item.append(button, el("span", { class: "hint-reason", text: hint.why }));
  return item;
}

function clearHints() {
  $("hints").hidden = true;
  $("hints").replaceChildren();
}

// ------------------------------------------------------------------ start

window.addEventListener("DOMContentLoaded", () => {
  $("create-form").addEventListener("submit", createGame);
  $("players-select").addEventListener("change", renderSeatChoices);
  $("map-select").addEventListener("change", renderPlayerCounts);
  $("station-city").addEventListener("change", renderStationPayments);
  $("close-scores").addEventListener("click", () => { $("scores").hidden = true; });
  $("hint-button").addEventListener("click", showHints);
  $("sheet-handle").addEventListener("click", () => foldSheet(!$("turn-panel").classList.contains("folded")));
  const sheetWatch = new ResizeObserver(fitBoardAboveSheet);
  sheetWatch.observe($("turn-panel"));
  sheetWatch.observe($("last-moves"));
  $("colour-blind").checked = symbolsOn();
  $("colour-blind").addEventListener("change", (e) => {
    localStorage.setItem("ttr-web:symbols", e.target.checked ? "1" : "0");
    if (G.id && !$("game").hidden) refresh();
  });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeMenu(); });
  window.addEventListener("hashchange", route);
  route();
});
