// The arena's own pages (ladders, a leaderboard, a bot, "my bots", sign-up, log-in, upload,
// the games being played), drawn from its JSON API. app.js, loaded after this file, routes to
// them and shows each game with its viewer (#/game/LADDER/NUMBER, or #/game/live%2FLADDER/ID
// for a game being played). Whatever people or bots wrote is put on the page as
// text (app.js's el), never as HTML.
"use strict";

let session = null;

// Who is signed in, and the page's token that every state-changing request carries.
async function currentSession() {
  session = await getJson("api/session", null); // the menu's, on every page
  const who = document.getElementById("who");
  who.replaceChildren(...(session.user
    ? [`${session.user.name} `, el("button", { type: "button", name: "logout", onclick: logOut }, "log out")]
    : [el("a", { href: "#/login" }, "log in"), " ", session.signup !== "closed" ? el("a", { href: "#/signup" }, "sign up") : ""]));
  return session;
}

async function send(url, body, raw) {
  const token = (session || await currentSession()).page_token;
  const headers = { "x-referee-page": token };
  if (!raw) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin", headers, body: raw ? body : JSON.stringify(body || {}),
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.error || `the arena answered ${response.status}`);
  return data;
}

async function logOut() {
  await send("api/logout");
  await currentSession();
  location.hash = "#/";
}

const rated = (row) => `${row.mu.toFixed(1)} ± ${row.sigma.toFixed(1)}`;
const outcome = (game, name) => {
  if (game.winner === null || game.winner === undefined) return "draw";
  return game.players[game.winner] === name ? "won" : "lost";
};
// A table's row of column titles; the columns `wide` names are left out on a narrow phone
// (the style's .wide), for the key ones to show.
const headRow = (titles, wide = []) => el("tr", {}, titles.map((title, at) => el("th", { class: wide.includes(at) ? "wide" : null }, title)));
const gameLink = (ladder, game) => el("a", { href: gameHref(ladder, game.number) }, `#${game.number}`);
const botLink = (ladder, name) => el("a", { href: `#/bot/${enc(ladder)}/${enc(name)}` }, name);

function gamesTable(ladder, games) {
  return el("div", { class: "scroll" }, el("table", { class: "games" },
    el("tr", {}, ["#", "first", "second", "result", "reason", "moves"].map((title) => el("th", {}, title))),
    games.map((game) => el("tr", { class: "game-row" }, el("td", { class: "num" }, gameLink(ladder, game)),
      el("td", {}, botLink(ladder, game.players[0])), el("td", {}, botLink(ladder, game.players[1])),
      el("td", {}, game.winner === null ? "draw" : (game.winner === 0 ? "1-0" : "0-1")),
      el("td", {}, game.reason, game.rated === false ? el("span", { class: "unrated" }, " (unrated)") : ""),
      el("td", { class: "num" }, game.moves)))));
}

async function showLadders() {
  const ladders = await getJson("api/ladders");
  main().replaceChildren(el("h1", {}, "Ladders"), el("div", { class: "scroll" }, el("table", { class: "ladders" },
    headRow(["ladder", "game", "time", "protocols", "games", ""], [2, 3]),
    ladders.map((ladder) => el("tr", {}, el("td", {}, el("a", { href: `#/ladder/${enc(ladder.name)}` }, ladder.name)),
      el("td", {}, ladder.game), el("td", { class: "wide" }, ladder.time), el("td", { class: "wide" }, (ladder.protocols || []).join(", ")),
      el("td", { class: "num" }, ladder.games), el("td", {}, ladder.paused ? "paused" : ""))))));
  markOnce("ladders-shown");
}

async function showLanguages() {
  const languages = await getJson("api/languages");
  main().replaceChildren(el("h1", {}, "Languages"),
    el("p", {}, "A bot may be written in any of these; its sources are built with exactly this toolchain."),
    el("table", { class: "languages" }, el("tr", {}, el("th", {}, "language"), el("th", {}, "toolchain")),
      languages.map((language) => el("tr", {}, el("td", {}, language.name), el("td", {}, language.version)))));
}

