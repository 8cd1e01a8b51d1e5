// Protocol-v1 adapter for the Azul game of OpenSpiel (open_spiel/games/azul/, C++), unchanged.
//
// One JSON request per line on standard input, one reply per line on standard output (README.md beside this
// file says what the engine offers and what this adapter adds). The adapter translates requests and states;
// every rule is applied by the engine's own code: LegalActions, ApplyActionWithLegalityCheck, the round's
// tiling and scoring in DoApplyAction / EndRoundScoring, the deal in SetupNewRound / FillFactories and the
// bag's refill at its chance node, the end of the game (IsTerminal), the final score (CalculateScore) and the
// winner (Returns).
//
// Usage: adapter [--seed N]     (N seeds the engine's generator, the game parameter rng_seed, and the order
//                                of a loaded bag; default 0)

#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol_v1.hpp"  // adapters/protocol_v1.hpp: what the C++ adapters share
#include "open_spiel/games/azul/azul.h"
#include "open_spiel/spiel.h"

using namespace protocol_v1;  // NOLINT: the shared part reads as this file's own
namespace az = open_spiel::azul;

// ---------------------------------------------------------------------------------------------------------
// The engine's round set-up, AzulState::SetupNewRound (azul.cc:168-184), is private: the engine calls it in its
// constructor and after a round's tiling. The protocol deals in a request of its own, so the adapter calls the
// same function at that moment, through the standard explicit-instantiation access idiom (no engine change).
namespace {
template <typename Tag, typename Tag::type Member>
struct Expose {
  friend typename Tag::type get(Tag) { return Member; }
};
struct SetupNewRoundTag {
  using type = void (az::AzulState::*)();
  friend type get(SetupNewRoundTag);
};
template struct Expose<SetupNewRoundTag, &az::AzulState::SetupNewRound>;
}  // namespace

// OpenSpiel reports every failed check through SpielFatalError; by default it exits the process. The adapter
// turns it into an exception so that a request the engine fails on is answered, and the process serves on.
struct EngineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
static void throw_engine_error(const std::string& message) { throw EngineError(message); }

static Counts counts_of(const std::vector<az::TileColor>& tiles) {
  Counts counts{};
  for (auto tile : tiles)
    if (tile != az::TileColor::kFirstPlayer) counts[static_cast<int>(tile)]++;
  return counts;
}

// ---------------------------------------------------------------------------------------------------------
class Table {
 public:
  explicit Table(int seed) : seed_(seed) {}

  bool has_game() const { return state_ != nullptr; }

  // new_game: the engine's own game and initial state for the player count; its constructor deals at once
  // (azul.cc:131-156), so the adapter takes that deal back and keeps the phase `deal` until the protocol deals.
  json new_game(const json& request) {
    NewGame asked = read_new_game(request);
    const std::string& variant = asked.variant;
    int start = asked.start_player;
    long long n = asked.players;
    std::shared_ptr<const open_spiel::Game> game;
    try {  // the engine checks the player count itself (azul.cc:1063-1064)
      game = load_game(static_cast<int>(std::max(-1000LL, std::min(1000LL, n))));
    } catch (const EngineError& error) {
      throw refuse("bad_request", "", std::string("the engine cannot set up this game: ") + error.what());
    }
    if (variant == "grey") throw refuse("unsupported", "", "OpenSpiel's Azul has the coloured wall only");
    if (start < 0 || start >= n)
      throw refuse("bad_request", "SETUP-5", "start_player " + std::to_string(start) + " is no seat of a " +
                                                 std::to_string(n) + "-player game");
    auto state = new_state(game);
    take_back_first_deal(*state);
    // The engine always starts with seat 0 (current_player_ and first_player_next_round_ are 0, azul.cc:131-140).
    state->current_player_ = start;
    state->first_player_next_round_ = start;
    install(game, std::move(state), true, start);
    return state_json();
  }

