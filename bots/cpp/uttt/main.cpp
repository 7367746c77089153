// Starter bot for ultimate tic-tac-toe (`uttt`) in C++17.
//
// The board is 9x9 squares in nine small 3x3 boards, numbered 0..8 row by row; a move is the
// square `x y` (column, row, each 0..8). The cell played inside its small board (0..8, row by
// row) sends the opponent to the small board of that number; if that board is decided (won or
// full), the opponent may play in any undecided board. Three small boards in a line win.
//
// It keeps its own position and plays a move that wins a small board if it has one, else a
// random legal move. Change choose_move() and keep the rest.
//
//     g++ -std=c++17 -O2 -o main main.cpp && referee check uttt ./main
//
// Protocol rules it relies on: stdout holds protocol lines only, each flushed (std::endl);
// debug output goes to stderr; `start` -> `ready NAME VERSION multi`; `turn` -> `x y`; it exits
// on `quit` or at the end of its input.
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

const int LINES[8][3] = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

bool has_line(const int cells[9], int mark) {
    for (auto& l : LINES)
        if (cells[l[0]] == mark && cells[l[1]] == mark && cells[l[2]] == mark) return true;
    return false;
}

struct Position {
    int small[9][9] = {};   // small[board][cell]: 0 empty, 1 first player, 2 second
    int status[9] = {};     // 0 undecided, 1 or 2 won by that player, 3 full
    int forced = -1;        // the board the side to move must play in, -1 for any
    int moves = 0;

    static int board_of(int x, int y) { return y / 3 * 3 + x / 3; }
    static int cell_of(int x, int y) { return y % 3 * 3 + x % 3; }

    std::vector<std::pair<int, int>> legal() const {
        std::vector<std::pair<int, int>> moves;
        for (int y = 0; y < 9; ++y)
            for (int x = 0; x < 9; ++x) {
                int b = board_of(x, y);
                if ((forced == -1 || forced == b) && status[b] == 0 && small[b][cell_of(x, y)] == 0)
                    moves.push_back({x, y});
            }
        return moves;
    }
    void play(int x, int y, int mark) {
        int b = board_of(x, y), c = cell_of(x, y);
        small[b][c] = mark;
        if (has_line(small[b], mark)) status[b] = mark;
        else {
            bool full = true;
            for (int cell : small[b]) full = full && cell != 0;
            if (full) status[b] = 3;
        }
        forced = status[c] == 0 ? c : -1;
        ++moves;
    }
};

// The function to improve: return one of position.legal().
std::pair<int, int> choose_move(const Position& position, int me, std::mt19937& rng) {
    auto moves = position.legal();
    for (auto [x, y] : moves) {
        Position after = position;
        after.play(x, y, me);
        if (after.status[Position::board_of(x, y)] == me) return {x, y};
    }
    return moves[rng() % moves.size()];
}

int main() {
    std::mt19937 rng(std::random_device{}());
    Position position;
    int me = 1;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string keyword;
        if (!(words >> keyword)) continue;
        if (keyword == "game") {
            position = Position();   // `game uttt tiebreak=...`: a new game
        } else if (keyword == "side") {
            std::string side;
            words >> side;
            me = side == "first" ? 1 : 2;
        } else if (keyword == "played" || keyword == "opponent") {
            // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
            int x, y;
            words >> x >> y;
            position.play(x, y, keyword == "opponent" ? 3 - me : position.moves % 2 + 1);
        } else if (keyword == "start") {
            std::cout << "ready cpp-uttt-starter 1.0 multi" << std::endl;
        } else if (keyword == "turn") {
            auto [x, y] = choose_move(position, me, rng);
            position.play(x, y, me);
            std::cout << x << ' ' << y << std::endl;
        } else if (keyword == "quit") {
            return 0;
        }
        // Other lines (referee, time, legal, result) need no answer.
    }
}
