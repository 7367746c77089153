// Starter bot for English checkers (`checkers`) in C++17.
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
// are left, level. Change choose_move() and keep the rest.
//
//     g++ -std=c++17 -O2 -o main main.cpp && referee check checkers ./main
//
// Protocol rules it relies on: stdout holds protocol lines only, each flushed (std::endl);
// debug output goes to stderr; `start` -> `ready NAME VERSION multi`; `turn` -> a move (with
// ` draw` after it to offer a draw, or `draw` alone to accept one); it exits on `quit` or at
// the end of its input.
#include <cctype>
#include <cstdlib>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using Move = std::vector<int>;   // the start square, then every square the piece lands on

// Row (0 at Black's side) and column of square 1..32; dark squares have row + column odd.
int row_of(int s) { return (s - 1) / 4; }
int col_of(int s) { return 2 * ((s - 1) % 4) + (row_of(s) % 2 == 0 ? 1 : 0); }
// The square at (row, column), or 0 off the board.
int square_at(int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8 && (r + c) % 2 == 1 ? r * 4 + c / 2 + 1 : 0; }
bool is_capture(const Move& m) { return std::abs(row_of(m[1]) - row_of(m[0])) == 2; }
int taken(const Move& m) { return is_capture(m) ? int(m.size()) - 1 : 0; }

std::string format_move(const Move& m) {
    std::string text = std::to_string(m[0]);
    for (size_t i = 1; i < m.size(); ++i) text += (is_capture(m) ? "x" : "-") + std::to_string(m[i]);
    return text;
}

Move parse_move(std::string text) {   // `9x18x27` or `11-15`: the referee writes every square
    for (char& c : text) if (c == 'x' || c == '-') c = ' ';
    std::istringstream squares(text);
    Move m;
    for (int s; squares >> s;) m.push_back(s);
    return m;
}

struct Position {
    char board[33] = {};   // board[square]: 'b' black man, 'B' black king, 'w', 'W'; 0 empty
    char to_move = 'b';    // 'b' (Black) or 'w' (White): the bot is asked to move for this side

    // `B:W21,22,...,32:B1,2,...,12`: the side to move, then each colour's squares, `K` before
    // a king's square (`W:W18,K30:BK3,14`).
    static Position from_fen(const std::string& fen) {
        Position p;
        std::istringstream parts(fen);
        std::string part, item;
        std::getline(parts, part, ':');
        p.to_move = part == "W" ? 'w' : 'b';
        while (std::getline(parts, part, ':')) {
            char colour = part[0] == 'W' ? 'w' : 'b';
            std::istringstream items(part.substr(1));
            while (std::getline(items, item, ','))
                if (!item.empty()) {
                    bool king = item[0] == 'K';
                    p.board[std::stoi(item.substr(king ? 1 : 0))] = king ? char(std::toupper(colour)) : colour;
                }
        }
        return p;
    }

    bool owns(int s, char colour) const { return board[s] != 0 && std::tolower(board[s]) == colour; }
    // The row directions a piece may go: a man only forward (Black down, White up), a king both.
    std::vector<int> rows(int s) const {
        if (std::isupper(board[s])) return {1, -1};
        return {board[s] == 'b' ? 1 : -1};
    }

    // Every legal move of the side to move: only captures when there is one, each complete.
    std::vector<Move> legal() const {
        std::vector<Move> captures, steps;
        for (int s = 1; s <= 32; ++s) {
            if (!owns(s, to_move)) continue;
            jumps(s, {s}, std::vector<bool>(33, false), captures);
            for (int dr : rows(s))
                for (int dc : {-1, 1}) {
                    int to = square_at(row_of(s) + dr, col_of(s) + dc);
                    if (to && !board[to]) steps.push_back({s, to});
                }
        }
        return captures.empty() ? steps : captures;
    }