  json load_state(const json& request) {
    if (!request.contains("state")) throw refuse("bad_request", "", "state: missing");
    const json& doc = request["state"];
    std::vector<std::string> problems;
    Loaded loaded;
    if (!read_document(doc, loaded, problems)) throw refuse("bad_request", "", "state: " + join(problems));
    if (loaded.variant == "grey") throw refuse("unsupported", "", "OpenSpiel's Azul has the coloured wall only");
    check(loaded, problems);
    if (!problems.empty()) throw refuse("bad_request", "", "state: " + join(problems));
    if (loaded.phase == "over")
      throw refuse("unsupported", "",
                   "a finished game: the engine keeps each score without its end bonuses and adds them only "
                   "when asked for the result (CalculateScore, azul.cc:536-591), so a final score cannot be "
                   "split back");
    std::shared_ptr<const open_spiel::Game> game;
    try {
      game = load_game(loaded.players);
    } catch (const EngineError& error) {
      throw refuse("bad_request", "", std::string("the engine cannot set up this game: ") + error.what());
    }
    auto state = new_state(game);
    int nf = 2 * loaded.players + 1;
    for (int f = 0; f < nf; ++f) state->factories_[f].tiles = loaded.factories[f];
    state->center_pile_.tiles = loaded.centre;
    // The engine's bag is a list it pops from the end; a loaded bag is a multiset, put in an order drawn from
    // a generator seeded by --seed and the position (the engine itself shuffles its bag once, at set-up).
    state->bag_.clear();
    for (int c = 0; c < 5; ++c) state->bag_.insert(state->bag_.end(), loaded.bag[c], static_cast<az::TileColor>(c));
    std::mt19937 rng(static_cast<uint32_t>(fnv1a("bag " + std::to_string(seed_) + " " + doc.dump())));
    std::shuffle(state->bag_.begin(), state->bag_.end(), rng);
    state->discard_pile_.clear();
    for (int c = 0; c < 5; ++c)
      state->discard_pile_.insert(state->discard_pile_.end(), loaded.lid[c], static_cast<az::TileColor>(c));
    for (int p = 0; p < loaded.players; ++p) {
      auto& board = state->player_boards_[p];
      const auto& in = loaded.boards[p];
      board.score = in.score;
      for (int r = 0; r < 5; ++r) {
        board.pattern_lines[r].count = static_cast<int>(in.lines[r].size());
        board.pattern_lines[r].color =
            in.lines[r].empty() ? az::TileColor::kBlue : static_cast<az::TileColor>(letter_index(in.lines[r][0]));
        for (int c = 0; c < 5; ++c) board.wall[r][c] = in.wall[r][c] != '.';
      }
      board.floor_line.clear();
      for (char c : in.floor)
        board.floor_line.push_back(c == 'M' ? az::TileColor::kFirstPlayer : static_cast<az::TileColor>(letter_index(c)));
      // The marker taken onto a full floor: the engine pushes it behind the seventh space (azul.cc:346-352).
      if (loaded.marker == p && loaded.phase == "offer" && in.floor.find('M') == std::string::npos)
        board.floor_line.push_back(az::TileColor::kFirstPlayer);
    }
    state->current_player_ = loaded.turn;
    state->first_player_tile_available_ = loaded.marker < 0;
    // Until the centre is first taken, the engine's first_player_next_round_ still names this round's start
    // player (it is set only by that take, azul.cc:347-352, and read at the round's end, azul.cc:423).
    state->first_player_next_round_ = loaded.marker >= 0 ? loaded.marker : loaded.start_player;
    state->round_number_ = loaded.round;
    state->needs_bag_shuffle_ = false;
    state->game_ended_ = false;
    install(game, std::move(state), loaded.phase == "deal", loaded.start_player);
    return state_json();
  }

  json deal(const json& request) {
    require_game();
    if (request.contains("factories") && !request["factories"].is_null()) return deal_given(request["factories"]);
    if (!deal_due_) throw refuse("illegal_move", "DEAL-1", "no deal is due: the round is under way or over");
    engine_deal(*state_);
    return state_json();
  }

