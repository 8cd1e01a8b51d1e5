// Protocol-v1 adapter for oliverosz/Azul (C++, a command-line Azul on the grey wall), unchanged.
//
// One JSON request per line on standard input, one reply per line on standard output (README.md beside this
// file says what the engine offers and what this adapter adds). The engine is a console program: its functions
// read their choices from std::cin and print boards and prompts on std::cout. This adapter is compiled together
// with the engine's Azul.cpp, Player.cpp and Utils.cpp (not its main.cpp) and calls those functions on a copy of
// the game, with std::cin answered from a script (the move's choices, and Enter wherever the engine asks for it)
// and std::cout captured. Every rule is the engine's: a take is its pickTiles, a placement its placeTilesToWall,
// the floor its scoreFloor, the deal its prepareRound and drawTileFromBag, the end its isGameOver and
// scoreBonusPoints, the winners the places its printScoreboard prints. The engine refuses a choice by printing
// "Error: ..." and asking again: the adapter then answers illegal_move and drops the copy.
//
// Usage: adapter [--seed N]     (N seeds the random deals; default 0)

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol_v1.hpp"  // adapters/protocol_v1.hpp: what the C++ adapters share
#include "Azul.h"
#include "Player.h"

using namespace protocol_v1;  // NOLINT: the shared part reads as this file's own

// Functions of the engine that its headers do not declare (they have external linkage in Azul.cpp and
// Player.cpp): the deal of a round, which playRound calls first (Azul.cpp:46-61).
void prepareRound(Azul&);

// ---------------------------------------------------------------------------------------------------------
// The engine draws each tile with rand() % (tiles in the bag) (Azul.cpp:105). The adapter supplies rand: for a
// given deal it returns the index that makes the engine's own draw pick the colour asked for; for a random deal,
// a generator seeded from --seed and the position, so that a deal does not depend on what ran before. srand
// (called by the engine's init with the time, Azul.cpp:17) is left without effect.
namespace draw {
Azul* dealing = nullptr;                 // the game whose factories are being filled
std::vector<std::array<int, 5>> wanted;  // a given deal: the tiles still to draw for each factory
int draws = 0;                           // the draws made so far: the engine fills 4 a factory, in order
bool given = false, impossible = false;
std::mt19937 generator(0);
}  // namespace draw

int rand() noexcept {
  if (!draw::given) return static_cast<int>(draw::generator() % (static_cast<unsigned>(RAND_MAX) + 1u));
  // The engine calls rand only while its bag (refilled from the lid when empty) holds tiles, 4 draws a factory.
  size_t factory = static_cast<size_t>(draw::draws++ / 4);
  int colour = -1;  // a factory is a multiset: any tile of it that the bag holds now
  for (int c = 0; c < 5 && colour < 0 && draw::dealing && factory < draw::wanted.size(); ++c)
    if (draw::wanted[factory][c] > 0 && draw::dealing->bag[c] > 0) colour = c;
  if (colour < 0) {
    draw::impossible = true;
    return 0;
  }
  draw::wanted[factory][colour]--;
  int before = 0;  // the engine walks the colours in order, subtracting each colour's count (Azul.cpp:106-110)
  for (int c = 0; c < colour; ++c) before += draw::dealing->bag[c];
  return before;
}

void srand(unsigned) noexcept {}

// ---------------------------------------------------------------------------------------------------------

// The engine asked for a choice the script does not hold: it waits for the next move.
struct WaitsForChoice {};
// The engine printed an error and asks again: it refused the choice.
struct EngineRefused {
  std::string message;
};

