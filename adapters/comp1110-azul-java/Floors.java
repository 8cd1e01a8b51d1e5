/**
 * Each floor line's order. The engine places the first player tile first and then the taken tiles in turn
 * (Floor.java:126-145), but writes a floor sorted alphabetically (Floor.java:207-220), so its strings lose the
 * order; the adapter keeps it beside them. Representation only: no penalty depends on the order.
 */
final class Floors {
    private Floors() { }

    /** Our floor after a move: the tiles kept in their order, the ones the engine added after them. */
    static String follow(String shown, String before, String after) {
        if (after.isEmpty()) return "";
        StringBuilder kept = new StringBuilder(shown);
        String added = after;
        for (char c : before.toCharArray()) {
            int at = added.indexOf(c);
            if (at >= 0) {
                added = added.substring(0, at) + added.substring(at + 1);
            } else {
                // A tile left the floor: the engine swapped its last one for the first player tile (Floor.java:108-113).
                int gone = kept.lastIndexOf(String.valueOf(Adapter.ours(c)));
                if (gone >= 0) kept.deleteCharAt(gone);
            }
        }
        if (added.contains("f")) kept.append('M');
        for (char c : added.toCharArray()) if (c != 'f') kept.append(Adapter.ours(c));
        return kept.toString();
    }
}