async function showLadder([ladder]) {
  const [board, games] = await Promise.all([
    getJson(`api/ladders/${enc(ladder)}/leaderboard`), getJson(`api/ladders/${enc(ladder)}/games?limit=200`)]);
  const last = new Map();
  for (const game of games) for (const name of game.players) if (!last.has(name)) last.set(name, game);
  main().replaceChildren(el("h1", {}, `Ladder ${ladder}`), board.paused ? el("p", { class: "left-out" }, "paused") : "",
    el("div", { class: "scroll" }, el("table", { class: "standings leaderboard" },
      headRow(["#", "bot", "owner", "rating ± deviation", "rank score", "games", "W", "D", "L", "last game"], [2, 3, 9]),
      board.rows.map((row) => el("tr", { "data-bot": row.bot }, el("td", { class: "num" }, row.rank),
        el("td", { class: "name" }, botLink(ladder, row.bot), row.mark ? ` (${row.mark})` : ""),
        el("td", { class: "wide name" }, row.owner || ""),
        el("td", { class: "num wide" }, rated(row)), el("td", { class: "num" }, row.conservative.toFixed(1)),
        el("td", { class: "num" }, row.games), el("td", { class: "num" }, row.wins), el("td", { class: "num" }, row.draws),
        el("td", { class: "num" }, row.losses),
        el("td", { class: "wide" }, last.has(row.bot) ? gameLink(ladder, last.get(row.bot)) : ""))))),
    el("p", {}, "The rank score is the rating less three deviations: a new bot climbs as its games make it certain."),
    el("h2", {}, "Recent games"), games.length === 0 ? noneYet() : gamesTable(ladder, games.slice(0, 50)));
  markOnce("leaderboard-shown");
}

// A bot's rating after each of its games, with its deviation as a band.
function historyPlot(points) {
  const width = 600, height = 160;
  const svg = svgEl("svg", { class: "chart history", viewBox: `0 0 ${width} ${height}`, preserveAspectRatio: "none" });
  if (points.length < 2) return svg;
  const lows = points.map((p) => p.mu - p.sigma), highs = points.map((p) => p.mu + p.sigma);
  const low = Math.min(...lows), high = Math.max(...highs);
  const x = (i) => (i / (points.length - 1)) * width;
  const y = (v) => height - 5 - ((v - low) / (high - low || 1)) * (height - 10);
  const band = points.map((p, i) => `${x(i)},${y(p.mu + p.sigma)}`).concat(points.map((p, i) => `${x(i)},${y(p.mu - p.sigma)}`).reverse());
  svg.append(svgEl("polygon", { class: "band", points: band.join(" ") }));
  svg.append(svgEl("polyline", { class: "mu", points: points.map((p, i) => `${x(i)},${y(p.mu)}`).join(" ") }));
  svg.append(svgEl("text", { class: "tick-label", x: 2, y: 10 }, high.toFixed(1)));
  svg.append(svgEl("text", { class: "tick-label", x: 2, y: height - 2 }, low.toFixed(1)));
  return svg;
}

// What an empty section of a page says (a bare heading looked like a page still loading).
const noneYet = (text) => el("p", { class: "none-yet" }, text || "None yet.");

// A version's states that last: any other (queued, building, validating) is work under way.
const SETTLED = new Set(["passed", "failed", "person"]);
const versionStates = (bot) => JSON.stringify([bot.active_version, bot.versions.map((version) => version.state)]);
const busy = (bot) => bot.versions.some((version) => !SETTLED.has(version.state));