// std::cin for the engine: the script's lines, then Enter wherever the engine's last line of output asks for it
// ("Press Enter / Return ..."), and nothing more: a read past that means the engine waits for a choice.
class ScriptBuffer : public std::streambuf {
 public:
  ScriptBuffer(std::deque<std::string> lines, const std::ostringstream& output)
      : lines_(std::move(lines)), output_(output) {}

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    std::string text = output_.str();
    auto error = text.find("Error:");
    if (error != std::string::npos) {
      auto end = text.find('\n', error);
      throw EngineRefused{text.substr(error, end == std::string::npos ? std::string::npos : end - error)};
    }
    auto last = text.rfind('\n', text.size() > 0 ? text.size() - 1 : 0);
    std::string prompt = last == std::string::npos ? text : text.substr(last + 1);
    // Enter once per prompt (a second read with no new output is not answered with Enter again); the script's
    // next choice only when the engine asks for a choice.
    if (prompt.find("Enter / Return") != std::string::npos && text.size() != answered_at_) {
      answered_at_ = text.size();
      current_ = "\n";
    } else if (!lines_.empty()) {
      current_ = lines_.front() + "\n";
      lines_.pop_front();
    } else {
      throw WaitsForChoice{};
    }
    setg(&current_[0], &current_[0], &current_[0] + current_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  std::deque<std::string> lines_;
  const std::ostringstream& output_;
  std::string current_;
  size_t answered_at_ = static_cast<size_t>(-1);
};

enum class Outcome { kDone, kWaits };

// Runs one of the engine's functions with std::cin scripted and std::cout captured. Returns kDone when it
// returned, kWaits when it stopped at a choice the script does not hold (the game is left as the engine had it
// at that prompt); throws EngineRefused when the engine refused a choice.
template <typename Call>
static Outcome run_engine(Call call, std::deque<std::string> script, std::string* output = nullptr) {
  std::ostringstream captured;
  ScriptBuffer input(std::move(script), captured);
  std::streambuf* old_in = std::cin.rdbuf(&input);
  std::streambuf* old_out = std::cout.rdbuf(captured.rdbuf());
  auto old_mask = std::cin.exceptions();
  std::cin.clear();
  std::cin.exceptions(std::ios::badbit);  // an exception from the buffer reaches us (istream rethrows it)
  auto restore = [&]() {
    std::cin.exceptions(std::ios::goodbit);
    std::cin.clear();
    std::cin.rdbuf(old_in);
    std::cout.rdbuf(old_out);
    std::cin.exceptions(old_mask);
    if (output) *output = captured.str();
  };
  try {
    call();
  } catch (const WaitsForChoice&) {
    restore();
    return Outcome::kWaits;
  } catch (...) {
    restore();
    throw;
  }
  restore();
  return Outcome::kDone;
}

// ---------------------------------------------------------------------------------------------------------
// Colours: the engine's letters A to E are the indices of its bag, counts and centre; the adapter maps them to
// the protocol's B Y R K W in that order, kLetters (the grey wall prints no colour, so any one-to-one map is
// the game).

// The engine's game is a struct with raw arrays (Azul.h, Player.h); a Player points into its own pattern array
// (Player::lines), so players are never copied as objects: the copy allocates them as init does and copies the
// arrays. freeMemory (Azul.cpp:37-44) frees what init allocated.
static Azul* allocate(int players) {
  Azul* game = new Azul;
  game->playerCount = players;
  game->players = new Player[players];
  for (int i = 0; i < players; ++i) game->players[i].id = i + 1;
  game->factories = new char*[getFactoryCount(*game)];
  for (int i = 0; i < getFactoryCount(*game); ++i) {
    game->factories[i] = new char[4];
    std::memset(game->factories[i], ' ', 4);
  }
  return game;
}

static void release(Azul* game) {
  if (!game) return;
  if (game->players) freeMemory(*game);
  delete game;
}

static Azul* clone(const Azul& from) {
  Azul* game = allocate(from.playerCount);
  game->startingPlayer = from.startingPlayer;
  for (int i = 0; i < getFactoryCount(from); ++i) std::memcpy(game->factories[i], from.factories[i], 4);
  std::memcpy(game->bag, from.bag, sizeof from.bag);
  std::memcpy(game->discarded, from.discarded, sizeof from.discarded);
  std::memcpy(game->centerPile, from.centerPile, sizeof from.centerPile);
  game->startPlayerMarker = from.startPlayerMarker;
  for (int p = 0; p < from.playerCount; ++p) {
    Player& to = game->players[p];
    const Player& source = from.players[p];
    to.id = source.id;
    to.points = source.points;
    std::memcpy(to.wall, source.wall, sizeof source.wall);
    std::memcpy(to.pattern, source.pattern, sizeof source.pattern);
    std::memcpy(to.floor, source.floor, sizeof source.floor);
  }
  return game;
}

struct Game {  // owns an engine game
  Azul* az = nullptr;
  Game() = default;
  explicit Game(Azul* game) : az(game) {}
  Game(const Game& other) : az(other.az ? clone(*other.az) : nullptr) {}
  Game& operator=(Game other) {
    std::swap(az, other.az);
    return *this;
  }
  ~Game() { release(az); }
};

// ---------------------------------------------------------------------------------------------------------
class Table {
 public:
  explicit Table(int seed) : seed_(seed) {}

