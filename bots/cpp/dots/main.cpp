// Starter bot for dots and boxes (`dots`) in C++17.
//
// The board has `rows` x `cols` boxes, so (cols + 1) x (rows + 1) dots; a dot is (x, y), column
// then row, from (0, 0) at the top left. A move draws one line: `h x y` from dot (x, y) to the
// right, `v x y` from dot (x, y) downwards. Whoever completes a box scores it and moves again
// (the referee sends another `turn`).
//
// It keeps its own board and plays: a line that completes a box if there is one; else a random
// line that gives no box away (draws no box's third side); else any line. Change choose_move()
// and keep the rest.
//
//     g++ -std=c++17 -O2 -o main main.cpp && referee check dots ./main
//
// Protocol rules it relies on: stdout holds protocol lines only, each flushed (std::endl);
// debug output goes to stderr; `start` -> `ready NAME VERSION multi`; `turn` -> one line; it
// exits on `quit` or at the end of its input.
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

struct Line { char kind; int x, y; };

struct Board {
    int rows = 3, cols = 3;
    std::vector<std::vector<int>> h, v;   // h[y][x]: 1 if line h x y is drawn; v[y][x]: line v x y

    void reset() {
        h.assign(rows + 1, std::vector<int>(cols, 0));
        v.assign(rows, std::vector<int>(cols + 1, 0));
    }
    void draw(const Line& l) { (l.kind == 'h' ? h[l.y][l.x] : v[l.y][l.x]) = 1; }
    int sides(int bx, int by) const { return h[by][bx] + h[by + 1][bx] + v[by][bx] + v[by][bx + 1]; }
    // The boxes on either side of a line.
    std::vector<std::pair<int, int>> boxes(const Line& l) const {
        std::vector<std::pair<int, int>> result;
        if (l.kind == 'h') {
            if (l.y > 0) result.push_back({l.x, l.y - 1});
            if (l.y < rows) result.push_back({l.x, l.y});
        } else {
            if (l.x > 0) result.push_back({l.x - 1, l.y});
            if (l.x < cols) result.push_back({l.x, l.y});
        }
        return result;
    }
    std::vector<Line> free_lines() const {
        std::vector<Line> lines;
        for (int y = 0; y <= rows; ++y) for (int x = 0; x < cols; ++x) if (!h[y][x]) lines.push_back({'h', x, y});
        for (int y = 0; y < rows; ++y) for (int x = 0; x <= cols; ++x) if (!v[y][x]) lines.push_back({'v', x, y});
        return lines;
    }
};

// The function to improve: return one of board.free_lines().
Line choose_move(const Board& board, std::mt19937& rng) {
    std::vector<Line> safe, lines = board.free_lines();
    for (const Line& l : lines) {
        bool completes = false, gives = false;
        for (auto [bx, by] : board.boxes(l)) {
            completes = completes || board.sides(bx, by) == 3;
            gives = gives || board.sides(bx, by) == 2;
        }
        if (completes) return l;
        if (!gives) safe.push_back(l);
    }
    const auto& pool = safe.empty() ? lines : safe;
    return pool[rng() % pool.size()];
}

int main() {
    std::mt19937 rng(std::random_device{}());
    Board board;
    board.reset();
    std::string text;
    while (std::getline(std::cin, text)) {
        std::istringstream words(text);
        std::string keyword;
        if (!(words >> keyword)) continue;
        if (keyword == "game") {
            // game dots rows=R cols=C
            std::string name, pair;
            words >> name;
            std::map<std::string, std::string> params;
            while (words >> pair) {
                auto eq = pair.find('=');
                if (eq != std::string::npos) params[pair.substr(0, eq)] = pair.substr(eq + 1);
            }
            board.rows = std::stoi(params["rows"]);
            board.cols = std::stoi(params["cols"]);
            board.reset();
        } else if (keyword == "played" || keyword == "opponent") {
            // A line drawn by the opening or by the opponent: h x y or v x y.
            Line l;
            words >> l.kind >> l.x >> l.y;
            board.draw(l);
        } else if (keyword == "start") {
            std::cout << "ready cpp-dots-starter 1.0 multi" << std::endl;
        } else if (keyword == "turn") {
            Line l = choose_move(board, rng);
            board.draw(l);
            std::cout << l.kind << ' ' << l.x << ' ' << l.y << std::endl;
        } else if (keyword == "quit") {
            return 0;
        }
        // Other lines (referee, side, time, legal, result) need no answer.
    }
}
