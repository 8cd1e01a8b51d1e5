//! The game as protocol v1 sees it, over the engine's own `GameState` (bkase/azul, crates/engine/src/lib.rs).
//! Line numbers below are in that file at commit d87a65a1f50a19ee7c2f4151ebde8edd9415e948.
//!
//! The engine deals by itself: `new_game` (lib.rs:405-446) fills the factories at once, and the take that ends a
//! round tiles, then refills the factories (`resolve_end_of_round`, lib.rs:675-771, step 4). The protocol's
//! phase `deal` is the position between the two; the adapter keeps what the engine needs to make that deal
//! again (the new game's set-up, or the position before the round's last take and the take), and on `deal`
//! calls the same engine function with a random source it passes in (the engine takes `rng: &mut impl Rng`):
//! seeded from `--seed` and the position for a random deal, arranged for a given one.

use crate::json::{quote, Value};
use azul_engine::{
    apply_action, legal_actions, new_game, Action, Color, DraftDestination, DraftSource, GameState, Phase,
    Token, BOARD_SIZE, FLOOR_PENALTY, MAX_FACTORIES, TILE_COLORS,
};
use rand::RngCore;

pub const LETTERS: [char; 5] = ['B', 'Y', 'R', 'K', 'W'];

/// What the engine has already taken off a score for a floor of `len` tiles: it charges each floor space as a
/// tile or the marker lands there (`add_to_floor` in `apply_action`, lib.rs:849-862, with its own
/// `FLOOR_PENALTY`), where azul-state/1 shows the score before the round's floor penalties, which the rules
/// take at the tiling. The adapter converts between the two with the engine's own table, and nothing else.
fn charged(len: u8) -> i16 {
    FLOOR_PENALTY[..len as usize].iter().map(|&x| x as i16).sum()
}

pub fn colour_of(letter: char) -> Option<Color> {
    LETTERS.iter().position(|&l| l == letter).and_then(|i| Color::from_index(i as u8))
}

/// A refusal: the protocol's error code, its rule (if any) and a message.
pub struct Refusal {
    pub code: &'static str,
    pub rule: Option<&'static str>,
    pub message: String,
}

pub fn refuse(code: &'static str, rule: Option<&'static str>, message: impl Into<String>) -> Refusal {
    Refusal { code, rule, message: message.into() }
}

#[derive(Clone, Copy, PartialEq)]
pub enum Stage {
    Deal,
    Offer,
    Over,
}

/// How to make the deal that is due.
#[derive(Clone)]
pub enum Pending {
    /// The game's first deal: the engine's `new_game` with these players and start player.
    NewGame { players: u8, start: u8 },
    /// A later deal: the engine's `apply_action` of `action` on `before` (the round's last take) deals at its end.
    Replay { before: GameState, action: Action },
    None,
}

#[derive(Clone)]
pub struct Table {
    pub game: GameState,
    pub stage: Stage,
    pub pending: Pending,
    /// The round's start player (the engine does not keep it once the round has begun).
    pub round_start: u8,
}

// ---------------------------------------------------------------------------------------------------------
// Random sources handed to the engine
// ---------------------------------------------------------------------------------------------------------

/// SplitMix64, seeded from `--seed` and the position about to be dealt: a deal depends on the game alone.
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64, position: &str) -> Self {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for b in position.bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        Seeded(h)
    }
}

impl RngCore for Seeded {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for chunk in dst.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}

/// A planned random source: its words make the engine's draws (`draw_tile`, lib.rs:373-403: one
/// `random_range(0..bag_total)` a tile, the pick counted through the bag in colour order) take the asked tiles.
/// rand 0.9.2 samples `random_range` on u32 by a widening multiply: word `x` gives `(x * n) >> 32`, and a word
/// whose low half stays below `n` asks for no second word.
pub struct Planned {
    words: Vec<u32>,
    next: usize,
}

impl RngCore for Planned {
    fn next_u32(&mut self) -> u32 {
        let w = self.words.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        w
    }
    fn next_u64(&mut self) -> u64 {
        ((self.next_u32() as u64) << 32) | self.next_u32() as u64
    }
    fn fill_bytes(&mut self, dst: &mut [u8]) {
        for b in dst {
            *b = self.next_u32() as u8;
        }
    }
}