  bool has_game() const { return game_.az != nullptr; }

  // new_game: the engine's init reads the player count (readBoundedInt(2, 4), Azul.cpp:19-20) and refuses any
  // other; it has no start player to choose (startingPlayer is 0, Azul.h), so the adapter sets the seat asked.
  json new_game(const json& request) {
    NewGame asked = read_new_game(request);
    const std::string& variant = asked.variant;
    int start = asked.start_player;
    long long n = asked.players;
    Game game(new Azul);
    try {
      run_engine([&]() { init(*game.az); }, {std::to_string(n)});
    } catch (const EngineRefused& refused) {
      game.az->players = nullptr;  // init allocated nothing
      throw refuse("bad_request", "", "the engine cannot set up this game: " + refused.message);
    }
    if (variant == "colour") throw refuse("unsupported", "", "oliverosz/Azul plays the grey wall only");
    if (start < 0 || start >= n)
      throw refuse("bad_request", "SETUP-5", "start_player " + std::to_string(start) + " is no seat of a " +
                                                 std::to_string(n) + "-player game");
    game.az->startingPlayer = start;
    // init allocates the factories without filling them (Azul.cpp:32-34); the engine fills them before it reads
    // them, at its first deal. Until then the adapter shows them empty.
    for (int f = 0; f < getFactoryCount(*game.az); ++f) std::memset(game.az->factories[f], ' ', 4);
    game_ = game;
    phase_ = Phase::kDeal;
    round_ = 1;
    turn_ = start_player_ = start;
    return state_json();
  }

  json load_state(const json& request) {
    if (!request.contains("state")) throw refuse("bad_request", "", "state: missing");
    const json& doc = request["state"];
    std::vector<std::string> problems;
    Loaded loaded;
    if (!read_document(doc, loaded, problems)) throw refuse("bad_request", "", "state: " + join(problems));
    check(loaded, problems);
    if (!problems.empty()) throw refuse("bad_request", "", "state: " + join(problems));
    if (loaded.variant == "colour") throw refuse("unsupported", "", "oliverosz/Azul plays the grey wall only");
    if (loaded.phase == "tiling")
      throw refuse("unsupported", "",
                   "a tiling under way: the engine tiles a board in one call (placeTilesToWall), asking for each "
                   "line's column as it goes, and cannot resume another's tiling");
    Game game(allocate(loaded.players));
    Azul& az = *game.az;
    for (int f = 0; f < getFactoryCount(az); ++f) {
      std::string tiles = counts_text(loaded.factories[f]);
      for (size_t j = 0; j < tiles.size(); ++j) az.factories[f][j] = static_cast<char>('A' + letter_index(tiles[j]));
    }
    for (int c = 0; c < 5; ++c) {
      az.bag[c] = loaded.bag[c];
      az.discarded[c] = loaded.lid[c];
      az.centerPile[c] = loaded.centre[c];
    }
    // startingPlayer is this round's start player until the first take from the centre makes it the marker's
    // holder (Player.cpp:37-40).
    az.startPlayerMarker = loaded.marker < 0;
    az.startingPlayer = loaded.marker >= 0 ? loaded.marker : loaded.start_player;
    for (int p = 0; p < loaded.players; ++p) {
      Player& board = az.players[p];
      const auto& in = loaded.boards[p];
      board.points = in.score;
      for (int r = 0; r < 5; ++r) {
        for (int c = 0; c < 5; ++c)
          board.wall[r][c] = in.wall[r][c] == '.' ? '.' : static_cast<char>('A' + letter_index(in.wall[r][c]));
        for (size_t i = 0; i < in.lines[r].size(); ++i)
          board.lines[r][i] = static_cast<char>('A' + letter_index(in.lines[r][i]));
      }
      for (size_t i = 0; i < in.floor.size(); ++i)
        board.floor[i] = in.floor[i] == 'M' ? 'X' : static_cast<char>('A' + letter_index(in.floor[i]));
    }
    game_ = game;
    round_ = loaded.round;
    turn_ = loaded.turn;
    start_player_ = loaded.start_player;
    phase_ = loaded.phase == "deal" ? Phase::kDeal : loaded.phase == "over" ? Phase::kOver : Phase::kOffer;
    return state_json();
  }

