// The referee's pages: the index of games, the game viewer, a tournament's standings, and a
// person's seat in play. Everything a bot wrote is put on the page as text (textContent),
// never as HTML; the boards are SVG pictures drawn by the referee itself.
"use strict";

// In a static report (referee report) the data is in the page; otherwise it comes from the
// server that sent the page.
const EMBEDDED = (() => {
  const node = document.getElementById("referee-data");
  return node ? JSON.parse(node.textContent) : null;
})();

// An answer other than 200 throws; one of 404 as NotFound, which the page tells as a page
// that does not exist. A request is the page's, aborted when it is left (see route); `signal`
// null for one that outlives it.
class NotFound extends Error {}
async function getJson(url, signal = page.signal) {
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (response.status === 404) throw new NotFound(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

// A report holds each game's pictures gzipped in base64 (SVG repeats itself: a tenth of the
// size or less); the game shown is unpacked once, with the browser's own DecompressionStream.
let unpacked = { key: null, pictures: null };
async function picturesOf(key) {
  if (unpacked.key !== key) {
    const bytes = Uint8Array.from(atob(EMBEDDED.games[key].positions_gz), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    unpacked = { key, pictures: JSON.parse(await new Response(stream).text()) };
  }
  return unpacked.pictures;
}

const api = EMBEDDED ? {
  games: async () => EMBEDDED.index,
  game: async (source, number) => EMBEDDED.games[`${source}/${number}`].view,
  position: async (source, number, ply) => {
    const key = `${source}/${number}`;
    const pictures = await picturesOf(key);
    return pictures[ply] === undefined ? null : EMBEDDED.games[key].prefix + pictures[ply];
  },
  tournament: async (source) => EMBEDDED.tournaments[source],
  // The export is in the page: offered as a file made from it, no server needed.
  exportUrl: (source, number) => {
    const text = EMBEDDED.games[`${source}/${number}`].download;
    return text ? URL.createObjectURL(new Blob([text], { type: "text/plain" })) : null;
  },
} : {
  games: () => getJson("api/games"),
  game: (source, number) => getJson(`api/game/${enc(source)}/${number}`),
  position: async (source, number, ply) => {
    const response = await fetch(`api/position/${enc(source)}/${number}/${ply}`, { credentials: "same-origin", signal: page.signal });
    return response.ok ? response.text() : null;
  },
  tournament: (source) => getJson(`api/tournament/${enc(source)}`),
  exportUrl: (source, number) => `api/export/${enc(source)}/${number}`,
};

// A source's id is a folder's name (`league`, `runs/day1`): one part of an address.
function enc(source) { return encodeURIComponent(source); }
// The address of a game's page, at a move when `ply` is given: stable, to share.
function gameHref(source, number, ply) {
  return `#/game/${enc(source)}/${number}${ply === undefined ? "" : `/${ply}`}`;
}

// An element with attributes and children; strings become text nodes.
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined && value !== false) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const SVG_NS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// A board picture from the referee, made into a node (the referee escapes every text in it).
function boardNode(svgText) {
  const box = el("div", { class: "board-box" });
  if (svgText) box.innerHTML = svgText;
  return box;
}

const main = () => document.getElementById("main");
const status = (text) => { document.getElementById("status").textContent = text; };

// Server-sent events: a callback run whenever the served directories change. A tab in the
// background lets its connection go (a browser opens only a few to one server) and catches up
// when it is shown again.
let events = null;
const watchers = new Set();
function connect() {
  if (events || EMBEDDED || !window.EventSource || document.hidden) return;
  events = new EventSource("api/events");
  events.addEventListener("changed", () => watchers.forEach((watcher) => watcher()));
}
document.addEventListener("visibilitychange", () => {
  if (document.hidden) {
    if (events) events.close();
    events = null;
  } else if (watchers.size) {
    connect();
    watchers.forEach((watcher) => watcher());
  }
});
function watch(callback) {
  watchers.add(callback);
  connect();
  return () => watchers.delete(callback);
}

// How a game went for side 0 (first) or 1 (second): won, drew or lost; none while it is played.
function outcomeOf(summary, side) {
  if (summary.live) return null;
  if (!summary.winner) return "drew";
  return summary.winner === ["first", "second"][side] ? "won" : "lost";
}

function resultText(summary) {
  if (summary.live) return "playing";
  if (!summary.winner) return "draw";
  return summary.winner === "first" ? "1-0" : "0-1";
}

// A performance mark the first time something is on the screen (what benches/web.rs reads).
function markOnce(name) {
  if (performance.getEntriesByName(name).length === 0) performance.mark(name);
}

// ----- The index of games -----

const PAGE_ROWS = 500;

async function showIndex(query) {
  let data = await api.games();
  const root = main();
  root.replaceChildren();
  const params = new URLSearchParams(query || "");
  const reasons = (games) => [...new Set(games.map((game) => game.reason))].sort();
  const filters = {
    source: el("select", {}, el("option", { value: "" }, "all sources"),
      data.sources.map((source) => el("option", { value: source.id }, source.name))),
    player: el("input", { type: "search", placeholder: "player", size: 14 }),
    // "The games X lost": the result of the player named, whichever side it played.
    outcome: el("select", { name: "outcome", "aria-label": "the player's result" }, ["", "won", "drew", "lost"].map((value) =>
      el("option", { value }, value || "won, drew or lost"))),
    result: el("select", { name: "result" }, ["", "1-0", "0-1", "draw", "playing"].map((value) =>
      el("option", { value }, value || "any result"))),
    reason: el("select", {}, el("option", { value: "" }, "any reason"),
      reasons(data.games).map((reason) => el("option", { value: reason }, reason))),
  };
  filters.source.value = params.get("source") || "";
  filters.player.value = params.get("player") || "";
  filters.outcome.value = params.get("outcome") || "";
  const heading = el("h1", {}, "");
  const links = el("ul", { class: "sources" });
  const table = el("table", { class: "games" });
  const more = el("button", { type: "button" }, "show more");
  root.append(heading, links, el("div", { class: "filters" }, Object.values(filters)),
    el("div", { class: "scroll" }, table), more);
  let shown = PAGE_ROWS;
  let sourceNames = new Map();
  const render = () => {
    sourceNames = new Map(data.sources.map((source) => [source.id, source.name]));
    heading.textContent = `${data.games.length} games`;
    links.replaceChildren(...data.sources.map((source) => el("li", {}, source.name, " ",
      source.tournament ? el("a", { href: `#/tournament/${enc(source.id)}` }, "standings") : "")));
    const player = filters.player.value.trim().toLowerCase();
    const outcome = filters.outcome.value;
    // The sides whose name holds the text typed (both when none is typed).
    const named = (game) => [0, 1].filter((side) => game.players[side].toLowerCase().includes(player));
    const games = data.games.filter((game) =>
      (filters.source.value === "" || game.source === filters.source.value) &&
      named(game).some((side) => outcome === "" || outcomeOf(game, side) === outcome) &&
      (filters.result.value === "" || resultText(game) === filters.result.value) &&
      (filters.reason.value === "" || game.reason === filters.reason.value));
    const rows = games.slice(0, shown).map((game) => el("tr", {
      class: "game-row", "data-game": `${game.source}/${game.number}`,
      onclick: () => { location.hash = gameHref(game.source, game.number); },
    },
      el("td", { class: "num" }, game.number),
      el("td", {}, sourceNames.get(game.source) || ""),
      el("td", {}, game.game.split(" ")[0]),
      el("td", {}, game.players[0]),
      el("td", {}, game.players[1]),
      el("td", {}, game.live ? el("span", { class: "live-badge" }, "live") : resultText(game)),
      el("td", {}, game.reason),
      el("td", { class: "num" }, game.moves),
      el("td", {}, game.started.replace("T", " ").slice(0, 19))));
    table.replaceChildren(el("tr", {}, ["#", "source", "game", "first", "second", "result", "reason", "moves", "started"]
      .map((title) => el("th", {}, title))), ...rows);
    more.hidden = games.length <= shown;
    status(`${games.length} of ${data.games.length} games shown`);
  };
  Object.values(filters).forEach((filter) => filter.addEventListener("input", () => { shown = PAGE_ROWS; render(); }));
  more.addEventListener("click", () => { shown += PAGE_ROWS; render(); });
  render();
  markOnce("games-shown");
  // Games played meanwhile update the rows in place: the filters keep what the person set.
  onLeave(watch(throttle(async () => {
    data = await api.games();
    const known = new Set([...filters.reason.options].map((option) => option.value));
    reasons(data.games).filter((reason) => !known.has(reason))
      .forEach((reason) => filters.reason.append(el("option", { value: reason }, reason)));
    render();
  }, 500)));
}

// Runs `callback` at most once every `ms`, the last call never lost.
function throttle(callback, ms) {
  let timer = null;
  return () => { if (timer === null) timer = setTimeout(() => { timer = null; callback(); }, ms); };
}

// ----- The game viewer -----

// The viewer's parts, put on the page: the board, its controls (each button named for the step
// in `steps` it takes), the charts, the moves, this turn's protocol lines and stderr.
function gameLayout(steps) {
  const button = (text, name) => el("button", { type: "button", name, title: name, onclick: () => steps[name]() }, text);
  const parts = {
    title: el("h1", {}),
    detail: el("div", { class: "detail" }),
    board: el("div", { class: "board-area" }),
    label: el("span", { class: "ply-label" }),
    scrub: el("input", { type: "range", min: 0, "aria-label": "move" }),
    autoplay: button("play", "autoplay"),
    // Autoplay's pace, a move every so many milliseconds; a change applies at once.
    speed: el("select", { name: "speed", title: "autoplay speed" },
      [["1200", "slow"], ["600", "normal"], ["250", "fast"], ["80", "fastest"]].map(([ms, name]) => el("option", { value: ms }, name))),
    moveList: el("ol", { class: "moves" }),
    chart: svgEl("svg", { class: "chart", viewBox: "0 0 600 110", preserveAspectRatio: "none" }),
    evalTitle: el("h2", { hidden: true }, "Evaluations the bots reported"),
    evalChart: svgEl("svg", { class: "chart evaluations", viewBox: "0 0 600 110", preserveAspectRatio: "none" }),
    evalAxis: el("div", { class: "eval-axis" }),
    turn: el("pre", { class: "lines turn" }),
    stderrBoxes: el("div", {}),
    download: el("p", {}),
  };
  parts.speed.value = "600";
  // The axis's values in the page's type beside the graph: in the graph, stretched to its width,
  // a phone would squeeze them.
  parts.evalGraph = el("div", { class: "eval-graph" }, parts.evalAxis, parts.evalChart);
  const controls = el("div", { class: "controls" }, button("|◀", "first"), button("◀", "back"), parts.autoplay,
    button("▶", "forward"), button("▶|", "last"), parts.speed, parts.scrub, parts.label);
  main().replaceChildren(parts.title, parts.detail, el("div", { class: "viewer" },
    el("div", {}, parts.board, controls, el("h2", {}, "Time of each move against its limit"), parts.chart, parts.evalTitle, parts.evalGraph),
    el("div", {}, el("h2", {}, "Moves"), parts.moveList, el("h2", {}, "This turn's protocol lines"), parts.turn,
      parts.stderrBoxes, parts.download)));
  return parts;
}

// What the viewer shows of the whole game: its title, its moves (a click shows one), the
// charts, each bot's stderr and the download link.
function fillGame(parts, view, exportUrl, go) {
  const rec = view.record;
  const names = rec.players.map((player) => player.name ? `${player.label} (${player.name})` : player.label);
  parts.title.textContent = `Game ${rec.number}: ${rec.game.split(" ")[0]}, ${names[0]} vs ${names[1]}`;
  parts.detail.replaceChildren(view.live ? el("span", { class: "live-badge" }, "live") : "",
    " ", rec.result ? rec.result.detail : `${rec.moves.length} moves so far`, " ", el("small", {}, rec.game));
  parts.scrub.max = view.positions - 1;
  const opening = rec.opening.length;
  // The answer that lost the game, when the rules refused it, comes last: where a bot author
  // looks first.
  const all = rec.opening.map((move) => ({ move, opening: true })).concat(rec.moves.map((move) => ({ move: move.move, record: move })),
    typeof view.refused === "string" ? [{ move: view.refused, refused: true }] : []);
  // Numbered as verdicts number them, from the first move after the opening (bulleted).
  parts.moveList.replaceChildren(...all.map((entry, index) => el("li", {
    class: entry.opening ? "opening" : entry.refused ? "refused" : null, value: entry.opening ? null : index - opening + 1,
    "data-ply": index + 1, onclick: () => go(index + 1),
  }, entry.move, moveNote(entry, rec.result))));
  drawChart(parts.chart, rec, opening, view.refused);
  drawEvaluations(parts, view.evaluations || [], rec, view.positions);
  parts.stderrBoxes.replaceChildren(...rec.players.map((player, index) => {
    const lines = view.stderr[index];
    const text = lines ? lines.map((line) => line.text).join("\n") : (player.stderr_tail ? player.stderr_tail.join("\n") : null);
    return text ? el("div", {}, el("h2", {}, `stderr of ${player.label}`), el("pre", { class: "lines stderr" }, text)) : null;
  }).filter(Boolean));
  parts.download.replaceChildren(exportUrl && view.export ? el("a", { href: exportUrl, download: `${String(rec.number).padStart(4, "0")}.${view.export}` }, `Download as ${view.export.toUpperCase()}`) : "");
}

// What the move list says after a move: its time (and strike), that it is the opening's, or
// the verdict on an answer refused.
function moveNote(entry, result) {
  if (entry.opening) return " (opening)";
  if (entry.refused) return ` (refused: ${result.detail})`;
  const { us, strike } = entry.record;
  return ` (${(us / 1000).toFixed(1)} ms${strike ? `, strike ${strike}` : ""})`;
}

// The answer the rules refused (`refused`, as the move list shows it) as a last move of the
// time chart, when the record has its time (records written before it was kept do not).
function refusedTimed(rec, refused) {
  const { result } = rec;
  if (typeof refused !== "string" || !result || typeof result.us !== "number") return [];
  return [{ side: result.winner === "first" ? "second" : "first", move: refused, us: result.us, refused: true }];
}

// Bars on a logarithmic scale from 10 microseconds to the limit, so that a fast bot's
// moves show as well as a slow one's, a refused answer's marked so; the dashed line is the limit.
function drawChart(chart, rec, opening, refused) {
  chart.replaceChildren();
  const moves = rec.moves.concat(refusedTimed(rec, refused));
  if (!moves.length) return;
  const limits = moves.map((move) => {
    const time = rec.players[move.side === "first" ? 0 : 1].time || {};
    return (time.move || time.bank || 1000) * 1000;
  });
  const floor = 10;
  const top = Math.max(...limits, ...moves.map((move) => move.us)) * 1.2;
  const scale = (us) => (Math.log10(Math.max(us, floor) / floor) / Math.log10(top / floor)) * 100;
  for (const [us, text] of [[100, "0.1 ms"], [1000, "1 ms"], [10000, "10 ms"], [100000, "100 ms"], [1000000, "1 s"], [10000000, "10 s"]]) {
    if (us > top) break;
    const y = 105 - scale(us);
    chart.append(svgEl("line", { class: "tick", x1: 0, x2: 600, y1: y, y2: y }));
    chart.append(svgEl("text", { class: "tick-label", x: 2, y: y - 1 }, text));
  }
  const width = 600 / moves.length;
  moves.forEach((move, index) => {
    const height = Math.max(1, scale(move.us));
    const bar = svgEl("rect", {
      class: `bar-${move.side}${move.refused ? " bar-refused" : ""}`, "data-ply": opening + index + 1, x: index * width, y: 105 - height,
      width: Math.max(width - 1, 0.5), height,
    });
    bar.append(svgEl("title", {}, `${move.refused ? "refused: " : ""}${move.move}: ${(move.us / 1000).toFixed(3)} ms of ${limits[index] / 1000} ms`));
    chart.append(bar);
  });
  const limitY = 105 - scale(limits[0]);
  chart.append(svgEl("line", { class: "limit", x1: 0, x2: 600, y1: limitY, y2: limitY }));
  chart.append(svgEl("text", { class: "tick-label", x: 540, y: limitY - 2 }, `limit ${limits[0] / 1000} ms`));
}

// Each bot's evaluations from the first player's point of view (up: good for the first
// player), each on its own scale (bots use their own units); a mate is drawn at the edge.
function drawEvaluations({ evalChart, evalTitle, evalGraph, evalAxis }, evaluations, rec, positions) {
  evalChart.replaceChildren();
  evalTitle.hidden = evaluations.length === 0;
  evalGraph.style.display = evaluations.length ? "" : "none";
  if (!evaluations.length) return;
  const total = Math.max(positions - 1, 1);
  const x = (ply) => (ply / total) * 600;
  evalChart.append(svgEl("line", { class: "tick", x1: 0, x2: 600, y1: 55, y2: 55 }));
  const scales = {};
  const least = 1e-9;
  for (const side of ["first", "second"]) {
    const own = evaluations.filter((e) => e.side === side);
    if (!own.length) continue;
    const scale = Math.max(...own.filter((e) => !e.mate).map((e) => Math.abs(e.value)), least);
    // On the axis when the side reported a value but mates and zeros.
    if (scale > least) scales[side] = scale;
    const y = (e) => {
      const forFirst = side === "first" ? 1 : -1;
      const sign = Math.sign(e.value) * forFirst;
      return 55 - (e.mate ? sign * 52 : (e.value * forFirst / scale) * 48);
    };
    evalChart.append(svgEl("polyline", { class: `eval-${side}`, points: own.map((e) => `${x(e.ply)},${y(e)}`).join(" ") }));
    const name = rec.players[side === "first" ? 0 : 1].label;
    for (const e of own) {
      const dot = svgEl("circle", { class: `eval-${side}`, "data-ply": e.ply, cx: x(e.ply), cy: y(e), r: 2.5 });
      dot.append(svgEl("title", {}, `move ${e.ply - rec.opening.length}, ${name}: ${e.mate ? `mate in ${e.value}` : e.value}`));
      evalChart.append(dot);
    }
  }
  evalChart.append(svgEl("text", { class: "tick-label", x: 2, y: 10 }, "good for the first player"));
  evalChart.append(svgEl("text", { class: "tick-label", x: 2, y: 106 }, "good for the second player"));
  drawEvalAxis(evalAxis, scales);
}

const AXIS_NUMBER = new Intl.NumberFormat("en", { maximumSignificantDigits: 3, notation: "compact", signDisplay: "exceptZero" });

// The evaluations' axis: the value each side's line has at the top and at the bottom of the
// graph, as that side reported it (its own units and point of view, in its colour), and zero.
function drawEvalAxis(axis, scales) {
  const at = (edge) => el("div", {}, Object.entries(scales).map(([side, scale]) =>
    el("span", { class: `eval-${side}` }, AXIS_NUMBER.format(edge * (side === "first" ? scale : -scale)))));
  axis.replaceChildren(at(1), el("div", {}, "0"), at(-1));
}

// What the viewer shows of move `ply` besides the board: its label, the move lit in the list
// and the charts, and the protocol lines and stderr of its turn.
function showPly(parts, view, ply) {
  const rec = view.record;
  // Moves are counted as verdicts count them: the opening's apart.
  const opening = rec.opening.length;
  const played = rec.moves.length;
  parts.label.textContent = ply === 0 ? `start (${played} moves)`
    : ply <= opening ? `opening move ${ply} of ${opening}: ${rec.opening[ply - 1]}`
      : ply > opening + played ? `move ${played + 1}, refused: ${view.refused}`
        : `move ${ply - opening} of ${played}: ${rec.moves[ply - opening - 1].move}`;
  const moveList = parts.moveList;
  moveList.querySelectorAll("li").forEach((item) => {
    const current = Number(item.dataset.ply) === ply;
    item.classList.toggle("current", current);
    // The list follows the move shown, within its own box.
    if (current) moveList.scrollTop = item.offsetTop - moveList.clientHeight / 2;
  });
  parts.chart.querySelectorAll("rect").forEach((bar) => bar.classList.toggle("bar-current", Number(bar.dataset.ply) === ply));
  parts.evalChart.querySelectorAll("circle").forEach((dot) => dot.classList.toggle("eval-current", Number(dot.dataset.ply) === ply));
  const stderrHere = rec.players.flatMap((player, index) => (view.stderr[index] || [])
    .filter((line) => line.ply === ply)
    .map((line) => el("div", { class: "way-stderr" }, `${player.label} stderr: ${line.text}`)));
  parts.turn.replaceChildren(...(view.turns[ply] || []).map((line) =>
    el("div", { class: line.way === "<" ? "way-from" : "way-to" }, `+${line.ms.toFixed(3)} ms ${line.player}${line.way} ${line.text}`)),
  ...stderrHere);
}

async function showGame(source, number, at) {
  let view = await api.game(source, number);
  // A game stored under another address (the arena's live game, once over) is shown there.
  const moved = () => view.stored && (view.stored.source !== source || view.stored.number !== number);
  const follow = () => location.replace(gameHref(view.stored.source, view.stored.number));
  if (moved()) { follow(); return; }
  const positions = new Map();
  let ply = Number.isInteger(at) && at >= 0 ? Math.min(at, view.positions - 1) : view.positions - 1;
  let playing = null;
  const steps = {
    first: () => go(0), back: () => go(ply - 1), autoplay: () => toggle(), forward: () => go(ply + 1), last: () => go(view.positions - 1),
  };
  const parts = gameLayout(steps);
  parts.speed.addEventListener("change", () => { if (playing) { toggle(); toggle(); } });
  const exportUrl = api.exportUrl(source, number);
  // A click on the evaluations' graph shows that move.
  parts.evalChart.addEventListener("click", (event) => {
    const box = parts.evalChart.getBoundingClientRect();
    go(Math.round(((event.clientX - box.left) / box.width) * (view.positions - 1)));
  });

  async function position(at) {
    if (!positions.has(at)) positions.set(at, await api.position(source, number, at));
    return positions.get(at);
  }

  async function go(at) {
    ply = Math.max(0, Math.min(view.positions - 1, at));
    parts.scrub.value = ply;
    showPly(parts, view, ply);
    history.replaceState(null, "", gameHref(source, number, ply));
    const wanted = ply;
    const svg = await position(wanted);
    if (wanted === ply) {
      parts.board.replaceChildren(boardNode(svg));
      parts.board.firstChild.dataset.ply = ply;
      markOnce("board-shown");
    }
    // The next picture, fetched ahead (none past the last: it would only be a 404).
    if (ply + 1 < view.positions) position(ply + 1);
  }

  function toggle() {
    if (playing) { clearInterval(playing); playing = null; parts.autoplay.textContent = "play"; return; }
    if (ply >= view.positions - 1) go(0);
    parts.autoplay.textContent = "pause";
    playing = setInterval(() => { if (ply >= view.positions - 1) toggle(); else go(ply + 1); }, Number(parts.speed.value));
  }

  parts.scrub.addEventListener("input", () => go(Number(parts.scrub.value)));
  const keys = (event) => {
    if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
    const actions = { ArrowLeft: steps.back, ArrowRight: steps.forward, Home: steps.first, End: steps.last, " ": steps.autoplay };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
  };
  document.addEventListener("keydown", keys);
  onLeave(() => { document.removeEventListener("keydown", keys); if (playing) clearInterval(playing); });
  fillGame(parts, view, exportUrl, go);
  await go(ply);
  status(view.live ? "live: the game updates as it is played" : "");
  onLeave(watch(async () => {
    if (!view.live) return;
    const atEnd = ply >= view.positions - 1;
    try { view = await api.game(source, number); } catch (error) { return; }
    if (moved()) { follow(); return; }
    positions.clear();
    fillGame(parts, view, exportUrl, go);
    go(atEnd ? view.positions - 1 : ply);
    if (!view.live) status("the game is over");
  }));
}

// ----- A tournament's standings -----

async function showTournament(source) {
  const data = await api.tournament(source);
  const root = main();
  root.replaceChildren();
  const standings = data.standings;
  root.append(el("h1", {}, `${data.name}: ${data.game.split(" ")[0]}, ${data.format}`),
    el("p", { class: "progress" }, `${standings.games} of ${data.total_games} games played`,
      el("progress", { max: data.total_games, value: standings.games })),
    el("p", {}, el("a", { href: `#/?source=${enc(source)}` }, "the games")));
  root.append(el("h2", {}, "Standings"),
    el("p", { class: "caption" }, "Ranked by score (points per game), then among players level on score by head-to-head points (h2h), Sonneborn-Berger (SB), Buchholz (Buch), wins."),
    cellsTable(data.tables.standings, "standings"));
  // A gauntlet's answer to "does my bot beat each of these?", as the command line gives it.
  for (const gauntlet of data.tables.gauntlets) {
    root.append(el("h2", {}, `${gauntlet.challenger} against each opponent`), el("p", { class: "caption" }, gauntlet.caption),
      cellsTable(gauntlet.table, "gauntlet"));
  }
  root.append(el("h2", {}, "Ratings, ranked by Elo"),
    el("p", { class: "caption" }, "Relative to the field's average, with the 95% interval; LOS: the likelihood of superiority over the next."),
    cellsTable(data.tables.ratings, "ratings"));
  root.append(el("h2", {}, "Elo with 95% intervals"), eloPlot(standings.players));
  const names = standings.crosstable.map((row) => row.name);
  root.append(el("h2", {}, "Crosstable"), el("table", { class: "crosstable" },
    el("tr", {}, el("th", {}, ""), names.map((name) => el("th", {}, name))),
    standings.crosstable.map((row) => el("tr", {}, el("th", {}, row.name), names.map((name) => {
      const met = row.against.find((encounter) => encounter.opponent === name);
      return el("td", { class: "num" }, met ? `${met.points}/${met.games}` : "");
    })))));
}

// A table the referee formatted (crates/core/src/standings/render.rs): the cells the command
// line prints.
function cellsTable(cells, className) {
  return el("div", { class: "scroll" }, el("table", { class: className },
    el("tr", {}, cells.titles.map((title) => el("th", {}, title))),
    cells.rows.map((row) => el("tr", {}, row.map((cell, index) => el("td", { class: index >= cells.right_from ? "num" : null }, cell))))));
}

// ----- A contest (the results page of referee contest) -----

const CONTEST = EMBEDDED && EMBEDDED.contest;

// The games an entrant played: its label in a game is its name, then its bot's own in brackets.
function entrantGames(name) {
  return EMBEDDED.index.games.filter((game) => game.players.some((label) => label.split(" (")[0] === name));
}

function entrantLink(name) {
  return el("a", { href: `#/entrant/${encodeURIComponent(name)}` }, name);
}

// Why an entrant does not play: its check's first problem, or its build's first line with
// the compiler's first error.
function leftOutBecause(entrant) {
  if (entrant.plays) return "";
  if (entrant.problems && entrant.problems.length) return entrant.problems[0];
  const build = entrant.build || [];
  const error = build.slice(1).find((line) => /error/i.test(line));
  return [build[0], error && error.replace(/^\s*\|\s*/, "")].filter(Boolean).join(": ");
}

function showContest() {
  const root = main();
  document.title = CONTEST.title;
  root.replaceChildren(el("h1", {}, CONTEST.title));
  const data = CONTEST.standings;
  if (data) {
    root.append(el("p", { class: "progress" }, `${data.game.split(" ")[0]}, ${data.format}: ${data.standings.games} of ${data.total_games} games played `,
      el("progress", { max: data.total_games, value: data.standings.games }), " ", el("a", { href: `#/?source=${enc(EMBEDDED.index.sources[0].id)}` }, "every game")),
    el("h2", {}, "Standings"), cellsTable(data.tables.standings, "standings"));
  }
  root.append(el("h2", {}, "Entrants"), el("div", { class: "scroll" }, el("table", { class: "entrants" },
    el("tr", {}, ["entrant", "status", "language", "version", "why left out"].map((title) => el("th", {}, title))),
    CONTEST.entrants.map((entrant) => el("tr", { class: entrant.plays ? "" : "left-out" },
      el("td", {}, entrantLink(entrant.name)), el("td", {}, entrant.status), el("td", {}, entrant.language || ""),
      el("td", { class: "version" }, entrant.version || ""), el("td", {}, leftOutBecause(entrant)))))));
  root.append(el("h2", {}, "Languages"), el("table", { class: "languages" },
    el("tr", {}, ["language", "entrants", "toolchain"].map((title) => el("th", {}, title))),
    CONTEST.languages.map((language) => el("tr", {}, el("td", {}, language.name),
      el("td", { class: "num" }, language.entrants), el("td", {}, language.toolchain || "")))));
  markOnce("contest-shown");
}

function showEntrant(name) {
  const entrant = CONTEST.entrants.find((candidate) => candidate.name === name);
  if (!entrant) throw new NotFound(name);
  const root = main();
  root.replaceChildren(el("p", {}, el("a", { href: "#/" }, CONTEST.title)), el("h1", {}, entrant.name),
    el("p", { class: entrant.plays ? "" : "left-out" }, entrant.status),
    el("p", {}, [entrant.language, entrant.version && `version ${entrant.version}`].filter(Boolean).join(", ")));
  if (entrant.build) root.append(el("h2", {}, "Build"), el("pre", { class: "log" }, entrant.build.join("\n")));
  root.append(el("h2", {}, "Check"), entrant.problems === null || entrant.problems === undefined
    ? el("p", {}, "not checked")
    : entrant.problems.length === 0 ? el("p", {}, "compliant")
      : el("ul", { class: "problems" }, entrant.problems.map((problem) => el("li", {}, problem))));
  const games = entrantGames(entrant.name);
  root.append(el("h2", {}, `Games (${games.length})`), games.length === 0 ? el("p", {}, "none") : el("div", { class: "scroll" }, el("table", { class: "games" },
    el("tr", {}, ["#", "first", "second", "result", "reason", "moves"].map((title) => el("th", {}, title))),
    games.map((game) => el("tr", {
      class: "game-row", "data-game": `${game.source}/${game.number}`,
      onclick: () => { location.hash = gameHref(game.source, game.number); },
    }, el("td", { class: "num" }, game.number), el("td", {}, game.players[0]), el("td", {}, game.players[1]),
    el("td", {}, resultText(game)), el("td", {}, game.reason), el("td", { class: "num" }, game.moves))))),
  el("p", {}, "Each game's page shows what the bot wrote to stderr in it."));
  markOnce("entrant-shown");
}

function eloPlot(players) {
  const rowHeight = 22, left = 140, width = 420;
  const lows = players.map((p) => p.elo - p.elo_error95), highs = players.map((p) => p.elo + p.elo_error95);
  const low = Math.min(...lows, -50), high = Math.max(...highs, 50);
  const x = (elo) => left + ((elo - low) / (high - low || 1)) * width;
  const svg = svgEl("svg", { class: "elo", viewBox: `0 0 ${left + width + 20} ${players.length * rowHeight + 24}`, width: left + width + 20 });
  svg.append(svgEl("line", { x1: x(0), x2: x(0), y1: 0, y2: players.length * rowHeight, stroke: "#999" }));
  players.forEach((player, index) => {
    const y = index * rowHeight + 12;
    svg.append(svgEl("text", { x: 4, y: y + 4 }, player.name));
    svg.append(svgEl("line", { class: "interval", x1: x(lows[index]), x2: x(highs[index]), y1: y, y2: y }));
    svg.append(svgEl("circle", { class: "point", cx: x(player.elo), cy: y, r: 4 }));
  });
  svg.append(svgEl("text", { x: x(low), y: players.length * rowHeight + 18 }, low.toFixed(0)));
  svg.append(svgEl("text", { x: x(high) - 20, y: players.length * rowHeight + 18 }, high.toFixed(0)));
  return svg;
}

// ----- A person's seat (referee play --browser) -----

// The play page's parts, put on the page: the board to click, the clock, the message, the
// buttons, the player console and the moves.
function playLayout() {
  const ui = {
    title: el("h1", {}),
    board: el("div", { class: "board-area" }),
    clock: el("div", { class: "clock" }),
    message: el("div", { class: "message", role: "status" }),
    moves: el("ol", { class: "moves" }),
    resign: el("button", { type: "button", name: "resign" }, "Resign"),
    // Disabled until the first state is shown: switched off, it shows that state's message again.
    draw: el("button", { type: "button", name: "draw", disabled: "" }, "Offer a draw"),
    // Swap openings: at a choice, take Black without a stone, or (swap2) place two more stones.
    swap: el("button", { type: "button", name: "swap", hidden: "" }, "Swap: take Black"),
    more: el("button", { type: "button", name: "more", hidden: "" }, "Place two more"),
    typed: el("input", { type: "text", name: "console", autocomplete: "off", "aria-label": "a move, as a bot writes it", placeholder: "type a move: 4 4, 11-15, swap" }),
    sendTyped: el("button", { type: "submit" }, "send"),
    // Once the game is over: where the viewer shows it, when the server says (the arena's).
    after: el("p", { class: "after-game" }),
  };
  ui.playerConsole = el("form", { class: "player-console" }, ui.typed, " ", ui.sendTyped);
  main().replaceChildren(ui.title, el("div", { class: "viewer" }, ui.board,
    el("div", { class: "play-panel" }, ui.clock, ui.message, ui.after, el("div", {}, ui.resign, " ", ui.draw, " ", ui.swap, " ", ui.more),
      ui.playerConsole, el("h2", {}, "Moves"), ui.moves)));
  return ui;
}

// A POST to the seat's server with the page's token, which the server wrote into the page: no
// other site's page can send it.
function pagePoster() {
  const token = (document.querySelector('meta[name="x-referee-page"]') || {}).content || "";
  return (path, body) => fetch(path, {
    method: "POST", credentials: "same-origin", headers: { "x-referee-page": token }, body: body || "",
  });
}

// A move sent, clicked or typed: a refusal (not legal here, not your turn) is said at once.
async function submitMove(seat, move) {
  const response = await seat.post(`${seat.base}/move`, move);
  if (response.ok) return true;
  const text = await response.text();
  let said = text;
  try { said = JSON.parse(text).error || text; } catch (error) { /* plain text */ }
  seat.ui.message.textContent = said;
  return false;
}

// A move chosen on the board or with a button, with what the buttons added to it (two more
// stones, a draw offered); the choices are then cleared.
function sendMove(seat, move) {
  const { ui } = seat;
  seat.chosen = [];
  unmark(seat);
  seat.placeMore = false;
  ui.more.classList.remove("chosen");
  submitMove(seat, seat.offerDraw ? `${move} draw` : move);
  seat.offerDraw = false;
  ui.draw.classList.remove("chosen");
}

// The buttons and the player console.
function wirePlayControls(seat) {
  const { ui, base, post } = seat;
  ui.playerConsole.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (await submitMove(seat, ui.typed.value.trim())) ui.typed.value = "";
  });
  ui.resign.addEventListener("click", () => { if (confirm("Resign this game?")) post(`${base}/resign`); });
  ui.swap.addEventListener("click", () => { if (seat.state && seat.state.your_turn) sendMove(seat, "swap"); });
  ui.more.addEventListener("click", () => {
    seat.placeMore = !seat.placeMore;
    ui.more.classList.toggle("chosen", seat.placeMore);
    // Named as the server names the opening's other stones: a colour with its mark.
    ui.message.textContent = seat.placeMore
      ? "Tap where to place a white stone (O), 1 of 2; at your next turn you place a black stone (X), 2 of 2, and your opponent chooses."
      : turnMessage(seat.state);
  });
  ui.draw.addEventListener("click", () => {
    if (seat.state && seat.state.draw_offered) post(`${base}/draw`);
    else {
      seat.offerDraw = !seat.offerDraw;
      ui.draw.classList.toggle("chosen", seat.offerDraw);
      ui.message.textContent = seat.offerDraw ? "Your next move offers a draw." : turnMessage(seat.state);
    }
  });
}