  json legal_moves() {
    require_game();
    json moves = json::array();
    if (deal_due_ || state_->IsTerminal()) return moves;
    for (open_spiel::Action action : state_->LegalActions()) moves.push_back(move_text(action));
    return moves;
  }

  json play(const json& request) {
    require_game();
    if (!request.contains("move") || !request["move"].is_string()) throw refuse("bad_request", "", "move: missing");
    std::string move = request["move"].get<std::string>();
    if (!well_formed(move)) throw refuse("bad_request", "", move + ": not a move in the notation");
    if (move[1] == '@')
      throw refuse("illegal_move", "", move + ": the coloured wall has no placements (OpenSpiel's Azul tiles by itself)");
    bool from_centre = move[0] == 'C';
    int factory = from_centre ? -1 : move[0] - '1';
    int colour = letter_index(move[1]);
    int line = move[2] == 'F' ? -1 : move[2] - '1';
    if (!from_centre && factory >= static_cast<int>(state_->factories_.size()))
      throw refuse("illegal_move", "",
                   move + ": the engine's actions name factories 1 to " + std::to_string(state_->factories_.size()) +
                       " in this game");
    open_spiel::Action action = state_->EncodeAction(from_centre, factory, static_cast<az::TileColor>(colour), line);
    // The engine changes its state as it goes: play on a copy, keep it only when the move was played.
    auto copy = clone(*state_);
    std::vector<az::TileColor> bag_before = copy->bag_;
    int round_before = copy->round_number_;
    // While a deal is due the engine's factories and centre are empty, so its own check refuses every take.
    try {
      copy->ApplyActionWithLegalityCheck(action);
    } catch (const EngineError& error) {
      std::string text = error.what();
      if (text.find("with illegal action") != std::string::npos)
        throw refuse("illegal_move", "", move + ": " + text);
      throw;  // any other failure of the engine is `internal`
    }
    bool dealt = !copy->IsTerminal() && copy->round_number_ != round_before;
    if (dealt) {  // the round's tiling is done and the engine dealt the next round at once: take that deal back
      undo_deal(*copy, bag_before);
      start_player_ = copy->current_player_;
    }
    state_ = std::move(copy);
    deal_due_ = dealt;
    return state_json();
  }

  json state_json() const {
    const az::AzulState& s = *state_;
    int n = s.num_players_;
    bool over = s.IsTerminal();
    json doc;
    doc["format"] = "azul-state/1";
    doc["variant"] = "colour";
    doc["players"] = n;
    doc["round"] = s.round_number_;
    doc["phase"] = over ? "over" : deal_due_ ? "deal" : "offer";
    doc["turn"] = s.current_player_;
    doc["start_player"] = deal_due_ ? s.current_player_ : start_player_;
    if (s.first_player_tile_available_)
      doc["marker"] = "centre";
    else
      doc["marker"] = s.first_player_next_round_;
    json factories = json::array();
    for (const auto& factory : s.factories_) {
      Counts counts;
      std::copy(factory.tiles.begin(), factory.tiles.end(), counts.begin());
      factories.push_back(counts_text(counts));
    }
    doc["factories"] = factories;
    Counts centre;
    std::copy(s.center_pile_.tiles.begin(), s.center_pile_.tiles.end(), centre.begin());
    doc["centre"] = counts_text(centre);
    doc["bag"] = counts_text(counts_of(s.bag_));
    // The engine's floor is a list without an end: tiles past its seventh space wait there, unscored, until the
    // tiling discards them (azul.cc:371-395, 503-515). azul-state/1 puts them in the lid at once.
    Counts lid = counts_of(s.discard_pile_);
    json boards = json::array();
    std::vector<double> returns;
    if (over) returns = s.Returns();
    for (int p = 0; p < n; ++p) {
      const auto& board = s.player_boards_[p];
      json b;
      b["score"] = over ? s.CalculateScore(p) : board.score;
      json lines = json::array(), wall = json::array();
      for (int r = 0; r < 5; ++r) {
        const auto& line = board.pattern_lines[r];
        lines.push_back(std::string(line.count, line.count ? kLetters[static_cast<int>(line.color)] : '.'));
        std::string row;
        for (int c = 0; c < 5; ++c) row += board.wall[r][c] ? kLetters[static_cast<int>(az::kWallPattern[r][c])] : '.';
        wall.push_back(row);
      }
      std::string floor;
      for (size_t i = 0; i < board.floor_line.size(); ++i) {
        az::TileColor tile = board.floor_line[i];
        if (i < 7)
          floor += tile == az::TileColor::kFirstPlayer ? 'M' : kLetters[static_cast<int>(tile)];
        else if (tile != az::TileColor::kFirstPlayer)
          lid[static_cast<int>(tile)]++;
      }
      b["lines"] = lines;
      b["wall"] = wall;
      b["floor"] = floor;
      boards.push_back(b);
    }
    doc["lid"] = counts_text(lid);
    doc["boards"] = boards;
    if (over) {
      // The engine names no winner; its Returns (azul.cc:781-882) gives the most to the seats with the top score
      // that also have the most complete rows among those, and the same to seats tied on both.
      json winners = json::array();
      double best = *std::max_element(returns.begin(), returns.end());
      for (int p = 0; p < n; ++p)
        if (returns[p] == best) winners.push_back(p);
      doc["winners"] = winners;
    } else {
      doc["winners"] = nullptr;
    }
    return doc;
  }

