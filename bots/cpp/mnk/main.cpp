// Starter bot for m,n,k games (tic-tac-toe, gomoku, any `mnk` board) in C++17.
//
// It speaks protocol 1 of the referee (protocol.md at the root of the repository) on stdin and
// stdout, keeps its own board, and plays: a winning square if it has one; else a square that
// blocks the opponent's win; else a random empty square next to a mark (the centre on an
// empty board). Change choose_move() and keep the rest.
//
// Build and check it (the contest's C++ profile builds it the same way):
//     g++ -std=c++17 -O2 -o main main.cpp
//     referee check tictactoe ./main
//
// Rules of the protocol this file relies on: stdout holds protocol lines only, each flushed at
// once (std::endl flushes); debug output goes to stderr; `start` is answered with
// `ready NAME VERSION multi`, each `turn` with one move `x y`; the bot exits on `quit` or at
// the end of its input.
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

struct Board {
    int width = 3, height = 3, line = 3;
    bool exact = false;            // only a line of exactly `line` marks wins
    std::vector<int> cells;        // cells[y * width + x]: 0 empty, 1 first player, 2 second
    int moves = 0;

    void reset() { cells.assign(width * height, 0); moves = 0; }
    bool on(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
    int at(int x, int y) const { return cells[y * width + x]; }
    void place(int x, int y, int mark) {
        if (!on(x, y) || at(x, y) != 0) { std::cerr << "warning: cannot place " << x << ' ' << y << std::endl; return; }
        cells[y * width + x] = mark;
        ++moves;
    }
    // Would `mark` on the empty square (x, y) complete a winning line?
    bool wins(int x, int y, int mark) const {
        const int directions[4][2] = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
        for (auto& d : directions) {
            int run = 1;
            for (int sign : {1, -1}) {
                int cx = x + sign * d[0], cy = y + sign * d[1];
                while (on(cx, cy) && at(cx, cy) == mark) { ++run; cx += sign * d[0]; cy += sign * d[1]; }
            }
            if (run == line || (run > line && !exact)) return true;
        }
        return false;
    }
    bool near_mark(int x, int y) const {
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                if ((dx || dy) && on(x + dx, y + dy) && at(x + dx, y + dy) != 0) return true;
        return false;
    }
};

// The function to improve: `board` is up to date; return an empty square.
std::pair<int, int> choose_move(const Board& board, int me, std::mt19937& rng) {
    std::vector<std::pair<int, int>> empty, near;
    for (int y = 0; y < board.height; ++y)
        for (int x = 0; x < board.width; ++x)
            if (board.at(x, y) == 0) empty.push_back({x, y});
    for (auto [x, y] : empty) if (board.wins(x, y, me)) return {x, y};
    for (auto [x, y] : empty) if (board.wins(x, y, 3 - me)) return {x, y};
    for (auto [x, y] : empty) if (board.near_mark(x, y)) near.push_back({x, y});
    if (!near.empty()) return near[rng() % near.size()];
    int cx = board.width / 2, cy = board.height / 2;
    if (board.at(cx, cy) == 0) return {cx, cy};
    return empty[rng() % empty.size()];
}

int main() {
    std::mt19937 rng(std::random_device{}());
    Board board;
    int me = 1;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream words(line);
        std::string keyword;
        if (!(words >> keyword)) continue;
        if (keyword == "game") {
            // game NAME width=W height=H line=K exact=yes|no
            std::string name, pair;
            words >> name;
            std::map<std::string, std::string> params;
            while (words >> pair) {
                auto eq = pair.find('=');
                if (eq != std::string::npos) params[pair.substr(0, eq)] = pair.substr(eq + 1);
            }
            board.width = std::stoi(params["width"]);
            board.height = std::stoi(params["height"]);
            board.line = std::stoi(params["line"]);
            board.exact = params["exact"] == "yes";
            board.reset();
        } else if (keyword == "side") {
            std::string side;
            words >> side;
            me = side == "first" ? 1 : 2;
        } else if (keyword == "played" || keyword == "opponent") {
            // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
            int x, y;
            words >> x >> y;
            board.place(x, y, keyword == "opponent" ? 3 - me : board.moves % 2 + 1);
        } else if (keyword == "start") {
            std::cout << "ready cpp-mnk-starter 1.0 multi" << std::endl;
        } else if (keyword == "turn") {
            auto [x, y] = choose_move(board, me, rng);
            board.place(x, y, me);
            std::cout << x << ' ' << y << std::endl;
        } else if (keyword == "quit") {
            return 0;
        }
        // Other lines (referee, time, legal, result) need no answer.
    }
}
