import comp1110.ass2.Azul;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * azul-state/1 to and from the engine's two strings (README.md of the engine, "Encoding Game State"):
 * shared  = {turn}F{factory digit + tiles}...C{centre}B{5 two-digit counts}D{5 two-digit counts}
 * players = per seat {A-D}{score}M{tile row col}...S{row tile count}...F{floor}
 */
final class States {
    private States() { }

    /** Counts per colour (our order) of a 10-digit count string. */
    static int[] counts(String tenDigits) {
        int[] counts = new int[5];
        for (int i = 0; i < 5; i++) counts[i] = Integer.parseInt(tenDigits.substring(2 * i, 2 * i + 2));
        return counts;
    }

    static String countString(int[] counts) {
        StringBuilder out = new StringBuilder();
        for (int n : counts) out.append(n < 10 ? "0" : "").append(n);
        return out.toString();
    }

    static int[] bag(String shared) { return counts(shared.substring(shared.indexOf('B', 1) + 1, shared.indexOf('D', 1))); }

    static int[] lid(String shared) { return counts(shared.substring(shared.indexOf('D', 1) + 1)); }

    static String letters(int[] counts) {
        StringBuilder out = new StringBuilder();
        for (int c = 0; c < 5; c++) out.append(String.valueOf(Adapter.OURS.charAt(c)).repeat(counts[c]));
        return out.toString();
    }

    static int[] countLetters(String ours) {
        int[] counts = new int[5];
        for (char c : ours.toCharArray()) if (c != 'M') counts[Adapter.OURS.indexOf(c)]++;
        return counts;
    }

    /** Our letters, sorted B Y R K W, for engine letters (the marker left out). */
    static String sortedOurs(String theirs) {
        StringBuilder out = new StringBuilder();
        for (char c : theirs.toCharArray()) if (c != 'f') out.append(Adapter.ours(c));
        return letters(countLetters(out.toString()));
    }

    /** The factories' contents, factory by factory, in the engine's letters. */
    static String[] factories(String shared, int count) {
        String[] factories = new String[count];
        Arrays.fill(factories, "");
        String part = shared.substring(2, shared.indexOf('C', 1));
        int factory = -1;
        for (char c : part.toCharArray()) {
            if (Character.isDigit(c)) factory = c - '0';
            else factories[factory] += c;
        }
        return factories;
    }

    static String centre(String shared) { return shared.substring(shared.indexOf('C', 1) + 1, shared.indexOf('B', 1)); }

    static boolean offerIsOver(String[] gs) {
        String shared = gs[0];
        return shared.indexOf('C', 1) == 2 && centre(shared).replace("f", "").isEmpty();
    }

    /** One board of the players string. */
    record Board(int score, String mosaic, String storage, String floor) { }

    static List<Board> boards(String players) {
        List<Board> boards = new ArrayList<>();
        int at = 0;
        while (at < players.length()) {
            int m = players.indexOf('M', at), s = players.indexOf('S', m), f = players.indexOf('F', s);
            int end = f + 1;
            while (end < players.length() && Character.isLowerCase(players.charAt(end))) end++;
            boards.add(new Board(Integer.parseInt(players.substring(at + 1, m)), players.substring(m + 1, s),
                    players.substring(s + 1, f), players.substring(f + 1, end)));
            at = end;
        }
        return boards;
    }

    static List<String> floorStrings(String players) {
        List<String> floors = new ArrayList<>();
        for (Board board : boards(players)) floors.add(board.floor());
        return floors;
    }