 private:
  int seed_;
  std::shared_ptr<const open_spiel::Game> game_;
  std::unique_ptr<az::AzulState> state_;
  bool deal_due_ = false;
  int start_player_ = 0;

  void require_game() const {
    if (!state_) throw refuse("bad_request", "", "no game yet: send new_game or load_state first");
  }

  std::shared_ptr<const open_spiel::Game> load_game(int players) const {
    return open_spiel::LoadGame("azul", {{"num_players", open_spiel::GameParameter(players)},
                                         {"rng_seed", open_spiel::GameParameter(seed_)}});
  }

  static std::unique_ptr<az::AzulState> new_state(const std::shared_ptr<const open_spiel::Game>& game) {
    std::unique_ptr<open_spiel::State> state = game->NewInitialState();
    return std::unique_ptr<az::AzulState>(static_cast<az::AzulState*>(state.release()));
  }

  static std::unique_ptr<az::AzulState> clone(const az::AzulState& state) {
    std::unique_ptr<open_spiel::State> copy = state.Clone();
    return std::unique_ptr<az::AzulState>(static_cast<az::AzulState*>(copy.release()));
  }

  void install(std::shared_ptr<const open_spiel::Game> game, std::unique_ptr<az::AzulState> state, bool deal_due,
               int start) {
    game_ = std::move(game);
    state_ = std::move(state);
    deal_due_ = deal_due;
    start_player_ = start;
  }

  // The constructor's deal popped the factories' tiles from the end of the shuffled bag, factory by factory
  // (FillFactories, azul.cc:186-194); putting them back at the end, the last factory first, gives a bag from
  // which the engine's own FillFactories deals the same factories again.
  static void take_back_first_deal(az::AzulState& state) {
    for (int f = static_cast<int>(state.factories_.size()) - 1; f >= 0; --f) {
      auto& tiles = state.factories_[f].tiles;
      for (int c = 4; c >= 0; --c)
        for (int k = 0; k < tiles[c]; ++k) state.bag_.push_back(static_cast<az::TileColor>(c));
      tiles.fill(0);
    }
    state.needs_bag_shuffle_ = false;
  }

  // After a round's tiling the engine dealt at once (azul.cc:422-426); the tiling touched no tile of the bag, so
  // the bag as it was before the move, with the factories emptied, is the position before that deal. A refill
  // from the discard pile waits at the engine's chance node and has not happened yet.
  static void undo_deal(az::AzulState& state, const std::vector<az::TileColor>& bag_before) {
    state.bag_ = bag_before;
    for (auto& factory : state.factories_) factory.tiles.fill(0);
    state.needs_bag_shuffle_ = false;
  }

