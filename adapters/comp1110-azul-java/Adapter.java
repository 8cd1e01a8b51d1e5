import comp1110.ass2.Azul;
import comp1110.ass2.GameBoard;
import comp1110.ass2.Player;
import comp1110.ass2.Tile;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * Serves the COMP1110 Azul engine (github.com/lindarlylinn/COMP1110-Ass2-2021, class comp1110.ass2.Azul) over
 * protocol v1 of azul-conformance: one JSON request per line on stdin, one JSON reply per line on stdout.
 *
 * The engine's text interface is a pair of strings (its "game state") and static functions on it: isMoveValid,
 * applyMove, validMovesDrafting, validMovesTiling, nextRound. The adapter keeps the engine's strings as the game
 * and translates; what the text interface leaves to the engine's GUI (handing the tiling turn to a board that
 * still has lines, the "line to floor" move when no column fits, the winner) it does as the README says, from
 * the engine's own state and helpers. It never corrects the engine.
 */
public final class Adapter {
    static final String OURS = "BYRKW";     // our colour letters ...
    static final String THEIRS = "abcde";   // ... and the engine's, in the same wall order (Mosaic.java:22-26)
    static final int MAX_LINE = 1 << 20;

    static final class Refusal extends Exception {
        final String code, rule;
        Refusal(String code, String rule, String message) {
            super(message);
            this.code = code;
            this.rule = rule;
        }
    }

    static Refusal refuse(String code, String rule, String message) { return new Refusal(code, rule, message); }

    enum Phase { DEAL, OFFER, TILING, OVER }

    final long seed;
    String[] gs;                 // the engine's game state: {shared, players}
    int players, round, startPlayer;
    boolean grey;                // the variant mosaic (grey wall), else the basic one (coloured wall)
    Phase phase;
    String[] floors;             // each floor left to right in our letters (the engine keeps no order, see README)

    Adapter(long seed) { this.seed = seed; }