// Checkers: a move is built square by square among the legal moves.
const squaresOf = (move) => move.split(/[-x]/).map(Number);
function candidates(seat) {
  return seat.state.legal.filter((move) => {
    const squares = squaresOf(move);
    return seat.chosen.every((square, index) => squares[index] === square);
  });
}
function light(seat) {
  const svg = seat.ui.board.querySelector("svg");
  if (!svg) return;
  const { chosen } = seat;
  const next = new Set(candidates(seat).map((move) => squaresOf(move)[chosen.length]).filter((square) => square !== undefined));
  const capturing = seat.state.legal.some((move) => move.includes("x"));
  svg.querySelectorAll(".target[data-square]").forEach((target) => {
    const square = Number(target.dataset.square);
    target.classList.toggle("chosen", chosen.includes(square));
    target.classList.toggle("reachable", chosen.length > 0 && next.has(square));
    target.classList.toggle("capturing", chosen.length === 0 && capturing && next.has(square));
  });
}

// A tap that plays nothing says so: a taken square, a piece that cannot move, a board the
// rules do not allow now (silence read as a page that does not answer).
function nothingThere(seat) {
  unmark(seat);
  const capture = seat.state.legal.some((move) => move.includes("x")) ? " A capture is mandatory." : "";
  seat.ui.message.textContent = `${seat.state.message} Nothing can be played there.${capture}`;
}