  // The engine's deal: SetupNewRound fills the factories from the end of the bag; when the bag runs out with the
  // discard pile not empty, the engine waits at a chance node whose one outcome (0) pours the discard pile into
  // the bag, shuffles it with the game's seeded generator and fills on (azul.cc:196-210, 311-331).
  void engine_deal(az::AzulState& state) {
    (state.*get(SetupNewRoundTag{}))();
    if (state.needs_bag_shuffle_) state.ApplyAction(0);
    deal_due_ = false;
    start_player_ = state.current_player_;
  }

  // A given deal: order the bag (and, when it runs out, the discard pile before the engine's seeded shuffle) so
  // that the engine's own draw makes the factories asked for, let the engine deal, and keep the deal only if it
  // made them. The engine cannot be asked for a deal, nor refuse one: a deal its draw cannot make from this bag
  // and discard pile is refused with illegal_move, and the position is left as it was.
  json deal_given(const json& asked) {
    if (!asked.is_array()) throw refuse("bad_request", "", "factories: expected a list of strings");
    std::vector<Counts> wanted;
    std::vector<std::string> problems;
    for (size_t i = 0; i < asked.size(); ++i) {
      Counts counts{};
      if (!asked[i].is_string() || !parse_tiles(asked[i].get<std::string>(), counts) || total(counts) > 4)
        problems.push_back("factories[" + std::to_string(i) + "]: expected up to 4 of the letters B Y R K W");
      wanted.push_back(counts);
    }
    if (asked.size() < 5 || asked.size() > 9)
      problems.push_back("factories: " + std::to_string(asked.size()) + ", expected 5 to 9");
    if (!problems.empty()) throw refuse("bad_request", "", join(problems));
    if (!deal_due_) throw refuse("illegal_move", "DEAL-1", "no deal is due: the round is under way or over");
    if (wanted.size() != state_->factories_.size())
      throw refuse("illegal_move", "SETUP-3",
                   std::to_string(wanted.size()) + " factories asked, the game has " +
                       std::to_string(state_->factories_.size()));
    az::AzulState& s = *state_;
    std::vector<az::TileColor> bag_before = s.bag_, discard_before = s.discard_pile_;
    std::string why;
    if (!arrange(s, wanted, why)) {
      s.bag_ = bag_before;
      s.discard_pile_ = discard_before;
      throw refuse("illegal_move", "", "the engine's draw cannot deal this: " + why);
    }
    engine_deal(s);
    for (size_t f = 0; f < wanted.size(); ++f) {
      Counts got;
      std::copy(s.factories_[f].tiles.begin(), s.factories_[f].tiles.end(), got.begin());
      if (got != wanted[f]) {
        std::string message = "the engine dealt " + counts_text(got) + " to factory " + std::to_string(f + 1) +
                              ", not " + counts_text(wanted[f]);
        s.bag_ = bag_before;
        s.discard_pile_ = discard_before;
        for (auto& factory : s.factories_) factory.tiles.fill(0);
        s.needs_bag_shuffle_ = false;
        deal_due_ = true;
        start_player_ = s.current_player_;
        throw refuse("illegal_move", "", message);
      }
    }
    return state_json();
  }