// A bot's page; while one of its versions is being built or validated (work that sends no
// events), the bot is asked for every second and its page drawn again when a state changes,
// so that the result and the play button come without a reload.
async function showBot([ladder, name]) {
  const url = `api/ladders/${enc(ladder)}/bots/${enc(name)}`;
  const fetchAll = () => Promise.all([getJson(url), getJson(`api/ladders/${enc(ladder)}/games?limit=1000`), getJson(`${url}/history`)]);
  let shown = await drawBot(ladder, name, await fetchAll());
  let left = false;
  let timer = null;
  const follow = async () => {
    try {
      if (versionStates(await getJson(url)) !== versionStates(shown)) {
        const data = await fetchAll();
        if (!left) shown = await drawBot(ladder, name, data);
      }
    } catch (error) { /* asked again a second later */ }
    if (!left && busy(shown)) timer = setTimeout(follow, 1000);
  };
  if (busy(shown)) timer = setTimeout(follow, 1000);
  onLeave(() => { left = true; clearTimeout(timer); });
}

// Draws a bot's page from its data; the bot drawn.
async function drawBot(ladder, name, [bot, games, history]) {
  const own = games.filter((game) => game.players.includes(name));
  const byOpponent = new Map();
  for (const game of own) {
    const opponent = game.players[0] === name ? game.players[1] : game.players[0];
    const tally = byOpponent.get(opponent) || { won: 0, draw: 0, lost: 0 };
    tally[outcome(game, name)] += 1;
    byOpponent.set(opponent, tally);
  }
  const user = (session || await currentSession()).user;
  const mine = user && (user.name === bot.owner || user.admin);
  const root = main();
  root.replaceChildren(el("h1", {}, `${name}`), el("p", {}, `ladder ${ladder}`, bot.owner ? `, owned by ${bot.owner}` : "",
    bot.boss ? ", a boss (a built-in level)" : "", bot.retired ? ", retired" : ""),
  el("h2", {}, "Versions"), el("div", { class: "scroll" }, el("table", { class: "versions" },
    el("tr", {}, ["version", "state", "language", "protocol", mine ? "why" : "", ""].map((title) => el("th", {}, title))),
    bot.versions.map((version) => el("tr", { "data-version": version.number },
      el("td", { class: "num" }, version.number, version.id === bot.active_version ? " (active)" : ""),
      el("td", { class: "state" }, version.state), el("td", {}, version.language || ""), el("td", {}, version.protocol),
      el("td", {}, version.reason || ""),
      el("td", {}, mine && version.state === "passed" && version.id !== bot.active_version
        ? el("button", { type: "button", onclick: async () => { await send(`api/ladders/${enc(ladder)}/bots/${enc(name)}/active`, { version: version.number }); route(); } }, "make active") : ""))))),
  ...(mine ? bot.versions.filter((version) => version.build_log || version.validation).map((version) => el("details", { class: "build" },
    el("summary", {}, `version ${version.number}: build and validation`),
    el("pre", { class: "log" }, version.build_log || ""), el("pre", { class: "log validation" }, version.validation || ""),
    version.stderr ? el("pre", { class: "log stderr" }, version.stderr) : "")) : []),
  ...(!bot.active_version || bot.retired || name.startsWith("@") ? []
    : user ? [playThisBot(ladder, name, user), friendlyMatch(ladder, name)]
      : [el("p", { class: "play-this-bot" }, el("a", { href: "#/login" }, "Log in"), " to play this bot.")]),
  el("h2", {}, "Rating"), history.length < 2 ? noneYet(history.length ? `${rated(history[0])} after one game` : "") : historyPlot(history),
  el("h2", {}, "Results by opponent"), own.length === 0 ? noneYet() : el("table", { class: "opponents" },
    el("tr", {}, ["opponent", "won", "drawn", "lost"].map((title) => el("th", {}, title))),
    [...byOpponent].map(([opponent, tally]) => el("tr", {}, el("td", {}, botLink(ladder, opponent)),
      el("td", { class: "num" }, tally.won), el("td", { class: "num" }, tally.draw), el("td", { class: "num" }, tally.lost)))),
  el("h2", {}, "Recent games"), own.length === 0 ? noneYet() : gamesTable(ladder, own.slice(0, 50)),
  mine ? el("p", {}, "Each game's page shows what your bot wrote to stderr in it (only to you).") : "");
  markOnce("bot-shown");
  return bot;
}

