// Starter bot for m,n,k games (tic-tac-toe, gomoku, any `mnk` board) in JavaScript (Node.js),
// no packages.
//
// It speaks protocol 1 of the referee (protocol.md at the root of the repository) on stdin and
// stdout, keeps its own board, and plays: a winning square if it has one; else a square that
// blocks the opponent's win; else a random empty square next to a mark (the centre on an
// empty board). Change chooseMove() and keep the rest.
//
// Check it (the contest's JavaScript profile runs it the same way):
//     referee check tictactoe "node main.js"
//
// Rules of the protocol this file relies on: stdout holds protocol lines only, written at once
// (see send); debug output goes to stderr (console.error); `start` is answered with
// `ready NAME VERSION multi`, each `turn` with one move `x y`; the bot exits on `quit` or at
// the end of its input.
"use strict";
const fs = require("fs");
const readline = require("readline");

let width = 3, height = 3, line = 3, exact = false, moves = 0;
let cells = new Array(9).fill(0); // cells[y * width + x]: 0 empty, 1 first player, 2 second
let me = 1;

const on = (x, y) => x >= 0 && y >= 0 && x < width && y < height;
const at = (x, y) => cells[y * width + x];

function place(x, y, mark) {
  if (!on(x, y) || at(x, y) !== 0) { console.error("warning: cannot place", x, y); return; }
  cells[y * width + x] = mark;
  moves++;
}

// Would `mark` on the empty square (x, y) complete a winning line?
function wins(x, y, mark) {
  for (const [dx, dy] of [[1, 0], [0, 1], [1, 1], [-1, 1]]) {
    let run = 1;
    for (const sign of [1, -1]) {
      let cx = x + sign * dx, cy = y + sign * dy;
      while (on(cx, cy) && at(cx, cy) === mark) { run++; cx += sign * dx; cy += sign * dy; }
    }
    if (run === line || (run > line && !exact)) return true;
  }
  return false;
}

function nearMark(x, y) {
  for (let dy = -1; dy <= 1; dy++)
    for (let dx = -1; dx <= 1; dx++)
      if ((dx || dy) && on(x + dx, y + dy) && at(x + dx, y + dy) !== 0) return true;
  return false;
}

// The function to improve: the board is up to date; return an empty square [x, y].
function chooseMove() {
  const empty = [];
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (at(x, y) === 0) empty.push([x, y]);
  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const win = empty.find(([x, y]) => wins(x, y, me));
  if (win) return win;
  const block = empty.find(([x, y]) => wins(x, y, 3 - me));
  if (block) return block;
  const near = empty.filter(([x, y]) => nearMark(x, y));
  if (near.length) return pick(near);
  const centre = [Math.floor(width / 2), Math.floor(height / 2)];
  return at(...centre) === 0 ? centre : pick(empty);
}

// Synchronous writes: the answer leaves at once, never waiting in a buffer.
const send = (text) => fs.writeSync(1, text + "\n");

readline.createInterface({ input: process.stdin }).on("line", (text) => {
  const words = text.trim().split(/\s+/);
  switch (words[0]) {
    case "game": { // game NAME width=W height=H line=K exact=yes|no
      const params = Object.fromEntries(words.slice(2).map((pair) => pair.split("=")));
      width = Number(params.width); height = Number(params.height);
      line = Number(params.line); exact = params.exact === "yes";
      cells = new Array(width * height).fill(0);
      moves = 0;
      break;
    }
    case "side": me = words[1] === "first" ? 1 : 2; break;
    // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
    case "played": place(Number(words[1]), Number(words[2]), (moves % 2) + 1); break;
    case "opponent": place(Number(words[1]), Number(words[2]), 3 - me); break;
    case "start": send("ready js-mnk-starter 1.0 multi"); break;
    case "turn": {
      const [x, y] = chooseMove();
      place(x, y, me);
      send(`${x} ${y}`);
      break;
    }
    case "quit": process.exit(0);
    default: break; // referee, time, legal, result: nothing to answer
  }
});