  // Orders bag and discard pile for the engine's draw: FillFactories takes up to 4 tiles a factory from the
  // end of the bag, factory by factory, while the bag lasts; then, if a factory is short and the discard pile
  // holds tiles, the chance node pours it into the bag, shuffles it with std::mt19937 seeded by the game's
  // rng_seed, and fills each factory up to 4 from the end, in order. Returns false, saying why, when that draw
  // cannot make the factories wanted.
  bool arrange(az::AzulState& s, const std::vector<Counts>& wanted, std::string& why) const {
    Counts left = counts_of(s.bag_), lid_left = counts_of(s.discard_pile_);
    std::vector<az::TileColor> from_bag, from_lid;  // in the order drawn
    std::vector<Counts> bag_part(wanted.size());
    for (size_t f = 0; f < wanted.size(); ++f) {  // the first pass, from the bag
      std::string at = "factory " + std::to_string(f + 1);
      if (total(left) <= 4) {
        bag_part[f] = left;  // the bag runs out here: all of it goes to this factory
      } else if (total(wanted[f]) == 4) {
        bag_part[f] = wanted[f];
      } else {
        why = at + " would get 4 tiles from the bag";
        return false;
      }
      for (int c = 0; c < 5; ++c) {
        if (bag_part[f][c] > wanted[f][c] || bag_part[f][c] > left[c]) {
          why = at + " asks tiles the bag does not hold, or leaves out tiles the bag would give it";
          return false;
        }
      }
      for (int c = 0; c < 5; ++c) {
        left[c] -= bag_part[f][c];
        from_bag.insert(from_bag.end(), bag_part[f][c], static_cast<az::TileColor>(c));
      }
    }
    bool short_after_bag = false;
    for (const auto& part : bag_part) short_after_bag |= total(part) < 4;
    bool refill = total(left) == 0 && total(lid_left) > 0 && short_after_bag;
    for (size_t f = 0; f < wanted.size(); ++f) {  // the second pass, from the discard pile poured into the bag
      std::string at = "factory " + std::to_string(f + 1);
      int room = 4 - total(bag_part[f]);
      int take = refill ? std::min(room, total(lid_left)) : 0;
      Counts part{};
      for (int c = 0; c < 5; ++c) part[c] = wanted[f][c] - bag_part[f][c];
      if (total(part) != take) {
        why = at + " would get " + std::to_string(total(bag_part[f]) + take) +
              " tiles (the bag first, then the discard pile poured into it)";
        return false;
      }
      for (int c = 0; c < 5; ++c) {
        if (part[c] > lid_left[c]) {
          why = at + " asks tiles that neither the bag nor the discard pile holds";
          return false;
        }
      }
      for (int c = 0; c < 5; ++c) {
        lid_left[c] -= part[c];
        from_lid.insert(from_lid.end(), part[c], static_cast<az::TileColor>(c));
      }
    }
    // The bag: the tiles not drawn first (in the order they had), then the drawn ones, the first drawn last.
    std::vector<az::TileColor> new_bag;
    Counts keep = left;
    for (auto tile : s.bag_) {
      int c = static_cast<int>(tile);
      if (keep[c] > 0) {
        keep[c]--;
        new_bag.push_back(tile);
      }
    }
    new_bag.insert(new_bag.end(), from_bag.rbegin(), from_bag.rend());
    s.bag_ = new_bag;
    if (refill) {
      // The order wanted after the engine's shuffle: tiles not drawn first, then the drawn ones, the first last.
      std::vector<az::TileColor> target;
      for (int c = 0; c < 5; ++c) target.insert(target.end(), lid_left[c], static_cast<az::TileColor>(c));
      target.insert(target.end(), from_lid.rbegin(), from_lid.rend());
      // std::shuffle moves positions by the generator alone: shuffling the indices 0..n-1 on a generator seeded
      // as the engine seeds its own (azul.cc:317-320) tells where each position of the discard pile ends up.
      std::vector<int> index(target.size());
      std::iota(index.begin(), index.end(), 0);
      const auto* game = static_cast<const az::AzulGame*>(s.GetGame().get());
      std::mt19937 rng(game->GetOriginalSeed());
      std::shuffle(index.begin(), index.end(), rng);
      std::vector<az::TileColor> pile(target.size());
      for (size_t j = 0; j < index.size(); ++j) pile[index[j]] = target[j];
      s.discard_pile_ = pile;
    }
    return true;
  }

  std::string move_text(open_spiel::Action action) const {
    auto decoded = state_->DecodeAction(action);
    std::string text;
    text += decoded.from_center ? 'C' : static_cast<char>('1' + decoded.factory_id);
    text += kLetters[static_cast<int>(decoded.color)];
    text += decoded.destination < 0 ? 'F' : static_cast<char>('1' + decoded.destination);
    return text;
  }