// Whether a tap on `target` could have been meant for its neighbour: a finger covers about
// 48 px (the touch target the platforms' guidelines ask for), so on a touch screen (a coarse
// pointer) a cell smaller than that, and with any pointer one under 32 px (a phone that says
// it has a fine one), needs a second tap. A desktop's 15x15 board (35 px) stays one click.
function needsSecondTap(target) {
  const box = target.getBoundingClientRect();
  return Math.max(box.width, box.height) < (matchMedia("(pointer: coarse)").matches ? 48 : 32);
}

// The move a tap on `target` (named `name` in the message) completes: played, or, where a
// finger could have missed, marked and played by a second tap on the same target; a tap on
// another moves the mark. Whether it was played.
function playTapped(seat, target, name, move) {
  if (seat.pending !== move && needsSecondTap(target)) {
    unmark(seat);
    seat.pending = move;
    target.classList.add("pending");
    seat.ui.message.textContent = `${seat.state.message} Tap ${name} again to play ${name === move ? "it" : move}, or tap another move.`;
    return false;
  }
  sendMove(seat, move);
  return true;
}
// The mark of a first tap taken away: the move was played, or another tap means otherwise.
function unmark(seat) {
  seat.pending = null;
  seat.ui.board.querySelectorAll(".target.pending").forEach((target) => target.classList.remove("pending"));
}

