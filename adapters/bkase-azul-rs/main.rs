//! Protocol v1 adapter for bkase/azul's engine (Rust, MIT): one JSON request a line on standard input, one
//! reply a line on standard output. The engine's code is called unchanged; see README.md beside this file.
//!
//! Usage: bkase-azul-adapter [--seed N]

mod json;
mod table;

use json::{quote, Value};
use std::io::{BufRead, Write};
use table::{refuse, Refusal, Table, LETTERS};

const TILE_COLORS: usize = 5;

struct Adapter {
    table: Option<Table>,
    seed: u64,
}

fn ok(id: &str, rest: &str) -> String {
    if rest.is_empty() {
        format!("{{\"id\": {id}, \"ok\": true}}")
    } else {
        format!("{{\"id\": {id}, \"ok\": true, {rest}}}")
    }
}

fn error(id: &str, r: &Refusal) -> String {
    let rule = r.rule.map(|x| format!(", \"rule\": {}", quote(x))).unwrap_or_default();
    format!(
        "{{\"id\": {id}, \"ok\": false, \"error\": {{\"code\": {}{rule}, \"message\": {}}}}}",
        quote(r.code),
        quote(&r.message)
    )
}

/// A deal's `factories`: per factory, tile counts by colour. Malformed is `bad_request`.
fn parse_factories(v: &Value) -> Result<Vec<[u8; TILE_COLORS]>, Refusal> {
    let Value::Arr(items) = v else {
        return Err(refuse("bad_request", None, "factories: must be a list of strings"));
    };
    if !(5..=9).contains(&items.len()) {
        return Err(refuse("bad_request", None, "factories: 5 to 9 factories"));
    }
    let mut out = Vec::new();
    for (i, f) in items.iter().enumerate() {
        let Some(s) = f.as_str() else {
            return Err(refuse("bad_request", None, format!("factories[{i}]: must be a string")));
        };
        if s.chars().count() > 4 {
            return Err(refuse("bad_request", None, format!("factories[{i}]: at most 4 tiles")));
        }
        let mut n = [0u8; TILE_COLORS];
        for ch in s.chars() {
            match LETTERS.iter().position(|&l| l == ch) {
                Some(c) => n[c] += 1,
                None => return Err(refuse("bad_request", None, format!("factories[{i}]: {ch:?} is no colour"))),
            }
        }
        out.push(n);
    }
    Ok(out)
}

impl Adapter {
    fn state_reply(&self, id: &str) -> String {
        ok(id, &format!("\"state\": {}", self.table.as_ref().unwrap().state_json()))
    }

    fn handle(&mut self, id: &str, req: &Value) -> String {
        let cmd = req.get("cmd").and_then(Value::as_str).unwrap_or("");
        let result: Result<String, Refusal> = (|| match cmd {
            "hello" => {
                if req.get("protocol").and_then(Value::as_int) != Some(1) {
                    return Err(refuse("bad_request", None, "only protocol 1 is spoken"));
                }
                Ok(ok(
                    id,
                    "\"name\": \"bkase-azul\", \"version\": \"d87a65a\", \"protocol\": 1, \"capabilities\": \
                     {\"players\": [2, 3, 4], \"variants\": [\"colour\"], \"load_state\": true, \"deal\": true}",
                ))
            }
            "new_game" => {
                let players = match req.get("players") {
                    Some(v) => v.as_int().ok_or_else(|| refuse("bad_request", None, "players: must be a whole number"))?,
                    None => return Err(refuse("bad_request", None, "players: missing")),
                };
                if !(2..=4).contains(&players) {
                    return Err(refuse("bad_request", Some("SETUP-6"), format!("players must be 2, 3 or 4, not {players}")));
                }
                let variant = match req.get("variant") {
                    None => "colour",
                    Some(v) => v.as_str().ok_or_else(|| refuse("bad_request", None, "variant: must be a string"))?,
                };
                if variant != "colour" && variant != "grey" {
                    return Err(refuse("bad_request", Some("SETUP-1"), format!("no variant {variant:?}")));
                }
                let start = match req.get("start_player") {
                    None => 0,
                    Some(v) => v.as_int().ok_or_else(|| refuse("bad_request", None, "start_player: must be a whole number"))?,
                };
                if !(0..players).contains(&start) {
                    return Err(refuse("bad_request", Some("SETUP-5"), format!("start_player {start} is no seat")));
                }
                if variant == "grey" {
                    return Err(refuse("unsupported", None, "the engine plays the coloured wall only"));
                }
                self.table = Some(Table::new_game(players as u8, start as u8, self.seed));
                Ok(self.state_reply(id))
            }
            "load_state" => {
                let doc = req.get("state").ok_or_else(|| refuse("bad_request", None, "state: missing"))?;
                self.table = Some(Table::load(doc)?);
                Ok(self.state_reply(id))
            }
            "state" | "legal_moves" | "play" | "deal" if self.table.is_none() => {
                Err(refuse("bad_request", None, "no game yet"))
            }
            "state" => Ok(self.state_reply(id)),
            "legal_moves" => {
                let moves = self.table.as_ref().unwrap().legal_moves();
                Ok(ok(id, &format!("\"moves\": [{}]", moves.iter().map(|m| quote(m)).collect::<Vec<_>>().join(", "))))
            }
            "play" => {
                let mv = req.get("move").and_then(Value::as_str).ok_or_else(|| refuse("bad_request", None, "move: missing"))?;
                let seed = self.seed;
                let table = self.table.as_mut().unwrap();
                let mut copy = table.clone();
                copy.play(mv, seed)?;
                *table = copy;
                Ok(self.state_reply(id))
            }
            "deal" => {
                let asked = match req.get("factories") {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(parse_factories(v)?),
                };
                let seed = self.seed;
                let table = self.table.as_mut().unwrap();
                let mut copy = table.clone();
                copy.deal(asked, seed)?;
                *table = copy;
                Ok(self.state_reply(id))
            }
            other => Err(refuse("bad_request", None, format!("unknown cmd {other:?}"))),
        })();
        result.unwrap_or_else(|r| error(id, &r))
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut seed = 0u64;
    if let Some(i) = args.iter().position(|a| a == "--seed") {
        seed = args.get(i + 1).and_then(|s| s.parse().ok()).unwrap_or(0);
    }
    let mut adapter = Adapter { table: None, seed };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let reply = match json::parse(&line) {
            Err(e) => error("null", &refuse("bad_request", None, format!("not JSON: {e}"))),
            Ok(req) => {
                if matches!(&req, Value::Obj(_)) && req.get("cmd").and_then(Value::as_str) == Some("quit") {
                    break;
                }
                let id = match req.get("id") {
                    Some(v @ Value::Str(_)) => Some(json::write(v)),
                    Some(v @ Value::Num(_)) if v.as_int().is_some() => Some(json::write(v)),
                    _ => None,
                };
                match id {
                    None => error("null", &refuse("bad_request", None, "a request needs an integer or string id")),
                    Some(id) => {
                        // An engine panic is the engine failing on its own account: `internal`, and the
                        // position stays as it was (every change is made on a copy).
                        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| adapter.handle(&id, &req))) {
                            Ok(r) => r,
                            Err(p) => {
                                let msg = p
                                    .downcast_ref::<String>()
                                    .cloned()
                                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                                    .unwrap_or_else(|| "panic".into());
                                error(&id, &refuse("internal", None, format!("the engine panicked: {msg}")))
                            }
                        }
                    }
                }
            }
        };
        if writeln!(out, "{reply}").and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}