/// The word that makes `random_range(0..n)` return `pick`.
fn word_for(pick: u32, n: u32) -> u32 {
    (((pick as u64) << 32).div_ceil(n as u64)) as u32
}

/// Plans the words for dealing `asked` (per factory, tile counts by colour) from bag and lid, following the
/// engine's draw: factory by factory, four draws each, the lid poured into the bag when the bag is empty. A
/// tile the bag cannot give is left to chance (pick 0): the deal then differs and is refused.
fn plan(bag: [u8; TILE_COLORS], lid: [u8; TILE_COLORS], asked: &[[u8; TILE_COLORS]]) -> Planned {
    let (mut bag, mut lid) = (bag, lid);
    let mut words = Vec::new();
    for want in asked {
        let mut want = *want;
        for _ in 0..4 {
            if bag.iter().sum::<u8>() == 0 {
                if lid.iter().sum::<u8>() == 0 {
                    continue;
                }
                bag = lid;
                lid = [0; TILE_COLORS];
            }
            let total: u8 = bag.iter().sum();
            let colour = (0..TILE_COLORS).find(|&c| want[c] > 0 && bag[c] > 0);
            let c = colour.unwrap_or_else(|| (0..TILE_COLORS).find(|&c| bag[c] > 0).unwrap());
            let pick: u8 = bag[..c].iter().sum();
            words.push(word_for(pick as u32, total as u32));
            bag[c] -= 1;
            if want[c] > 0 {
                want[c] -= 1;
            }
        }
    }
    Planned { words, next: 0 }
}

// ---------------------------------------------------------------------------------------------------------
// Moves
// ---------------------------------------------------------------------------------------------------------

pub fn move_text(a: &Action) -> String {
    let src = match a.source {
        DraftSource::Factory(f) => char::from(b'1' + f),
        DraftSource::Center => 'C',
    };
    let dst = match a.dest {
        DraftDestination::PatternLine(r) => char::from(b'1' + r),
        DraftDestination::Floor => 'F',
    };
    format!("{}{}{}", src, LETTERS[a.color as usize], dst)
}

/// A take in the notation, or None for anything else (a placement `2@4` included: the caller decides).
pub fn parse_take(text: &str) -> Option<Action> {
    let b = text.as_bytes();
    if b.len() != 3 {
        return None;
    }
    let source = match b[0] {
        b'C' => DraftSource::Center,
        c @ b'1'..=b'9' => DraftSource::Factory(c - b'1'),
        _ => return None,
    };
    let color = colour_of(b[1] as char)?;
    let dest = match b[2] {
        b'F' => DraftDestination::Floor,
        c @ b'1'..=b'5' => DraftDestination::PatternLine(c - b'1'),
        _ => return None,
    };
    Some(Action { source, color, dest })
}

pub fn is_placement(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 3 && (b'1'..=b'5').contains(&b[0]) && b[1] == b'@' && (b'1'..=b'5').contains(&b[2])
}

// ---------------------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------------------

fn counts_of(tiles: impl IntoIterator<Item = Color>) -> [u8; TILE_COLORS] {
    let mut n = [0u8; TILE_COLORS];
    for c in tiles {
        n[c as usize] += 1;
    }
    n
}

fn letters(counts: &[u8; TILE_COLORS]) -> String {
    (0..TILE_COLORS).flat_map(|c| std::iter::repeat_n(LETTERS[c], counts[c] as usize)).collect()
}

fn factory_counts(g: &GameState) -> Vec<[u8; TILE_COLORS]> {
    (0..g.factories.num_factories as usize)
        .map(|f| {
            let fac = &g.factories.factories[f];
            counts_of(fac.tiles[..fac.len as usize].iter().copied())
        })
        .collect()
}

impl Table {
    pub fn new_game(players: u8, start: u8, seed: u64) -> Table {
        // The engine deals in new_game; the position before that deal is its result with the factories'
        // tiles back in the bag (all 100 tiles: new_game starts from a full bag, lib.rs:414-417).
        let mut game = new_game(players, start, &mut Seeded::new(seed, ""));
        for f in 0..MAX_FACTORIES {
            game.factories.factories[f].len = 0;
        }
        game.supply.bag = [20; TILE_COLORS];
        game.supply.discard = [0; TILE_COLORS];
        Table { game, stage: Stage::Deal, pending: Pending::NewGame { players, start }, round_start: start }
    }