    static Map<String, Object> write(Adapter a) {
        String shared = a.gs[0];
        List<Board> boards = boards(a.gs[1]);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", "azul-state/1");
        state.put("variant", a.grey ? "grey" : "colour");
        state.put("players", a.players);
        state.put("round", a.round);
        state.put("phase", a.phase.name().toLowerCase());
        state.put("turn", a.phase == Adapter.Phase.DEAL ? a.startPlayer : shared.charAt(0) - 'A');
        state.put("start_player", a.startPlayer);
        Object marker = "centre";
        if (!centre(shared).contains("f")) {
            for (int i = 0; i < boards.size(); i++) if (boards.get(i).floor().contains("f")) marker = i;
        }
        state.put("marker", marker);
        List<Object> factories = new ArrayList<>();
        for (String factory : factories(shared, 2 * a.players + 1)) factories.add(sortedOurs(factory));
        state.put("factories", factories);
        state.put("centre", sortedOurs(centre(shared)));
        state.put("bag", letters(bag(shared)));
        state.put("lid", letters(lid(shared)));
        List<Object> written = new ArrayList<>();
        for (int i = 0; i < boards.size(); i++) {
            Board board = boards.get(i);
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("score", board.score());
            String[] lines = {"", "", "", "", ""};
            for (int k = 0; k + 2 < board.storage().length(); k += 3) {
                int row = board.storage().charAt(k) - '0';
                lines[row] = String.valueOf(Adapter.ours(board.storage().charAt(k + 1))).repeat(board.storage().charAt(k + 2) - '0');
            }
            out.put("lines", List.of((Object[]) lines));
            char[][] wall = new char[5][5];
            for (char[] row : wall) Arrays.fill(row, '.');
            for (int k = 0; k + 2 < board.mosaic().length(); k += 3) {
                wall[board.mosaic().charAt(k + 1) - '0'][board.mosaic().charAt(k + 2) - '0'] = Adapter.ours(board.mosaic().charAt(k));
            }
            List<Object> rows = new ArrayList<>();
            for (char[] row : wall) rows.add(new String(row));
            out.put("wall", rows);
            out.put("floor", a.floors[i]);
            written.add(out);
        }
        state.put("boards", written);
        state.put("winners", a.phase == Adapter.Phase.OVER ? winners(boards) : Json.NULL);
        return state;
    }

    /**
     * The engine's text interface names no winner; its GUI does (gui/Game.java:2891-2930): the highest score,
     * then the most complete mosaic rows, a tie beyond that shared. The same rule on the engine's own state.
     */
    static List<Object> winners(List<Board> boards) {
        List<Object> winners = new ArrayList<>();
        int best = -1, bestRows = -1;
        for (int i = 0; i < boards.size(); i++) {
            int score = boards.get(i).score(), rows = completeRows(boards.get(i).mosaic());
            if (score > best || (score == best && rows > bestRows)) {
                winners.clear();
                best = score;
                bestRows = rows;
            }
            if (score == best && rows == bestRows) winners.add(i);
        }
        return winners;
    }

    static int completeRows(String mosaic) {
        int[] perRow = new int[5];
        for (int k = 0; k + 2 < mosaic.length(); k += 3) perRow[mosaic.charAt(k + 1) - '0']++;
        int complete = 0;
        for (int n : perRow) if (n == 5) complete++;
        return complete;
    }

    // ---- load_state ----