// "Play this bot", rated (as @NAME, in the ladder's one pool) or casual.
function playThisBot(ladder, name, user) {
  const rated = el("input", { type: "checkbox", name: "rated", checked: "" });
  const message = el("span", { class: "message", role: "status" });
  return el("p", { class: "play-this-bot" }, el("button", { type: "button", name: "play", onclick: async () => {
    try {
      const game = await send(`api/ladders/${enc(ladder)}/bots/${enc(name)}/play`, { side: "first", rated: rated.checked });
      location.hash = `#/play/${game.id}`;
    } catch (error) { message.textContent = error.message; }
  } }, "play this bot"), " ", el("label", {}, rated, " rated"),
  ` (you move first, 30 s a move by default, as @${user.name}; a casual game is not rated) `, message);
}

// A friendly match: this bot against another of the ladder, N games, colours alternated,
// unrated; the games are listed with the ladder's as they are played.
function friendlyMatch(ladder, name) {
  const opponent = el("input", { type: "text", name: "opponent", placeholder: "a bot's name" });
  const games = el("input", { type: "number", name: "games", min: "1", value: "2" });
  const message = el("span", { class: "message", role: "status" });
  const node = el("form", { class: "friendly" }, "Friendly match against ", opponent, " ", games,
    " games (unrated) ", el("button", { type: "submit" }, "ask"), " ", message);
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const answer = await send(`api/ladders/${enc(ladder)}/friendlies`, { first: name, second: opponent.value.trim(), games: Number(games.value) });
      message.textContent = answer.said;
    } catch (error) { message.textContent = error.message; }
  });
  return node;
}

async function showMine() {
  if (!(session || await currentSession()).user) { location.hash = "#/login"; return; }
  const me = await getJson("api/me");
  main().replaceChildren(el("h1", {}, "My bots"), me.bots.length === 0
    ? el("p", {}, "None yet: ", el("a", { href: "#/upload" }, "upload one"), ".")
    : el("ul", { class: "my-bots" }, me.bots.map((bot) => el("li", {}, botLink(bot.ladder, bot.name), ` on ${bot.ladder}`, bot.retired ? " (retired)" : ""))));
}

function form(title, fields, button, action) {
  const message = el("p", { class: "message", role: "status" });
  const inputs = fields.map(([name, label, attrs]) => el("label", {}, label, " ", attrs.tag === "select"
    ? el("select", { name }, attrs.options.map((option) => el("option", { value: option }, option)))
    : el("input", { name, ...attrs })));
  const node = el("form", { class: "arena-form" }, inputs.map((input) => el("p", {}, input)), el("button", { type: "submit" }, button), message);
  node.addEventListener("submit", async (event) => {
    event.preventDefault();
    message.textContent = "…";
    try { message.textContent = await action(node); } catch (error) { message.textContent = error.message; }
  });
  main().replaceChildren(el("h1", {}, title), node);
}

async function showAccount(signUp) {
  await (session || currentSession());
  const fields = [["name", "name", { type: "text", autocomplete: "username", required: true }],
    ["password", "password", { type: "password", autocomplete: signUp ? "new-password" : "current-password", required: true }]];
  if (signUp && session.signup === "invitation") fields.push(["code", "invitation code", { type: "text", required: true }]);
  form(signUp ? "Sign up" : "Log in", fields, signUp ? "sign up" : "log in", async (node) => {
    const body = Object.fromEntries(new FormData(node));
    await send(signUp ? "api/signup" : "api/login", body);
    await currentSession();
    followInvitations();
    location.hash = "#/mine";
    return "";
  });
}

