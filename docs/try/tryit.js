// The "try it" page: loads the Python runtime served beside it (pyodide/), the reference engine (engine.zip)
// and the page's Python side (tryit.py), then draws what the engine answers. The engine decides everything;
// this script only shows it. The position comes from the link: #scenario=ID, #state=<the state JSON> or
// #record=<a record>; a link changed in the address bar (or followed within the page) opens its position at
// once, in the runtime already started.
// Every language's page (try/, fr/try/...) loads this one script and the files beside it; the page holds its
// words (#try-words: the `try_` keys of its language's spec/i18n site.yaml).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const base = new URL(".", document.currentScript.src).href;  // the English page's folder: the engine's files
  const WORDS = JSON.parse($("try-words").textContent);
  const LANG = $("try-app").dataset.lang;
  // One of the page's words, its {names} filled in (as text: whatever comes from outside stays text).
  const W = (key, values) => WORDS["try_" + key].replace(/\{(\w+)\}/g, (all, name) =>
    values && name in values ? String(values[name]) : all);
  const status = $("try-status");
  let pyodide = null;    // the runtime
  let table = null;      // tryit.py's Table
  let rules = {};        // rule ID -> [title, page]
  let scenario = null;   // the scenario opened, and how many of its steps were played
  let played = 0;
  let editing = false;   // the board is being edited (tryit.py's draft), not played

  // A page's words with its {names} filled in by text or by nodes (a list for append).
  function Wn(key, values) {
    const template = WORDS["try_" + key];
    const out = [];
    let last = 0;
    template.replace(/\{(\w+)\}/g, (all, name, at) => {
      out.push(template.slice(last, at), values && name in values ? values[name] : all);
      last = at + all.length;
      return all;
    });
    out.push(template.slice(last));
    return out.map((part) => (typeof part === "number" ? String(part) : part));
  }

  // The engine's (and the replay's) own English, marked as such on a page of another language.
  function english(text) {
    if (LANG === "en") return text;
    const span = document.createElement("span");
    span.lang = "en";
    span.textContent = text;
    return span;
  }

  function say(text, kind) {
    status.textContent = text;
    status.dataset.state = kind || "";
  }

  function ruleLinks(ids) {
    const span = document.createElement("span");
    ids.forEach((id, i) => {
      if (i) span.append(", ");
      const a = document.createElement("a");
      a.className = "try-rule";
      a.textContent = id;
      a.dataset.rule = id;
      if (rules[id]) {
        a.href = rules[id][1];
        a.title = rules[id][0];
      }
      span.append(a);
    });
    return span;
  }

  function log(text, ids, kind) {
    const item = document.createElement("li");
    item.className = kind || "try-effect";
    item.append(...(Array.isArray(text) ? text : [text]));
    if (ids && ids.length) item.append(" (", ruleLinks(ids), ")");
    $("try-log").append(item);
    return item;
  }

  function call(method, ...args) {
    return JSON.parse(table[method](...args));
  }

  function show(answer) {
    if (answer.refused) {
      const reason = answer.ours ? answer.refused : english(answer.refused);
      const item = log(Wn("refused", { reason: reason }), answer.rules, "try-refused");
      item.dataset.rules = (answer.rules || []).join(" ");
      (answer.problems || []).forEach((problem) => {
        const sub = document.createElement("div");
        sub.className = "try-problem";
        sub.textContent = problem;
        if (LANG !== "en") sub.lang = "en";  // the engine's words
        item.append(sub);
      });
      return false;
    }
    (answer.effects || []).forEach((effect) => log(effect.text, effect.rules));
    return true;
  }

  function redraw() {
    if (editing) editorShown(false);  // a position loaded, a record step shown: the edit is left
    const view = call("view");
    const state = view.state;
    $("try-board").innerHTML = view.svg;  // render_svg's own SVG: built with xml.etree, every text escaped
    const summary = $("try-summary");
    summary.replaceChildren();
    state.boards.forEach((b, seat) => {
      const score = document.createElement("span");
      score.className = "try-score";
      score.dataset.seat = seat;
      score.textContent = W("score", { seat: seat, score: b.score });
      summary.append(...(seat ? [" · ", score] : [score]));
    });
    summary.append(" — ", state.phase === "over"
      ? W("summary_over", { round: state.round, seats: (state.winners || []).join(W("and")) })
      : W("summary_play", { round: state.round, phase: W("phase_" + state.phase), seat: state.turn }));
    const moves = $("try-moves");
    moves.replaceChildren();
    view.moves.forEach((move) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "try-move";
      button.dataset.move = move;
      button.textContent = move;
      button.addEventListener("click", () => play(move));
      moves.append(button);
    });
    if (state.phase === "deal") {  // a new round: the tiles are drawn from the bag (a fixed seed: the same link
      const button = document.createElement("button");  // deals the same tiles)
      button.type = "button";
      button.className = "try-deal";
      button.textContent = W("deal_next");
      button.addEventListener("click", () => {
        if (show(call("deal", []))) redraw();
      });
      moves.append(button);
    }
    $("try-state").value = JSON.stringify(state, null, 1);
    $("try-link").href = "#state=" + encodeURIComponent(view.link);
    showSteps();
  }

  // --- editing the position on the board: each click is one edit of tryit.py's draft, checked when loaded ---

  function editable(element, target, label) {
    element.dataset.edit = target;
    element.setAttribute("tabindex", "0");
    element.setAttribute("role", "button");
    element.setAttribute("aria-label", label);
  }

  // The drawing's spaces in the order render_svg draws them: a board's wall row by row, its pattern lines from
  // line 1 (one space) to line 5, its floor from the left; the factories, the centre.
  function markSpaces(svg) {
    svg.setAttribute("role", "group");  // an image's parts are not reachable: here they are buttons
    svg.querySelectorAll("g.board").forEach((board) => {
      const seat = board.dataset.seat;
      board.querySelectorAll(":scope > g.wall > g").forEach((space, k) => {
        const row = Math.floor(k / 5), column = k % 5;
        editable(space, `wall ${seat} ${row} ${column}`,
          W("space_wall", { seat: seat, row: row + 1, column: column + 1 }));
      });
      let row = 0, first = 0;
      board.querySelectorAll(":scope > g.pattern-lines > g").forEach((space, k) => {
        if (k >= first + row + 1) { first += row + 1; row += 1; }
        editable(space, `line ${seat} ${row}`, W("space_line", { seat: seat, line: row + 1, space: k - first + 1 }));
      });
      board.querySelectorAll(":scope > g.floor > g").forEach((space, k) => {
        editable(space, `floor ${seat} ${k}`, W("space_floor", { seat: seat, space: k + 1 }));
      });
    });
    // A factory or the centre holds tiles and its drawn name: the button is a clear shape laid over it, so that
    // its accessible name is its own, not the text drawn under it (in the drawing's English).
    const over = (group, target, label) => {
      const box = group.getBBox();
      const cover = document.createElementNS("http://www.w3.org/2000/svg", "rect");
      Object.entries({ x: box.x, y: box.y, width: box.width, height: box.height, fill: "transparent" })
        .forEach(([name, value]) => cover.setAttribute(name, value));
      group.append(cover);
      editable(cover, target, label);
    };
    svg.querySelectorAll("g.factory").forEach((factory) => {
      over(factory, `factory ${factory.dataset.factory - 1}`, W("factory", { factory: factory.dataset.factory }));
    });
    svg.querySelectorAll("g.centre").forEach((centre) => over(centre, "centre", W("centre")));
  }

  function drawDraft(answer) {
    if (answer.refused) return show(answer);
    const state = answer.state;
    $("try-board").innerHTML = answer.svg;  // render_svg's own SVG, every text escaped
    markSpaces($("try-board").querySelector("svg"));
    const scores = $("try-edit-scores");
    scores.replaceChildren();
    state.boards.forEach((board, seat) => {
      const label = document.createElement("label");
      label.textContent = W("score_label", { seat: seat }) + " ";
      const input = document.createElement("input");
      input.type = "number";
      input.min = "0";
      input.size = 4;
      input.id = `try-edit-score-${seat}`;
      input.value = board.score;
      input.addEventListener("change", () => {
        if (input.value !== "") drawDraft(call("edit", `score ${seat} ${input.value}`, ""));
      });
      label.append(input);
      scores.append(label, " ");
    });
    const turn = $("try-edit-turn");
    turn.replaceChildren(...state.boards.map((board, seat) => new Option(W("seat", { seat: seat }), seat)));
    turn.value = state.turn;
    $("try-edit-round").value = state.round;
    $("try-state").value = JSON.stringify(state, null, 1);
    return true;
  }

  function editorShown(on) {
    editing = on;
    $("try-edit").setAttribute("aria-pressed", on ? "true" : "false");
    $("try-editor").hidden = !on;
    $("try-moves").hidden = on;
    ["try-play", "try-back", "try-input"].forEach((id) => { $(id).disabled = on; });
  }

  function setEditing(on) {
    editorShown(on);
    if (on) {
      drawDraft(call("edit_start"));
    } else {
      redraw();
    }
  }

  function editAt(target) {
    drawDraft(call("edit", target, $("try-edit-tile").value));
    // the drawing was made again: the focus goes back to the space edited, for the keyboard
    const again = $("try-board").querySelector(`[data-edit="${target}"]`);
    if (again) again.focus();
  }

  function editDone() {
    if (!show(call("edit_done"))) return;
    scenario = null;
    $("try-scenario").hidden = true;
    log(W("loaded"), [], "try-loaded");
    setEditing(false);
    history.replaceState(null, "", $("try-link").getAttribute("href"));  // the link to it, in the address bar
  }

  function play(move) {
    if (show(call("play", move))) {
      if (scenario && scenario.steps[played] && scenario.steps[played].move === move) played += 1;
      redraw();
      return true;
    }
    return false;
  }

  function step(index) {
    const item = scenario.steps[index];
    let ok;
    if (item.kind === "deal") {
      ok = show(call("deal", item.factories || []));
      if (ok) redraw();
    } else {
      ok = show(call("play", item.move));
      if (ok) redraw();
    }
    // A step the scenario expects refused is played (and refused) too: the next one follows it.
    if (ok || item.reject) {
      played = index + 1;
      showSteps();
    }
  }

  function showSteps() {
    if (!scenario) return;
    const list = $("try-steps");
    list.replaceChildren();
    scenario.steps.forEach((item, index) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "try-step";
      button.dataset.index = index;
      button.textContent = (item.kind === "deal" ? W("deal_step", { factories: (item.factories || []).join(" ") })
        : item.move) + (item.reject ? " " + W("step_refused", { rule: item.reject.rule }) : "");
      button.disabled = index !== played;
      button.addEventListener("click", () => step(index));
      list.append(button, " ");
    });
  }

  function openScenario(id, scenarios, titles) {
    scenario = scenarios[id];
    if (!scenario) {
      log(W("no_scenario", { id: id }), [], "try-refused");
      return;
    }
    $("try-scenario").hidden = false;
    $("try-scenario-id").textContent = id;
    const title = $("try-scenario-title");
    title.textContent = titles[id] || scenario.title;  // the page's language's title, or the corpus's English
    if (!titles[id] && LANG !== "en") title.lang = "en";
    $("try-scenario-rules").replaceChildren(ruleLinks(scenario.rules));
    played = 0;
    const given = scenario.given;
    if (given.state) {
      show(call("load", JSON.stringify(given.state)));
    } else if (given.new_game) {
      const g = given.new_game;
      show(call("new_game", g.players, g.variant, g.start_player));
    } else {
      log(Wn("scenario_refused", { reason: english(given.refused) }), [], "try-refused");
      return;
    }
    redraw();
  }

  // --- game records: records.zip (the replay, its grammar, lark and PyYAML) is loaded on the first one -------

  let recordsLoaded = null;
  let recordAt = 0;
  let recordSteps = 0;

  function loadRecords() {
    if (!recordsLoaded) {
      recordsLoaded = fetch(base + "records.zip").then((r) => r.arrayBuffer()).then((data) => {
        pyodide.unpackArchive(data, "zip", { extractDir: "/azul" });
        pyodide.runPython("import importlib; importlib.invalidate_caches()");
        const samples = call("samples");
        const select = $("try-record-sample");
        Object.keys(samples).forEach((name) => {
          const option = document.createElement("option");
          option.value = samples[name];
          option.textContent = name;
          select.append(option);
        });
      });
    }
    return recordsLoaded;
  }

  function showRecordStep(index) {
    if (!recordSteps) return;
    recordAt = Math.max(0, Math.min(index, recordSteps - 1));
    const view = call("record_step", recordAt);
    $("try-record-step").textContent = W("record_step", { index: recordAt + 1, count: recordSteps, label: view.label });
    $("try-record-step").dataset.index = recordAt;
    const claims = $("try-record-claims");
    claims.replaceChildren();
    view.claims.forEach((claim) => {
      const item = document.createElement("li");
      item.className = "try-claim";
      item.textContent = claim + " " + W("checked");
      claims.append(item);
    });
    redraw();
  }

  async function openRecord(text, name) {
    say(W("record_loading"), "ready");
    await loadRecords();
    const answer = call("open_record", text, name);
    const report = $("try-record-status");
    const detail = $("try-record-detail");
    detail.hidden = true;
    // the record's link: the record itself in the fragment (nothing is sent anywhere)
    $("try-record-link").href = "#record=" + encodeURIComponent(text);
    $("try-record-link").hidden = Boolean(answer.refused);
    if (answer.refused) {
      report.replaceChildren(...Wn("record_unreadable", { reason: english(answer.refused) }));
      report.dataset.verdict = "unreadable";
      recordSteps = 0;
      say(W("running"), "ready");
      return;
    }
    recordSteps = answer.steps;
    if (answer.failure) {
      report.replaceChildren(...Wn("record_fails", { claims: answer.claims_checked, failure: english(answer.failure) }));
      report.append(" ", ruleLinks(answer.rules || []));
      report.dataset.verdict = "fails";
      detail.textContent = answer.detail.join("\n");
      detail.hidden = !answer.detail.length;
    } else {
      report.textContent = W("record_ok", { steps: answer.steps, claims: answer.claims_checked });
      report.dataset.verdict = "ok";
    }
    report.dataset.claims = answer.claims_checked;
    say(W("running"), "ready");
    scenario = null;
    $("try-scenario").hidden = true;
    showRecordStep(answer.failure ? recordSteps - 1 : 0);
  }

  // The corpus's scenarios and their titles in the page's language: fetched once, when a link first names one.
  let scenarioFiles = null;

  function scenarioData() {
    if (!scenarioFiles) {
      scenarioFiles = Promise.all([
        fetch(base + "scenarios.json").then((r) => r.json()),
        LANG !== "en" ? fetch(base + `scenarios.${LANG}.json`).then((r) => r.json()) : {},
      ]);
    }
    return scenarioFiles;
  }

  // The page as it is first shown, before a link opens a position in it (the runtime and what it loaded stay).
  function cleared() {
    editorShown(false);
    scenario = null;
    played = 0;
    $("try-scenario").hidden = true;
    $("try-log").replaceChildren();
    ["try-input", "try-record"].forEach((id) => { $(id).value = ""; });
    recordSteps = 0;
    const report = $("try-record-status");
    report.replaceChildren();
    delete report.dataset.verdict;
    delete report.dataset.claims;
    ["try-record-step", "try-record-claims"].forEach((id) => $(id).replaceChildren());
    delete $("try-record-step").dataset.index;
    $("try-record-detail").hidden = true;
    $("try-record-link").hidden = true;
  }

  async function openLink() {
    const fragment = decodeURIComponent(location.hash.slice(1));
    if (fragment.startsWith("scenario=")) {
      const [scenarios, titles] = await scenarioData();
      return openScenario(fragment.slice(9), scenarios, titles);
    }
    const text = fragment.startsWith("state=") ? fragment.slice(6) : null;
    if (text && show(call("load", text))) return redraw();
    show(call("new_game", 2, "colour", 0));
    show(call("deal", []));
    redraw();
    if (fragment.startsWith("record=")) {  // a record's link: replayed as if pasted
      $("try-record").value = fragment.slice(7);
      await openRecord(fragment.slice(7), "linked.azr");
    }
  }

  // Each link opened is counted on the status line (data-opened), so that a reader's tools can tell when it is.
  async function opened() {
    await openLink();
    status.dataset.opened = Number(status.dataset.opened || 0) + 1;
  }

  async function start() {
    const began = performance.now();
    const runtime = document.createElement("script");
    runtime.src = base + "pyodide/pyodide.js";
    const loaded = new Promise((resolve, reject) => {
      runtime.onload = resolve;
      runtime.onerror = reject;
    });
    document.head.append(runtime);
    try {
      await loaded;
    } catch (error) {
      say(W("missing"), "missing");
      return;
    }
    if (location.hash.startsWith("#scenario=")) scenarioData();  // fetched while the runtime starts, as these:
    const files = Promise.all([
      fetch(base + "engine.zip").then((r) => r.arrayBuffer()),
      fetch(base + "tryit.py").then((r) => r.text()),
      fetch(base + $("try-app").dataset.rules).then((r) => r.json()),  // the rules' titles in the page's language
    ]);
    pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
    const [engine, source, ruleData] = await files;
    rules = ruleData;
    // The bundle is unpacked in the runtime's own in-memory file system (nothing is written on the reader's disk).
    pyodide.unpackArchive(engine, "zip", { extractDir: "/azul" });
    pyodide.FS.writeFile("/azul/tryit.py", source);
    pyodide.runPython("import sys; sys.path.insert(0, '/azul')");
    table = pyodide.pyimport("tryit").table;
    table.set_words(JSON.stringify(WORDS));  // the step effects in the page's language
    const seconds = (performance.now() - began) / 1000;
    status.dataset.loadSeconds = seconds.toFixed(2);
    say(W("ready", { seconds: seconds.toFixed(1) }), "ready");
    $("try-play").addEventListener("click", () => {
      if (play($("try-input").value)) $("try-input").value = "";
    });
    $("try-input").addEventListener("keydown", (event) => {
      if (event.key === "Enter") $("try-play").click();
    });
    $("try-back").addEventListener("click", () => {
      call("undo");
      if (scenario && played > 0) played -= 1;
      log(W("stepped_back"), [], "try-back");
      redraw();
    });
    $("try-load").addEventListener("click", () => {
      const text = $("try-state").value;
      if (show(call("load", text))) {
        scenario = null;
        $("try-scenario").hidden = true;
        log(W("loaded"), [], "try-loaded");
        redraw();
      }
    });
    $("try-edit").addEventListener("click", () => setEditing(!editing));
    $("try-edit-cancel").addEventListener("click", () => setEditing(false));
    $("try-edit-new").addEventListener("click", () => drawDraft(call("edit_new",
      Number($("try-edit-players").value), $("try-edit-variant").value)));
    $("try-edit-done").addEventListener("click", editDone);
    ["turn", "round"].forEach((field) => $(`try-edit-${field}`).addEventListener("change", () => {
      const value = $(`try-edit-${field}`).value;  // a box emptied on the way to a new number is no edit
      if (value !== "") drawDraft(call("edit", `${field} ${value}`, ""));
    }));
    $("try-board").addEventListener("click", (event) => {
      const space = editing && event.target.closest("[data-edit]");
      if (space) editAt(space.dataset.edit);
    });
    $("try-board").addEventListener("keydown", (event) => {
      const space = editing && (event.key === "Enter" || event.key === " ") && event.target.closest("[data-edit]");
      if (space) {
        event.preventDefault();
        editAt(space.dataset.edit);
      }
    });
    $("try-record-open").addEventListener("click", () => openRecord($("try-record").value, "pasted.azr"));
    $("try-record-example").addEventListener("click", () => {
      const select = $("try-record-sample");
      if (!select.value) return;
      $("try-record").value = select.value;
      openRecord(select.value, select.options[select.selectedIndex].textContent);
    });
    $("try-record-sample").addEventListener("focus", () => loadRecords());
    $("try-record-first").addEventListener("click", () => showRecordStep(0));
    $("try-record-prev").addEventListener("click", () => showRecordStep(recordAt - 1));
    $("try-record-next").addEventListener("click", () => showRecordStep(recordAt + 1));
    $("try-record-last").addEventListener("click", () => showRecordStep(recordSteps - 1));
    // A link changed in the address bar, or followed within the page, changes only the fragment: no new page
    // is loaded, so its position is opened here, on a page cleared as a new one is.
    window.addEventListener("hashchange", () => {
      cleared();
      opened().catch((error) => say(W("failed", { error: error }), "error"));
    });
    await opened();
  }

  start().catch((error) => say(W("failed", { error: error }), "error"));
})();