  // What the engine's types cannot hold, and what no game reaches in the simple ways README.md lists; every
  // problem at once. The engine has no loader and checks none of this itself.
  static void check(const Loaded& d, std::vector<std::string>& problems) {
    auto bad = [&](const std::string& text) { problems.push_back(text); };
    if (d.format != "azul-state/1") bad("format: \"" + d.format + "\", expected azul-state/1");
    if (d.variant != "colour") bad("variant: \"" + d.variant + "\", expected colour or grey");
    if (d.players < 2 || d.players > 4) {
      bad("players: " + std::to_string(d.players) + ", expected 2, 3 or 4");
      return;
    }
    auto seat = [&](int n) { return n >= 0 && n < d.players; };
    if (d.round < 1) bad("round: expected 1 or more");
    if (d.phase != "deal" && d.phase != "offer" && d.phase != "over")
      bad("phase: \"" + d.phase + "\", expected deal, offer or over (tiling is a grey-wall phase)");
    if (!seat(d.turn) || !seat(d.start_player)) bad("turn / start_player: not seats of the game");
    if (d.marker >= d.players) bad("marker: not a seat of the game");
    if (static_cast<int>(d.factories.size()) != 2 * d.players + 1)
      bad("factories: " + std::to_string(d.factories.size()) + ", a " + std::to_string(d.players) +
          "-player game has " + std::to_string(2 * d.players + 1) + " (SETUP-3)");
    if (static_cast<int>(d.boards.size()) != d.players) bad("boards: expected one per player");
    Counts all{};
    auto add = [&](const Counts& c) {
      for (int i = 0; i < 5; ++i) all[i] += c[i];
    };
    int on_offer = total(d.centre);
    for (const auto& f : d.factories) {
      add(f);
      on_offer += total(f);
    }
    add(d.centre);
    add(d.bag);
    add(d.lid);
    int shown = -1;
    for (size_t i = 0; i < d.boards.size(); ++i) {
      const auto& b = d.boards[i];
      std::string at = "boards[" + std::to_string(i) + "]";
      if (b.score < 0) bad(at + ".score: never below 0 (SCORE-5)");
      if (b.lines.size() != 5 || b.wall.size() != 5) continue;
      for (int r = 0; r < 5; ++r) {
        const std::string& row = b.wall[r];
        if (row.size() != 5) {
          bad(at + ".wall[" + std::to_string(r) + "]: expected 5 spaces");
          continue;
        }
        for (int c = 0; c < 5; ++c) {
          char printed = kLetters[static_cast<int>(az::kWallPattern[r][c])];
          if (row[c] == '.') continue;
          if (row[c] != printed) bad(at + ".wall[" + std::to_string(r) + "]: " + row[c] + " on the space printed " + printed + " (WALL-1)");
          else all[letter_index(printed)]++;
        }
        const std::string& line = b.lines[r];
        Counts lc{};
        if (!parse_tiles(line, lc) || static_cast<int>(line.size()) > r + 1) {
          bad(at + ".lines[" + std::to_string(r) + "]: expected up to " + std::to_string(r + 1) + " of the letters B Y R K W");
          continue;
        }
        add(lc);
        if (!line.empty() && std::count(line.begin(), line.end(), line[0]) != static_cast<long>(line.size())) {
          bad(at + ".lines[" + std::to_string(r) + "]: one colour per line (OFFER-8)");
        } else if (!line.empty()) {
          for (int c = 0; c < 5; ++c)
            if (kLetters[static_cast<int>(az::kWallPattern[r][c])] == line[0] && row[c] != '.')
              bad(at + ".lines[" + std::to_string(r) + "]: its colour is on wall row " + std::to_string(r + 1) + " already (OFFER-9)");
        }
      }
      long markers = std::count(b.floor.begin(), b.floor.end(), 'M');
      if (markers > 1) bad(at + ".floor: one marker at most");
      if (markers == 1) shown = static_cast<int>(i);
      std::string tiles_only = b.floor;
      tiles_only.erase(std::remove(tiles_only.begin(), tiles_only.end(), 'M'), tiles_only.end());
      Counts fc{};
      if (!parse_tiles(tiles_only, fc) || b.floor.size() > 7) bad(at + ".floor: expected up to 7 spaces of B Y R K W and M");
      add(fc);
    }
    for (int c = 0; c < 5; ++c)
      if (all[c] != 20)
        bad(std::to_string(all[c]) + " " + kLetters[c] + " tiles, expected 20 of each colour (SETUP-4)");
    if (d.phase != "over" && !d.winners_null) bad("winners: null until the game is over");
    if (d.phase == "deal" && (on_offer > 0 || d.marker >= 0 || shown >= 0))
      bad("phase deal: the factories and the centre are empty and the marker is in the centre");
    if (d.phase == "offer") {
      if (on_offer == 0) bad("phase offer: no tile left to take, the tiling is due (OFFER-14)");
      if (shown >= 0 && shown != d.marker) bad("boards[" + std::to_string(shown) + "].floor shows the marker, but it is not that seat's");
      if (d.marker >= 0 && shown < 0 && d.marker < static_cast<int>(d.boards.size()) &&
          d.boards[d.marker].floor.size() < 7)
        bad("marker " + std::to_string(d.marker) + ": its floor does not show it and is not full (FLOOR-5)");
    }
  }
};

