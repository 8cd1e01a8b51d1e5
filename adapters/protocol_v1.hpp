// What the C++ adapters of this folder share, whatever their engine: the protocol v1 refusal, the tiles of the
// notation, the strict reader of an azul-state/1 document, the reading of a new_game request and the replies
// (docs/reference/protocol.md). Each adapter.cpp includes it and keeps what is its engine's: the table of
// answers, the checks of a document against what its engine can hold, and its request loop.
//
// Part of azul-conformance (MIT), yet it needs nothing of the suite: the C++17 standard library and the
// header-only nlohmann/json. Copy this file with an adapter you take elsewhere.

#ifndef AZUL_CONFORMANCE_ADAPTERS_PROTOCOL_V1_HPP
#define AZUL_CONFORMANCE_ADAPTERS_PROTOCOL_V1_HPP

#include <algorithm>
#include <array>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace protocol_v1 {

using json = nlohmann::json;

// A refusal: code, rule (may be empty), message.
struct Refusal {
  std::string code, rule, message;
};
inline Refusal refuse(std::string code, std::string rule, std::string message) {
  return Refusal{std::move(code), std::move(rule), std::move(message)};
}

// The protocol's colours, in the order of a Counts.
inline const std::string kLetters = "BYRKW";

inline int letter_index(char c) {
  auto at = kLetters.find(c);
  return at == std::string::npos ? -1 : static_cast<int>(at);
}

using Counts = std::array<int, 5>;

inline std::string counts_text(const Counts& counts) {
  std::string text;
  for (int c = 0; c < 5; ++c) text.append(std::max(0, counts[c]), kLetters[c]);
  return text;
}

inline bool parse_tiles(const std::string& text, Counts& counts) {
  counts.fill(0);
  for (char c : text) {
    int i = letter_index(c);
    if (i < 0) return false;
    counts[i]++;
  }
  return true;
}

inline int total(const Counts& counts) {
  int sum = 0;
  for (int c : counts) sum += c;
  return sum;
}

// A hash of a text that is the same on every machine (std::hash is not): seeds drawn from a position.
inline uint64_t fnv1a(const std::string& text) {
  uint64_t hash = 1469598103934665603ULL;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ULL;
  }
  return hash;
}

// Whether a move is in the compact notation: a take (source, colour, pattern line or F) or a grey-wall
// placement (line @ column).
inline bool well_formed(const std::string& move) {
  if (move.size() != 3) return false;
  if (move[1] == '@') return move[0] >= '1' && move[0] <= '5' && move[2] >= '1' && move[2] <= '5';
  bool source = move[0] == 'C' || (move[0] >= '1' && move[0] <= '9');
  bool colour = letter_index(move[1]) >= 0;
  bool target = move[2] == 'F' || (move[2] >= '1' && move[2] <= '5');
  return source && colour && target;
}

inline std::string join(const std::vector<std::string>& parts) {
  std::string text;
  for (size_t i = 0; i < parts.size(); ++i) text += (i ? "; " : "") + parts[i];
  return text;
}

// A new_game request's fields, their types checked and the variant one of the two walls (SETUP-1); the player
// count and the start player are the adapter's to check, after its engine has had its say.
struct NewGame {
  long long players = 0;
  std::string variant = "colour";
  int start_player = 0;
};

inline NewGame read_new_game(const json& request) {
  NewGame asked;
  if (!request.contains("players")) throw refuse("bad_request", "", "players: missing");
  const json& players = request["players"];
  if (!players.is_number_integer()) throw refuse("bad_request", "", "players: expected an integer");
  if (request.contains("variant")) {
    if (!request["variant"].is_string()) throw refuse("bad_request", "", "variant: expected a string");
    asked.variant = request["variant"].get<std::string>();
  }
  if (request.contains("start_player")) {
    if (!request["start_player"].is_number_integer())
      throw refuse("bad_request", "", "start_player: expected an integer");
    asked.start_player = request["start_player"].get<int>();
  }
  if (asked.variant != "colour" && asked.variant != "grey")
    throw refuse("bad_request", "SETUP-1", "variant must be colour or grey, not " + asked.variant);
  asked.players = players.get<long long>();
  return asked;
}

// An azul-state/1 document as read, before any check of what it says.
struct LoadedBoard {
  int score = 0;
  std::vector<std::string> lines, wall;
  std::string floor;
};
struct Loaded {
  std::string format, variant, phase;
  int players = 0, round = 0, turn = 0, start_player = 0, marker = -1;
  bool winners_null = true;
  std::vector<Counts> factories;
  Counts centre{}, bag{}, lid{};
  std::vector<LoadedBoard> boards;
};

