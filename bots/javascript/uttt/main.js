// Starter bot for ultimate tic-tac-toe (`uttt`) in JavaScript (Node.js), no packages.
//
// The board is 9x9 squares in nine small 3x3 boards, numbered 0..8 row by row; a move is the
// square `x y` (column, row, each 0..8). The cell played inside its small board (0..8, row by
// row) sends the opponent to the small board of that number; if that board is decided (won or
// full), the opponent may play in any undecided board. Three small boards in a line win.
//
// It keeps its own position and plays a move that wins a small board if it has one, else a
// random legal move. Change chooseMove() and keep the rest.
//
//     referee check uttt "node main.js"
//
// Protocol rules it relies on: stdout holds protocol lines only, written at once (see send);
// debug output goes to stderr (console.error); `start` -> `ready NAME VERSION multi`;
// `turn` -> `x y`; it exits on `quit` or at the end of its input.
"use strict";
const fs = require("fs");
const readline = require("readline");

const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const boardOf = (x, y) => Math.floor(y / 3) * 3 + Math.floor(x / 3);
const cellOf = (x, y) => (y % 3) * 3 + (x % 3);

// small[board][cell]: 0 empty, 1 first player, 2 second; status[board]: 0 undecided, 1 or 2
// won by that player, 3 full; forced: the board the side to move must play in, -1 for any.
const newPosition = () => ({
  small: Array.from({ length: 9 }, () => new Array(9).fill(0)),
  status: new Array(9).fill(0),
  forced: -1,
  moves: 0,
});
const copy = (p) => ({ small: p.small.map((b) => b.slice()), status: p.status.slice(), forced: p.forced, moves: p.moves });

function legal(p) {
  const moves = [];
  for (let y = 0; y < 9; y++)
    for (let x = 0; x < 9; x++) {
      const b = boardOf(x, y);
      if ((p.forced === -1 || p.forced === b) && p.status[b] === 0 && p.small[b][cellOf(x, y)] === 0) moves.push([x, y]);
    }
  return moves;
}

function play(p, x, y, mark) {
  const b = boardOf(x, y), c = cellOf(x, y), cells = p.small[b];
  cells[c] = mark;
  if (LINES.some((l) => l.every((i) => cells[i] === mark))) p.status[b] = mark;
  else if (cells.every((cell) => cell !== 0)) p.status[b] = 3;
  p.forced = p.status[c] === 0 ? c : -1;
  p.moves++;
}

// The function to improve: return one of legal(position).
function chooseMove(position, me) {
  const moves = legal(position);
  for (const [x, y] of moves) {
    const after = copy(position);
    play(after, x, y, me);
    if (after.status[boardOf(x, y)] === me) return [x, y];
  }
  return moves[Math.floor(Math.random() * moves.length)];
}

// Synchronous writes: the answer leaves at once, never waiting in a buffer.
const send = (text) => fs.writeSync(1, text + "\n");

let position = newPosition();
let me = 1;
readline.createInterface({ input: process.stdin }).on("line", (text) => {
  const words = text.trim().split(/\s+/);
  switch (words[0]) {
    case "game": position = newPosition(); break; // `game uttt tiebreak=...`
    case "side": me = words[1] === "first" ? 1 : 2; break;
    // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
    case "played": play(position, Number(words[1]), Number(words[2]), (position.moves % 2) + 1); break;
    case "opponent": play(position, Number(words[1]), Number(words[2]), 3 - me); break;
    case "start": send("ready js-uttt-starter 1.0 multi"); break;
    case "turn": {
      const [x, y] = chooseMove(position, me);
      play(position, x, y, me);
      send(`${x} ${y}`);
      break;
    }
    case "quit": process.exit(0);
    default: break; // referee, time, legal, result: nothing to answer
  }
});
