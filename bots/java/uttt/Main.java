// Starter bot for ultimate tic-tac-toe (`uttt`) in Java.
//
// The board is 9x9 squares in nine small 3x3 boards, numbered 0..8 row by row; a move is the
// square `x y` (column, row, each 0..8). The cell played inside its small board (0..8, row by
// row) sends the opponent to the small board of that number; if that board is decided (won or
// full), the opponent may play in any undecided board. Three small boards in a line win.
//
// It keeps its own position and plays a move that wins a small board if it has one, else a
// random legal move. Change chooseMove() and keep the rest.
//
//     javac -d . Main.java && referee check uttt "java -cp . Main"
//
// Protocol rules it relies on: stdout holds protocol lines only, each flushed (see send);
// debug output goes to System.err; `start` -> `ready NAME VERSION multi`; `turn` -> `x y`; it
// exits on `quit` or at the end of its input.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

public class Main {
    static final int[][] LINES = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}};

    static class Position {
        int[][] small = new int[9][9]; // small[board][cell]: 0 empty, 1 first player, 2 second
        int[] status = new int[9];     // 0 undecided, 1 or 2 won by that player, 3 full
        int forced = -1;               // the board the side to move must play in, -1 for any
        int moves = 0;

        Position copy() {
            Position other = new Position();
            for (int b = 0; b < 9; b++) other.small[b] = small[b].clone();
            other.status = status.clone();
            other.forced = forced;
            other.moves = moves;
            return other;
        }

        List<int[]> legal() {
            List<int[]> result = new ArrayList<>();
            for (int y = 0; y < 9; y++)
                for (int x = 0; x < 9; x++) {
                    int b = boardOf(x, y);
                    if ((forced == -1 || forced == b) && status[b] == 0 && small[b][cellOf(x, y)] == 0)
                        result.add(new int[] {x, y});
                }
            return result;
        }

        void play(int x, int y, int mark) {
            int b = boardOf(x, y), c = cellOf(x, y);
            small[b][c] = mark;
            if (hasLine(small[b], mark)) status[b] = mark;
            else {
                boolean full = true;
                for (int cell : small[b]) full &= cell != 0;
                if (full) status[b] = 3;
            }
            forced = status[c] == 0 ? c : -1;
            moves++;
        }
    }

    static int boardOf(int x, int y) { return y / 3 * 3 + x / 3; }
    static int cellOf(int x, int y) { return y % 3 * 3 + x % 3; }

    static boolean hasLine(int[] cells, int mark) {
        for (int[] l : LINES) if (cells[l[0]] == mark && cells[l[1]] == mark && cells[l[2]] == mark) return true;
        return false;
    }

    // The function to improve: return one of position.legal().
    static int[] chooseMove(Position position, int me, Random rng) {
        List<int[]> moves = position.legal();
        for (int[] m : moves) {
            Position after = position.copy();
            after.play(m[0], m[1], me);
            if (after.status[boardOf(m[0], m[1])] == me) return m;
        }
        return moves.get(rng.nextInt(moves.size()));
    }

    static void send(String text) {
        System.out.println(text);
        System.out.flush(); // an answer left in a buffer loses on time
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random rng = new Random();
        Position position = new Position();
        int me = 1;
        String text;
        while ((text = in.readLine()) != null) {
            String[] words = text.trim().split("\\s+");
            switch (words[0]) {
                case "game": position = new Position(); break; // `game uttt tiebreak=...`
                case "side": me = words[1].equals("first") ? 1 : 2; break;
                // An opening move (the first player made the 1st, 3rd, ...) or the opponent's.
                case "played":
                    position.play(Integer.parseInt(words[1]), Integer.parseInt(words[2]), position.moves % 2 + 1);
                    break;
                case "opponent": position.play(Integer.parseInt(words[1]), Integer.parseInt(words[2]), 3 - me); break;
                case "start": send("ready java-uttt-starter 1.0 multi"); break;
                case "turn": {
                    int[] move = chooseMove(position, me, rng);
                    position.play(move[0], move[1], me);
                    send(move[0] + " " + move[1]);
                    break;
                }
                case "quit": return;
                default: break; // referee, time, legal, result: nothing to answer
            }
        }
    }
}