  json deal(const json& request) {
    if (phase_ != Phase::kDeal) throw refuse("illegal_move", "DEAL-1", "no deal is due: the round is under way or over");
    Game copy = game_;
    draw::dealing = copy.az;
    draw::wanted.clear();
    draw::draws = 0;
    draw::impossible = false;
    std::vector<std::string> asked;
    if (request.contains("factories") && !request["factories"].is_null()) {
      const json& factories = request["factories"];
      if (!factories.is_array() || factories.size() < 5 || factories.size() > 9)
        throw refuse("bad_request", "", "factories: expected a list of 5 to 9 strings");
      for (const auto& f : factories) {
        Counts counts;
        if (!f.is_string() || f.get<std::string>().size() > 4 || !parse_tiles(f.get<std::string>(), counts))
          throw refuse("bad_request", "", "factories: each is up to 4 of the letters B Y R K W");
        asked.push_back(counts_text(counts));
        draw::wanted.push_back(counts);
      }
      if (static_cast<int>(asked.size()) != getFactoryCount(*copy.az))
        throw refuse("illegal_move", "SETUP-3",
                     "a " + std::to_string(copy.az->playerCount) + "-player game has " +
                         std::to_string(getFactoryCount(*copy.az)) + " factories");
      draw::given = true;
    } else {
      draw::given = false;
      draw::generator.seed(static_cast<uint32_t>(fnv1a("deal " + std::to_string(seed_) + " " + state_json().dump())));
    }
    try {
      run_engine([&]() { prepareRound(*copy.az); }, {});
    } catch (...) {
      draw::dealing = nullptr;
      draw::given = false;
      throw;
    }
    draw::dealing = nullptr;
    if (draw::given) {
      draw::given = false;
      bool same = !draw::impossible;
      for (int f = 0; same && f < getFactoryCount(*copy.az); ++f) same = factory_text(copy.az->factories[f]) == asked[f];
      if (!same)
        throw refuse("illegal_move", "",
                     "the engine's draw (drawTileFromBag, Azul.cpp:90-112) cannot deal these factories from its bag "
                     "and lid");
    }
    game_ = copy;
    phase_ = Phase::kOffer;
    turn_ = start_player_ = game_.az->startingPlayer;
    end_offer_if_done();
    return state_json();
  }

  json legal_moves() {
    json moves = json::array();
    if (phase_ == Phase::kOffer) {
      const Azul& az = *game_.az;
      for (int source = 0; source <= getFactoryCount(az); ++source) {
        Counts held{};
        if (source == 0) {
          for (int c = 0; c < 5; ++c) held[c] = az.centerPile[c];
        } else {
          for (int j = 0; j < 4; ++j)
            if (az.factories[source - 1][j] != ' ') held[az.factories[source - 1][j] - 'A']++;
        }
        // A colour the source lacks the engine refuses (Player.cpp:46-49): only held colours are tried.
        for (int c = 0; c < 5; ++c) {
          if (held[c] == 0) continue;
          for (int line = 0; line <= 5; ++line) {
            std::string move = std::string(1, source == 0 ? 'C' : static_cast<char>('0' + source)) + kLetters[c] +
                               (line == 0 ? 'F' : static_cast<char>('0' + line));
            Game copy = game_;
            if (take(copy, move)) moves.push_back(move);
          }
        }
      }
    } else if (phase_ == Phase::kTiling) {
      for (int column = 1; column <= 5; ++column) {
        std::vector<int> columns = columns_;
        columns.push_back(column);
        Game copy = board_before_;
        int pending = 0;
        try {
          tile_board(copy, columns, pending);
        } catch (const EngineRefused&) {
          continue;
        }
        moves.push_back(std::to_string(pending_row_ + 1) + "@" + std::to_string(column));
      }
    }
    return moves;
  }

