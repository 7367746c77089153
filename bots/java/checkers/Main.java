// Starter bot for English checkers (`checkers`) in Java.
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
// are left, level. Change chooseMove() and keep the rest.
//
//     javac -d . Main.java && referee check checkers "java -cp . Main"
//
// Protocol rules it relies on: stdout holds protocol lines only, each flushed (see send);
// debug output goes to System.err; `start` -> `ready NAME VERSION multi`; `turn` -> a move
// (with ` draw` after it to offer a draw, or `draw` alone to accept one); it exits on `quit`
// or at the end of its input.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

public class Main {
    // A move is its squares: the start square, then every square the piece lands on.

    // Row (0 at Black's side) and column of square 1..32; dark squares have row + column odd.
    static int rowOf(int s) { return (s - 1) / 4; }
    static int colOf(int s) { return 2 * ((s - 1) % 4) + (rowOf(s) % 2 == 0 ? 1 : 0); }
    // The square at (row, column), or 0 off the board.
    static int squareAt(int r, int c) { return r >= 0 && r < 8 && c >= 0 && c < 8 && (r + c) % 2 == 1 ? r * 4 + c / 2 + 1 : 0; }
    static boolean isCapture(int[] m) { return Math.abs(rowOf(m[1]) - rowOf(m[0])) == 2; }
    static int taken(int[] m) { return isCapture(m) ? m.length - 1 : 0; }

    static String format(int[] m) {
        StringBuilder text = new StringBuilder().append(m[0]);
        for (int i = 1; i < m.length; i++) text.append(isCapture(m) ? 'x' : '-').append(m[i]);
        return text.toString();
    }

    static int[] parse(String text) { // `9x18x27` or `11-15`: the referee writes every square
        String[] squares = text.split("[x-]");
        int[] m = new int[squares.length];
        for (int i = 0; i < m.length; i++) m[i] = Integer.parseInt(squares[i]);
        return m;
    }

    static class Position {
        char[] board = new char[33]; // board[square]: 'b' black man, 'B' black king, 'w', 'W'; 0 empty
        char toMove = 'b';           // 'b' (Black) or 'w' (White): the bot is asked to move for this side

        // `B:W21,22,...,32:B1,2,...,12`: the side to move, then each colour's squares, `K` before
        // a king's square (`W:W18,K30:BK3,14`).
        static Position fromFen(String fen) {
            Position p = new Position();
            String[] parts = fen.split(":");
            p.toMove = parts[0].equals("W") ? 'w' : 'b';
            for (int i = 1; i < parts.length; i++) {
                char colour = parts[i].charAt(0) == 'W' ? 'w' : 'b';
                for (String item : parts[i].substring(1).split(",")) {
                    if (item.isEmpty()) continue;
                    boolean king = item.charAt(0) == 'K';
                    p.board[Integer.parseInt(king ? item.substring(1) : item)] = king ? Character.toUpperCase(colour) : colour;
                }
            }
            return p;
        }

        Position copy() {
            Position other = new Position();
            other.board = board.clone();
            other.toMove = toMove;
            return other;
        }

        boolean owns(int s, char colour) { return board[s] != 0 && Character.toLowerCase(board[s]) == colour; }
        // The row directions a piece may go: a man only forward (Black down, White up), a king both.
        int[] rows(int s) {
            if (Character.isUpperCase(board[s])) return new int[] {1, -1};
            return new int[] {board[s] == 'b' ? 1 : -1};
        }

        // Every legal move of the side to move: only captures when there is one, each complete.
        List<int[]> legal() {
            List<int[]> captures = new ArrayList<>(), steps = new ArrayList<>();
            for (int s = 1; s <= 32; s++) {
                if (!owns(s, toMove)) continue;
                jumps(s, new int[] {s}, new boolean[33], captures);
                for (int dr : rows(s))
                    for (int dc : new int[] {-1, 1}) {
                        int to = squareAt(rowOf(s) + dr, colOf(s) + dc);
                        if (to != 0 && board[to] == 0) steps.add(new int[] {s, to});
                    }
            }
            return captures.isEmpty() ? steps : captures;
        }