    /// After a take that ended the round: `after` is the engine's result (tiled, and already dealt). The deal
    /// only moved tiles from bag (and lid) to the factories, and the tiling never touches the bag, so the
    /// position before the deal has the bag of `before`, and the lid holds the rest.
    fn undealt(before: &GameState, after: &GameState) -> GameState {
        let mut g = after.clone();
        let dealt = factory_counts(after);
        for c in 0..TILE_COLORS {
            let on_factories: u8 = dealt.iter().map(|f| f[c]).sum();
            g.supply.bag[c] = before.supply.bag[c];
            g.supply.discard[c] = after.supply.bag[c] + after.supply.discard[c] + on_factories - before.supply.bag[c];
        }
        for f in 0..MAX_FACTORIES {
            g.factories.factories[f].len = 0;
        }
        g.center.len = 0;
        g
    }

    pub fn play(&mut self, text: &str, seed: u64) -> Result<(), Refusal> {
        let action = match parse_take(text) {
            Some(a) => a,
            None if is_placement(text) => {
                return Err(refuse("illegal_move", None, format!("{text}: no placement on the coloured wall")))
            }
            None => return Err(refuse("bad_request", None, format!("{text:?} is not a move in the notation"))),
        };
        if self.stage == Stage::Deal {
            return Err(refuse("illegal_move", None, format!("{text}: the factories are not dealt yet")));
        }
        let before = self.game.clone();
        let mut rng = Seeded::new(seed, &self.state_json());
        match apply_action(before.clone(), action, &mut rng) {
            Err(e) => Err(refuse("illegal_move", None, format!("{text}: the engine refuses it ({e:?})"))),
            Ok(step) => {
                if step.final_scores.is_some() || step.state.phase == Phase::GameOver {
                    self.game = step.state;
                    self.stage = Stage::Over;
                    self.pending = Pending::None;
                } else if step.state.round != before.round {
                    self.game = Table::undealt(&before, &step.state);
                    self.stage = Stage::Deal;
                    self.round_start = self.game.current_player;
                    self.pending = Pending::Replay { before, action };
                } else {
                    self.game = step.state;
                }
                Ok(())
            }
        }
    }

    pub fn legal_moves(&self) -> Vec<String> {
        if self.stage != Stage::Offer {
            return Vec::new();
        }
        let mut moves: Vec<String> = legal_actions(&self.game).iter().map(move_text).collect();
        moves.sort();
        moves.dedup();
        moves
    }

    /// The engine's deal: with `asked` (tile counts per factory), arranged so; without, at random.
    pub fn deal(&mut self, asked: Option<Vec<[u8; TILE_COLORS]>>, seed: u64) -> Result<(), Refusal> {
        if self.stage != Stage::Deal {
            return Err(refuse("illegal_move", Some("DEAL-1"), "no deal is due"));
        }
        if let Some(a) = &asked {
            if a.len() != self.game.factories.num_factories as usize {
                return Err(refuse(
                    "illegal_move",
                    Some("SETUP-3"),
                    format!("{} factories asked; the game has {}", a.len(), self.game.factories.num_factories),
                ));
            }
        }
        let position = self.state_json();
        let dealt = match (&self.pending, &asked) {
            (Pending::NewGame { players, start }, None) => new_game(*players, *start, &mut Seeded::new(seed, &position)),
            (Pending::NewGame { players, start }, Some(a)) => {
                new_game(*players, *start, &mut plan([20; TILE_COLORS], [0; TILE_COLORS], a))
            }
            (Pending::Replay { before, action }, None) => {
                self.replay(before, *action, &mut Seeded::new(seed, &position))?
            }
            (Pending::Replay { before, action }, Some(a)) => {
                let mut rng = plan(self.game.supply.bag, self.game.supply.discard, a);
                self.replay(before, *action, &mut rng)?
            }
            (Pending::None, _) => {
                return Err(refuse("unsupported", None, "the engine cannot deal this loaded position"))
            }
        };
        if let Some(a) = &asked {
            let got = factory_counts(&dealt);
            if &got != a {
                let show = |v: &Vec<[u8; TILE_COLORS]>| v.iter().map(letters).collect::<Vec<_>>().join(" ");
                return Err(refuse(
                    "illegal_move",
                    None,
                    format!("the engine's draw from this bag and lid gives {}, not {}", show(&got), show(a)),
                ));
            }
        }
        self.game = dealt;
        self.stage = Stage::Offer;
        self.pending = Pending::None;
        self.round_start = self.game.current_player;
        Ok(())
    }