// A tap on the board: a move played (or marked, see playTapped), a checkers piece or square
// added to the move being built, or a word on why nothing is played there.
function tapBoard(seat, event) {
  const target = event.target.closest(".target");
  if (!seat.state || !seat.state.your_turn) return;
  if (!target) { nothingThere(seat); return; }
  if (target.dataset.forbidden !== undefined) {
    unmark(seat);
    seat.ui.message.textContent = `That point is forbidden to Black in renju: it would make a ${target.dataset.forbidden}. Choose another.`;
    return;
  }
  const name = target.dataset.move;
  if (name !== undefined) { playTapped(seat, target, name, seat.placeMore ? `${name} more` : name); return; }
  const square = Number(target.dataset.square);
  if (seat.chosen.length > 0 && !candidates(seat).some((move) => squaresOf(move)[seat.chosen.length] === square)) seat.chosen = [];
  seat.chosen.push(square);
  const left = candidates(seat);
  if (left.length === 0) { seat.chosen = []; nothingThere(seat); }
  else {
    const done = left.filter((move) => squaresOf(move).length === seat.chosen.length);
    if (done.length === 1 && left.length === 1) {
      // The last square waits for its second tap outside the move being built.
      seat.chosen.pop();
      if (playTapped(seat, target, String(square), done[0])) return;
    } else unmark(seat);
  }
  light(seat);
}