// A ustar archive of `files` (name and bytes), then gzipped by the browser: what the upload
// takes, as `referee arena submit` sends a folder.
async function tarGz(files) {
  const blocks = [];
  const text = new TextEncoder();
  const octal = (value, size) => value.toString(8).padStart(size - 1, "0") + "\0";
  for (const file of files) {
    const header = new Uint8Array(512);
    const put = (at, string) => header.set(text.encode(string), at);
    put(0, file.name.slice(0, 99)); put(100, "0000644\0"); put(108, octal(0, 8)); put(116, octal(0, 8));
    put(124, octal(file.bytes.length, 12)); put(136, octal(Math.floor(Date.now() / 1000), 12));
    put(148, "        "); put(156, "0"); put(257, "ustar\0"); put(263, "00");
    const sum = header.reduce((total, byte) => total + byte, 0);
    put(148, octal(sum, 7) + " ");
    blocks.push(header, file.bytes, new Uint8Array((512 - (file.bytes.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const stream = new Blob(blocks).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

async function showUpload() {
  if (!(session || await currentSession()).user) { location.hash = "#/login"; return; }
  const ladders = await getJson("api/ladders");
  form("Upload a bot", [
    ["ladder", "ladder", { tag: "select", options: ladders.map((ladder) => ladder.name) }],
    // The "-" escaped: a pattern is read with the "v" flag, where an unescaped one is an error.
    ["name", "bot name", { type: "text", required: true, pattern: "[A-Za-z0-9_.\\-]{1,40}" }],
    ["language", "language (empty: found from the files; see the languages page)", { type: "text" }],
    ["protocol", "protocol", { tag: "select", options: [] }],
    ["files", "sources: the files (main.py, main.c, ...) or one .tar.gz", { type: "file", multiple: true, required: true }],
  ], "upload", async (node) => {
    const data = new FormData(node);
    const chosen = [...node.querySelector("input[type=file]").files];
    const body = chosen.length === 1 && /\.(tar\.gz|tgz)$/.test(chosen[0].name)
      ? await chosen[0].arrayBuffer()
      : await tarGz(await Promise.all(chosen.map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }))));
    const query = new URLSearchParams({ ladder: data.get("ladder"), name: data.get("name"), language: data.get("language"), protocol: data.get("protocol") });
    const answer = await send(`api/upload?${query}`, body, true);
    location.hash = `#/bot/${enc(data.get("ladder"))}/${enc(data.get("name"))}`;
    return `version ${answer.version_id} queued`;
  });
  // The protocols offered are those the chosen ladder allows.
  const ladder = main().querySelector("select[name=ladder]");
  const protocol = main().querySelector("select[name=protocol]");
  const offer = () => protocol.replaceChildren(...(ladders.find((l) => l.name === ladder.value)?.protocols || [])
    .map((name) => el("option", { value: name }, name)));
  ladder.addEventListener("change", offer);
  offer();
}

// A player's clock in the list of live games: the time it has for its move, counting down
// while it is to move.
function liveClock(game, side, fetched) {
  const clocks = game.clocks || {};
  const left = (clocks.left_ms || [])[side];
  if (left === undefined) return "";
  const running = clocks.to_move === side;
  return el("span", { class: running ? "clock running" : "clock", "data-left": left,
    "data-since": running ? fetched - game.thinking_ms : "" }, seconds(running ? left - game.thinking_ms : left));
}
function seconds(ms) { return `${(Math.max(0, ms) / 1000).toFixed(1)} s`; }

// The games being played, each a link to the viewer, which follows it move by move; the list
// is brought up to date whenever a game moves, begins or ends (at most once a second): a game's
// row stays the same element while it is played (its moves and clocks change in place), so a
// click on its link is never lost to a redraw; the clock of the player to move runs between.
async function showLive() {
  let left = false;
  const tick = setInterval(() => {
    for (const clock of document.querySelectorAll(".live-games .clock.running")) {
      clock.textContent = seconds(Number(clock.dataset.left) - (Date.now() - Number(clock.dataset.since)));
    }
  }, 100);
  onLeave(() => { left = true; clearInterval(tick); });
  let table = null;
  const rows = new Map();
  // The watch link first: on a phone the table's end is off the screen.
  const newRow = (game) => el("tr", { class: "live-row" },
    el("td", {}, el("a", { href: gameHref(`live/${game.ladder}`, game.id) }, "watch")),
    el("td", {}, el("a", { href: `#/ladder/${enc(game.ladder)}` }, game.ladder)),
    el("td", {}, botLink(game.ladder, game.players[0]), " ", el("span")),
    el("td", {}, botLink(game.ladder, game.players[1]), " ", el("span")),
    el("td", { class: "num" }), el("td", { class: "wide" }, new Date(game.started).toLocaleTimeString()));
  const draw = async () => {
    let games;
    try { games = await getJson("api/live"); } catch (error) { return; }
    const fetched = Date.now();
    if (left) return; // a redraw that was under way when another page was opened
    if (games.length === 0) {
      table = null;
      rows.clear();
      main().replaceChildren(el("h1", {}, "Games being played"),
        el("p", { class: "no-live" }, "None right now: the ladders may be paused, or waiting for bots."));
      return;
    }
    if (!table) {
      table = el("table", { class: "games live-games" },
        headRow(["", "ladder", "first", "second", "moves", "began"], [5]));
      main().replaceChildren(el("h1", {}, "Games being played"), el("div", { class: "scroll" }, table));
    }
    const playing = new Set();
    for (const game of games) {
      const key = `${game.ladder}/${game.id}`;
      playing.add(key);
      if (!rows.has(key)) rows.set(key, newRow(game));
      const row = rows.get(key);
      [0, 1].forEach((side) => row.children[side + 2].lastChild.replaceWith(el("span", {}, liveClock(game, side, fetched))));
      row.children[4].textContent = game.moves;
      table.append(row); // moved, not copied: the list keeps the server's order
    }
    for (const [key, row] of rows) if (!playing.has(key)) { row.remove(); rows.delete(key); }
    markOnce("live-shown");
  };
  await draw();
  onLeave(watch(throttle(() => { if (!left) draw(); }, 1000)));
}

// Invitations: the panel of those sent, received and open to anyone, and a form to invite. It
// is drawn again whenever one changes (server-sent events), and the page's title counts those
// waiting for the person's answer, whatever page is open.
let invitationEvents = null;
const invitationWatchers = new Set();
async function countInvitations() {
  const list = await getJson("api/invitations", null); // the title's, on every page
  const waiting = list.filter((invitation) => !invitation.mine && invitation.state === "waiting").length;
  document.title = waiting ? `(${waiting}) referee arena` : "referee arena";
  invitationWatchers.forEach((watcher) => watcher(list));
}
function followInvitations() {
  if (invitationEvents || !session || !session.user || !window.EventSource) return;
  invitationEvents = new EventSource("api/invitations/events");
  invitationEvents.addEventListener("changed", () => countInvitations().catch(() => {}));
  countInvitations().catch(() => {});
}

async function showInvitations() {
  if (!(session || await currentSession()).user) { location.hash = "#/login"; return; }
  const ladders = await getJson("api/ladders");
  const message = el("p", { class: "message", role: "status" });
  const panel = el("div", { class: "invitations" });
  const ladder = el("select", { name: "ladder" }, ladders.map((l) => el("option", { value: l.name }, l.name)));
  const to = el("input", { type: "text", name: "to", placeholder: "a user's name (empty: anyone)" });
  const rated = el("input", { type: "checkbox", name: "rated", checked: "" });
  const invite = el("form", { class: "arena-form invite" }, el("p", {}, el("label", {}, "game ", ladder)),
    el("p", {}, el("label", {}, "invite ", to)), el("p", {}, el("label", {}, rated, " rated")),
    el("button", { type: "submit" }, "invite"), message);
  invite.addEventListener("submit", async (event) => {
    event.preventDefault();
    try { await send("api/invitations", { ladder: ladder.value, to: to.value.trim() || null, rated: rated.checked }); message.textContent = "sent"; to.value = ""; }
    catch (error) { message.textContent = error.message; }
  });
  const act = (invitation, action) => async () => {
    try {
      const answer = await send(`api/invitations/${invitation.id}/${action}`);
      if (answer.game) location.hash = `#/play/${answer.game}`;
    } catch (error) { message.textContent = error.message; }
  };
  const draw = (list) => {
    panel.replaceChildren(list.length === 0 ? el("p", {}, "No invitations.") : el("div", { class: "scroll" }, el("table", { class: "invitations" },
      el("tr", {}, ["game", "from", "to", "state", ""].map((title) => el("th", {}, title))),
      list.map((invitation) => el("tr", { class: `invitation ${invitation.state}`, "data-id": invitation.id },
        el("td", {}, invitation.ladder, invitation.rated ? "" : " (casual)"), el("td", {}, invitation.from), el("td", {}, invitation.to || "anyone"),
        el("td", { class: "state" }, invitation.state === "waiting" ? `waiting (${Math.ceil(invitation.expires_in_s / 60)} min)`
          : invitation.state === "void" ? "void: its game was cut off when the arena stopped, and counts nowhere" : invitation.state),
        el("td", {}, invitation.state === "waiting"
          ? (invitation.mine ? el("button", { type: "button", name: "cancel", onclick: act(invitation, "cancel") }, "cancel")
            : [el("button", { type: "button", name: "accept", onclick: act(invitation, "accept") }, "accept"), " ",
              invitation.to ? el("button", { type: "button", name: "decline", onclick: act(invitation, "decline") }, "decline") : ""])
          : (invitation.state === "accepted" && invitation.game ? el("a", { href: `#/play/${invitation.game}` }, "the game") : "")))))));
    // A waiting invitation expires without an event: drawn again when the first one does.
    const next = Math.min(...list.filter((i) => i.state === "waiting").map((i) => i.expires_in_s));
    if (Number.isFinite(next)) setTimeout(() => { if (invitationWatchers.has(draw)) countInvitations(); }, (next + 1) * 1000);
  };
  main().replaceChildren(el("h1", {}, "Invitations"), invite, panel);
  invitationWatchers.add(draw);
  onLeave(() => invitationWatchers.delete(draw));
  followInvitations();
  draw(await getJson("api/invitations"));
  markOnce("invitations-shown");
}

// A person's game: its page, or what became of it when the arena's stopping cut it off (the
// game is no more, and its page would say only that it does not exist), said when the page is
// opened or, open then, once the arena answers again.
function showPersonGame(id) {
  const base = `api/people/${enc(id)}`;
  return showPlay(base, async () => {
    const cut = await getJson(`${base}/cut-off`);
    main().replaceChildren(el("h1", {}, `Game ${id}`), el("p", { class: "cut-off" }, cut.said, " Back to ",
      el("a", { href: `#/ladder/${enc(cut.ladder)}` }, cut.ladder), "."));
  });
}

window.EXTRA_ROUTES = {
  live: () => showLive(),
  invitations: () => showInvitations(),
  play: ([id]) => showPersonGame(id),
  "": () => showLadders(),
  ladder: showLadder,
  bot: showBot,
  mine: () => showMine(),
  login: () => showAccount(false),
  signup: () => showAccount(true),
  upload: () => showUpload(),
  languages: () => showLanguages(),
};

// The menu says who is signed in once app.js (loaded after this file) has loaded; the title
// counts the invitations waiting for them.
window.addEventListener("DOMContentLoaded", () => currentSession().then(followInvitations));