    // Extends the capture `path` of the piece from `start` (now on path.back(), having jumped
    // the squares marked in `jumped`) by every jump it can make, and adds each capture that can
    // go no further to `out`. Jumped pieces stay on the board until the move ends.
    void jumps(int start, const Move& path, std::vector<bool> jumped, std::vector<Move>& out) const {
        int at = path.back();
        bool extended = false;
        for (int dr : rows(start))
            for (int dc : {-1, 1}) {
                int over = square_at(row_of(at) + dr, col_of(at) + dc);
                int land = square_at(row_of(at) + 2 * dr, col_of(at) + 2 * dc);
                if (!over || !land || jumped[over] || !board[over] || owns(over, to_move)) continue;
                if (land != start && board[land]) continue;   // the mover has left its start square
                extended = true;
                Move longer = path;
                longer.push_back(land);
                bool crowned = std::islower(board[start]) && row_of(land) == (to_move == 'b' ? 7 : 0);
                if (crowned) {
                    out.push_back(longer);   // a man crowned ends its move
                } else {
                    jumped[over] = true;
                    jumps(start, longer, jumped, out);
                    jumped[over] = false;
                }
            }
        if (!extended && path.size() > 1) out.push_back(path);
    }

    // Plays a legal move: removes every piece jumped, crowns a man on the far row.
    void play(const Move& m) {
        char piece = board[m[0]];
        board[m[0]] = 0;
        for (size_t i = 1; i < m.size() && is_capture(m); ++i)
            board[square_at((row_of(m[i - 1]) + row_of(m[i])) / 2, (col_of(m[i - 1]) + col_of(m[i])) / 2)] = 0;
        int end = m.back();
        if ((piece == 'b' && row_of(end) == 7) || (piece == 'w' && row_of(end) == 0)) piece = char(std::toupper(piece));
        board[end] = piece;
        to_move = to_move == 'b' ? 'w' : 'b';
    }

    int material(char colour) const {   // a man counts 2, a king 3
        int sum = 0;
        for (int s = 1; s <= 32; ++s)
            if (owns(s, colour)) sum += std::isupper(board[s]) ? 3 : 2;
        return sum;
    }
    bool only_kings() const {
        for (int s = 1; s <= 32; ++s)
            if (std::islower(board[s])) return false;
        return true;
    }
};

// The function to improve: return one of position.legal() (never empty when asked to move).
Move choose_move(const Position& position, std::mt19937& rng) {
    std::vector<Move> best;
    int best_score = -100;
    for (const Move& m : position.legal()) {
        Position after = position;
        after.play(m);
        int back = 0;   // the most the opponent can take back at once
        for (const Move& reply : after.legal()) back = std::max(back, taken(reply));
        int score = taken(m) - back;
        if (score > best_score) best.clear(), best_score = score;
        if (score == best_score) best.push_back(m);
    }
    return best[rng() % best.size()];
}

int main() {
    std::mt19937 rng(std::random_device{}());
    Position position;
    bool offered = false;   // the opponent offered a draw with its last move
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string keyword, word;
        if (!(words >> keyword)) continue;
        if (keyword == "game") {
            // game checkers fen=B:W21,...,32:B1,...,12 repetition=3 moverule=40: a new game
            while (words >> word)
                if (word.rfind("fen=", 0) == 0) position = Position::from_fen(word.substr(4));
            offered = false;
        } else if (keyword == "played" || keyword == "opponent") {
            // An opening move or the opponent's, made by the side to move.
            words >> word;
            position.play(parse_move(word));
        } else if (keyword == "offer") {
            offered = true;   // `offer draw`: good for our next answer only
        } else if (keyword == "start") {
            std::cout << "ready cpp-checkers-starter 1.0 multi" << std::endl;
        } else if (keyword == "turn") {
            char me = position.to_move, them = me == 'b' ? 'w' : 'b';
            if (offered && position.material(me) <= position.material(them)) {
                std::cout << "draw" << std::endl;   // accept: the game ends, drawn
                continue;
            }
            offered = false;
            Move m = choose_move(position, rng);
            position.play(m);
            bool level = position.only_kings() && position.material(me) == position.material(them);
            std::cout << format_move(m) << (level ? " draw" : "") << std::endl;
        } else if (keyword == "quit") {
            return 0;
        }
        // Other lines (referee, side, time, legal, result) need no answer.
    }
}