// The turn's message: the server's, and at the person's turn the mandatory capture if any.
function turnMessage(state) {
  return state.message + (state.your_turn && state.legal.some((move) => move.includes("x")) ? " A capture is mandatory." : "");
}

// Shows the state the server sent: the position, the moves, the controls the turn allows and
// its message, the clock.
function showSeat(seat) {
  const { ui, state } = seat;
  ui.title.textContent = state.title;
  ui.board.replaceChildren(boardNode(state.svg));
  ui.moves.replaceChildren(...state.moves.map((move) => el("li", {}, move)));
  seat.deadline = state.your_turn && state.remaining_ms !== null ? performance.now() + state.remaining_ms : null;
  ui.resign.disabled = state.over;
  ui.typed.disabled = state.over;
  ui.sendTyped.disabled = state.over;
  ui.after.replaceChildren(state.over && state.viewer
    ? el("a", { href: gameHref(state.viewer.source, state.viewer.number) }, "See the game stored") : "");
  ui.draw.disabled = state.over || !state.draw_offers;
  ui.draw.textContent = state.draw_offered ? "Accept the draw" : "Offer a draw";
  ui.swap.hidden = !(state.your_turn && state.legal.includes("swap"));
  ui.more.hidden = !(state.your_turn && state.legal.some((move) => move.endsWith(" more")));
  ui.message.textContent = turnMessage(state);
  seat.chosen = [];
  seat.pending = null;
  light(seat);
  runClock(seat);
}