  json play(const json& request) {
    if (!request.contains("move") || !request["move"].is_string()) throw refuse("bad_request", "", "move: missing");
    std::string move = request["move"].get<std::string>();
    if (!well_formed(move)) throw refuse("bad_request", "", move + ": not a move in the notation");
    bool placement = move[1] == '@';
    if (phase_ == Phase::kDeal || phase_ == Phase::kOver)
      throw refuse("illegal_move", "OFFER-15", move + ": no move is due (a deal is due, or the game is over)");
    if (phase_ == Phase::kOffer && placement)
      throw refuse("illegal_move", "OFFER-15", move + ": no placement is pending: the offer is under way");
    if (phase_ == Phase::kTiling && !placement)
      throw refuse("illegal_move", "GREY-5", move + ": a placement of line " + std::to_string(pending_row_ + 1) +
                                                 " is pending");
    if (placement) {
      // The engine asks for the column of one line at a time, top to bottom (Player.cpp:150-203).
      if (move[0] - '1' != pending_row_)
        throw refuse("illegal_move", "GREY-5",
                     move + ": the engine asks for the column of line " + std::to_string(pending_row_ + 1));
      std::vector<int> columns = columns_;
      columns.push_back(move[2] - '0');
      Game copy = board_before_;
      int pending = 0;
      Outcome outcome;
      try {
        outcome = tile_board(copy, columns, pending);
      } catch (const EngineRefused& refused) {
        throw refuse("illegal_move", "", move + ": " + refused.message);
      }
      columns_ = columns;
      game_ = copy;
      if (outcome == Outcome::kWaits) {
        pending_row_ = pending;
      } else {
        next_board();
      }
      return state_json();
    }
    Game copy = game_;
    std::string message;
    if (!take(copy, move, &message)) throw refuse("illegal_move", "", move + ": " + message);
    game_ = copy;
    // The offer's loop: the next seat clockwise, until factories and centre are empty (Azul.cpp:69-74).
    turn_ = (turn_ + 1) % game_.az->playerCount;
    end_offer_if_done();
    return state_json();
  }

  json state_json() const {
    const Azul& az = *game_.az;
    int n = az.playerCount;
    json doc;
    doc["format"] = "azul-state/1";
    doc["variant"] = "grey";
    doc["players"] = n;
    doc["round"] = round_;
    static const char* names[] = {"deal", "offer", "tiling", "over"};
    doc["phase"] = names[static_cast<int>(phase_)];
    doc["turn"] = turn_;
    doc["start_player"] = phase_ == Phase::kDeal ? az.startingPlayer : start_player_;
    // The marker is in the centre (startPlayerMarker) or with its taker, who is startingPlayer from then on. In
    // phase deal the protocol's marker is "centre" by definition; the engine's flag says so only once it deals
    // (Azul.cpp:54), and a marker still on a floor then shows in that floor.
    if (az.startPlayerMarker || phase_ == Phase::kDeal) doc["marker"] = "centre";
    else doc["marker"] = az.startingPlayer;
    json factories = json::array();
    for (int f = 0; f < getFactoryCount(az); ++f) factories.push_back(factory_text(az.factories[f]));
    doc["factories"] = factories;
    Counts centre{}, bag{}, lid{};
    for (int c = 0; c < 5; ++c) {
      centre[c] = az.centerPile[c];
      bag[c] = az.bag[c];
      lid[c] = az.discarded[c];
    }
    doc["centre"] = counts_text(centre);
    doc["bag"] = counts_text(bag);
    doc["lid"] = counts_text(lid);
    json boards = json::array();
    for (int p = 0; p < n; ++p) {
      const Player& board = az.players[p];
      json b;
      b["score"] = board.points;
      json lines = json::array(), wall = json::array();
      for (int r = 0; r < 5; ++r) {
        std::string line;
        for (int i = 0; i <= r; ++i)
          if (board.lines[r][i] != '-') line += kLetters[board.lines[r][i] - 'A'];
        lines.push_back(line);
        std::string row;
        for (int c = 0; c < 5; ++c) row += board.wall[r][c] == '.' ? '.' : kLetters[board.wall[r][c] - 'A'];
        wall.push_back(row);
      }
      std::string floor;
      for (int i = 0; i < 7 && board.floor[i] != '_'; ++i)
        floor += board.floor[i] == 'X' ? 'M' : kLetters[board.floor[i] - 'A'];
      b["lines"] = lines;
      b["wall"] = wall;
      b["floor"] = floor;
      boards.push_back(b);
    }
    doc["boards"] = boards;
    if (phase_ == Phase::kOver) doc["winners"] = winners();
    else doc["winners"] = nullptr;
    return doc;
  }

 private:
  enum class Phase { kDeal, kOffer, kTiling, kOver };

