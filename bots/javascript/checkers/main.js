// Starter bot for English checkers (`checkers`) in JavaScript (Node.js), no packages.
//
// Only the 32 dark squares of the 8x8 board are used, numbered 1..32 four to a row from
// Black's side (PDN): row 0 holds 1-4, row 7 holds 29-32. Black (the first player) starts on
// 1-12 and moves down, White (the second) on 21-32 and moves up; a man reaching the far row is
// crowned king, and kings move both ways, one square at a time. A move is `11-15` (a step),
// `22x15` (a jump over the piece between) or `9x18x27` (a multi-jump, every landing square
// named). Captures are mandatory; a capture goes on while the same piece can jump again, the
// whole sequence is one move, and a man that is crowned ends its move there.
//
// It keeps its own position (from the FEN of the `game` line) and plays the move that takes
// the most pieces minus the most the opponent can take back at once, at random among equals.
// It accepts a draw offered when it is not ahead in material, and offers one when only kings
// are left, level. Change chooseMove() and keep the rest.
//
//     referee check checkers "node main.js"
//
// Protocol rules it relies on: stdout holds protocol lines only, written at once (see send);
// debug output goes to stderr (console.error); `start` -> `ready NAME VERSION multi`;
// `turn` -> a move (with ` draw` after it to offer a draw, or `draw` alone to accept one); it
// exits on `quit` or at the end of its input.
"use strict";
const fs = require("fs");
const readline = require("readline");

// A move is its squares: the start square, then every square the piece lands on.
// Row (0 at Black's side) and column of square 1..32; dark squares have row + column odd.
const rowOf = (s) => Math.floor((s - 1) / 4);
const colOf = (s) => 2 * ((s - 1) % 4) + (rowOf(s) % 2 === 0 ? 1 : 0);
// The square at (row, column), or 0 off the board.
const squareAt = (r, c) => (r >= 0 && r < 8 && c >= 0 && c < 8 && (r + c) % 2 === 1 ? r * 4 + Math.floor(c / 2) + 1 : 0);
const isCapture = (m) => Math.abs(rowOf(m[1]) - rowOf(m[0])) === 2;
const taken = (m) => (isCapture(m) ? m.length - 1 : 0);
const format = (m) => m.join(isCapture(m) ? "x" : "-");
const parse = (text) => text.split(/[x-]/).map(Number); // the referee writes every square

// board[square]: "b" black man, "B" black king, "w", "W", or "" empty; toMove: "b" (Black) or
// "w" (White), the side the bot is asked to move for.
// `B:W21,22,...,32:B1,2,...,12`: the side to move, then each colour's squares, `K` before a
// king's square (`W:W18,K30:BK3,14`).
function fromFen(fen) {
  const [turn, ...lists] = fen.split(":");
  const p = { board: new Array(33).fill(""), toMove: turn === "W" ? "w" : "b" };
  for (const list of lists) {
    const colour = list[0] === "W" ? "w" : "b";
    for (const item of list.slice(1).split(",").filter((i) => i)) {
      const king = item[0] === "K";
      p.board[Number(king ? item.slice(1) : item)] = king ? colour.toUpperCase() : colour;
    }
  }
  return p;
}
const copy = (p) => ({ board: p.board.slice(), toMove: p.toMove });
const owns = (p, s, colour) => p.board[s] !== "" && p.board[s].toLowerCase() === colour;
const isKing = (piece) => piece === "B" || piece === "W";
// The row directions a piece may go: a man only forward (Black down, White up), a king both.
const rows = (p, s) => (isKing(p.board[s]) ? [1, -1] : [p.board[s] === "b" ? 1 : -1]);

// Every legal move of the side to move: only captures when there is one, each complete.
function legal(p) {
  const captures = [], steps = [];
  for (let s = 1; s <= 32; s++) {
    if (!owns(p, s, p.toMove)) continue;
    jumps(p, s, [s], new Set(), captures);
    for (const dr of rows(p, s))
      for (const dc of [-1, 1]) {
        const to = squareAt(rowOf(s) + dr, colOf(s) + dc);
        if (to && p.board[to] === "") steps.push([s, to]);
      }
  }
  return captures.length ? captures : steps;
}