// The clock's timer runs only while the person's time does: stopped at the opponent's turn, at
// the end and when the page is left (each visit to a game's page left one running for good).
function runClock(seat) {
  const running = seat.deadline !== null && !seat.left;
  if (running && seat.timer === null) seat.timer = setInterval(() => tick(seat), 100);
  else if (!running && seat.timer !== null) {
    clearInterval(seat.timer);
    seat.timer = null;
  }
  tick(seat);
}

function tick(seat) {
  const { clock } = seat.ui;
  if (seat.deadline === null) { clock.textContent = seat.state && seat.state.your_turn ? "no clock" : ""; return; }
  const left = Math.max(0, seat.deadline - performance.now());
  clock.textContent = `${(left / 1000).toFixed(1)} s`;
  clock.classList.toggle("low", left < 5000);
}

// The game's page stops answering the person: its clock stopped, its controls disabled, and
// `said` in place of the turn's message.
function halt(seat, said) {
  const { ui } = seat;
  seat.deadline = null;
  runClock(seat);
  for (const control of [ui.resign, ui.typed, ui.sendTyped, ui.draw]) control.disabled = true;
  ui.clock.textContent = "";
  ui.message.textContent = said;
}

const UNREACHABLE = "The server cannot be reached: the game may be over, or the server stopped (with referee play --browser, its terminal says how the game ended).";

