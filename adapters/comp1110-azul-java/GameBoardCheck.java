import comp1110.ass2.GameBoard;

/** Whether the engine reads a state's boards as basic (coloured-wall) mosaics: it does when every tile sits on the
 *  space printed with its colour (PlayerBoard.java:509-542, Mosaic.parseFromMosaicString). */
final class GameBoardCheck {
    private GameBoardCheck() { }

    static boolean basic(String[] gs) {
        return GameBoard.parseFromGameState(gs).isBasicGame();
    }
}