    @SuppressWarnings("unchecked")
    static void load(Adapter a, Object given) throws Adapter.Refusal {
        if (!(given instanceof Map<?, ?>)) throw Adapter.refuse("bad_request", null, "state: missing or not an object");
        Map<String, Object> state = (Map<String, Object>) given;
        List<String> problems = new ArrayList<>();
        for (String key : List.of("format", "variant", "players", "round", "phase", "turn", "start_player", "marker",
                "factories", "centre", "bag", "lid", "boards", "winners")) {
            if (!state.containsKey(key)) problems.add(key + ": missing");
        }
        for (String key : state.keySet()) {
            if (!List.of("format", "variant", "players", "round", "phase", "turn", "start_player", "marker", "factories",
                    "centre", "bag", "lid", "boards", "winners").contains(key)) problems.add(key + ": not a field of azul-state/1");
        }
        if (!problems.isEmpty()) throw Adapter.refuse("bad_request", null, String.join("; ", problems));
        if (!"azul-state/1".equals(state.get("format"))) problems.add("format: not azul-state/1");
        Object variant = state.get("variant");
        if (!"grey".equals(variant) && !"colour".equals(variant)) problems.add("variant: not colour or grey");
        int players = integer(state.get("players"), "players", problems);
        if (players != -1 && (players < 2 || players > 4)) problems.add("players: must be 2, 3 or 4");
        if (players == 3 || players == 4) throw Adapter.refuse("unsupported", null, "the engine's validator plays 2 players only (Azul.java:90)");
        int round = integer(state.get("round"), "round", problems);
        if (round != -1 && round < 1) problems.add("round: from 1");
        Object phaseName = state.get("phase");
        Adapter.Phase phase = null;
        for (Adapter.Phase p : Adapter.Phase.values()) if (p.name().toLowerCase().equals(phaseName)) phase = p;
        if (phase == null) problems.add("phase: not deal, offer, tiling or over");
        int turn = integer(state.get("turn"), "turn", problems), start = integer(state.get("start_player"), "start_player", problems);
        if (!problems.isEmpty()) throw Adapter.refuse("bad_request", null, String.join("; ", problems));
        if (turn >= players) problems.add("turn: no seat of the game");
        if (start >= players) problems.add("start_player: no seat of the game");
        Object marker = state.get("marker");
        int markerSeat = -1;
        if (marker instanceof Json.Num n && n.isInteger()) {
            markerSeat = integer(n, "marker", problems);
            if (markerSeat >= players) problems.add("marker: no seat of the game");
        } else if (!"centre".equals(marker)) {
            problems.add("marker: \"centre\" or a seat");
        }
        String centre = letters(state.get("centre"), "centre", 100, false, problems);
        String bag = letters(state.get("bag"), "bag", 100, false, problems);
        String lid = letters(state.get("lid"), "lid", 100, false, problems);
        List<String> factories = strings(state.get("factories"), "factories", problems);
        if (factories != null && factories.size() != 2 * players + 1) problems.add("factories: " + (2 * players + 1) + " for " + players + " players (SETUP-3)");
        List<Object> boards = state.get("boards") instanceof List<?> list ? (List<Object>) list : null;
        if (boards == null || boards.size() != players) problems.add("boards: one per seat");
        if (!problems.isEmpty()) throw Adapter.refuse("bad_request", null, String.join("; ", problems));

        StringBuilder shared = new StringBuilder();
        shared.append(Adapter.seatId(turn)).append('F');
        for (int i = 0; i < factories.size(); i++) {
            String factory = letters(factories.get(i), "factories[" + i + "]", 4, false, problems);
            if (factory != null && !factory.isEmpty()) shared.append(i).append(engineSorted(factory));
        }
        shared.append('C').append(engineSorted(centre + ("centre".equals(marker) ? "M" : "")));
        shared.append('B').append(countString(countLetters(bag))).append('D').append(countString(countLetters(lid)));
        StringBuilder playerStates = new StringBuilder();
        String[] floors = new String[players];
        for (int i = 0; i < players; i++) {
            String where = "boards[" + i + "]";
            if (!(boards.get(i) instanceof Map<?, ?> raw)) {
                problems.add(where + ": not an object");
                continue;
            }
            Map<String, Object> board = (Map<String, Object>) raw;
            if (!board.keySet().equals(java.util.Set.of("score", "lines", "wall", "floor"))) problems.add(where + ": needs score, lines, wall, floor and nothing else");
            int score = integer(board.get("score"), where + ".score", problems);
            if (score < -1) problems.add(where + ".score: never below 0");
            playerStates.append(Adapter.seatId(i)).append(Math.max(score, 0)).append('M');
            List<String> wall = strings(board.get("wall"), where + ".wall", problems);
            if (wall != null && wall.size() == 5) {
                for (int r = 0; r < 5; r++) {
                    String row = wall.get(r);
                    if (!row.matches("[BYRKW.]{5}")) {
                        problems.add(where + ".wall[" + r + "]: five of B Y R K W or .");
                        continue;
                    }
                    for (int c = 0; c < 5; c++) if (row.charAt(c) != '.') playerStates.append(Adapter.theirs(row.charAt(c))).append(r).append(c);
                }
            } else {
                problems.add(where + ".wall: five rows");
            }
            playerStates.append('S');
            List<String> lines = strings(board.get("lines"), where + ".lines", problems);
            if (lines != null && lines.size() == 5) {
                for (int r = 0; r < 5; r++) {
                    String line = lines.get(r);
                    if (!line.matches("([BYRKW])\\1{0," + r + "}|")) {
                        problems.add(where + ".lines[" + r + "]: at most " + (r + 1) + " tiles of one colour (OFFER-8)");
                    } else if (!line.isEmpty()) {
                        playerStates.append(r).append(Adapter.theirs(line.charAt(0))).append(line.length());
                    }
                }
            } else {
                problems.add(where + ".lines: five lines");
            }
            String floor = letters(board.get("floor"), where + ".floor", 7, true, problems);
            if (floor != null) {
                if (floor.indexOf('M') != floor.lastIndexOf('M')) problems.add(where + ".floor: at most one M (FLOOR-1)");
                if (floor.contains("M") && markerSeat != i) problems.add(where + ".floor: shows M but marker is " + Json.write(marker));
                if (markerSeat == i && !floor.contains("M")) {
                    throw Adapter.refuse("unsupported", null, where + ": the engine keeps the first player tile on its "
                            + "holder's floor (Floor.java:108-117) and cannot hold a marker off a floor");
                }
                floors[i] = floor;
                playerStates.append('F').append(engineSorted(floor));
            }
        }
        if (!problems.isEmpty()) throw Adapter.refuse("bad_request", null, String.join("; ", problems));
        String[] gs = {shared.toString(), playerStates.toString()};
        boolean valid;
        try {
            valid = Azul.isStateValid(gs);
        } catch (RuntimeException failure) {
            valid = false;
        }
        if (!valid) {
            throw Adapter.refuse("bad_request", null, "the engine's own check (Azul.isStateValid) refuses the position "
                    + gs[0] + " " + gs[1] + " (20 tiles of each colour, one first player tile, no colour twice in a wall "
                    + "row or column, lines that fit, at most 7 floor tiles, centre no larger than its factories)");
        }
        if ("colour".equals(variant) && !GameBoardCheck.basic(gs)) {
            throw Adapter.refuse("bad_request", "WALL-1", "a wall tile off the space printed with its colour (the engine reads no basic mosaic)");
        }
        if ("colour".equals(variant) && phase == Adapter.Phase.TILING) throw Adapter.refuse("bad_request", null, "phase tiling is grey-wall only");
        boolean offerOver = offerIsOver(gs);
        if (phase == Adapter.Phase.OFFER && offerOver) throw Adapter.refuse("bad_request", null, "phase offer with nothing to take (OFFER-14)");
        if (phase != Adapter.Phase.OFFER && !offerOver) throw Adapter.refuse("bad_request", null, "phase " + phaseName + " with tiles on offer");
        if (phase == Adapter.Phase.DEAL && !"centre".equals(marker)) throw Adapter.refuse("bad_request", null, "phase deal: the marker is in the centre");
        a.gs = gs;
        a.players = players;
        a.grey = "grey".equals(variant);
        a.round = round;
        a.startPlayer = start;
        a.phase = phase;
        a.floors = floors;
    }