    public static void main(String[] args) throws Exception {
        long seed = System.nanoTime();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seed") && i + 1 < args.length) {
                try {
                    seed = Long.parseLong(args[++i]);
                    continue;
                } catch (NumberFormatException bad) { /* falls through to the usage */ }
            }
            System.err.println("usage: comp1110-azul-adapter [--seed N]");
            System.exit(2);
        }
        // The engine prints to stdout on some errors (GameBoard.java:881); keep stdout for replies only.
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(new PrintStream(System.err, true, StandardCharsets.UTF_8));
        Adapter adapter = new Adapter(seed);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            String reply = adapter.answer(line);
            if (reply == null) break;
            out.println(reply);
            out.flush();
        }
    }

    /** One reply line, or null for quit. */
    String answer(String line) {
        Object id = Json.NULL;
        try {
            if (line.length() > MAX_LINE) throw refuse("bad_request", null, "request longer than " + MAX_LINE + " bytes");
            Object parsed;
            try {
                parsed = Json.parse(line);
            } catch (Json.Malformed bad) {
                throw refuse("bad_request", null, "not JSON: " + bad.getMessage());
            }
            if (!(parsed instanceof Map<?, ?> raw)) throw refuse("bad_request", null, "a request is a JSON object");
            @SuppressWarnings("unchecked") Map<String, Object> request = (Map<String, Object>) raw;
            if ("quit".equals(request.get("cmd"))) return null;
            Object given = request.get("id");
            if (given instanceof String || (given instanceof Json.Num n && n.isInteger())) id = given;
            else throw refuse("bad_request", null, "id: missing, or not an integer or a string");
            Map<String, Object> reply = new LinkedHashMap<>();
            reply.put("id", id);
            reply.put("ok", true);
            reply.putAll(handle(request));
            return Json.write(reply);
        } catch (Refusal refusal) {
            return refusalLine(id, refusal.code, refusal.rule, refusal.getMessage());
        } catch (RuntimeException | StackOverflowError failure) {
            return refusalLine(id, "internal", null, "the engine failed: " + failure);
        }
    }

    static String refusalLine(Object id, String code, String rule, String message) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        if (rule != null) error.put("rule", rule);
        error.put("message", message == null ? code : message);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("id", id);
        reply.put("ok", false);
        reply.put("error", error);
        return Json.write(reply);
    }

    Map<String, Object> handle(Map<String, Object> request) throws Refusal {
        Object cmd = request.get("cmd");
        if (!(cmd instanceof String command)) throw refuse("bad_request", null, "cmd: missing or not a string");
        switch (command) {
            case "hello": return hello(request);
            case "new_game": newGame(request); return stateReply();
            case "load_state": States.load(this, request.get("state")); return stateReply();
            default: break;
        }
        if (gs == null) throw refuse("bad_request", null, "no game yet: send new_game or load_state first");
        switch (command) {
            case "deal" -> Deals.deal(this, request.containsKey("factories") ? request.get("factories") : null);
            case "play" -> play(request.get("move"));
            case "legal_moves" -> {
                Map<String, Object> reply = new LinkedHashMap<>();
                reply.put("moves", legalMoves());
                return reply;
            }
            case "state" -> { }
            default -> throw refuse("bad_request", null, "unknown cmd " + Json.write(command));
        }
        return stateReply();
    }

    Map<String, Object> stateReply() {
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("state", States.write(this));
        return reply;
    }

    static Map<String, Object> hello(Map<String, Object> request) throws Refusal {
        if (!(request.get("protocol") instanceof Json.Num n) || !n.text().equals("1")) {
            throw refuse("bad_request", null, "this adapter speaks protocol 1, not " + Json.write(request.get("protocol")));
        }
        Map<String, Object> capabilities = new LinkedHashMap<>();
        capabilities.put("players", List.of(2));  // see README: isSharedStateWellFormed knows factories 0-4 only
        capabilities.put("variants", List.of("colour", "grey"));
        capabilities.put("load_state", true);
        capabilities.put("deal", true);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("name", "comp1110-azul (Java, via adapter)");
        reply.put("version", "4124b137a0e9");
        reply.put("protocol", 1);
        reply.put("capabilities", capabilities);
        return reply;
    }

    void newGame(Map<String, Object> request) throws Refusal {
        Object count = request.get("players");
        if (!(count instanceof Json.Num n) || !n.isInteger()) throw refuse("bad_request", null, "players: missing or not an integer");
        int wanted;
        try {
            wanted = Integer.parseInt(n.text());
        } catch (NumberFormatException tooBig) {
            wanted = Integer.MAX_VALUE;
        }
        if (wanted < 2 || wanted > 4) throw refuse("bad_request", "SETUP-6", "players must be 2, 3 or 4, not " + n.text());
        if (wanted != 2) {
            throw refuse("unsupported", null, "the engine's validator knows factories 0 to 4 only (Azul.java:90), so it "
                    + "refuses every move of a " + wanted + "-player game");
        }
        Object variant = request.getOrDefault("variant", "colour");
        if (!(variant instanceof String v)) throw refuse("bad_request", null, "variant: not a string");
        if (!v.equals("colour") && !v.equals("grey")) throw refuse("bad_request", "SETUP-1", "variant must be colour or grey, not " + v);
        Object start = request.getOrDefault("start_player", new Json.Num("0"));
        if (!(start instanceof Json.Num s) || !s.isInteger()) throw refuse("bad_request", null, "start_player: not an integer");
        int seat;
        try {
            seat = Integer.parseInt(s.text());
        } catch (NumberFormatException tooBig) {
            seat = -1;
        }
        if (seat < 0 || seat >= wanted) throw refuse("bad_request", "SETUP-5", "start_player must be a seat from 0 to " + (wanted - 1));
        StringBuilder boards = new StringBuilder();
        for (int i = 0; i < wanted; i++) boards.append((char) ('A' + i)).append("0MSF");
        players = wanted;
        grey = v.equals("grey");
        gs = new String[] {seatId(seat) + "FCfB2020202020D0000000000", boards.toString()};
        round = 1;
        startPlayer = seat;
        phase = Phase.DEAL;
        floors = new String[wanted];
        Arrays.fill(floors, "");
    }

    static char seatId(int seat) { return (char) ('A' + seat); }

    static char theirs(char ours) { return THEIRS.charAt(OURS.indexOf(ours)); }

    static char ours(char theirs) { return theirs == 'f' ? 'M' : OURS.charAt(THEIRS.indexOf(theirs)); }

    // ---- moves ----

    List<Object> legalMoves() {
        Set<String> moves = new LinkedHashSet<>();
        if (phase == Phase.OFFER) {
            for (String move : Azul.validMovesDrafting(gs)) moves.add(toOurs(move));
        } else if (phase == Phase.TILING) {
            for (String move : Azul.validMovesTiling(gs)) moves.add(toOurs(move));
        }
        return new ArrayList<>(moves);
    }

    /** An engine move ("B1aF", "A03") in our notation ("2BF", "1@4"). */
    static String toOurs(String move) {
        if (move.length() == 3) return (char) (move.charAt(1) + 1) + "@" + (char) (move.charAt(2) + 1);
        char source = move.charAt(1) == 'C' ? 'C' : (char) (move.charAt(1) + 1);
        char line = move.charAt(3) == 'F' ? 'F' : (char) (move.charAt(3) + 1);
        return "" + source + ours(move.charAt(2)) + line;
    }

    void play(Object given) throws Refusal {
        if (!(given instanceof String move) || !move.matches("[1-9C][BYRKW][1-5F]|[1-5]@[1-5]")) {
            throw refuse("bad_request", null, "move: not a move in the notation: " + Json.write(given));
        }
        boolean placement = move.length() == 3 && move.charAt(1) == '@';
        if (phase == Phase.DEAL || phase == Phase.OVER) {
            throw refuse("illegal_move", "OFFER-15", move + ": no move is due in phase " + phase.name().toLowerCase());
        }
        if (phase == Phase.OFFER && placement) throw refuse("illegal_move", "OFFER-15", move + ": no placement is due while tiles are on offer");
        if (phase == Phase.TILING && !placement) throw refuse("illegal_move", "GREY-5", move + ": a placement is pending");
        char seat = gs[0].charAt(0);
        String theirs;
        if (placement) {
            theirs = "" + seat + (char) (move.charAt(0) - 1) + (char) (move.charAt(2) - 1);
        } else {
            char source = move.charAt(0) == 'C' ? 'C' : (char) (move.charAt(0) - 1);
            char line = move.charAt(2) == 'F' ? 'F' : (char) (move.charAt(2) - 1);
            theirs = "" + seat + source + theirs(move.charAt(1)) + line;
        }
        if (!Azul.isMoveValid(gs, theirs)) {
            throw refuse("illegal_move", null, move + ": the engine's isMoveValid refuses " + theirs + " here");
        }
        String[] before = gs;
        String[] floorsBefore = floors.clone();
        try {
            apply(theirs);
            if (!placement && States.offerIsOver(gs)) phase = Phase.TILING;
            if (phase == Phase.TILING) driveTiling();
        } catch (RuntimeException failure) {
            gs = before;
            floors = floorsBefore;
            phase = placement ? Phase.TILING : Phase.OFFER;
            throw failure;
        }
    }

    /** The engine's applyMove, with each floor's order kept (the engine writes floors sorted, Floor.java:207-220). */
    void apply(String theirs) {
        String[] after = Azul.applyMove(gs, theirs);
        List<String> was = States.floorStrings(gs[1]), now = States.floorStrings(after[1]);
        for (int i = 0; i < players; i++) floors[i] = Floors.follow(floors[i], was.get(i), now.get(i));
        gs = after;
    }

    /**
     * Between placements, do what the engine's GUI does around its text interface: a complete line whose tile fits
     * no column goes to the floor with the engine's own "line to floor" move (forced by GREY-3); a board with no
     * complete line left hands the tiling turn to the next board in seat order that has one (the GUI's
     * switchToNextPlayerBoardAfterTiling, gui/Game.java:1353-1412; its getNextPlayerHasUntiledRows looks at the
     * mosaic's complete rows, GameBoard.java:363-372, so the adapter asks each board's getUntiledRows itself);
     * when no board has one, the engine's nextRound scores the floors and ends the round or the game.
     */
    void driveTiling() {
        for (int guard = 0; guard < 64; guard++) {
            GameBoard board = GameBoard.parseFromGameState(gs);
            int seat = Player.getIndexOfPlayer(board.getTurn()) - 1;
            int next = -1;
            for (int k = 0; k < players && next < 0; k++) {
                if (!board.getPlayerBoards()[(seat + k) % players].getUntiledRows().isEmpty()) next = (seat + k) % players;
            }
            if (next < 0) {
                endRound();
                return;
            }
            if (next != seat) {
                board.setTurn(Player.getPlayerByIndex(next + 1));
                gs = board.toGameState();
                continue;
            }
            if (!grey) {
                // The coloured wall: the engine's AI tiles a basic board row by row, top to bottom, each tile to
                // the one column getPlaceableColsInMosaicByRow gives on a basic mosaic (AI.java:105-136,
                // FirstLegalMoveAI.java:47-70, applied in turn by gui/Game.java:1597-1598); so does the adapter.
                int row = board.getPlayerBoards()[seat].getUntiledRows().get(0);
                List<Integer> columns = board.getPlayerBoards()[seat].getPlaceableColsInMosaicByRow(row);
                if (!board.isBasicGame() || columns.size() != 1) {
                    throw new IllegalStateException("the engine reads board " + seat + " as no basic (coloured) mosaic");
                }
                apply("" + seatId(seat) + row + columns.get(0));
                continue;
            }
            boolean forced = false;
            for (int row : board.getPlayerBoards()[seat].getUntiledRows()) {
                if (board.getPlayerBoards()[seat].getPlaceableColsInMosaicByRow(row).isEmpty()) {
                    apply("" + seatId(seat) + row + "F");
                    forced = true;
                    break;
                }
            }
            if (!forced) return;  // a placement waits for the player's move
        }
        throw new IllegalStateException("the tiling did not come to an end");
    }

    /** The engine's nextRound (Azul.java:483-527), then the next deal taken back so that `deal` can make it. */
    void endRound() {
        String[] before = gs;
        String[] after = Azul.nextRound(gs);
        if (Arrays.equals(after, before)) throw new IllegalStateException("the engine's nextRound refused to end the round");
        for (int i = 0; i < players; i++) floors[i] = "";
        if (GameBoard.parseFromGameState(after).isGameComplete()) {
            gs = after;
            phase = Phase.OVER;
            return;
        }
        gs = Deals.undoRefill(after, States.bag(before[0]));
        round++;
        startPlayer = gs[0].charAt(0) - 'A';
        phase = Phase.DEAL;
    }

    /** A generator for the deals the engine makes at random, from --seed and the position (not the process's history). */
    Random random() {
        return new Random(seed * 1_000_003L ^ (gs[0] + gs[1] + round).hashCode());
    }

    static List<Tile> tiles(String ourLetters) {
        List<Tile> tiles = new ArrayList<>();
        for (char c : ourLetters.toCharArray()) tiles.add(Tile.getTileFromLabel(theirs(c)));
        return tiles;
    }

    static void shuffle(List<Tile> tiles, Random random) { Collections.shuffle(tiles, random); }
}
