import comp1110.ass2.GameBoard;
import comp1110.ass2.Tile;

import java.util.ArrayList;
import java.util.List;

/**
 * The protocol's `deal`. The engine deals in refillAllFactories (GameBoard.java:654-676): when the bag holds
 * fewer tiles than the factories need it pours the whole discard pile into the bag behind the bag's own tiles,
 * then fills the factories in order, four at a time, with the first tiles of the bag list; its randomness is the
 * order of that list (shuffled when a state is parsed, GameBoard.java:1011-1018). The adapter orders the list:
 * at random from its own seeded generator, or so that the engine's own fill makes the factories asked for.
 */
final class Deals {
    private Deals() { }

    static void deal(Adapter a, Object given) throws Adapter.Refusal {
        int count = 2 * a.players + 1;
        List<String> factories = null;
        if (given != null && given != Json.NULL) {
            if (!(given instanceof List<?> list) || list.size() < 5 || list.size() > 9) {
                throw Adapter.refuse("bad_request", null, "factories: a list of 5 to 9 strings");
            }
            factories = new ArrayList<>();
            for (Object item : list) {
                if (!(item instanceof String s) || !s.matches("[BYRKW]{0,4}")) {
                    throw Adapter.refuse("bad_request", "DEAL-1", "factories: each up to 4 letters of B Y R K W, not " + Json.write(item));
                }
                factories.add(s);
            }
            if (factories.size() != count) {
                throw Adapter.refuse("illegal_move", "SETUP-3", factories.size() + " factories, but a " + a.players + "-player game has " + count);
            }
        }
        if (a.phase != Adapter.Phase.DEAL) throw Adapter.refuse("illegal_move", "DEAL-1", "no deal is due in phase " + a.phase.name().toLowerCase());
        int[] bag = States.bag(a.gs[0]), lid = States.lid(a.gs[0]);
        int inBag = sum(bag), inLid = sum(lid), need = 4 * count;
        boolean pour = inBag < need;
        List<Tile> order = new ArrayList<>();
        if (factories == null) {
            java.util.Random random = a.random();
            List<Tile> bagTiles = Adapter.tiles(States.letters(bag));
            Adapter.shuffle(bagTiles, random);
            order.addAll(bagTiles);
            if (pour) {
                List<Tile> lidTiles = Adapter.tiles(States.letters(lid));
                Adapter.shuffle(lidTiles, random);
                order.addAll(lidTiles);
            }
        } else {
            check(factories, bag, lid, inBag, inLid, need);
            StringBuilder dealt = new StringBuilder();
            for (String factory : factories) dealt.append(factory);
            int[] rest = pour ? plus(bag, lid) : bag.clone();
            int[] taken = States.countLetters(dealt.toString());
            for (int c = 0; c < 5; c++) rest[c] -= taken[c];
            order.addAll(Adapter.tiles(dealt.toString()));
            order.addAll(Adapter.tiles(States.letters(rest)));
        }
        GameBoard board = GameBoard.parseFromGameState(a.gs);
        board.getBag().clear();
        board.getBag().addAll(order);
        if (pour) board.getDiscard().clear();  // poured into the bag above, as refillAllFactories would pour it
        board.refillAllFactories();
        String[] after = board.toGameState();
        if (factories != null) {
            String[] made = States.factories(after[0], count);
            for (int i = 0; i < count; i++) {
                if (!States.sortedOurs(made[i]).equals(States.letters(States.countLetters(factories.get(i))))) {
                    throw new IllegalStateException("the engine dealt " + String.join(",", made) + " from the bag ordered for " + factories);
                }
            }
        }
        a.gs = after;
        a.phase = Adapter.Phase.OFFER;
    }

    /** A given deal the rules allow from this bag and lid, or the refusal the protocol's table names. */
    static void check(List<String> factories, int[] bag, int[] lid, int inBag, int inLid, int need) throws Adapter.Refusal {
        StringBuilder all = new StringBuilder();
        for (String factory : factories) all.append(factory);
        int[] asked = States.countLetters(all.toString());
        int total = all.length();
        if (inBag >= need) {
            for (String factory : factories) if (factory.length() != 4) throw Adapter.refuse("illegal_move", "DEAL-1", "every factory gets 4 tiles while tiles last");
            for (int c = 0; c < 5; c++) if (asked[c] > bag[c]) throw Adapter.refuse("illegal_move", "DEAL-1", "the bag holds " + bag[c] + " " + Adapter.OURS.charAt(c) + ", not " + asked[c]);
            return;
        }
        for (int c = 0; c < 5; c++) {
            if (asked[c] < bag[c]) throw Adapter.refuse("illegal_move", "DEAL-2", "the whole bag is dealt before the lid");
            if (asked[c] > bag[c] + lid[c]) throw Adapter.refuse("illegal_move", "DEAL-2", "bag and lid poured into it hold " + (bag[c] + lid[c]) + " " + Adapter.OURS.charAt(c) + ", not " + asked[c]);
        }
        int expected = Math.min(need, inBag + inLid);
        if (total != expected) throw Adapter.refuse("illegal_move", expected == need ? "DEAL-1" : "DEAL-3", "the deal has " + total + " tiles, not " + expected);
        for (int i = 0; i < factories.size(); i++) {
            int size = Math.max(0, Math.min(4, expected - 4 * i));
            if (factories.get(i).length() != size) throw Adapter.refuse("illegal_move", "DEAL-3", "the factories are filled in order with the last tiles");
        }
    }

    /** The engine's state after nextRound, with the factories it refilled emptied back into bag and lid as they were. */
    static String[] undoRefill(String[] after, int[] bagBefore) {
        String shared = after[0];
        int[] onBoards = new int[5];
        for (States.Board board : States.boards(after[1])) {
            for (int k = 0; k + 2 < board.mosaic().length(); k += 3) onBoards[Adapter.THEIRS.indexOf(board.mosaic().charAt(k))]++;
            for (int k = 0; k + 2 < board.storage().length(); k += 3) {
                onBoards[Adapter.THEIRS.indexOf(board.storage().charAt(k + 1))] += board.storage().charAt(k + 2) - '0';
            }
        }
        int[] lid = new int[5];
        for (int c = 0; c < 5; c++) lid[c] = 20 - onBoards[c] - bagBefore[c];
        String centre = States.centre(shared);
        return new String[] {shared.charAt(0) + "FC" + centre + "B" + States.countString(bagBefore) + "D" + States.countString(lid), after[1]};
    }

    static int sum(int[] counts) {
        int n = 0;
        for (int c : counts) n += c;
        return n;
    }

    static int[] plus(int[] x, int[] y) {
        int[] z = new int[5];
        for (int c = 0; c < 5; c++) z[c] = x[c] + y[c];
        return z;
    }
}
