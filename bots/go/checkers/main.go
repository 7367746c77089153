// Starter bot for English checkers (`checkers`) in Go, standard library only.
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
// are left, level. Change chooseMove and keep the rest.
//
//	go build -o main main.go && referee check checkers ./main
//
// Protocol rules it relies on: stdout holds protocol lines only (fmt.Println on os.Stdout is
// not buffered); debug output goes to os.Stderr; `start` -> `ready NAME VERSION multi`;
// `turn` -> a move (with ` draw` after it to offer a draw, or `draw` alone to accept one); it
// exits on `quit` or at the end of its input.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
)

// move is its squares: the start square, then every square the piece lands on.
type move []int

// rowOf and colOf give the row (0 at Black's side) and column of square 1..32; dark squares
// have row + column odd.
func rowOf(s int) int { return (s - 1) / 4 }
func colOf(s int) int { return 2*((s-1)%4) + 1 - rowOf(s)%2 }

// squareAt is the square at (row, column), or 0 off the board.
func squareAt(r, c int) int {
	if r < 0 || r >= 8 || c < 0 || c >= 8 || (r+c)%2 == 0 {
		return 0
	}
	return r*4 + c/2 + 1
}

func (m move) isCapture() bool { return rowOf(m[1])-rowOf(m[0]) == 2 || rowOf(m[0])-rowOf(m[1]) == 2 }

func (m move) taken() int {
	if m.isCapture() {
		return len(m) - 1
	}
	return 0
}

func (m move) String() string {
	squares := make([]string, len(m))
	for i, s := range m {
		squares[i] = strconv.Itoa(s)
	}
	if m.isCapture() {
		return strings.Join(squares, "x")
	}
	return strings.Join(squares, "-")
}

// parse reads `9x18x27` or `11-15`: the referee writes every square.
func parse(text string) move {
	var m move
	for _, square := range strings.FieldsFunc(text, func(r rune) bool { return r == 'x' || r == '-' }) {
		s, _ := strconv.Atoi(square)
		m = append(m, s)
	}
	return m
}

type position struct {
	board  [33]byte // board[square]: 'b' black man, 'B' black king, 'w', 'W'; 0 empty
	toMove byte     // 'b' (Black) or 'w' (White): the bot is asked to move for this side
}

// fromFen reads `B:W21,22,...,32:B1,2,...,12`: the side to move, then each colour's squares,
// `K` before a king's square (`W:W18,K30:BK3,14`).
func fromFen(fen string) position {
	parts := strings.Split(fen, ":")
	p := position{toMove: 'b'}
	if parts[0] == "W" {
		p.toMove = 'w'
	}
	for _, list := range parts[1:] {
		colour := byte('b')
		if list[0] == 'W' {
			colour = 'w'
		}
		for _, item := range strings.Split(list[1:], ",") {
			if item == "" {
				continue
			}
			piece := colour
			if item[0] == 'K' {
				piece, item = colour-'a'+'A', item[1:]
			}
			s, _ := strconv.Atoi(item)
			p.board[s] = piece
		}
	}
	return p
}

func isKing(piece byte) bool { return piece == 'B' || piece == 'W' }

func (p *position) owns(s int, colour byte) bool {
	return p.board[s] == colour || p.board[s] == colour-'a'+'A'
}

// rows are the row directions a piece may go: a man only forward (Black down, White up), a
// king both.
func (p *position) rows(s int) []int {
	if isKing(p.board[s]) {
		return []int{1, -1}
	}
	if p.board[s] == 'b' {
		return []int{1}
	}
	return []int{-1}
}

// legal lists every legal move of the side to move: only captures when there is one, each
// complete.
func (p *position) legal() []move {
	var captures, steps []move
	for s := 1; s <= 32; s++ {
		if !p.owns(s, p.toMove) {
			continue
		}
		p.jumps(s, move{s}, map[int]bool{}, &captures)
		for _, dr := range p.rows(s) {
			for _, dc := range []int{-1, 1} {
				if to := squareAt(rowOf(s)+dr, colOf(s)+dc); to != 0 && p.board[to] == 0 {
					steps = append(steps, move{s, to})
				}
			}
		}
	}
	if len(captures) > 0 {
		return captures
	}
	return steps
}