  int seed_;
  Game game_;
  Phase phase_ = Phase::kDeal;
  int round_ = 1, turn_ = 0, start_player_ = 0;
  // The grey tiling of the board of seat turn_: the game as it was before that board's tiling, the columns
  // chosen so far, and the line whose column the engine asks for now.
  Game board_before_;
  std::vector<int> columns_;
  int pending_row_ = 0;

  static std::string factory_text(const char* factory) {
    Counts counts{};
    for (int j = 0; j < 4; ++j)
      if (factory[j] >= 'A' && factory[j] <= 'E') counts[factory[j] - 'A']++;
    return counts_text(counts);
  }

  // One take by the player to move: the engine's pickTiles (Player.cpp:26-58) answers its three prompts, the
  // factory (0 for the centre), the colour and the line (0 for the floor).
  bool take(Game& copy, const std::string& move, std::string* message = nullptr) const {
    std::string source = move[0] == 'C' ? "0" : std::string(1, move[0]);
    std::string colour(1, static_cast<char>('A' + letter_index(move[1])));
    std::string line = move[2] == 'F' ? "0" : std::string(1, move[2]);
    try {
      Outcome outcome = run_engine([&]() { pickTiles(copy.az->players[turn_], *copy.az); }, {source, colour, line});
      if (outcome == Outcome::kWaits) {
        if (message) *message = "the engine asked for more than a take";
        return false;
      }
    } catch (const EngineRefused& refused) {
      if (message) *message = refused.message;
      return false;
    }
    return true;
  }

  // The engine tiles a board in one call, placeTilesToWall (Player.cpp:148-204), asking for the column of each
  // complete line that has a legal space; the adapter runs it again from the board's start with the columns
  // chosen so far, and it stops at the next question (kWaits, `pending` the line asked) or finishes (kDone).
  Outcome tile_board(Game& copy, const std::vector<int>& columns, int& pending) const {
    std::deque<std::string> script;
    for (int c : columns) script.push_back(std::to_string(c));
    std::string output;
    Outcome outcome = run_engine([&]() { placeTilesToWall(copy.az->players[turn_], *copy.az); }, script, &output);
    if (outcome == Outcome::kWaits) {
      auto at = output.rfind(", line ");  // "Player N, line R is complete." (Player.cpp:154-155)
      if (at == std::string::npos) throw std::runtime_error("the engine waits for an unknown choice: " + output);
      pending = output[at + 7] - '1';
    }
    return outcome;
  }

  // The offer's loop runs while a factory or the centre holds a tile (Azul.cpp:69-71); then each board is tiled
  // in seat order from seat 0, its floor scored after it (Azul.cpp:76-79).
  void end_offer_if_done() {
    if (existsNonEmptyFactory(*game_.az) || !isCenterPileEmpty(*game_.az)) return;
    turn_ = -1;
    next_board();
  }

  // Scores the floor of the board just tiled (turn_, unless the tiling has not begun), then tiles the next
  // boards until one waits for a placement; after the last one, the end of the game or the next deal.
  void next_board() {
    if (turn_ >= 0) run_engine([&]() { scoreFloor(game_.az->players[turn_]); }, {});
    for (turn_ = turn_ + 1; turn_ < game_.az->playerCount; ++turn_) {
      board_before_ = game_;
      columns_.clear();
      Game copy = game_;
      int pending = 0;
      Outcome outcome = tile_board(copy, columns_, pending);
      game_ = copy;
      if (outcome == Outcome::kWaits) {
        pending_row_ = pending;
        phase_ = Phase::kTiling;
        return;
      }
      run_engine([&]() { scoreFloor(game_.az->players[turn_]); }, {});
    }
    if (isGameOver(*game_.az)) {  // Azul.cpp:80-87
      for (int p = 0; p < game_.az->playerCount; ++p) run_engine([&]() { scoreBonusPoints(game_.az->players[p]); }, {});
      phase_ = Phase::kOver;
      turn_ = start_player_;
      return;
    }
    phase_ = Phase::kDeal;
    round_ += 1;
    turn_ = game_.az->startingPlayer;
  }

