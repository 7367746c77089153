// Starter bot for m,n,k games (tic-tac-toe, gomoku, any `mnk` board) in Java.
//
// It speaks protocol 1 of the referee (protocol.md at the root of the repository) on stdin and
// stdout, keeps its own board, and plays: a winning square if it has one; else a square that
// blocks the opponent's win; else a random empty square next to a mark (the centre on an
// empty board). Change chooseMove() and keep the rest.
//
// Build and check it (the contest's Java profile builds it the same way; the class is Main):
//     javac -d . Main.java
//     referee check tictactoe "java -cp . Main"
//
// Rules of the protocol this file relies on: stdout holds protocol lines only, each flushed at
// once (see send); debug output goes to System.err; `start` is answered with
// `ready NAME VERSION multi`, each `turn` with one move `x y`; the bot exits on `quit` or at
// the end of its input.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class Main {
    static int width = 3, height = 3, line = 3, moves = 0;
    static boolean exact = false; // only a line of exactly `line` marks wins
    static int[][] cells = new int[3][3]; // cells[y][x]: 0 empty, 1 first player, 2 second

    static boolean on(int x, int y) { return x >= 0 && y >= 0 && x < width && y < height; }

    static void place(int x, int y, int mark) {
        if (!on(x, y) || cells[y][x] != 0) { System.err.println("warning: cannot place " + x + " " + y); return; }
        cells[y][x] = mark;
        moves++;
    }

    // Would `mark` on the empty square (x, y) complete a winning line?
    static boolean wins(int x, int y, int mark) {
        int[][] directions = {{1, 0}, {0, 1}, {1, 1}, {-1, 1}};
        for (int[] d : directions) {
            int run = 1;
            for (int sign = 1; sign >= -1; sign -= 2) {
                int cx = x + sign * d[0], cy = y + sign * d[1];
                while (on(cx, cy) && cells[cy][cx] == mark) { run++; cx += sign * d[0]; cy += sign * d[1]; }
            }
            if (run == line || (run > line && !exact)) return true;
        }
        return false;
    }

    static boolean nearMark(int x, int y) {
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                if ((dx != 0 || dy != 0) && on(x + dx, y + dy) && cells[y + dy][x + dx] != 0) return true;
        return false;
    }

    // The function to improve: the board is up to date; return an empty square {x, y}.
    static int[] chooseMove(int me, Random rng) {
        List<int[]> empty = new ArrayList<>(), near = new ArrayList<>();
        for (int y = 0; y < height; y++)
            for (int x = 0; x < width; x++)
                if (cells[y][x] == 0) empty.add(new int[] {x, y});
        for (int[] s : empty) if (wins(s[0], s[1], me)) return s;
        for (int[] s : empty) if (wins(s[0], s[1], 3 - me)) return s;
        for (int[] s : empty) if (nearMark(s[0], s[1])) near.add(s);
        if (!near.isEmpty()) return near.get(rng.nextInt(near.size()));
        if (cells[height / 2][width / 2] == 0) return new int[] {width / 2, height / 2};
        return empty.get(rng.nextInt(empty.size()));
    }

    static void send(String text) {
        System.out.println(text);
        System.out.flush(); // an answer left in a buffer loses on time
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random rng = new Random();
        int me = 1;
        String text;
        while ((text = in.readLine()) != null) {
            String[] words = text.trim().split("\\s+");
            switch (words[0]) {
                case "game": { // game NAME width=W height=H line=K exact=yes|no
                    Map<String, String> params = new HashMap<>();
                    for (int i = 2; i < words.length; i++) {
                        String[] pair = words[i].split("=", 2);
                        if (pair.length == 2) params.put(pair[0], pair[1]);
                    }
                    width = Integer.parseInt(params.get("width"));
                    height = Integer.parseInt(params.get("height"));
                    line = Integer.parseInt(params.get("line"));
                    exact = "yes".equals(params.get("exact"));
                    cells = new int[height][width];
                    moves = 0;
                    break;
                }
                case "side": me = words[1].equals("first") ? 1 : 2; break;
                // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
                case "played": place(Integer.parseInt(words[1]), Integer.parseInt(words[2]), moves % 2 + 1); break;
                case "opponent": place(Integer.parseInt(words[1]), Integer.parseInt(words[2]), 3 - me); break;
                case "start": send("ready java-mnk-starter 1.0 multi"); break;
                case "turn": {
                    int[] move = chooseMove(me, rng);
                    place(move[0], move[1], me);
                    send(move[0] + " " + move[1]);
                    break;
                }
                case "quit": return;
                default: break; // referee, time, legal, result: nothing to answer
            }
        }
    }
}