// ---------------------------------------------------------------------------------------------------------
int main(int argc, char** argv) {
  int seed = 0;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--seed" && i + 1 < argc) seed = std::stoi(argv[++i]);
  }
  open_spiel::SetErrorHandler(throw_engine_error);
  Table table(seed);
  std::string line;
  while (std::getline(std::cin, line)) {
    json request, id = nullptr;
    try {
      request = json::parse(line);
    } catch (const std::exception& error) {
      refusal(nullptr, "bad_request", "", std::string("not JSON: ") + error.what());
      continue;
    }
    if (!request.is_object()) {
      refusal(nullptr, "bad_request", "", "a request is a JSON object");
      continue;
    }
    if (request.contains("cmd") && request["cmd"] == "quit") break;
    id = id_of(request);
    if (id.is_null()) {
      refusal(nullptr, "bad_request", "", "id: missing, or not an integer or a string");
      continue;
    }
    try {
      std::string cmd = request.contains("cmd") && request["cmd"].is_string() ? request["cmd"].get<std::string>() : "";
      json answer = {{"id", id}, {"ok", true}};
      if (cmd == "hello") {
        if (!request.contains("protocol") || !request["protocol"].is_number_integer() || request["protocol"] != 1)
          throw refuse("bad_request", "", "this adapter speaks protocol 1");
        answer["name"] = "open-spiel-azul (C++, via adapter)";
        answer["version"] = "38338fd";
        answer["protocol"] = 1;
        answer["capabilities"] = {{"players", {2, 3, 4}}, {"variants", {"colour"}}, {"load_state", true}, {"deal", true}};
      } else if (cmd == "new_game") {
        answer["state"] = table.new_game(request);
      } else if (cmd == "load_state") {
        answer["state"] = table.load_state(request);
      } else if (cmd == "deal" || cmd == "play" || cmd == "legal_moves" || cmd == "state") {
        if (!table.has_game()) throw refuse("bad_request", "", "no game yet: send new_game or load_state first");
        if (cmd == "deal") answer["state"] = table.deal(request);
        else if (cmd == "play") answer["state"] = table.play(request);
        else if (cmd == "legal_moves") answer["moves"] = table.legal_moves();
        else answer["state"] = table.state_json();
      } else {
        throw refuse("bad_request", "", "unknown cmd");
      }
      reply(answer);
    } catch (const Refusal& r) {
      refusal(id, r.code, r.rule, r.message);
    } catch (const EngineError& error) {
      std::cerr << "engine error: " << error.what() << std::endl;
      refusal(id, "internal", "", std::string("the engine failed: ") + error.what());
    } catch (const std::exception& error) {
      std::cerr << "adapter error: " << error.what() << std::endl;
      refusal(id, "internal", "", std::string("the adapter failed: ") + error.what());
    }
  }
  return 0;
}
