// Starter bot for dots and boxes (`dots`) in Java.
//
// The board has `rows` x `cols` boxes, so (cols + 1) x (rows + 1) dots; a dot is (x, y), column
// then row, from (0, 0) at the top left. A move draws one line: `h x y` from dot (x, y) to the
// right, `v x y` from dot (x, y) downwards. Whoever completes a box scores it and moves again
// (the referee sends another `turn`).
//
// It keeps its own board and plays: a line that completes a box if there is one; else a random
// line that gives no box away (draws no box's third side); else any line. Change chooseMove()
// and keep the rest.
//
//     javac -d . Main.java && referee check dots "java -cp . Main"
//
// Protocol rules it relies on: stdout holds protocol lines only, each flushed (see send);
// debug output goes to System.err; `start` -> `ready NAME VERSION multi`; `turn` -> one line;
// it exits on `quit` or at the end of its input.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

public class Main {
    static int rows = 3, cols = 3;
    static boolean[][] h = new boolean[4][3], v = new boolean[3][4]; // h[y][x]: line h x y drawn

    record Line(String kind, int x, int y) {}

    static void draw(Line l) {
        if (l.kind().equals("h")) h[l.y()][l.x()] = true; else v[l.y()][l.x()] = true;
    }

    static int sides(int bx, int by) {
        int n = 0;
        for (boolean side : new boolean[] {h[by][bx], h[by + 1][bx], v[by][bx], v[by][bx + 1]}) if (side) n++;
        return n;
    }

    // The boxes on either side of a line, as {bx, by}.
    static List<int[]> boxes(Line l) {
        List<int[]> result = new ArrayList<>();
        if (l.kind().equals("h")) {
            if (l.y() > 0) result.add(new int[] {l.x(), l.y() - 1});
            if (l.y() < rows) result.add(new int[] {l.x(), l.y()});
        } else {
            if (l.x() > 0) result.add(new int[] {l.x() - 1, l.y()});
            if (l.x() < cols) result.add(new int[] {l.x(), l.y()});
        }
        return result;
    }

    // The function to improve: return a line not drawn yet.
    static Line chooseMove(Random rng) {
        List<Line> lines = new ArrayList<>(), safe = new ArrayList<>();
        for (int y = 0; y <= rows; y++) for (int x = 0; x < cols; x++) if (!h[y][x]) lines.add(new Line("h", x, y));
        for (int y = 0; y < rows; y++) for (int x = 0; x <= cols; x++) if (!v[y][x]) lines.add(new Line("v", x, y));
        for (Line l : lines) {
            boolean completes = false, gives = false;
            for (int[] b : boxes(l)) {
                completes |= sides(b[0], b[1]) == 3;
                gives |= sides(b[0], b[1]) == 2;
            }
            if (completes) return l;
            if (!gives) safe.add(l);
        }
        List<Line> pool = safe.isEmpty() ? lines : safe;
        return pool.get(rng.nextInt(pool.size()));
    }

    static void send(String text) {
        System.out.println(text);
        System.out.flush(); // an answer left in a buffer loses on time
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random rng = new Random();
        String text;
        while ((text = in.readLine()) != null) {
            String[] words = text.trim().split("\\s+");
            switch (words[0]) {
                case "game": { // game dots rows=R cols=C
                    Map<String, String> params = new HashMap<>();
                    for (int i = 2; i < words.length; i++) {
                        String[] pair = words[i].split("=", 2);
                        if (pair.length == 2) params.put(pair[0], pair[1]);
                    }
                    rows = Integer.parseInt(params.get("rows"));
                    cols = Integer.parseInt(params.get("cols"));
                    h = new boolean[rows + 1][cols];
                    v = new boolean[rows][cols + 1];
                    break;
                }
                // A line drawn by the opening or by the opponent: h x y or v x y.
                case "played":
                case "opponent":
                    draw(new Line(words[1], Integer.parseInt(words[2]), Integer.parseInt(words[3])));
                    break;
                case "start": send("ready java-dots-starter 1.0 multi"); break;
                case "turn": {
                    Line l = chooseMove(rng);
                    draw(l);
                    send(l.kind() + " " + l.x() + " " + l.y());
                    break;
                }
                case "quit": return;
                default: break; // referee, side, time, legal, result: nothing to answer
            }
        }
    }
}