        // Extends the capture `path` of the piece from `start` (now on its last square, having
        // jumped the squares marked in `jumped`) by every jump it can make, and adds each capture
        // that can go no further to `out`. Jumped pieces stay on the board until the move ends.
        void jumps(int start, int[] path, boolean[] jumped, List<int[]> out) {
            int at = path[path.length - 1];
            boolean extended = false;
            for (int dr : rows(start))
                for (int dc : new int[] {-1, 1}) {
                    int over = squareAt(rowOf(at) + dr, colOf(at) + dc);
                    int land = squareAt(rowOf(at) + 2 * dr, colOf(at) + 2 * dc);
                    if (over == 0 || land == 0 || jumped[over] || board[over] == 0 || owns(over, toMove)) continue;
                    if (land != start && board[land] != 0) continue; // the mover has left its start square
                    extended = true;
                    int[] longer = Arrays.copyOf(path, path.length + 1);
                    longer[path.length] = land;
                    boolean crowned = Character.isLowerCase(board[start]) && rowOf(land) == (toMove == 'b' ? 7 : 0);
                    if (crowned) {
                        out.add(longer); // a man crowned ends its move
                    } else {
                        jumped[over] = true;
                        jumps(start, longer, jumped, out);
                        jumped[over] = false;
                    }
                }
            if (!extended && path.length > 1) out.add(path);
        }

        // Plays a legal move: removes every piece jumped, crowns a man on the far row.
        void play(int[] m) {
            char piece = board[m[0]];
            board[m[0]] = 0;
            for (int i = 1; i < m.length && isCapture(m); i++)
                board[squareAt((rowOf(m[i - 1]) + rowOf(m[i])) / 2, (colOf(m[i - 1]) + colOf(m[i])) / 2)] = 0;
            int end = m[m.length - 1];
            if ((piece == 'b' && rowOf(end) == 7) || (piece == 'w' && rowOf(end) == 0)) piece = Character.toUpperCase(piece);
            board[end] = piece;
            toMove = toMove == 'b' ? 'w' : 'b';
        }

        int material(char colour) { // a man counts 2, a king 3
            int sum = 0;
            for (int s = 1; s <= 32; s++) if (owns(s, colour)) sum += Character.isUpperCase(board[s]) ? 3 : 2;
            return sum;
        }

        boolean onlyKings() {
            for (int s = 1; s <= 32; s++) if (Character.isLowerCase(board[s])) return false;
            return true;
        }
    }

    // The function to improve: return one of position.legal() (never empty when asked to move).
    static int[] chooseMove(Position position, Random rng) {
        List<int[]> best = new ArrayList<>();
        int bestScore = -100;
        for (int[] m : position.legal()) {
            Position after = position.copy();
            after.play(m);
            int back = 0; // the most the opponent can take back at once
            for (int[] reply : after.legal()) back = Math.max(back, taken(reply));
            int score = taken(m) - back;
            if (score > bestScore) { best.clear(); bestScore = score; }
            if (score == bestScore) best.add(m);
        }
        return best.get(rng.nextInt(best.size()));
    }

    static void send(String text) {
        System.out.println(text);
        System.out.flush(); // an answer left in a buffer loses on time
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        Random rng = new Random();
        Position position = new Position();
        boolean offered = false; // the opponent offered a draw with its last move
        String text;
        while ((text = in.readLine()) != null) {
            String[] words = text.trim().split("\\s+");
            switch (words[0]) {
                case "game": // game checkers fen=B:W21,...,32:B1,...,12 repetition=3 moverule=40
                    for (String word : words) if (word.startsWith("fen=")) position = Position.fromFen(word.substring(4));
                    offered = false;
                    break;
                // An opening move or the opponent's, made by the side to move.
                case "played":
                case "opponent": position.play(parse(words[1])); break;
                case "offer": offered = true; break; // `offer draw`: good for our next answer only
                case "start": send("ready java-checkers-starter 1.0 multi"); break;
                case "turn": {
                    char me = position.toMove, them = me == 'b' ? 'w' : 'b';
                    if (offered && position.material(me) <= position.material(them)) {
                        send("draw"); // accept: the game ends, drawn
                        break;
                    }
                    offered = false;
                    int[] move = chooseMove(position, rng);
                    position.play(move);
                    boolean level = position.onlyKings() && position.material(me) == position.material(them);
                    send(format(move) + (level ? " draw" : ""));
                    break;
                }
                case "quit": return;
                default: break; // referee, side, time, legal, result: nothing to answer
            }
        }
    }
}