    fn replay(&self, before: &GameState, action: Action, rng: &mut impl RngCore) -> Result<GameState, Refusal> {
        apply_action(before.clone(), action, rng)
            .map(|s| s.state)
            .map_err(|e| refuse("internal", None, format!("the engine refused its own take again: {e:?}")))
    }

    // -----------------------------------------------------------------------------------------------------
    // azul-state/1
    // -----------------------------------------------------------------------------------------------------

    pub fn state_json(&self) -> String {
        let g = &self.game;
        let n = g.num_players as usize;
        let phase = match self.stage {
            Stage::Deal => "deal",
            Stage::Offer => "offer",
            Stage::Over => "over",
        };
        let marker_in_centre = g.center.items[..g.center.len as usize].contains(&Token::FirstPlayerMarker);
        let marker = if self.stage == Stage::Deal || marker_in_centre {
            "\"centre\"".to_string()
        } else {
            g.starting_player_next_round.to_string()
        };
        let factories: Vec<String> = factory_counts(g).iter().map(|f| quote(&letters(f))).collect();
        let centre = counts_of(g.center.items[..g.center.len as usize].iter().filter_map(|t| match t {
            Token::Tile(c) => Some(*c),
            Token::FirstPlayerMarker => None,
        }));
        let mut boards = Vec::new();
        for p in &g.players[..n] {
            let lines: Vec<String> = (0..BOARD_SIZE)
                .map(|r| {
                    let l = &p.pattern_lines[r];
                    let s: String = match l.color {
                        Some(c) if l.count > 0 => std::iter::repeat_n(LETTERS[c as usize], l.count as usize).collect(),
                        _ => String::new(),
                    };
                    quote(&s)
                })
                .collect();
            let wall: Vec<String> = (0..BOARD_SIZE)
                .map(|r| quote(&p.wall[r].iter().map(|x| x.map_or('.', |c| LETTERS[c as usize])).collect::<String>()))
                .collect();
            let floor: String = p.floor.slots[..p.floor.len as usize]
                .iter()
                .map(|t| match t {
                    Token::Tile(c) => LETTERS[*c as usize],
                    Token::FirstPlayerMarker => 'M',
                })
                .collect();
            boards.push(format!(
                "{{\"score\": {}, \"lines\": [{}], \"wall\": [{}], \"floor\": {}}}",
                p.score - charged(p.floor.len),
                lines.join(", "),
                wall.join(", "),
                quote(&floor)
            ));
        }
        let winners = if self.stage == Stage::Over {
            // The engine names no winner: its game over returns the final scores, and its own front end
            // (src/bin/play.rs:180-194) calls the higher score the winner and equal scores a tie, with no
            // tie-break. So: every seat with the top final score.
            let top = g.players[..n].iter().map(|p| p.score).max().unwrap();
            let seats: Vec<String> = (0..n).filter(|&i| g.players[i].score == top).map(|i| i.to_string()).collect();
            format!("[{}]", seats.join(", "))
        } else {
            "null".to_string()
        };
        format!(
            "{{\"format\": \"azul-state/1\", \"variant\": \"colour\", \"players\": {}, \"round\": {}, \"phase\": \"{}\", \
             \"turn\": {}, \"start_player\": {}, \"marker\": {}, \"factories\": [{}], \"centre\": {}, \"bag\": {}, \
             \"lid\": {}, \"boards\": [{}], \"winners\": {}}}",
            n,
            g.round as u32 + 1,
            phase,
            g.current_player,
            self.round_start,
            marker,
            factories.join(", "),
            quote(&letters(&centre)),
            quote(&letters(&g.supply.bag)),
            quote(&letters(&g.supply.discard)),
            boards.join(", "),
            winners
        )
    }