// jumps extends the capture `path` of the piece from `start` (now on its last square, having
// jumped the squares in `jumped`) by every jump it can make, and adds each capture that can go
// no further to `out`. Jumped pieces stay on the board until the move ends.
func (p *position) jumps(start int, path move, jumped map[int]bool, out *[]move) {
	at := path[len(path)-1]
	extended := false
	for _, dr := range p.rows(start) {
		for _, dc := range []int{-1, 1} {
			over := squareAt(rowOf(at)+dr, colOf(at)+dc)
			land := squareAt(rowOf(at)+2*dr, colOf(at)+2*dc)
			if over == 0 || land == 0 || jumped[over] || p.board[over] == 0 || p.owns(over, p.toMove) {
				continue
			}
			if land != start && p.board[land] != 0 { // the mover has left its start square
				continue
			}
			extended = true
			longer := append(append(move{}, path...), land)
			crownRow := 0
			if p.toMove == 'b' {
				crownRow = 7
			}
			if !isKing(p.board[start]) && rowOf(land) == crownRow {
				*out = append(*out, longer) // a man crowned ends its move
				continue
			}
			jumped[over] = true
			p.jumps(start, longer, jumped, out)
			jumped[over] = false
		}
	}
	if !extended && len(path) > 1 {
		*out = append(*out, path)
	}
}

// play plays a legal move: removes every piece jumped, crowns a man on the far row.
func (p *position) play(m move) {
	piece := p.board[m[0]]
	p.board[m[0]] = 0
	for i := 1; i < len(m) && m.isCapture(); i++ {
		p.board[squareAt((rowOf(m[i-1])+rowOf(m[i]))/2, (colOf(m[i-1])+colOf(m[i]))/2)] = 0
	}
	end := m[len(m)-1]
	if (piece == 'b' && rowOf(end) == 7) || (piece == 'w' && rowOf(end) == 0) {
		piece = piece - 'a' + 'A'
	}
	p.board[end] = piece
	if p.toMove == 'b' {
		p.toMove = 'w'
	} else {
		p.toMove = 'b'
	}
}

// material counts a man 2, a king 3.
func (p *position) material(colour byte) int {
	sum := 0
	for s := 1; s <= 32; s++ {
		switch {
		case p.owns(s, colour) && isKing(p.board[s]):
			sum += 3
		case p.owns(s, colour):
			sum += 2
		}
	}
	return sum
}

func (p *position) onlyKings() bool {
	for _, piece := range p.board {
		if piece == 'b' || piece == 'w' {
			return false
		}
	}
	return true
}

// chooseMove is the function to improve: return one of p.legal() (never empty when asked to
// move).
func chooseMove(p *position) move {
	var best []move
	bestScore := -100
	for _, m := range p.legal() {
		after := *p // a copy: the board is an array, a value
		after.play(m)
		back := 0 // the most the opponent can take back at once
		for _, reply := range after.legal() {
			if reply.taken() > back {
				back = reply.taken()
			}
		}
		score := m.taken() - back
		if score > bestScore {
			best, bestScore = nil, score
		}
		if score == bestScore {
			best = append(best, m)
		}
	}
	return best[rand.Intn(len(best))]
}

func main() {
	p := fromFen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
	offered := false // the opponent offered a draw with its last move
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	for in.Scan() {
		words := strings.Fields(in.Text())
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "game": // game checkers fen=B:W21,...,32:B1,...,12 repetition=3 moverule=40
			for _, word := range words {
				if strings.HasPrefix(word, "fen=") {
					p = fromFen(word[len("fen="):])
				}
			}
			offered = false
		case "played", "opponent": // an opening move or the opponent's, by the side to move
			p.play(parse(words[1]))
		case "offer": // `offer draw`: good for our next answer only
			offered = true
		case "start":
			fmt.Println("ready go-checkers-starter 1.0 multi")
		case "turn":
			me, them := p.toMove, byte('b')
			if me == 'b' {
				them = 'w'
			}
			if offered && p.material(me) <= p.material(them) {
				fmt.Println("draw") // accept: the game ends, drawn
				continue
			}
			offered = false
			m := chooseMove(&p)
			p.play(m)
			if p.onlyKings() && p.material(me) == p.material(them) {
				fmt.Println(m, "draw")
			} else {
				fmt.Println(m)
			}
		case "quit":
			return
		} // referee, side, time, legal, result: nothing to answer
	}
}
