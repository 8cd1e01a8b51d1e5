import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Protocol v1 for yuyujijin/azul: drives the engine's Game (default package) unchanged, the way its Controller does
 * for the Swing view (Controller.round, move, pickTileFactory, pickTileCenter, depositPattern, depositFloor), minus
 * the view. The JSON reader and writer are adapters/comp1110-azul-java/Json.java, compiled beside this file.
 */
public final class Adapter {
    static final int MAX_LINE = 1 << 20;
    static final String LETTERS = "BYRKW";
    static final String ENGINE = "byrnw";  // the engine's letters for B Y R K W ('n' is noir)

    /** Refused request: its protocol error code, the rule it breaks (or null) and a message. */
    static final class Refusal extends Exception {
        final String code;
        final String rule;
        Refusal(String code, String rule, String message) {
            super(message);
            this.code = code;
            this.rule = rule;
        }
    }

    /**
     * The bag's list during a deal: Bag.pick shuffles the whole bag before each draw (Collections.shuffle swaps
     * through List.set), so a list that ignores set keeps the order the adapter chose, and pick takes from the front.
     */
    static final class DealOrder extends ArrayList<Tile> {
        DealOrder(List<Tile> tiles) { super(tiles); }
        @Override public Tile set(int index, Tile tile) { return get(index); }
    }

    enum Phase { DEAL, OFFER, OVER }

    final long seed;
    Game game;
    int players;
    Phase phase;
    int startPlayer;

    Adapter(long seed) { this.seed = seed; }

    static Refusal refuse(String code, String rule, String message) { return new Refusal(code, rule, message); }