    /** Letters in the engine's alphabetical order ('f' for the marker last), as its strings keep them. */
    static String engineSorted(String ours) {
        char[] theirs = new char[ours.length()];
        for (int i = 0; i < ours.length(); i++) theirs[i] = ours.charAt(i) == 'M' ? 'f' : Adapter.theirs(ours.charAt(i));
        Arrays.sort(theirs);
        return new String(theirs);
    }

    static int integer(Object value, String field, List<String> problems) {
        if (value instanceof Json.Num n && n.isInteger() && n.text().length() < 10) return Integer.parseInt(n.text());
        problems.add(field + ": not a whole number");
        return -1;
    }

    static String letters(Object value, String field, int most, boolean marker, List<String> problems) {
        if (!(value instanceof String s) || !s.matches(marker ? "[BYRKWM]*" : "[BYRKW]*")) {
            problems.add(field + ": letters of B Y R K W" + (marker ? " or M" : ""));
            return null;
        }
        if (s.length() > most) {
            problems.add(field + ": at most " + most);
            return null;
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    static List<String> strings(Object value, String field, List<String> problems) {
        if (value instanceof List<?> list && list.stream().allMatch(item -> item instanceof String)) return (List<String>) list;
        problems.add(field + ": a list of strings");
        return null;
    }
}
