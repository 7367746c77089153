// Starter bot for ultimate tic-tac-toe (`uttt`) in Go, standard library only.
//
// The board is 9x9 squares in nine small 3x3 boards, numbered 0..8 row by row; a move is the
// square `x y` (column, row, each 0..8). The cell played inside its small board (0..8, row by
// row) sends the opponent to the small board of that number; if that board is decided (won or
// full), the opponent may play in any undecided board. Three small boards in a line win.
//
// It keeps its own position and plays a move that wins a small board if it has one, else a
// random legal move. Change chooseMove and keep the rest.
//
//	go build -o main main.go && referee check uttt ./main
//
// Protocol rules it relies on: stdout holds protocol lines only (fmt.Println on os.Stdout is
// not buffered); debug output goes to os.Stderr; `start` -> `ready NAME VERSION multi`;
// `turn` -> `x y`; it exits on `quit` or at the end of its input.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

var lines = [8][3]int{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}

type position struct {
	small  [9][9]int // small[board][cell]: 0 empty, 1 first player, 2 second
	status [9]int    // 0 undecided, 1 or 2 won by that player, 3 full
	forced int       // the board the side to move must play in, -1 for any
	moves  int
}

func boardOf(x, y int) int { return y/3*3 + x/3 }
func cellOf(x, y int) int  { return y%3*3 + x%3 }

func (p *position) legal() [][2]int {
	var moves [][2]int
	for y := 0; y < 9; y++ {
		for x := 0; x < 9; x++ {
			b := boardOf(x, y)
			if (p.forced == -1 || p.forced == b) && p.status[b] == 0 && p.small[b][cellOf(x, y)] == 0 {
				moves = append(moves, [2]int{x, y})
			}
		}
	}
	return moves
}

func (p *position) play(x, y, mark int) {
	b, c := boardOf(x, y), cellOf(x, y)
	p.small[b][c] = mark
	won, full := false, true
	for _, l := range lines {
		won = won || (p.small[b][l[0]] == mark && p.small[b][l[1]] == mark && p.small[b][l[2]] == mark)
	}
	for _, cell := range p.small[b] {
		full = full && cell != 0
	}
	if won {
		p.status[b] = mark
	} else if full {
		p.status[b] = 3
	}
	p.forced = -1
	if p.status[c] == 0 {
		p.forced = c
	}
	p.moves++
}

// chooseMove is the function to improve: return one of p.legal().
func chooseMove(p *position, me int) [2]int {
	moves := p.legal()
	for _, m := range moves {
		after := *p // a copy: the arrays are values
		after.play(m[0], m[1], me)
		if after.status[boardOf(m[0], m[1])] == me {
			return m
		}
	}
	return moves[rand.Intn(len(moves))]
}

func main() {
	p := &position{forced: -1}
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
		case "game": // `game uttt tiebreak=...`: a new game
			p = &position{forced: -1}
		case "side":
			if words[1] == "first" {
				me = 1
			} else {
				me = 2
			}
		case "played": // an opening move: the first player made the 1st, 3rd, ...
			p.play(number(1), number(2), p.moves%2+1)
		case "opponent":
			p.play(number(1), number(2), 3-me)
		case "start":
			fmt.Println("ready go-uttt-starter 1.0 multi")
		case "turn":
			m := chooseMove(p, me)
			p.play(m[0], m[1], me)
			fmt.Println(m[0], m[1])
		case "quit":
			return
		} // referee, time, legal, result: nothing to answer
	}
}
