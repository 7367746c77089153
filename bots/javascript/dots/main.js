// Starter bot for dots and boxes (`dots`) in JavaScript (Node.js), no packages.
//
// The board has `rows` x `cols` boxes, so (cols + 1) x (rows + 1) dots; a dot is (x, y), column
// then row, from (0, 0) at the top left. A move draws one line: `h x y` from dot (x, y) to the
// right, `v x y` from dot (x, y) downwards. Whoever completes a box scores it and moves again
// (the referee sends another `turn`).
//
// It keeps its own board and plays: a line that completes a box if there is one; else a random
// line that gives no box away (draws no box's third side); else any line. Change chooseMove()
// and keep the rest.
//
//     referee check dots "node main.js"
//
// Protocol rules it relies on: stdout holds protocol lines only, written at once (see send);
// debug output goes to stderr (console.error); `start` -> `ready NAME VERSION multi`;
// `turn` -> one line; it exits on `quit` or at the end of its input.
"use strict";
const fs = require("fs");
const readline = require("readline");

let rows = 3, cols = 3;
let drawn = new Set(); // the lines drawn, as "h x y" / "v x y"

const isDrawn = (kind, x, y) => drawn.has(`${kind} ${x} ${y}`);
const sides = (bx, by) =>
  [isDrawn("h", bx, by), isDrawn("h", bx, by + 1), isDrawn("v", bx, by), isDrawn("v", bx + 1, by)].filter(Boolean).length;

// The boxes on either side of a line.
function boxes([kind, x, y]) {
  const result = [];
  if (kind === "h") {
    if (y > 0) result.push([x, y - 1]);
    if (y < rows) result.push([x, y]);
  } else {
    if (x > 0) result.push([x - 1, y]);
    if (x < cols) result.push([x, y]);
  }
  return result;
}

// The function to improve: return a line [kind, x, y] not drawn yet.
function chooseMove() {
  const lines = [];
  for (let y = 0; y <= rows; y++) for (let x = 0; x < cols; x++) if (!isDrawn("h", x, y)) lines.push(["h", x, y]);
  for (let y = 0; y < rows; y++) for (let x = 0; x <= cols; x++) if (!isDrawn("v", x, y)) lines.push(["v", x, y]);
  const counts = (line) => boxes(line).map(([bx, by]) => sides(bx, by));
  const completing = lines.find((line) => counts(line).includes(3));
  if (completing) return completing;
  const safe = lines.filter((line) => !counts(line).includes(2));
  const pool = safe.length ? safe : lines;
  return pool[Math.floor(Math.random() * pool.length)];
}

// Synchronous writes: the answer leaves at once, never waiting in a buffer.
const send = (text) => fs.writeSync(1, text + "\n");

readline.createInterface({ input: process.stdin }).on("line", (text) => {
  const words = text.trim().split(/\s+/);
  switch (words[0]) {
    case "game": { // game dots rows=R cols=C
      const params = Object.fromEntries(words.slice(2).map((pair) => pair.split("=")));
      rows = Number(params.rows);
      cols = Number(params.cols);
      drawn = new Set();
      break;
    }
    // A line drawn by the opening or by the opponent: h x y or v x y.
    case "played":
    case "opponent": drawn.add(`${words[1]} ${Number(words[2])} ${Number(words[3])}`); break;
    case "start": send("ready js-dots-starter 1.0 multi"); break;
    case "turn": {
      const line = chooseMove();
      drawn.add(line.join(" "));
      send(line.join(" "));
      break;
    }
    case "quit": process.exit(0);
    default: break; // referee, side, time, legal, result: nothing to answer
  }
});