// A person's game: the board to click, the clock, resign and draw, and a player console to
// type moves in as a bot writes them (`4 4`, `11-15`, `swap`), refused with the same words.
// `base` is where the seat's page is served: `api/play` for `referee play --browser`, the
// game's own address in the arena. `gone`, when given, shows the page of a game that is no
// more (the arena's, cut off by its stopping): at once, or once the server answers again.
async function showPlay(base = "api/play", gone = null) {
  const seat = { base, ui: playLayout(), post: pagePoster(), state: null, deadline: null, timer: null, left: false, chosen: [], pending: null, offerDraw: false, placeMore: false };
  const { ui } = seat;
  wirePlayControls(seat);
  ui.board.addEventListener("click", (event) => tapBoard(seat, event));
  const refresh = async () => {
    const state = await getJson(`${base}/state`);
    // A state fetched as the page was left would start the clock again.
    if (seat.left) return;
    seat.state = state;
    showSeat(seat);
  };
  const source = new EventSource(`${base}/events`);
  onLeave(() => {
    seat.left = true;
    source.close();
    runClock(seat);
  });
  source.addEventListener("changed", refresh);
  // The stream broke: the server may be gone (`play --browser` ends with its game) or starting
  // again (the stream tries again by itself), and a page left showing "Your move" with a clock
  // running would never hear of it. A server that answers that the game is no more is heard.
  source.addEventListener("error", async () => {
    // A game over has nothing left to hear, and its result stays shown: `play --browser`
    // ends with its game, and its page is then read, not reconnected.
    if (seat.state?.over) return source.close();
    try { await refresh(); } catch (error) {
      if (error instanceof NotFound) source.close();
      if (error instanceof NotFound && gone) await gone().catch(() => halt(seat, UNREACHABLE));
      else halt(seat, source.readyState === EventSource.CLOSED ? UNREACHABLE : `${UNREACHABLE} Trying to reconnect...`);
    }
  });
  // A first state that cannot be loaded leaves nothing to follow: the stream is closed and the
  // page says why (a game that is not there stays a page that does not exist).
  try { await refresh(); } catch (error) {
    source.close();
    if (error instanceof NotFound && gone) return gone();
    throw error instanceof NotFound ? error : new Error(`The game could not be loaded (${error.message})`);
  }
}