    /// Builds the engine's `GameState` from an azul-state/1 document, field by field (the engine's state is
    /// plain public data, lib.rs:143-319). Refuses what the engine's types cannot hold, listing every problem.
    pub fn load(doc: &Value) -> Result<Table, Refusal> {
        let mut problems: Vec<String> = Vec::new();
        let keys = [
            "format", "variant", "players", "round", "phase", "turn", "start_player", "marker", "factories",
            "centre", "bag", "lid", "boards", "winners",
        ];
        let Value::Obj(fields) = doc else {
            return Err(refuse("bad_request", None, "state: not an object"));
        };
        for (k, _) in fields {
            if !keys.contains(&k.as_str()) {
                problems.push(format!("{k}: unknown field"));
            }
        }
        for k in keys {
            if doc.get(k).is_none() {
                problems.push(format!("{k}: missing"));
            }
        }
        if !problems.is_empty() {
            return Err(refuse("bad_request", None, problems.join("; ")));
        }
        if doc.get("format").and_then(Value::as_str) != Some("azul-state/1") {
            problems.push("format: must be \"azul-state/1\"".into());
        }
        let variant = doc.get("variant").and_then(Value::as_str).unwrap_or("");
        if variant != "colour" && variant != "grey" {
            problems.push("variant: must be \"colour\" or \"grey\"".into());
        }
        let players = doc.get("players").and_then(Value::as_int).unwrap_or(0);
        if !(2..=4).contains(&players) {
            problems.push("players: must be 2, 3 or 4".into());
        }
        let n = players.clamp(2, 4) as usize;
        let seat = |k: &str, problems: &mut Vec<String>| -> u8 {
            match doc.get(k).and_then(Value::as_int) {
                Some(s) if (0..n as i64).contains(&s) => s as u8,
                _ => {
                    problems.push(format!("{k}: must be a seat of the game"));
                    0
                }
            }
        };
        let turn = seat("turn", &mut problems);
        let start = seat("start_player", &mut problems);
        let round = match doc.get("round").and_then(Value::as_int) {
            Some(r) if (1..=u16::MAX as i64).contains(&r) => r as u16,
            _ => {
                problems.push("round: must be a whole number from 1".into());
                1
            }
        };
        let phase = doc.get("phase").and_then(Value::as_str).unwrap_or("");
        if !["deal", "offer", "tiling", "over"].contains(&phase) {
            problems.push("phase: must be deal, offer, tiling or over".into());
        }
        let marker = match doc.get("marker") {
            Some(Value::Str(s)) if s == "centre" => None,
            Some(v) => match v.as_int() {
                Some(s) if (0..n as i64).contains(&s) => Some(s as u8),
                _ => {
                    problems.push("marker: must be \"centre\" or a seat".into());
                    None
                }
            },
            None => None,
        };
        let tiles = |what: &str, v: Option<&Value>, max: usize, problems: &mut Vec<String>| -> Vec<Color> {
            match v.and_then(Value::as_str) {
                Some(s) => {
                    let cs: Vec<Option<Color>> = s.chars().map(colour_of).collect();
                    if cs.iter().any(Option::is_none) {
                        problems.push(format!("{what}: letters must be B Y R K W"));
                    }
                    if cs.len() > max {
                        problems.push(format!("{what}: at most {max} tiles"));
                    }
                    cs.into_iter().flatten().take(max).collect()
                }
                None => {
                    problems.push(format!("{what}: must be a string"));
                    Vec::new()
                }
            }
        };
        let mut g = GameState { num_players: n as u8, ..GameState::default() };
        match doc.get("factories") {
            Some(Value::Arr(fs)) if fs.len() <= MAX_FACTORIES && fs.len() == 2 * n + 1 => {
                g.factories.num_factories = fs.len() as u8;
                for (i, f) in fs.iter().enumerate() {
                    let ts = tiles(&format!("factories[{i}]"), Some(f), 4, &mut problems);
                    g.factories.factories[i].len = ts.len() as u8;
                    for (j, t) in ts.into_iter().enumerate() {
                        g.factories.factories[i].tiles[j] = t;
                    }
                }
            }
            _ => problems.push(format!("factories: must be a list of {} factories", 2 * n + 1)),
        }
        let centre = tiles("centre", doc.get("centre"), 99, &mut problems);
        let mut items: Vec<Token> = Vec::new();
        if marker.is_none() && phase == "offer" {
            items.push(Token::FirstPlayerMarker);
        }
        items.extend(centre.into_iter().map(Token::Tile));
        g.center.len = items.len() as u8;
        g.center.items[..items.len()].copy_from_slice(&items);
        g.supply.bag = counts_of(tiles("bag", doc.get("bag"), 100, &mut problems));
        g.supply.discard = counts_of(tiles("lid", doc.get("lid"), 100, &mut problems));
        match doc.get("boards") {
            Some(Value::Arr(bs)) if bs.len() == n => {
                for (i, b) in bs.iter().enumerate() {
                    let p = &mut g.players[i];
                    let bk = ["score", "lines", "wall", "floor"];
                    if let Value::Obj(fs) = b {
                        for (k, _) in fs {
                            if !bk.contains(&k.as_str()) {
                                problems.push(format!("boards[{i}].{k}: unknown field"));
                            }
                        }
                    }
                    match b.get("score").and_then(Value::as_int) {
                        Some(s) if (i16::MIN as i64..=i16::MAX as i64).contains(&s) => p.score = s as i16,
                        _ => problems.push(format!("boards[{i}].score: must be a whole number")),
                    }
                    match b.get("lines") {
                        Some(Value::Arr(ls)) if ls.len() == BOARD_SIZE => {
                            for (r, l) in ls.iter().enumerate() {
                                let ts = tiles(&format!("boards[{i}].lines[{r}]"), Some(l), r + 1, &mut problems);
                                if ts.iter().any(|&t| t != ts[0]) {
                                    problems.push(format!("boards[{i}].lines[{r}]: one colour a line"));
                                }
                                p.pattern_lines[r].color = ts.first().copied();
                                p.pattern_lines[r].count = ts.len() as u8;
                            }
                        }
                        _ => problems.push(format!("boards[{i}].lines: must be five strings")),
                    }
                    match b.get("wall") {
                        Some(Value::Arr(ws)) if ws.len() == BOARD_SIZE => {
                            for (r, w) in ws.iter().enumerate() {
                                let row: Vec<char> = w.as_str().unwrap_or("").chars().collect();
                                if row.len() != BOARD_SIZE || row.iter().any(|&c| c != '.' && colour_of(c).is_none()) {
                                    problems.push(format!("boards[{i}].wall[{r}]: five of B Y R K W or ."));
                                    continue;
                                }
                                for (c, ch) in row.iter().enumerate() {
                                    p.wall[r][c] = colour_of(*ch);
                                }
                            }
                        }
                        _ => problems.push(format!("boards[{i}].wall: must be five strings")),
                    }
                    match b.get("floor").and_then(Value::as_str) {
                        Some(s) if s.chars().count() <= 7 && s.chars().all(|c| c == 'M' || colour_of(c).is_some()) => {
                            for (k, ch) in s.chars().enumerate() {
                                p.floor.slots[k] = colour_of(ch).map_or(Token::FirstPlayerMarker, Token::Tile);
                            }
                            p.floor.len = s.chars().count() as u8;
                            p.score += charged(p.floor.len);
                        }
                        _ => problems.push(format!("boards[{i}].floor: at most 7 of B Y R K W M")),
                    }
                }
            }
            _ => problems.push(format!("boards: must be a list of {n} boards")),
        }
        if !problems.is_empty() {
            return Err(refuse("bad_request", None, problems.join("; ")));
        }
        if variant == "grey" {
            return Err(refuse("unsupported", None, "the engine plays the coloured wall only"));
        }
        if phase != "offer" {
            return Err(refuse(
                "unsupported",
                None,
                format!("the engine cannot be given a position in phase {phase}: it deals inside its own moves and has no state after its game over"),
            ));
        }
        g.current_player = turn;
        // The engine sets starting_player_next_round to the round's start player when the round begins
        // (new_game, lib.rs:418-419; resolve_end_of_round, lib.rs:767) and to the marker's taker (lib.rs:839-841).
        g.starting_player_next_round = marker.unwrap_or(start);
        g.phase = Phase::FactoryOffer;
        g.round = round - 1;
        g.final_round_triggered = false;
        Ok(Table { game: g, stage: Stage::Offer, pending: Pending::None, round_start: start })
    }
}