  // The seats the engine's scoreboard (printScoreboard, Azul.cpp:167-206) prints in place 1.
  json winners() const {
    std::string output;
    Game copy = game_;
    run_engine([&]() { printScoreboard(*copy.az); }, {}, &output);
    json seats = json::array();
    std::istringstream lines(output);
    std::string line;
    std::getline(lines, line);  // the header
    while (std::getline(lines, line)) {
      int place = 0, id = 0;
      if (std::sscanf(line.c_str(), "%d\tPlayer %d", &place, &id) == 2 && place == 1) seats.push_back(id - 1);
    }
    std::vector<int> sorted = seats.get<std::vector<int>>();
    std::sort(sorted.begin(), sorted.end());
    return sorted;
  }

  // What the engine's arrays cannot hold, and what no game reaches in the simple ways README.md lists; every
  // problem at once. The engine has no loader and checks none of this itself.
  static void check(const Loaded& d, std::vector<std::string>& problems) {
    auto bad = [&](const std::string& text) { problems.push_back(text); };
    if (d.format != "azul-state/1") bad("format: \"" + d.format + "\", expected azul-state/1");
    if (d.variant != "colour" && d.variant != "grey") bad("variant: \"" + d.variant + "\", expected colour or grey");
    if (d.players < 2 || d.players > 4) {
      bad("players: " + std::to_string(d.players) + ", expected 2, 3 or 4");
      return;
    }
    auto seat = [&](int n) { return n >= 0 && n < d.players; };
    if (d.round < 1) bad("round: expected 1 or more");
    if (d.phase != "deal" && d.phase != "offer" && d.phase != "tiling" && d.phase != "over")
      bad("phase: \"" + d.phase + "\", expected deal, offer, tiling or over");
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
      bool wall_read = true;
      for (int r = 0; r < 5; ++r) {
        const std::string& row = b.wall[r];
        Counts rc{};
        std::string placed = row;
        placed.erase(std::remove(placed.begin(), placed.end(), '.'), placed.end());
        if (row.size() != 5 || !parse_tiles(placed, rc)) {
          bad(at + ".wall[" + std::to_string(r) + "]: expected 5 spaces of B Y R K W or .");
          wall_read = false;
          continue;
        }
        add(rc);
        for (int c = 0; c < 5; ++c)
          if (rc[c] > 1) bad(at + ".wall[" + std::to_string(r) + "]: " + kLetters[c] + " twice in a row (GREY-2)");
        const std::string& line = b.lines[r];
        Counts lc{};
        if (!parse_tiles(line, lc) || static_cast<int>(line.size()) > r + 1) {
          bad(at + ".lines[" + std::to_string(r) + "]: expected up to " + std::to_string(r + 1) + " of the letters B Y R K W");
          continue;
        }
        add(lc);
        if (!line.empty() && std::count(line.begin(), line.end(), line[0]) != static_cast<long>(line.size()))
          bad(at + ".lines[" + std::to_string(r) + "]: one colour per line (OFFER-8)");
        else if (!line.empty() && row.find(line[0]) != std::string::npos)
          bad(at + ".lines[" + std::to_string(r) + "]: its colour is on wall row " + std::to_string(r + 1) + " already (OFFER-9)");
      }
      if (wall_read)
        for (int c = 0; c < 5; ++c) {
          std::string column;
          for (int r = 0; r < 5; ++r)
            if (b.wall[r][c] != '.') column += b.wall[r][c];
          for (char colour : kLetters)
            if (std::count(column.begin(), column.end(), colour) > 1)
              bad(at + ".wall: " + colour + " twice in column " + std::to_string(c + 1) + " (GREY-2)");
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
    if (d.phase == "deal" && total(d.bag) + total(d.lid) == 0)
      bad("phase deal: bag and lid are both empty, so the game ended at the tiling before (END-8)");
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
    if (arg == "--seed" && i + 1 < argc) seed = std::atoi(argv[++i]);
  }
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
        answer["name"] = "oliverosz-azul (C++, via adapter)";
        answer["version"] = "139fc60";
        answer["protocol"] = 1;
        answer["capabilities"] = {{"players", {2, 3, 4}}, {"variants", {"grey"}}, {"load_state", true}, {"deal", true}};
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
    } catch (const EngineRefused& refused) {
      refusal(id, "internal", "", "the engine refused a step of its own: " + refused.message);
    } catch (const std::exception& error) {
      std::cerr << "adapter error: " << error.what() << std::endl;
      refusal(id, "internal", "", std::string("the adapter failed: ") + error.what());
    }
  }
  return 0;
}