// ----- Routing -----

// The page shown, or being loaded: a navigation aborts it, which runs at once what it asked to
// run when left (closing its streams, stopping its timers) and aborts its requests, so that one
// left while it loaded never draws over the page shown next.
let page = new AbortController();
function onLeave(cleanup) { page.signal.addEventListener("abort", cleanup); }
// A request of a page left is aborted on purpose: its rejection, which nothing awaits once the
// page is gone (the next position fetched ahead), is not an error to show in the console.
window.addEventListener("unhandledrejection", (event) => {
  if (event.reason?.name === "AbortError") event.preventDefault();
});
async function route() {
  page.abort();
  const here = page = new AbortController();
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path, query] = hash.split("?");
  const parts = path.split("/").filter(Boolean);
  try {
    // A page that builds on this one (the arena's) names pages of its own, by their first part.
    const extra = window.EXTRA_ROUTES && window.EXTRA_ROUTES[parts[0] || ""];
    if (extra) await extra(parts.slice(1).map(decodeURIComponent), new URLSearchParams(query || ""));
    else if (document.body.dataset.page === "play") await showPlay();
    else if (parts[0] === "game") await showGame(decodeURIComponent(parts[1]), Number(parts[2]), parts[3] === undefined ? null : Number(parts[3]));
    else if (parts[0] === "tournament") await showTournament(decodeURIComponent(parts[1]));
    else if (CONTEST && parts[0] === "entrant") showEntrant(decodeURIComponent(parts[1]));
    else if (CONTEST && parts.length === 0 && !query) showContest();
    else if (parts.length === 0) await showIndex(query);
    else throw new NotFound(path);
  } catch (error) {
    if (here.signal.aborted) return; // left while it loaded: the page shown next stays
    const gone = error instanceof NotFound;
    main().replaceChildren(el("h1", {}, gone ? "No such page" : "Cannot show this page"),
      el("p", { class: "no-page" }, gone ? "This page does not exist" : error.message, ": go to ",
        el("a", { href: "#/" }, "the start page"), "."));
  }
}
window.addEventListener("hashchange", route);
route();
