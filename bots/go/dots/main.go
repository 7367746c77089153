// Starter bot for dots and boxes (`dots`) in Go, standard library only.
//
// The board has `rows` x `cols` boxes, so (cols + 1) x (rows + 1) dots; a dot is (x, y), column
// then row, from (0, 0) at the top left. A move draws one line: `h x y` from dot (x, y) to the
// right, `v x y` from dot (x, y) downwards. Whoever completes a box scores it and moves again
// (the referee sends another `turn`).
//
// It keeps its own board and plays: a line that completes a box if there is one; else a random
// line that gives no box away (draws no box's third side); else any line. Change chooseMove
// and keep the rest.
//
//	go build -o main main.go && referee check dots ./main
//
// Protocol rules it relies on: stdout holds protocol lines only (fmt.Println on os.Stdout is
// not buffered); debug output goes to os.Stderr; `start` -> `ready NAME VERSION multi`;
// `turn` -> one line; it exits on `quit` or at the end of its input.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

type line struct {
	kind string // "h" or "v"
	x, y int
}

type board struct {
	rows, cols int
	h, v       [][]bool // h[y][x]: line h x y drawn; v[y][x]: line v x y drawn
}

func newBoard(rows, cols int) *board {
	b := &board{rows: rows, cols: cols}
	for y := 0; y <= rows; y++ {
		b.h = append(b.h, make([]bool, cols))
	}
	for y := 0; y < rows; y++ {
		b.v = append(b.v, make([]bool, cols+1))
	}
	return b
}

func (b *board) draw(l line) {
	if l.kind == "h" {
		b.h[l.y][l.x] = true
	} else {
		b.v[l.y][l.x] = true
	}
}

func (b *board) sides(bx, by int) int {
	n := 0
	for _, drawn := range []bool{b.h[by][bx], b.h[by+1][bx], b.v[by][bx], b.v[by][bx+1]} {
		if drawn {
			n++
		}
	}
	return n
}

// boxes lists the boxes on either side of a line.
func (b *board) boxes(l line) [][2]int {
	var result [][2]int
	if l.kind == "h" {
		if l.y > 0 {
			result = append(result, [2]int{l.x, l.y - 1})
		}
		if l.y < b.rows {
			result = append(result, [2]int{l.x, l.y})
		}
	} else {
		if l.x > 0 {
			result = append(result, [2]int{l.x - 1, l.y})
		}
		if l.x < b.cols {
			result = append(result, [2]int{l.x, l.y})
		}
	}
	return result
}

// chooseMove is the function to improve: return a line not drawn yet.
func chooseMove(b *board) line {
	var lines, safe []line
	for y := 0; y <= b.rows; y++ {
		for x := 0; x < b.cols; x++ {
			if !b.h[y][x] {
				lines = append(lines, line{"h", x, y})
			}
		}
	}
	for y := 0; y < b.rows; y++ {
		for x := 0; x <= b.cols; x++ {
			if !b.v[y][x] {
				lines = append(lines, line{"v", x, y})
			}
		}
	}
	for _, l := range lines {
		completes, gives := false, false
		for _, box := range b.boxes(l) {
			completes = completes || b.sides(box[0], box[1]) == 3
			gives = gives || b.sides(box[0], box[1]) == 2
		}
		if completes {
			return l
		}
		if !gives {
			safe = append(safe, l)
		}
	}
	if len(safe) > 0 {
		return safe[rand.Intn(len(safe))]
	}
	return lines[rand.Intn(len(lines))]
}

func main() {
	b := newBoard(3, 3)
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		number := func(at int) int { n, _ := strconv.Atoi(words[at]); return n }
		switch words[0] {
		case "game": // game dots rows=R cols=C
			params := map[string]int{}
			for _, pair := range words[2:] {
				if key, value, ok := strings.Cut(pair, "="); ok {
					params[key], _ = strconv.Atoi(value)
				}
			}
			b = newBoard(params["rows"], params["cols"])
		case "played", "opponent": // a line drawn by the opening or the opponent: h x y or v x y
			b.draw(line{words[1], number(2), number(3)})
		case "start":
			fmt.Println("ready go-dots-starter 1.0 multi")
		case "turn":
			l := chooseMove(b)
			b.draw(l)
			fmt.Println(l.kind, l.x, l.y)
		case "quit":
			return
		} // referee, side, time, legal, result: nothing to answer
	}
}