    public static void main(String[] args) throws Exception {
        long seed = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--seed") && i + 1 < args.length) {
                try {
                    seed = Long.parseLong(args[++i]);
                    continue;
                } catch (NumberFormatException bad) { /* falls through to the usage */ }
            }
            System.err.println("usage: yuyujijin-azul-adapter [--seed N]");
            System.exit(2);
        }
        // The engine prints on stdout (Board.countFloor prints the score, Factory.rest its "No rest to get.").
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
            case "load_state": throw refuse("unsupported", null, "the engine has no loader: its Game starts only from set-up");
            default: break;
        }
        if (game == null) throw refuse("bad_request", null, "no game yet: send new_game first");
        switch (command) {
            case "deal" -> deal(request.containsKey("factories") ? request.get("factories") : null);
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
        reply.put("state", state());
        return reply;
    }

    static Map<String, Object> hello(Map<String, Object> request) throws Refusal {
        if (!(request.get("protocol") instanceof Json.Num n) || !n.text().equals("1")) {
            throw refuse("bad_request", null, "this adapter speaks protocol 1, not " + Json.write(request.get("protocol")));
        }
        Map<String, Object> capabilities = new LinkedHashMap<>();
        capabilities.put("players", List.of(2, 3, 4));
        capabilities.put("variants", List.of("colour"));
        capabilities.put("load_state", false);
        capabilities.put("deal", true);
        Map<String, Object> reply = new LinkedHashMap<>();
        reply.put("name", "yuyujijin/azul (Java, via adapter)");
        reply.put("version", "9cc02cf396f0");
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
        } catch (NumberFormatException big) {
            wanted = -1;
        }
        if (wanted < 2 || wanted > 4) throw refuse("bad_request", "SETUP-6", "players must be 2, 3 or 4, not " + n.text());
        Object variant = request.getOrDefault("variant", "colour");
        if (!(variant instanceof String v)) throw refuse("bad_request", null, "variant: not a string");
        if (v.equals("grey")) throw refuse("unsupported", null, "the engine plays the coloured wall only");
        if (!v.equals("colour")) throw refuse("bad_request", "SETUP-1", "variant must be colour or grey, not " + v);
        Object start = request.getOrDefault("start_player", new Json.Num("0"));
        if (!(start instanceof Json.Num s) || !s.isInteger()) throw refuse("bad_request", null, "start_player: not an integer");
        int seat;
        try {
            seat = Integer.parseInt(s.text());
        } catch (NumberFormatException big) {
            seat = -1;
        }
        if (seat < 0 || seat >= wanted) throw refuse("bad_request", "SETUP-5", "start_player must be a seat from 0 to " + (wanted - 1));
        // The engine draws its start player itself in its first deal (Game.phase1); start_player is not passed on.
        game = new Game(wanted, null, false);
        players = wanted;
        phase = Phase.DEAL;
        startPlayer = game.first;
    }

    static char ours(char engine) { return LETTERS.charAt(ENGINE.indexOf(engine)); }

    static char theirs(char ours) { return ENGINE.charAt(LETTERS.indexOf(ours)); }

    /**
     * Tiles in B Y R K W order. The engine's marker tile ('f') is no tile and is left out; so is a null, which the
     * engine's Board.addFloor leaves in the lid in place of a tile it lost (Board.java:112-116).
     */
    static String sorted(Iterable<Tile> tiles) {
        int[] counts = new int[5];
        for (Tile t : tiles) {
            int c = t == null ? -1 : ENGINE.indexOf(t.getColor());
            if (c >= 0) counts[c]++;
        }
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < 5; c++) out.append(String.valueOf(LETTERS.charAt(c)).repeat(counts[c]));
        return out.toString();
    }

    boolean markerInCentre() {
        for (Tile t : game.center) if (t instanceof TileFirstPlayer) return true;
        return false;
    }

    Map<String, Object> state() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("format", "azul-state/1");
        s.put("variant", "colour");
        s.put("players", players);
        s.put("round", game.round + 1);
        s.put("phase", phase.name().toLowerCase());
        s.put("turn", phase == Phase.OFFER ? game.activePlayer : game.first);
        s.put("start_player", phase == Phase.OFFER ? startPlayer : game.first);
        boolean centre = phase != Phase.OFFER || markerInCentre();
        s.put("marker", centre ? (Object) "centre" : (Object) game.first);
        List<Object> factories = new ArrayList<>();
        for (Factory f : game.factories) factories.add(sorted(f.getTile()));
        s.put("factories", factories);
        s.put("centre", sorted(game.center));
        s.put("bag", sorted(game.bag.pieces));
        s.put("lid", sorted(game.discards.pieces));
        List<Object> boards = new ArrayList<>();
        for (int p = 0; p < players; p++) boards.add(board(game.getBoard(p)));
        s.put("boards", boards);
        s.put("winners", phase == Phase.OVER ? List.of(game.getWinner()) : Json.NULL);
        return s;
    }

    static Map<String, Object> board(Board b) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("score", b.getScore());
        List<Object> lines = new ArrayList<>();
        for (Square[] line : b.getPattern()) {
            StringBuilder text = new StringBuilder();
            for (Square sq : line) if (!sq.isEmpty()) text.append(ours(sq.getColor()));
            lines.add(text.toString());
        }
        out.put("lines", lines);
        List<Object> wall = new ArrayList<>();
        for (Square[] row : b.getWall()) {
            StringBuilder text = new StringBuilder();
            for (Square sq : row) text.append(sq.isEmpty() ? '.' : ours(sq.getColor()));
            wall.add(text.toString());
        }
        out.put("wall", wall);
        StringBuilder floor = new StringBuilder();
        for (Square sq : b.getFloor()) {
            if (sq.isEmpty()) continue;
            floor.append(sq.getTile() instanceof TileFirstPlayer ? 'M' : ours(sq.getColor()));
        }
        out.put("floor", floor.toString());
        return out;
    }

    /** The takes the GUI accepts: a source holding the colour, a line Game.canAddPattern allows, or the floor. */
    List<Object> legalMoves() {
        List<Object> moves = new ArrayList<>();
        if (phase != Phase.OFFER) return moves;
        Board b = game.getBoard(game.activePlayer);
        for (int source = 0; source <= game.factories.length; source++) {
            boolean centre = source == game.factories.length;
            for (char colour : LETTERS.toCharArray()) {
                char c = theirs(colour);
                if (centre ? !game.centerHasColor(c) : !game.factoryHasColor(c, source)) continue;
                String from = centre ? "C" : String.valueOf(source + 1);
                for (int line = 0; line < 5; line++) {
                    if (b.isPatternAddable(line, c) && !b.isWallColor(line, c)) moves.add(from + colour + (line + 1));
                }
                moves.add(from + colour + "F");
            }
        }
        return moves;
    }

    void play(Object given) throws Refusal {
        if (!(given instanceof String move) || !move.matches("[1-9C][BYRKW][1-5F]|[1-5]@[1-5]")) {
            throw refuse("bad_request", null, "move: not a move in the notation: " + Json.write(given));
        }
        if (phase != Phase.OFFER) throw refuse("illegal_move", "OFFER-15", move + ": no take is due in phase " + phase.name().toLowerCase());
        if (move.charAt(1) == '@') throw refuse("illegal_move", "OFFER-15", move + ": a placement, and the engine plays the coloured wall");
        char c = theirs(move.charAt(1));
        boolean centre = move.charAt(0) == 'C';
        int factory = centre ? -1 : move.charAt(0) - '1';
        if (!centre && factory >= game.factories.length) throw refuse("illegal_move", "SETUP-3", move + ": there is no factory " + move.charAt(0));
        if (centre ? !game.centerHasColor(c) : !game.factoryHasColor(c, factory)) {
            throw refuse("illegal_move", "OFFER-6", move + ": the source holds no " + move.charAt(1));
        }
        int line = move.charAt(2) == 'F' ? -1 : move.charAt(2) - '1';
        Board b = game.getBoard(game.activePlayer);
        // Game.canAddPattern's two tests, asked before the take: the GUI keeps a refused hand until a line takes it.
        if (line >= 0 && !(b.isPatternAddable(line, c) && !b.isWallColor(line, c))) {
            throw refuse("illegal_move", null, move + ": the engine's canAddPattern refuses line " + (line + 1));
        }
        game.pickPlayer(centre ? game.pickFromCenter(c) : game.pickFromFactory(c, factory));
        if (line < 0) game.depositFloor(game.activePlayer);
        else game.depositPattern(game.activePlayer, line);
        game.nextPlayer();
        afterTake();
    }

    /** Controller.move after a take: the tiling once factories and centre are empty, then the end or the next deal. */
    void afterTake() {
        if (!game.canPhase3() && onlyMarkerLeft()) {
            // The marker alone in the centre: the GUI's next player can only click it (Controller.pickTileCenter 'f').
            game.tileFirstPicked();
            game.nextPlayer();
        }
        if (!game.canPhase3()) return;
        game.phase3();
        game.round++;
        if (game.hasWon()) {
            game.finalCount();
            phase = Phase.OVER;
        } else {
            phase = Phase.DEAL;
        }
    }

    boolean onlyMarkerLeft() {
        for (Factory f : game.factories) if (!f.isEmpty()) return false;
        return game.center.size() == 1 && game.center.get(0) instanceof TileFirstPlayer;
    }

    void deal(Object given) throws Refusal {
        List<String> asked = null;
        if (given != null) {
            if (!(given instanceof List<?> list) || list.size() < 5 || list.size() > 9) {
                throw refuse("bad_request", null, "factories: a list of 5 to 9 strings");
            }
            asked = new ArrayList<>();
            for (Object f : list) {
                if (!(f instanceof String text) || !text.matches("[BYRKW]{0,4}")) {
                    throw refuse("bad_request", "DEAL-1", "factories: each up to 4 of the letters B Y R K W, not " + Json.write(f));
                }
                asked.add(text);
            }
        }
        if (phase != Phase.DEAL) throw refuse("illegal_move", "DEAL-1", "no deal is due in phase " + phase.name().toLowerCase());
        if (asked != null && asked.size() != game.factories.length) {
            throw refuse("illegal_move", "SETUP-3", asked.size() + " factories asked; the game has " + game.factories.length);
        }
        // What Game.phase1 draws from: the bag, or the lid poured into it when the bag is empty (Game.java:58-64).
        boolean pour = game.bag.isEmpty();
        List<Tile> source = new ArrayList<>(pour ? game.discards.pieces : game.bag.pieces);
        List<Tile> order = new ArrayList<>();
        if (asked == null) {
            order.addAll(source);
            Collections.shuffle(order, new Random(seed * 1_000_003L + position()));
        } else {
            int room = source.size();
            for (int f = 0; f < asked.size(); f++) {
                int fill = Math.min(4, Math.max(0, room));
                room -= fill;
                if (asked.get(f).length() != fill) {
                    // Fewer tiles than the fill puts there breaks DEAL-1; more than the bag holds wants the lid
                    // poured in mid-deal, which the engine does not do (DEAL-2).
                    boolean wantsLid = !pour && asked.get(f).length() > fill;
                    throw refuse("illegal_move", wantsLid ? "DEAL-2" : "DEAL-1", "factory " + (f + 1) + " asked with "
                            + asked.get(f).length() + " tiles; the engine's fill puts " + fill + " there from the "
                            + source.size() + " tiles it draws from (the " + (pour ? "lid poured into the empty bag" : "bag") + ")");
                }
                for (char colour : asked.get(f).toCharArray()) {
                    Tile found = null;
                    for (Tile t : source) if (t != null && t.getColor() == theirs(colour)) { found = t; break; }
                    if (found == null) {
                        throw refuse("illegal_move", "DEAL-1", "factory " + (f + 1) + ": the " + (pour ? "lid" : "bag")
                                + " holds no more " + colour + " for the engine's fill");
                    }
                    source.remove(found);
                    order.add(found);
                }
            }
            order.addAll(source);
        }
        if (pour) game.discards.pieces.clear();
        game.bag.pieces = new DealOrder(order);
        game.phase1();
        game.bag.pieces = new ArrayList<>(game.bag.pieces);
        game.putFirstPlayerTile();
        startPlayer = game.first;
        phase = Phase.OFFER;
    }

    /** A number for the position, so that a random deal is the same whatever ran before it in this process. */
    long position() {
        return Json.write(state()).hashCode();
    }
}
