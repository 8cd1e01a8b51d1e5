% Protocol v1 adapter for the Azul simulator of cbermudez97/proyecto-declarativa-I (SWI-Prolog).
%
% The engine keeps its game as dynamic facts (bag/1, discarted/1, center/1, factory/2, player/9,
% first_player/1, actual_player/1) and plays whole games by itself (game.pl, startAzulGame/1). This program
% loads the engine's files unchanged from $CBERMUDEZ_AZUL_ROOT and drives the same predicates its game loop
% calls, one request at a time: getAllMoves/1 and checkValidMove/4 for the moves, moveTile/2, addTilesToRow/4,
% dropEspecial/2 and update_first/1 for a take, playerRoundEnd/1, checkBag/0 and buildCenter/0 for the tiling,
% buildFacts/1 for a random deal. What the engine does not keep (the round, the round's start player, the
% floor's tiles: the engine counts them and puts them straight into its discard) is kept here.
%
%     CBERMUDEZ_AZUL_ROOT=/path/to/proyecto-declarativa-I swipl adapters/cbermudez-azul-pl/adapter.pl

:- use_module(library(http/json)).
:- use_module(library(lists)).
:- use_module(library(apply)).
:- use_module(library(readutil)).

:- initialization(main, main).

:- dynamic a_game/1, a_phase/1, a_round/1, a_start/1, a_marker/1, a_floor/2, a_winners/1.

% ---------------------------------------------------------------------------------------------------------
% Start-up and the request loop.

main(_) :-
    set_stream(user_input, encoding(utf8)),
    set_stream(user_output, encoding(utf8)),
    load_engine,
    set_random(seed(0)),  % random deals repeat from run to run
    serve.

load_engine :-
    (   getenv('CBERMUDEZ_AZUL_ROOT', Root)
    ->  true
    ;   format(user_error, "CBERMUDEZ_AZUL_ROOT is not set: it names your copy of the engine (the folder holding game.pl)~n", []),
        halt(2)
    ),
    directory_file_path(Root, 'game.pl', Game),
    (   exists_file(Game)
    ->  true
    ;   format(user_error, "~w: no such file (CBERMUDEZ_AZUL_ROOT names the folder holding game.pl)~n", [Game]),
        halt(2)
    ),
    % The engine's files print nothing while loading; keep stdout for replies all the same.
    with_output_to(string(_), load_files(Game, [silent(true)])).

serve :-
    repeat,
    read_line_to_string(user_input, Line),
    (   Line == end_of_file
    ->  !, halt(0)
    ;   once(handle_line(Line)),
        fail
    ).

handle_line(Line) :-
    split_string(Line, "", " \t\r\n", [Trimmed]),
    Trimmed == "", !.
handle_line(Line) :-
    (   catch(atom_json_dict(Line, Doc, [value_string_as(string)]), _, fail)
    ->  handle_doc(Doc)
    ;   reply_error(null, bad_request, none, "not a JSON object")
    ).

handle_doc(Doc) :-
    \+ is_dict(Doc), !,
    reply_error(null, bad_request, none, "expected a JSON object").
handle_doc(Doc) :-
    get_dict(cmd, Doc, "quit"), !,
    halt(0).
handle_doc(Doc) :-
    (   get_dict(id, Doc, Id)
    ->  (   ( integer(Id) ; string(Id) )
        ->  handle_request(Id, Doc)
        ;   reply_error(null, bad_request, none, "id: expected an integer or a string")
        )
    ;   reply_error(null, bad_request, none, "a request needs an id")
    ).

handle_request(Id, Doc) :-
    catch(( request(Doc, Fields) -> true ; throw(azul_error(internal, none, "the engine failed")) ),
          Error, true),
    (   var(Error)
    ->  reply(_{id: Id, ok: true}.put(Fields))
    ;   Error = azul_error(Code, Rule, Message)
    ->  reply_error(Id, Code, Rule, Message)
    ;   term_string(Error, Text),
        reply_error(Id, internal, none, Text)
    ).

reply(Dict) :-
    with_output_to(string(Text), json_write_dict(current_output, Dict, [width(0)])),
    split_string(Text, "\n", "", Parts),
    atomic_list_concat(Parts, ' ', OneLine),
    format(user_output, "~w~n", [OneLine]),
    flush_output(user_output).

reply_error(Id, Code, Rule, Message) :-
    (   Rule == none
    ->  Error = _{code: Code, message: Message}
    ;   Error = _{code: Code, rule: Rule, message: Message}
    ),
    reply(_{id: Id, ok: false, error: Error}).

fail_with(Code, Rule, Format, Args) :-
    format(string(Message), Format, Args),
    throw(azul_error(Code, Rule, Message)).

% ---------------------------------------------------------------------------------------------------------
% Requests.

request(Doc, Fields) :-
    (   get_dict(cmd, Doc, Cmd), string(Cmd)
    ->  true
    ;   fail_with(bad_request, none, "cmd: expected a string", [])
    ),
    command(Cmd, Doc, Fields).

command("hello", Doc, _{name: "cbermudez-azul", version: "12324224", protocol: 1,
                        capabilities: _{players: [2, 3, 4], variants: ["colour"], load_state: true, deal: true}}) :-
    !,
    (   get_dict(protocol, Doc, 1)
    ->  true
    ;   fail_with(bad_request, none, "protocol: only protocol 1 is spoken", [])
    ).
command("new_game", Doc, _{state: State}) :- !,
    new_game(Doc),
    state(State).
command("load_state", Doc, _{state: State}) :- !,
    (   get_dict(state, Doc, Given), is_dict(Given)
    ->  true
    ;   fail_with(bad_request, none, "state: expected an object", [])
    ),
    load_state(Given),
    state(State).
command(Cmd, _, _) :-
    \+ memberchk(Cmd, ["deal", "legal_moves", "play", "state", "play_game"]), !,
    fail_with(bad_request, none, "unknown cmd '~w'", [Cmd]).
command(_, _, _) :-
    \+ a_game(_), !,
    fail_with(bad_request, none, "no game yet: send new_game or load_state first", []).
command("deal", Doc, _{state: State}) :- !,
    atomically(deal(Doc)),
    state(State).
command("legal_moves", _, _{moves: Moves}) :- !,
    legal_moves(Moves).
command("play", Doc, _{state: State}) :- !,
    (   get_dict(move, Doc, Move), string(Move)
    ->  true
    ;   fail_with(bad_request, none, "move: expected a string", [])
    ),
    atomically(play(Move)),
    state(State).
command("state", _, _{state: State}) :- !,
    state(State).
command("play_game", _, _) :-
    fail_with(unsupported, none, "play_game is not offered: send the single requests", []).

% A request that fails or throws half-way leaves the game as it was.
atomically(Goal) :-
    snapshot(Saved),
    catch(( Goal -> true ; throw(azul_error(internal, none, "the engine failed")) ),
          Error,
          ( restore(Saved), throw(Error) )).

game_facts([bag/1, discarted/1, center/1, factory/2, player/9, first_player/1, actual_player/1,
            a_game/1, a_phase/1, a_round/1, a_start/1, a_marker/1, a_floor/2, a_winners/1]).

snapshot(Facts) :-
    game_facts(Preds),
    findall(Fact, ( member(Name/Arity, Preds), functor(Fact, Name, Arity), catch(Fact, _, fail) ), Facts).

restore(Facts) :-
    game_facts(Preds),
    forall(member(Name/Arity, Preds), ( functor(Head, Name, Arity), retractall(Head) )),
    forall(member(Fact, Facts), assertz(Fact)).

% ---------------------------------------------------------------------------------------------------------
% Colours: the engine's Spanish names, our letters, and B Y R K W order.

colour(azul, 'B', 0).
colour(amarillo, 'Y', 1).
colour(rojo, 'R', 2).
colour(negro, 'K', 3).
colour(blanco, 'W', 4).

% The tiles of a list, as letters in B Y R K W order.
tiles_text(Tiles, Text) :-
    findall(Order-Letter, ( member(Tile, Tiles), colour(Tile, Letter, Order) ), Keyed),
    msort(Keyed, Sorted),
    pairs_values(Sorted, Letters),
    atomic_list_concat(Letters, Text0),
    atom_string(Text0, Text).

text_tiles(Text, Tiles) :-
    string_chars(Text, Chars),
    maplist([Char, Tile]>>colour(Tile, Char, _), Chars, Tiles).

% ---------------------------------------------------------------------------------------------------------
% new_game

new_game(Doc) :-
    (   get_dict(players, Doc, Players)
    ->  true
    ;   fail_with(bad_request, none, "players: required", [])
    ),
    (   integer(Players) -> true ; fail_with(bad_request, none, "players: expected an integer", []) ),
    (   get_dict(variant, Doc, Variant) -> true ; Variant = "colour" ),
    (   string(Variant) -> true ; fail_with(bad_request, none, "variant: expected a string", []) ),
    (   get_dict(start_player, Doc, Start) -> true ; Start = 0 ),
    (   integer(Start) -> true ; fail_with(bad_request, none, "start_player: expected an integer", []) ),
    (   between(2, 4, Players) -> true
    ;   fail_with(bad_request, 'SETUP-6', "players must be 2, 3 or 4, not ~w", [Players]) ),
    (   memberchk(Variant, ["colour", "grey"]) -> true
    ;   fail_with(bad_request, 'SETUP-1', "variant must be colour or grey, not ~w", [Variant]) ),
    Last is Players - 1,
    (   between(0, Last, Start) -> true
    ;   fail_with(bad_request, 'SETUP-5', "start_player must be a seat from 0 to ~w, not ~w", [Last, Start]) ),
    (   Variant == "grey"
    ->  fail_with(unsupported, none, "the engine plays the coloured wall only", [])
    ;   true
    ),
    % The engine's own set-up (startAzulGame/1), with the start player asked for instead of always player 1.
    erase_players,
    createPlayers(Players),
    First is Start + 1,
    update_first(First),
    update_actual(First),
    buildBag(_),
    buildCenter,
    buildDiscarted,
    retractall(factory(_, _)),
    forget_table,
    assertz(a_game(Players)),
    assertz(a_phase(deal)),
    assertz(a_round(1)),
    assertz(a_start(Start)),
    assertz(a_marker(centre)),
    forall(between(0, Last, Seat), assertz(a_floor(Seat, []))),
    assertz(a_winners(null)).

forget_table :-
    retractall(a_game(_)), retractall(a_phase(_)), retractall(a_round(_)), retractall(a_start(_)),
    retractall(a_marker(_)), retractall(a_floor(_, _)), retractall(a_winners(_)).

% ---------------------------------------------------------------------------------------------------------
% deal

deal(Doc) :-
    a_phase(Phase),
    (   get_dict(factories, Doc, Given)
    ->  check_factories_shape(Given, Factories)
    ;   Factories = random
    ),
    (   Phase == deal -> true
    ;   fail_with(illegal_move, 'DEAL-1', "no deal is due in phase '~w'", [Phase]) ),
    a_game(Players),
    toBuildFacts(Players, Count),
    first_player(First),
    update_actual(First),
    % The engine pours its discard into an empty bag as the last step of a round (game.pl checkBag/0), and
    % deals next: done here, a position loaded in phase deal is dealt as the engine would deal it.
    checkBag,
    (   Factories == random
    ->  buildFacts(Count)
    ;   given_deal(Factories, Count)
    ),
    retract(a_phase(deal)),
    assertz(a_phase(offer)).

check_factories_shape(Given, Factories) :-
    (   is_list(Given), maplist(string, Given)
    ->  true
    ;   fail_with(bad_request, none, "factories: expected a list of strings", []) ),
    length(Given, Count),
    (   between(5, 9, Count) -> true
    ;   fail_with(bad_request, 'SETUP-3', "factories: 5 to 9 factories, not ~w", [Count]) ),
    (   forall(member(Text, Given), ( string_length(Text, L), L =< 4 )) -> true
    ;   fail_with(bad_request, 'DEAL-1', "factories: a factory holds at most 4 tiles", []) ),
    (   maplist(text_tiles, Given, Factories) -> true
    ;   fail_with(bad_request, none, "factories: tiles are written B, Y, R, K, W", []) ).

% The engine fills factory 1, 2, ... with 4 tiles drawn from the bag while it holds 4 or more, gives the next
% factory what is left, and leaves the rest empty (tiles.pl, buildFact/2): it never pours its discard into the
% bag during a deal (only at the end of a round whose bag is empty, game.pl checkBag/0). A given deal is
% accepted when that draw can make it; the tiles then leave the bag as buildFact/2 takes them. The engine names
% no rule for a deal it cannot make, and neither does its refusal here.
given_deal(Factories, Count) :-
    length(Factories, Given),
    (   Given == Count -> true
    ;   fail_with(illegal_move, 'SETUP-3', "the game has ~w factories, not ~w", [Count, Given]) ),
    bag(Bag),
    length(Bag, InBag),
    findall(Size, ( between(1, Count, I), Size is max(0, min(4, InBag - 4 * (I - 1))) ), Sizes),
    maplist([F, S]>>length(F, S), Factories, Actual),
    (   maplist(=, Sizes, Actual) -> true
    ;   format(string(Want), "~w", [Sizes]), format(string(Got), "~w", [Actual]),
        fail_with(illegal_move, none,
                  "the engine fills the factories in order with 4 tiles each from the bag (~w tiles) while it lasts, sizes ~w, not ~w",
                  [InBag, Want, Got]) ),
    append(Factories, Wanted),
    (   take_all(Wanted, Bag, Rest) -> true
    ;   tiles_text(Bag, BagText),
        fail_with(illegal_move, none, "the bag (~w) does not hold these tiles", [BagText]) ),
    retract(bag(_)),
    assertz(bag(Rest)),
    forall(( nth1(I, Factories, Tiles), Tiles \== [] ), assertz(factory(I, Tiles))).

take_all([], Bag, Bag).
take_all([Tile|Tiles], Bag, Rest) :-
    selectchk(Tile, Bag, Bag1),
    take_all(Tiles, Bag1, Rest).

% ---------------------------------------------------------------------------------------------------------
% Moves

% The moves the engine's players choose from (player_logic.pl, getFirstMove/3): each source and colour of
% getAllMoves/1 on each pattern line checkValidMove/4 accepts, or on the floor (-1).
legal_moves(Moves) :-
    (   a_phase(offer)
    ->  actual_player(Player),
        getAllMoves(Sources),
        findall(Move,
                ( member(Source, Sources),
                  source_parts(Source, Where, Type, Count),
                  member(Row, [1, 2, 3, 4, 5, -1]),
                  checkValidMove(Player, Row, Type, Count),
                  move_text(Where, Type, Row, Move) ),
                Listed),
        sort(Listed, Moves)
    ;   Moves = []
    ).

source_parts(Source, factory(I), Type, Count) :-
    Source = (I, Type, Count), integer(I), !.
source_parts((Type, Count), centre, Type, Count).

move_text(Where, Type, Row, Move) :-
    (   Where = factory(I) -> S = I ; S = 'C' ),
    colour(Type, Letter, _),
    (   Row =:= -1 -> D = 'F' ; D = Row ),
    format(string(Move), "~w~w~w", [S, Letter, D]).

play(Move) :-
    string_chars(Move, Chars),
    (   Chars = [S, L, D], memberchk(S, ['1','2','3','4','5','6','7','8','9','C']),
        colour(_, L, _), memberchk(D, ['1','2','3','4','5','F'])
    ->  a_phase(Phase),
        (   Phase == offer -> true
        ;   fail_with(illegal_move, 'OFFER-15', "~w: no take can be played in phase '~w'", [Move, Phase]) ),
        take(Move, S, L, D)
    ;   Chars = [R, '@', C], memberchk(R, ['1','2','3','4','5']), memberchk(C, ['1','2','3','4','5'])
    ->  a_phase(Phase),
        fail_with(illegal_move, 'OFFER-15', "~w: no placement can be played in phase '~w' (the coloured wall places by itself)",
                  [Move, Phase])
    ;   fail_with(bad_request, none, "~w: not a move (e.g. 3K4, CBF)", [Move])
    ).

take(Move, SourceChar, Letter, DestChar) :-
    colour(Type, Letter, _),
    (   DestChar == 'F' -> Row = -1 ; atom_number(DestChar, Row) ),
    a_game(Players),
    toBuildFacts(Players, Count),
    actual_player(Player),
    (   SourceChar == 'C'
    ->  center(Centre),
        (   getMovesCenter(Offer), memberchk((Type, Taken), Offer) -> true
        ;   tiles_text(Centre, Text),
            fail_with(illegal_move, 'OFFER-6', "~w: the centre (~w) holds no ~w tile", [Move, Text, Letter]) ),
        Source = (Type, Taken)
    ;   atom_number(SourceChar, Factory),
        (   Factory =< Count -> true
        ;   fail_with(illegal_move, 'SETUP-3', "~w: the game has ~w factories", [Move, Count]) ),
        (   getMovesFactory(Factory, Offer), memberchk((Type, Taken), Offer) -> true
        ;   fail_with(illegal_move, 'OFFER-6', "~w: factory ~w holds no ~w tile", [Move, Factory, Letter]) ),
        Source = (Factory, Type, Taken)
    ),
    (   checkValidMove(Player, Row, Type, Taken) -> true
    ;   refusal(Move, Player, Row, Type) ),
    floor_tiles(Player, Row, Type, Taken, ToFloor),
    % What the engine's move does (player_logic.pl buildMove/4, game.pl checkEspecial/2), without its printing.
    moveTile(Source, Especial),
    addTilesToRow(Player, Row, Type, Taken),
    dropEspecial(Player, Especial),
    Seat is Player - 1,
    (   Especial == si
    ->  update_first(Player),
        retract(a_marker(_)), assertz(a_marker(Seat)),
        onto_floor(Seat, ['M'|ToFloor])
    ;   onto_floor(Seat, ToFloor)
    ),
    rotate_actual(Players),
    after_take.

% Why checkValidMove/4 refused a pattern line: its two tests, in its order.
refusal(Move, Player, Row, Type) :-
    player(Player, _, _, _, _, _, _, _, Wall),
    colour(Type, Letter, _),
    (   member((Row, _, Type), Wall)
    ->  fail_with(illegal_move, 'OFFER-9', "~w: wall row ~w already holds ~w", [Move, Row, Letter])
    ;   getPlayerRow(Player, Row, (Held, _)),
        colour(Held, HeldLetter, _),
        fail_with(illegal_move, 'OFFER-8', "~w: pattern line ~w holds ~w, not ~w", [Move, Row, HeldLetter, Letter])
    ).

% The tiles of a take that reach the floor: all of them for the floor, else what getNewRow/5 discards.
floor_tiles(_, -1, Type, Taken, Tiles) :- !,
    colour(Type, Letter, _),
    length(Tiles, Taken), maplist(=(Letter), Tiles).
floor_tiles(Player, Row, Type, Taken, Tiles) :-
    getPlayerRow(Player, Row, Line),
    getNewRow(Row, Line, (Type, Taken), _, (_, Over)),
    colour(Type, Letter, _),
    length(Tiles, Over), maplist(=(Letter), Tiles).

% The floor as shown: the engine only counts the tiles (player/9's third argument) and discards them at once;
% the marker is shown first of what a take adds (its space is taken before the tiles'), seven spaces at most.
onto_floor(Seat, Added) :-
    retract(a_floor(Seat, Floor)),
    append(Floor, Added, Longer),
    (   length(Shown, 7), append(Shown, _, Longer) -> true ; Shown = Longer ),
    assertz(a_floor(Seat, Shown)).

% The offer ends when no take is left (game.pl startPlayerRotation/1). When only the marker is left in the
% centre, the engine hands it to the player to move (its "weird case"), then the round is tiled.
after_take :-
    getAllMoves(Left),
    (   Left \== []
    ->  true
    ;   (   center([especial])
        ->  actual_player(Player),
            dropEspecial(Player, si),
            update_first(Player),
            Seat is Player - 1,
            retract(a_marker(_)), assertz(a_marker(Seat)),
            onto_floor(Seat, ['M'])
        ;   true
        ),
        end_of_round
    ).

% game.pl startAzulRound/1 after the offer: each board's tiling and floor, the centre rebuilt; then the game
% ends on a complete wall row, or on an empty bag once the discard is poured into it (checkBag/0, which the
% adapter runs at the deal: an empty bag with an empty discard), or the next round's deal is due.
end_of_round :-
    findall(Id, player(Id, _, _, _, _, _, _, _, _), Ids),
    forall(member(Id, Ids),
           ( playerRoundEnd(Id) -> true ; throw(azul_error(internal, none, "the engine's tiling failed")) )),
    buildCenter,
    forall(retract(a_floor(Seat, _)), assertz(a_floor(Seat, []))),
    (   ( player(_, _, _, _, _, _, _, _, Wall), between(1, 5, Row), getRow(Row, Wall, Tiles), length(Tiles, 5) )
    ->  game_over
    ;   bag([]), discarted([])
    ->  game_over
    ;   retract(a_round(Round)), Next is Round + 1, assertz(a_round(Next)),
        first_player(First), update_actual(First),
        Start is First - 1,
        retract(a_start(_)), assertz(a_start(Start)),
        retract(a_marker(_)), assertz(a_marker(centre)),
        retract(a_phase(_)), assertz(a_phase(deal))
    ).

% The engine names no winner: it prints the scores, highest first (player.pl print_scores/0). The winners are
% the seats with the top score.
game_over :-
    findall(Score, player(_, Score, _, _, _, _, _, _, _), Scores),
    max_list(Scores, Top),
    findall(Seat, ( player(Id, Top, _, _, _, _, _, _, _), Seat is Id - 1 ), Seats0),
    sort(Seats0, Seats),
    retract(a_winners(_)), assertz(a_winners(Seats)),
    retract(a_phase(_)), assertz(a_phase(over)).

% ---------------------------------------------------------------------------------------------------------
% azul-state/1 out

state(State) :-
    a_game(Players), a_phase(Phase), a_round(Round), a_start(Start), a_marker(Marker0), a_winners(Winners),
    toBuildFacts(Players, Count),
    findall(Text, ( between(1, Count, I), ( factory(I, Tiles) -> true ; Tiles = [] ), tiles_text(Tiles, Text) ),
            Factories),
    center(Centre0), exclude(==(especial), Centre0, Centre), tiles_text(Centre, CentreText),
    bag(Bag), tiles_text(Bag, BagText),
    % The engine's discard holds the tiles shown on the floors: they are not in the lid yet.
    discarted(Discard),
    findall(Tile, ( a_floor(_, Floor), member(Letter, Floor), colour(Tile, Letter, _) ), OnFloors),
    subtract_tiles(OnFloors, Discard, Lid),
    tiles_text(Lid, LidText),
    Last is Players - 1,
    findall(Board, ( between(0, Last, Seat), board(Seat, Board) ), Boards),
    actual_player(Actual), Turn is Actual - 1,
    (   Marker0 == centre -> Marker = "centre" ; Marker = Marker0 ),
    atom_string(Phase, PhaseText),
    State = _{format: "azul-state/1", variant: "colour", players: Players, round: Round, phase: PhaseText,
              turn: Turn, start_player: Start, marker: Marker, factories: Factories, centre: CentreText,
              bag: BagText, lid: LidText, boards: Boards, winners: Winners}.

subtract_tiles([], Rest, Rest).
subtract_tiles([Tile|Tiles], From, Rest) :-
    (   selectchk(Tile, From, From1) -> true ; From1 = From ),
    subtract_tiles(Tiles, From1, Rest).

board(Seat, _{score: Score, lines: Lines, wall: Wall, floor: FloorText}) :-
    Id is Seat + 1,
    player(Id, Score, _, R1, R2, R3, R4, R5, Placed),
    maplist(line_text, [R1, R2, R3, R4, R5], Lines),
    findall(RowText,
            ( between(1, 5, Row),
              findall(Char, ( between(1, 5, Col), ( member((Row, Col, T), Placed) -> colour(T, Char, _) ; Char = '.' ) ),
                      Chars),
              string_chars(RowText, Chars) ),
            Wall),
    a_floor(Seat, Floor),
    atomic_list_concat(Floor, FloorAtom), atom_string(FloorAtom, FloorText).

line_text((none, _), "") :- !.
line_text((Type, Count), Text) :-
    colour(Type, Letter, _),
    length(Letters, Count), maplist(=(Letter), Letters),
    atomic_list_concat(Letters, Atom), atom_string(Atom, Text).

% ---------------------------------------------------------------------------------------------------------
% load_state: an azul-state/1 document into the engine's facts.

state_keys([format, variant, players, round, phase, turn, start_player, marker, factories, centre, bag, lid,
            boards, winners]).
board_keys([score, lines, wall, floor]).

load_state(S) :-
    catch(findall(P, state_problem(S, P), Problems), _, Problems = ['not an azul-state/1 document']),
    (   Problems == []
    ->  true
    ;   atomic_list_concat(Problems, '; ', Message),
        fail_with(bad_request, none, "~w", [Message])
    ),
    (   S.variant == "grey" -> fail_with(unsupported, none, "the engine plays the coloured wall only", []) ; true ),
    (   memberchk(S.phase, ["tiling", "over"])
    ->  fail_with(unsupported, none, "the engine cannot go on from a position in phase ~w", [S.phase])
    ;   true
    ),
    atomically(install_state(S)).

state_problem(S, P) :-
    state_keys(Keys), dict_keys(S, Have),
    (   member(K, Keys), \+ memberchk(K, Have), format(atom(P), "~w: missing", [K])
    ;   member(K, Have), \+ memberchk(K, Keys), format(atom(P), "~w: not a field of azul-state/1", [K])
    ).
state_problem(S, 'format: expected "azul-state/1"') :- get_dict(format, S, F), F \== "azul-state/1".
state_problem(S, 'variant: expected "colour" or "grey"') :- get_dict(variant, S, V), \+ memberchk(V, ["colour", "grey"]).
state_problem(S, 'players: expected 2, 3 or 4') :- get_dict(players, S, N), \+ ( integer(N), between(2, 4, N) ).
state_problem(S, 'round: expected a whole number from 1') :- get_dict(round, S, R), \+ ( integer(R), R >= 1 ).
state_problem(S, 'phase: expected deal, offer, tiling or over') :-
    get_dict(phase, S, Ph), \+ memberchk(Ph, ["deal", "offer", "tiling", "over"]).
state_problem(S, P) :-
    member(K, [turn, start_player]), get_dict(K, S, V), \+ seat(S, V),
    format(atom(P), "~w: expected a seat of the game", [K]).
state_problem(S, 'marker: expected "centre" or a seat') :-
    get_dict(marker, S, M), M \== "centre", \+ seat(S, M).
state_problem(S, P) :-
    get_dict(factories, S, Fs), get_dict(players, S, N), integer(N), between(2, 4, N),
    toBuildFacts(N, Count),
    (   \+ is_list(Fs), P = 'factories: expected a list'
    ;   is_list(Fs), length(Fs, L), L =\= Count, format(atom(P), "factories: ~w factories for ~w players, not ~w", [Count, N, L])
    ;   is_list(Fs), nth0(I, Fs, F), \+ tiles_of(F, 4), format(atom(P), "factories[~w]: up to 4 tiles B, Y, R, K, W", [I])
    ).
state_problem(S, P) :-
    member(K, [centre, bag, lid]), get_dict(K, S, V), \+ tiles_of(V, 100),
    format(atom(P), "~w: expected tiles B, Y, R, K, W", [K]).
state_problem(S, P) :-
    get_dict(winners, S, W), W \== null, \+ ( is_list(W), forall(member(X, W), seat(S, X)) ),
    P = 'winners: expected null or a list of seats'.
state_problem(S, P) :-
    get_dict(boards, S, Bs), get_dict(players, S, N),
    (   \+ is_list(Bs), P = 'boards: expected a list'
    ;   is_list(Bs), integer(N), length(Bs, L), L =\= N, format(atom(P), "boards: one per seat (~w), not ~w", [N, L])
    ;   is_list(Bs), nth0(I, Bs, B), board_problem(B, Q), format(atom(P), "boards[~w].~w", [I, Q])
    ).
state_problem(S, P) :-
    \+ state_problem_shape(S),
    count_tiles(S, Counts),
    member(Letter-Count, Counts), Count =\= 20,
    format(atom(P), "~w tiles of ~w, not 20 (SETUP-4)", [Count, Letter]).

state_problem_shape(S) :- state_problem_(S), !.
state_problem_(S) :- member(G, [format, variant, players, factories, centre, bag, lid, boards]), \+ get_dict(G, S, _).
state_problem_(S) :- \+ is_list(S.factories) ; \+ is_list(S.boards).
state_problem_(S) :- member(F, S.factories), \+ tiles_of(F, 4).
state_problem_(S) :- member(K, [centre, bag, lid]), \+ tiles_of(S.get(K), 100).
state_problem_(S) :- member(B, S.boards), board_problem(B, _).

board_problem(B, 'expected an object') :- \+ is_dict(B), !.
board_problem(B, P) :-
    board_keys(Keys), dict_keys(B, Have),
    (   member(K, Keys), \+ memberchk(K, Have), format(atom(P), "~w: missing", [K])
    ;   member(K, Have), \+ memberchk(K, Keys), format(atom(P), "~w: not a field of a board", [K])
    ).
board_problem(B, 'score: a whole number, never below 0 (SCORE-5)') :- get_dict(score, B, X), \+ ( integer(X), X >= 0 ).
board_problem(B, P) :-
    get_dict(lines, B, Ls),
    (   \+ ( is_list(Ls), length(Ls, 5) ), P = 'lines: expected five strings'
    ;   is_list(Ls), nth1(N, Ls, L), \+ line_ok(L, N), format(atom(P), "lines[~w]: up to ~w tiles of one colour", [N, N])
    ).
board_problem(B, P) :-
    get_dict(wall, B, Ws),
    (   \+ ( is_list(Ws), length(Ws, 5), maplist(string, Ws) ), P = 'wall: expected five strings'
    ;   is_list(Ws), nth1(R, Ws, W), string(W), \+ wall_row_ok(W, R),
        format(atom(P), "wall[~w]: five spaces, each . or the colour printed there (WALL-1)", [R])
    ).
board_problem(B, P) :-
    get_dict(floor, B, F),
    \+ ( string(F), string_chars(F, Cs), length(Cs, N), N =< 7,
         forall(member(C, Cs), ( C == 'M' ; colour(_, C, _) )),
         aggregate_all(count, member('M', Cs), Ms), Ms =< 1 ),
    P = 'floor: at most 7 spaces of tiles and at most one M (FLOOR-1)'.

seat(S, V) :- integer(V), get_dict(players, S, N), integer(N), V >= 0, V < N.

tiles_of(Text, Max) :- string(Text), string_length(Text, L), L =< Max, text_tiles(Text, _).

line_ok(L, N) :-
    string(L), string_length(L, Len), Len =< N, text_tiles(L, Tiles), sort(Tiles, One), length(One, K), K =< 1.

wall_row_ok(W, R) :-
    string_chars(W, Cs), length(Cs, 5),
    forall(nth1(C, Cs, Ch), ( Ch == '.' ; ( colour(T, Ch, _), findCol(T, R, C) ) )).

count_tiles(S, Counts) :-
    findall(T, ( member(F, S.factories), text_tiles(F, Ts), member(T, Ts) ), A),
    findall(T, ( member(K, [centre, bag, lid]), text_tiles(S.get(K), Ts), member(T, Ts) ), B),
    findall(T, ( member(Bd, S.boards), member(L, Bd.lines), text_tiles(L, Ts), member(T, Ts) ), C),
    findall(T, ( member(Bd, S.boards), member(W, Bd.wall), string_chars(W, Cs), member(Ch, Cs), colour(T, Ch, _) ), D),
    findall(T, ( member(Bd, S.boards), string_chars(Bd.floor, Cs), member(Ch, Cs), colour(T, Ch, _) ), E),
    append([A, B, C, D, E], All),
    findall(Letter-N, ( colour(T, Letter, _), aggregate_all(count, member(T, All), N) ), Counts).

% The engine's facts for the position: the floors' tiles go to its discard (where its takes put them), the
% marker stays in its centre until taken, first_player/1 names the marker's holder once it is taken (as
% game.pl checkEspecial/2 sets it) and the round's start player before.
install_state(S) :-
    Players = S.players,
    text_tiles(S.bag, Bag),
    text_tiles(S.lid, Lid),
    findall(T, ( member(Bd, S.boards), string_chars(Bd.floor, Cs), member(Ch, Cs), colour(T, Ch, _) ), Floored),
    append(Lid, Floored, Discard),
    text_tiles(S.centre, Centre0),
    (   S.marker == "centre" -> Centre = [especial|Centre0] ; Centre = Centre0 ),
    retractall(bag(_)), assertz(bag(Bag)),
    retractall(discarted(_)), assertz(discarted(Discard)),
    retractall(center(_)), assertz(center(Centre)),
    retractall(factory(_, _)),
    forall(( nth1(I, S.factories, F), text_tiles(F, Ts), Ts \== [] ), assertz(factory(I, Ts))),
    erase_players,
    forall(nth1(Id, S.boards, Bd), install_board(Id, Bd)),
    (   S.marker == "centre" -> First is S.start_player + 1 ; First is S.marker + 1 ),
    update_first(First),
    Actual is S.turn + 1,
    update_actual(Actual),
    forget_table,
    assertz(a_game(Players)),
    atom_string(Phase, S.phase), assertz(a_phase(Phase)),
    assertz(a_round(S.round)),
    assertz(a_start(S.start_player)),
    (   S.marker == "centre" -> assertz(a_marker(centre)) ; assertz(a_marker(S.marker)) ),
    forall(nth0(Seat, S.boards, Bd), ( string_chars(Bd.floor, Cs), assertz(a_floor(Seat, Cs)) )),
    assertz(a_winners(null)).

install_board(Id, Bd) :-
    maplist(line_fact, Bd.lines, [R1, R2, R3, R4, R5]),
    findall((Row, Col, T),
            ( nth1(Row, Bd.wall, W), string_chars(W, Cs), nth1(Col, Cs, Ch), colour(T, Ch, _) ),
            Wall),
    string_length(Bd.floor, Dropped),
    assertz(player(Id, Bd.score, Dropped, R1, R2, R3, R4, R5, Wall)).

line_fact("", (none, 0)) :- !.
line_fact(Text, (Type, N)) :- text_tiles(Text, [Type|_]), string_length(Text, N).
