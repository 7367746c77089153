// Starter bot for m,n,k games (tic-tac-toe, gomoku, any `mnk` board) in Go, standard library
// only.
//
// It speaks protocol 1 of the referee (protocol.md at the root of the repository) on stdin and
// stdout, keeps its own board, and plays: a winning square if it has one; else a square that
// blocks the opponent's win; else a random empty square next to a mark (the centre on an
// empty board). Change chooseMove and keep the rest.
//
// Build and check it (the contest's Go profile builds it the same way):
//
//	go build -o main main.go
//	referee check tictactoe ./main
//
// Rules of the protocol this file relies on: stdout holds protocol lines only, each flushed at
// once (fmt.Println on os.Stdout is not buffered); debug output goes to os.Stderr; `start` is
// answered with `ready NAME VERSION multi`, each `turn` with one move `x y`; the bot exits on
// `quit` or at the end of its input.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

type board struct {
	width, height, line, moves int
	exact                      bool  // only a line of exactly `line` marks wins
	cells                      []int // cells[y*width+x]: 0 empty, 1 first player, 2 second
}

func (b *board) on(x, y int) bool { return x >= 0 && y >= 0 && x < b.width && y < b.height }
func (b *board) at(x, y int) int  { return b.cells[y*b.width+x] }
func (b *board) place(x, y, mark int) {
	if !b.on(x, y) || b.at(x, y) != 0 {
		fmt.Fprintln(os.Stderr, "warning: cannot place", x, y)
		return
	}
	b.cells[y*b.width+x] = mark
	b.moves++
}

// wins tells whether `mark` on the empty square (x, y) completes a winning line.
func (b *board) wins(x, y, mark int) bool {
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
		run := 1
		for _, sign := range []int{1, -1} {
			cx, cy := x+sign*d[0], y+sign*d[1]
			for b.on(cx, cy) && b.at(cx, cy) == mark {
				run++
				cx, cy = cx+sign*d[0], cy+sign*d[1]
			}
		}
		if run == b.line || (run > b.line && !b.exact) {
			return true
		}
	}
	return false
}

func (b *board) nearMark(x, y int) bool {
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			if (dx != 0 || dy != 0) && b.on(x+dx, y+dy) && b.at(x+dx, y+dy) != 0 {
				return true
			}
		}
	}
	return false
}

// chooseMove is the function to improve: the board is up to date; return an empty square.
func chooseMove(b *board, me int) (int, int) {
	var empty, near [][2]int
	for y := 0; y < b.height; y++ {
		for x := 0; x < b.width; x++ {
			if b.at(x, y) == 0 {
				empty = append(empty, [2]int{x, y})
			}
		}
	}
	for _, s := range empty {
		if b.wins(s[0], s[1], me) {
			return s[0], s[1]
		}
	}
	for _, s := range empty {
		if b.wins(s[0], s[1], 3-me) {
			return s[0], s[1]
		}
	}
	for _, s := range empty {
		if b.nearMark(s[0], s[1]) {
			near = append(near, s)
		}
	}
	if len(near) > 0 {
		s := near[rand.Intn(len(near))]
		return s[0], s[1]
	}
	if b.at(b.width/2, b.height/2) == 0 {
		return b.width / 2, b.height / 2
	}
	s := empty[rand.Intn(len(empty))]
	return s[0], s[1]
}

func main() {
	b := &board{width: 3, height: 3, line: 3, cells: make([]int, 9)}
	me := 1
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		number := func(at int) int { n, _ := strconv.Atoi(words[at]); return n }
		switch words[0] {
		case "game": // game NAME width=W height=H line=K exact=yes|no
			params := map[string]string{}
			for _, pair := range words[2:] {
				if key, value, ok := strings.Cut(pair, "="); ok {
					params[key] = value
				}
			}
			get := func(key string) int { n, _ := strconv.Atoi(params[key]); return n }
			b = &board{width: get("width"), height: get("height"), line: get("line"),
				exact: params["exact"] == "yes", cells: make([]int, get("width")*get("height"))}
		case "side":
			if words[1] == "first" {
				me = 1
			} else {
				me = 2
			}
		case "played": // an opening move: the first player made the 1st, 3rd, ...
			b.place(number(1), number(2), b.moves%2+1)
		case "opponent":
			b.place(number(1), number(2), 3-me)
		case "start":
			fmt.Println("ready go-mnk-starter 1.0 multi")
		case "turn":
			x, y := chooseMove(b, me)
			b.place(x, y, me)
			fmt.Println(x, y)
		case "quit":
			return
		} // referee, time, legal, result: nothing to answer
	}
}