// Reads the document strictly: every field present, none other, each of its type.
inline bool read_document(const json& doc, Loaded& d, std::vector<std::string>& problems) {
  static const std::vector<std::string> fields = {"format", "variant", "players", "round", "phase", "turn",
                                                  "start_player", "marker", "factories", "centre", "bag",
                                                  "lid", "boards", "winners"};
  static const std::vector<std::string> board_fields = {"score", "lines", "wall", "floor"};
  if (!doc.is_object()) {
    problems.push_back("expected an azul-state/1 object");
    return false;
  }
  auto known = [](const json& object, const std::vector<std::string>& names, const std::string& at,
                  std::vector<std::string>& out) {
    for (const auto& name : names)
      if (!object.contains(name)) out.push_back(at + name + ": missing");
    for (auto it = object.begin(); it != object.end(); ++it)
      if (std::find(names.begin(), names.end(), it.key()) == names.end()) out.push_back(at + it.key() + ": unknown field");
  };
  known(doc, fields, "", problems);
  if (!problems.empty()) return false;
  auto text = [&](const char* name, std::string& out) {
    if (doc[name].is_string()) out = doc[name].get<std::string>();
    else problems.push_back(std::string(name) + ": expected a string");
  };
  auto integer = [&](const json& value, const std::string& name, int& out) {
    if (value.is_number_integer() && value.get<long long>() >= -1000000 && value.get<long long>() <= 1000000)
      out = value.get<int>();
    else problems.push_back(name + ": expected an integer");
  };
  auto tiles = [&](const json& value, const std::string& name, size_t most, Counts& out) {
    if (!value.is_string() || !parse_tiles(value.get<std::string>(), out) || value.get<std::string>().size() > most)
      problems.push_back(name + ": expected up to " + std::to_string(most) + " of the letters B Y R K W");
  };
  text("format", d.format);
  text("variant", d.variant);
  text("phase", d.phase);
  integer(doc["players"], "players", d.players);
  integer(doc["round"], "round", d.round);
  integer(doc["turn"], "turn", d.turn);
  integer(doc["start_player"], "start_player", d.start_player);
  const json& marker = doc["marker"];
  if (marker.is_string() && marker.get<std::string>() == "centre") d.marker = -1;
  else if (marker.is_number_integer() && marker.get<long long>() >= 0 && marker.get<long long>() < 4) d.marker = marker.get<int>();
  else problems.push_back("marker: expected \"centre\" or a seat");
  if (!doc["factories"].is_array()) problems.push_back("factories: expected a list");
  else
    for (size_t i = 0; i < doc["factories"].size(); ++i) {
      Counts counts{};
      tiles(doc["factories"][i], "factories[" + std::to_string(i) + "]", 4, counts);
      d.factories.push_back(counts);
    }
  tiles(doc["centre"], "centre", 100, d.centre);
  tiles(doc["bag"], "bag", 100, d.bag);
  tiles(doc["lid"], "lid", 100, d.lid);
  d.winners_null = doc["winners"].is_null();
  if (!doc["boards"].is_array()) problems.push_back("boards: expected a list");
  else
    for (size_t i = 0; i < doc["boards"].size(); ++i) {
      const json& b = doc["boards"][i];
      std::string at = "boards[" + std::to_string(i) + "]";
      LoadedBoard board;
      if (!b.is_object()) {
        problems.push_back(at + ": expected an object");
        d.boards.push_back(board);
        continue;
      }
      size_t before = problems.size();
      known(b, board_fields, at + ".", problems);
      if (problems.size() > before) {
        d.boards.push_back(board);
        continue;
      }
      integer(b["score"], at + ".score", board.score);
      for (const char* name : {"lines", "wall"}) {
        const json& rows = b[name];
        auto& out = std::string(name) == "lines" ? board.lines : board.wall;
        if (!rows.is_array() || rows.size() != 5) {
          problems.push_back(at + "." + name + ": expected 5 strings");
          continue;
        }
        for (size_t r = 0; r < 5; ++r) {
          if (!rows[r].is_string()) {
            problems.push_back(at + "." + name + "[" + std::to_string(r) + "]: expected a string");
            out.push_back("");
          } else {
            out.push_back(rows[r].get<std::string>());
          }
        }
      }
      if (b["floor"].is_string()) board.floor = b["floor"].get<std::string>();
      else problems.push_back(at + ".floor: expected a string");
      d.boards.push_back(board);
    }
  return problems.empty();
}

// The request's id, or null where it has none that the protocol allows.
inline json id_of(const json& request) {
  if (!request.is_object() || !request.contains("id")) return nullptr;
  const json& id = request["id"];
  if (id.is_string() || id.is_number_integer()) return id;
  return nullptr;
}

inline void reply(const json& message) {
  std::cout << message.dump(-1, ' ', false, json::error_handler_t::replace) << "\n" << std::flush;
}

inline void refusal(const json& id, const std::string& code, const std::string& rule, const std::string& message) {
  json error = {{"code", code}, {"message", message}};
  if (!rule.empty()) error["rule"] = rule;
  reply({{"id", id}, {"ok", false}, {"error", error}});
}

}  // namespace protocol_v1

#endif  // AZUL_CONFORMANCE_ADAPTERS_PROTOCOL_V1_HPP