// Extends the capture `path` of the piece from `start` (now on its last square, having jumped
// the squares in `jumped`) by every jump it can make, and adds each capture that can go no
// further to `out`. Jumped pieces stay on the board until the move ends.
function jumps(p, start, path, jumped, out) {
  const at = path[path.length - 1];
  let extended = false;
  for (const dr of rows(p, start))
    for (const dc of [-1, 1]) {
      const over = squareAt(rowOf(at) + dr, colOf(at) + dc);
      const land = squareAt(rowOf(at) + 2 * dr, colOf(at) + 2 * dc);
      if (!over || !land || jumped.has(over) || p.board[over] === "" || owns(p, over, p.toMove)) continue;
      if (land !== start && p.board[land] !== "") continue; // the mover has left its start square
      extended = true;
      const crowned = !isKing(p.board[start]) && rowOf(land) === (p.toMove === "b" ? 7 : 0);
      if (crowned) out.push([...path, land]); // a man crowned ends its move
      else jumps(p, start, [...path, land], new Set([...jumped, over]), out);
    }
  if (!extended && path.length > 1) out.push(path);
}

// Plays a legal move: removes every piece jumped, crowns a man on the far row.
function play(p, m) {
  let piece = p.board[m[0]];
  p.board[m[0]] = "";
  for (let i = 1; i < m.length && isCapture(m); i++)
    p.board[squareAt((rowOf(m[i - 1]) + rowOf(m[i])) / 2, (colOf(m[i - 1]) + colOf(m[i])) / 2)] = "";
  const end = m[m.length - 1];
  if ((piece === "b" && rowOf(end) === 7) || (piece === "w" && rowOf(end) === 0)) piece = piece.toUpperCase();
  p.board[end] = piece;
  p.toMove = p.toMove === "b" ? "w" : "b";
}

// A man counts 2, a king 3.
const material = (p, colour) =>
  p.board.reduce((sum, piece, s) => sum + (owns(p, s, colour) ? (isKing(piece) ? 3 : 2) : 0), 0);
const onlyKings = (p) => p.board.every((piece) => piece === "" || isKing(piece));

// The function to improve: return one of legal(position) (never empty when asked to move).
function chooseMove(position) {
  let best = [], bestScore = -100;
  for (const m of legal(position)) {
    const after = copy(position);
    play(after, m);
    const back = Math.max(0, ...legal(after).map(taken)); // the most the opponent can take back
    const score = taken(m) - back;
    if (score > bestScore) (best = []), (bestScore = score);
    if (score === bestScore) best.push(m);
  }
  return best[Math.floor(Math.random() * best.length)];
}

// Synchronous writes: the answer leaves at once, never waiting in a buffer.
const send = (text) => fs.writeSync(1, text + "\n");

let position = fromFen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
let offered = false; // the opponent offered a draw with its last move
readline.createInterface({ input: process.stdin }).on("line", (text) => {
  const words = text.trim().split(/\s+/);
  switch (words[0]) {
    case "game": { // game checkers fen=B:W21,...,32:B1,...,12 repetition=3 moverule=40
      const fen = words.find((word) => word.startsWith("fen="));
      if (fen) position = fromFen(fen.slice(4));
      offered = false;
      break;
    }
    // An opening move or the opponent's, made by the side to move.
    case "played":
    case "opponent": play(position, parse(words[1])); break;
    case "offer": offered = true; break; // `offer draw`: good for our next answer only
    case "start": send("ready js-checkers-starter 1.0 multi"); break;
    case "turn": {
      const me = position.toMove, them = me === "b" ? "w" : "b";
      if (offered && material(position, me) <= material(position, them)) {
        send("draw"); // accept: the game ends, drawn
        break;
      }
      offered = false;
      const m = chooseMove(position);
      play(position, m);
      const level = onlyKings(position) && material(position, me) === material(position, them);
      send(format(m) + (level ? " draw" : ""));
      break;
    }
    case "quit": process.exit(0);
    default: break; // referee, side, time, legal, result: nothing to answer
  }
});
