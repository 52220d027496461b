"use strict";
// The bactree page: play, find a hidden secret, browse and chart one tree file embedded in this page.
// Plain JavaScript, no network. The rules (game.js) mirror bactree/game/__init__.py, the walk bactree/walker.py.
(function () {
  const DATA = JSON.parse(document.getElementById("bactree-data").textContent);
  const TREE = DATA.tree;
  const GAME = TREE.game;
  const LENGTH = GAME.length;
  const SYMBOLS = GAME.symbols;
  const SOLVED = LENGTH + "B0C";
  const ANSWERS = DATA.answers; // every answer the game allows, ascending
  const LIST_AT_MOST = 10; // remaining secrets are listed when this few

  const $ = (id) => document.getElementById(id);

  function element(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (key === "class") node.className = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "type" || key === "id") node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children) node.append(child);
    return node;
  }

  // --- the game (bactree/page/game.js) ---------------------------------------

  const {
    WORDS, TOLD_IN_PEGS, CODES, SECRETS, score, answerText, answersText, parseAnswer, parseCode,
  } = bactreeRules.makeRules(GAME, ANSWERS);

  const fits = (codes, guess, answer) => codes.filter((code) => score(guess, code) === answer);

  const counts = new Map(); // node -> secrets that reach it
  const totals = new Map(); // node -> guesses its subtree takes over those secrets, each guess counted once per secret
  (function countSecrets(node, codes) {
    counts.set(node, codes.length);
    let total = codes.length;
    if (node.next) {
      const parts = {};
      for (const code of codes) (parts[score(node.guess, code)] ||= []).push(code);
      for (const [key, child] of Object.entries(node.next)) total += countSecrets(child, parts[key] || []);
    }
    totals.set(node, total);
    return total;
  })(TREE.root, SECRETS);

  /** Indices of a smallest set of `history` pairs that no secret fits together with `answer` to `guess`. */
  function conflicts(history, guess, answer) {
    const fresh = fits(SECRETS, guess, answer);
    const pairs = history.map(([g, a]) => new Set(fits(SECRETS, g, a)));
    for (let size = 0; size <= pairs.length; size++) {
      for (const subset of combinations(pairs.length, size)) {
        if (!fresh.some((code) => subset.every((i) => pairs[i].has(code)))) return subset;
      }
    }
    return [];
  }

  function* combinations(n, size, start = 0, chosen = []) {
    if (chosen.length === size) { yield chosen.slice(); return; }
    for (let i = start; i < n; i++) {
      chosen.push(i);
      yield* combinations(n, size, i + 1, chosen);
      chosen.pop();
    }
  }

  function describePairs(history, indices) {
    const parts = indices.map((i) => `guess ${i + 1} (${history[i][0]}: ${answerText(history[i][1])})`);
    return parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + " and " + parts[parts.length - 1];
  }

  function remainingText(codes, what = "secrets remain", one = "secret remains") {
    if (codes.length === 1) return `1 ${one}: ${codes[0]}`;
    if (codes.length <= LIST_AT_MOST) return `${codes.length} ${what}: ${codes.join(" ")}`;
    return `${codes.length} ${what}`;
  }

  // --- how codes and answers look: digits, or Mastermind's pegs --------------------------

  // Mastermind codes are coloured pegs, each with its symbol on it, in Okabe and Ito's colour-blind-safe
  // palette (classes p0..p8 in page.css, each symbol's chosen by bactree/pegs.py as at the terminal: a letter
  // naming a colour gets it); Bulls and Cows keeps digits.
  const PEGS = TOLD_IN_PEGS && SYMBOLS.length <= 8;
  const PEG_CLASS = PEGS ? new Map([...SYMBOLS].map((symbol, i) => [symbol, "peg p" + DATA.pegs[i]])) : null;

  /** A code as an element whose text is the code: a row of pegs for Mastermind, digits otherwise. */
  function codeView(code) {
    if (!PEGS) return element("code", { class: "code" }, code);
    return element("code", { class: "code pegs", title: code },
      ...[...code].map((symbol) => element("span", { class: PEG_CLASS.get(symbol) }, symbol)));
  }

  /** An answer as nodes: for Mastermind, black and white key pegs (no text of their own) before `answerText`. */
  function answerView(key) {
    if (!PEGS) return [answerText(key)];
    const [bulls, cows] = key.slice(0, -1).split("B").map(Number);
    const kinds = Array.from({ length: LENGTH }, (_, i) => (i < bulls ? "black" : i < bulls + cows ? "white" : "hole"));
    const keys = element("span", { class: "keys", "aria-hidden": "true" }, ...kinds.map((kind) => element("span", { class: "key " + kind })));
    keys.style.gridTemplateColumns = `repeat(${Math.ceil(LENGTH / 2)}, auto)`;
    return [keys, answerText(key)];
  }

  /** `remainingText` with the listed codes as `codeView`s. */
  function remainingView(codes) {
    if (codes.length > LIST_AT_MOST) return [remainingText(codes)];
    const nodes = [codes.length === 1 ? "1 secret remains: " : `${codes.length} secrets remain: `];
    codes.forEach((code, i) => nodes.push(...(i ? [" "] : []), codeView(code)));
    return nodes;
  }

  function say(target, text, kind) {
    target.textContent = text;
    target.className = "message" + (kind ? " " + kind : "");
  }

  // The game as str(Game) says it: "4 of '0123456789', no repeats", or "30 words of 4 letters[, 38 allowed guesses]".
  const thousands = (n) => n.toLocaleString("en-US");
  const gameText = !WORDS ? `${LENGTH} of '${SYMBOLS}', ${GAME.repeats ? "repeats" : "no repeats"}`
    : `${thousands(SECRETS.length)} words of ${LENGTH} letters` + (GAME.guesses ? `, ${thousands(CODES.length)} allowed guesses` : "");
  const aSecret = WORDS ? `a secret word, one of ${gameText}` : `a secret code: ${gameText}`; // as bactree play says it

  // --- play: the page finds your secret ---------------------------------------------

  const play = { nodes: [TREE.root], history: [], remaining: [SECRETS], solved: false, lastConflicts: [] };

  function playAnswer(text) {
    const message = $("play-message");
    if (play.solved) { say(message, "The game is over: start a new game, or undo.", "refused"); return; }
    let key;
    try { key = parseAnswer(text); } catch (err) { say(message, err.message, "refused"); return; }
    const node = play.nodes[play.nodes.length - 1];
    const guess = node.guess;
    const left = fits(play.remaining[play.remaining.length - 1], guess, key);
    if (left.length === 0) {
      const found = conflicts(play.history, guess, key);
      play.lastConflicts = found;
      say(message, found.length === 0
        ? `Refused: no secret gives ${answerText(key)} to ${guess}.`
        : `Refused: no secret fits ${answerText(key)} to ${guess} together with the answers to ${describePairs(play.history, found)}. Undo to take an answer back.`,
        "refused");
      renderPlay(false);
      return;
    }
    play.lastConflicts = [];
    play.history.push([guess, key]);
    play.remaining.push(left);
    if (key === SOLVED) play.solved = true;
    else play.nodes.push(node.next[key]);
    say(message, play.solved ? `Solved: your secret is ${guess}, found in ${play.history.length} guesses.` : "", play.solved ? "done" : "");
    renderPlay(true);
  }

  function playUndo() {
    const message = $("play-message");
    if (play.history.length === 0) { say(message, "Nothing to take back yet.", "refused"); return; }
    const [guess, key] = play.history.pop();
    play.remaining.pop();
    if (play.solved) play.solved = false;
    else play.nodes.pop();
    play.lastConflicts = [];
    say(message, `Taken back: your answer ${answerText(key)} to guess ${play.history.length + 1} (${guess}).`);
    renderPlay(true);
  }

  function playRestart() {
    Object.assign(play, { nodes: [TREE.root], history: [], remaining: [SECRETS], solved: false, lastConflicts: [] });
    say($("play-message"), "");
    renderPlay(true);
  }

  function renderPlay(focus) {
    const history = $("play-history");
    history.replaceChildren(...play.history.map(([guess, key], i) =>
      element("li", { class: play.lastConflicts.includes(i) ? "conflict" : "", "data-answer": key },
        "Guess " + (i + 1) + ": ", codeView(guess), " ", ...answerView(key))));
    const codes = play.remaining[play.remaining.length - 1];
    $("play-turn").hidden = play.solved;
    if (!play.solved) {
      const guess = play.nodes[play.nodes.length - 1].guess;
      $("play-number").textContent = String(play.history.length + 1);
      $("play-guess").replaceChildren(codeView(guess));
      const possible = new Set(codes.map((code) => score(guess, code)));
      $("play-answers").replaceChildren(...ANSWERS.map((key) => element("button", {
        type: "button", class: possible.has(key) ? "possible" : "impossible", "data-answer": key,
        title: possible.has(key) ? "some remaining secret gives this" : "no remaining secret gives this",
        onclick: () => playAnswer(key),
      }, ...answerView(key))));
    }
    $("play-remaining").replaceChildren(...(play.solved ? [] : remainingView(codes)));
    if (focus) $("play-input").value = "";
  }

  $("play-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("play-input").value;
    if (["u", "undo"].includes(text.trim().toLowerCase())) playUndo();
    else playAnswer(text);
    $("play-input").select();
  });
  $("play-undo").addEventListener("click", playUndo);
  $("play-restart").addEventListener("click", playRestart);

  // --- find mine: you find the page's secret ----------------------------------------

  const find = { secret: null, history: [], remaining: SECRETS, node: TREE.root, verdicts: [], over: false };

  // An optimal expected tree of normal play with no guess cap holds the exact value of every position on it;
  // any other tree's totals are upper bounds (bactree/page/verdict.js).
  // A tree of that objective not proven optimal may carry a proven lower bound on the whole game's total.
  const NORMAL_EXPECTED = TREE.objective.name === "expected" && !TREE.objective.hard_mode && TREE.objective.max_guesses === null;
  const judge = bactreeVerdicts.makeJudge({
    codes: CODES, secrets: SECRETS, length: LENGTH, symbols: SYMBOLS, repeats: GAME.repeats, answers: ANSWERS,
    total: (node) => totals.get(node), exactTree: NORMAL_EXPECTED && TREE.optimal,
    wholeFloor: NORMAL_EXPECTED && TREE.stats.lower_bound !== undefined ? TREE.stats.lower_bound : null,
  });
  const INDEX = new Map(CODES.map((code, i) => [code, i]));

  // The shipped book of this game, if the page carries one: exact totals of the positions after one or two guesses.
  const BOOK = DATA.book ? bactreeBook.makeBook({ ...DATA.book, symbols: SYMBOLS, length: LENGTH }) : null;

  /** Tell the judge the book's exact total of the secrets `codes` left after `history`, if the book holds it. */
  function fromBook(history, codes) {
    const found = BOOK.best(history);
    if (found) judge.know(codes.map((code) => INDEX.get(code)), found.total, INDEX.get(found.guess));
  }

  /** The verdict on `guess` when `codes` are left after `history` and `node` is the tree's node for them (or null off
   * the tree). The book, where it holds them, gives the exact totals of this position and of those the guess leads to. */
  function judgeGuess(codes, node, guess, budget, history) {
    if (BOOK) {
      fromBook(history, codes);
      for (const key of new Set(codes.map((code) => score(guess, code)))) {
        if (key !== SOLVED) fromBook([...history, [guess, key]], fits(codes, guess, key));
      }
    }
    return judge.verdict(codes.map((code) => INDEX.get(code)), node, INDEX.get(guess), budget);
  }

  /** For the tests and scripts/bench_page.py: the verdict on `guess` after `history` ([[guess, answer], ...]). */
  window.bactreeVerdict = (history, guess, budget) => {
    let codes = SECRETS, node = TREE.root;
    for (const [g, key] of history) {
      codes = fits(codes, g, key);
      node = node && node.guess === g && node.next ? node.next[key] || null : null;
    }
    return judgeGuess(codes, node, guess, budget, history);
  };

  function randomCode() {
    const pick = new Uint32Array(1);
    crypto.getRandomValues(pick);
    return SECRETS[pick[0] % SECRETS.length];
  }

  function findNew() {
    Object.assign(find, { secret: randomCode(), history: [], remaining: SECRETS, node: TREE.root, verdicts: [], over: false });
    say($("find-message"), "");
    renderFind();
  }

  function findGuess(text) {
    const message = $("find-message");
    if (find.over) { say(message, `The game is over (the secret was ${find.secret}): pick a new secret.`, "refused"); return; }
    let guess;
    try { guess = parseCode(text); } catch (err) { say(message, err.message, "refused"); return; }
    const key = score(guess, find.secret);
    find.verdicts.push(judgeGuess(find.remaining, find.node, guess, undefined, find.history));
    find.node = find.node && find.node.guess === guess && find.node.next ? find.node.next[key] || null : null;
    find.history.push([guess, key]);
    find.remaining = fits(find.remaining, guess, key);
    if (key === SOLVED) {
      find.over = true;
      say(message, `Solved in ${find.history.length} guesses.`, "done");
    } else {
      const n = find.remaining.length;
      say(message, `${answerText(key)}: ${n} ${n === 1 ? "secret still fits" : "secrets still fit"}.`);
    }
    renderFind();
  }

  function renderFind() {
    $("find-history").replaceChildren(...find.history.map(([guess, key], i) =>
      element("li", { "data-answer": key }, "Guess " + (i + 1) + ": ", codeView(guess), " ", ...answerView(key),
        element("div", { class: "verdict " + (find.verdicts[i].exact ? "exact" : "bounds") }, bactreeVerdicts.verdictText(find.verdicts[i])))));
    $("find-input").value = "";
  }

  $("find-form").addEventListener("submit", (event) => {
    event.preventDefault();
    findGuess($("find-input").value);
    $("find-input").select(); // a refused guess stays, selected, to be fixed or typed over
  });
  if (PEGS) { // a Mastermind guess can be clicked together peg by peg, or typed as digits
    const field = $("find-input");
    const type = (text) => { field.value = text; field.focus(); };
    $("find-pegs").append(
      ...[...SYMBOLS].map((symbol) => element("button", { type: "button", "data-symbol": symbol, "aria-label": "add " + symbol,
        onclick: () => type((field.value + symbol).slice(0, LENGTH)) }, codeView(symbol))),
      element("button", { type: "button", id: "find-erase", "aria-label": "erase the last symbol", onclick: () => type(field.value.slice(0, -1)) }, "⌫"));
    $("find-pegs").hidden = false;
  }
  $("find-give-up").addEventListener("click", () => {
    find.over = true;
    say($("find-message"), `The secret was ${find.secret}.`, "done");
  });
  $("find-new").addEventListener("click", () => { findNew(); $("find-input").focus(); });

  // --- browse: the tree, expandable ----------------------------------------------

  function nodeItem(node, key, depth) {
    const n = counts.get(node);
    const final = !node.next || Object.keys(node.next).length === 0;
    const facts = `depth ${depth} · ${n} ${n === 1 ? "secret" : "secrets"}` + (final ? " · found" : "");
    const button = element("button", { type: "button", class: "node" + (final ? " final" : ""), "data-guess": node.guess, "data-depth": depth },
      key ? element("span", { class: "answer" }, ...answerView(key), " → ") : "",
      codeView(node.guess), " ", element("span", { class: "facts" }, facts));
    const item = element("li", {}, button);
    item.bactreeNode = node;
    item.bactreeDepth = depth;
    if (!final) {
      button.setAttribute("aria-expanded", "false");
      button.addEventListener("click", () => toggle(item));
    }
    return item;
  }

  function toggle(item, open) {
    const button = item.firstChild;
    const isOpen = button.getAttribute("aria-expanded") === "true";
    if (open === undefined) open = !isOpen;
    if (open === isOpen) return;
    button.setAttribute("aria-expanded", String(open));
    if (open) {
      const node = item.bactreeNode;
      item.append(element("ul", {}, ...Object.entries(node.next).map(([key, child]) => nodeItem(child, key, item.bactreeDepth + 1))));
    } else {
      item.lastChild.remove();
    }
  }

  function browseReset() {
    $("browse-tree").replaceChildren(nodeItem(TREE.root, "", 1));
  }

  function browseFollow(text) {
    const message = $("browse-message");
    browseReset();
    let item = $("browse-tree").firstChild;
    const words = text.split(/[\s,;]+/).filter(Boolean); // 1B1C 2B0C, or 11 20
    const keys = [];
    try {
      for (const word of words) keys.push(parseAnswer(word));
    } catch (err) { say(message, err.message, "refused"); return; }
    for (const key of keys) {
      const node = item.bactreeNode;
      if (!node.next || !node.next[key]) {
        const known = node.next ? answersText(Object.keys(node.next)) : "none: the game ends here";
        say(message, `No branch ${answerText(key)} under ${node.guess} (depth ${item.bactreeDepth}); its answers: ${known}.`, "refused");
        mark(item);
        return;
      }
      toggle(item, true);
      item = [...item.lastChild.children].find((li) => li.bactreeNode === node.next[key]);
    }
    toggle(item, true);
    mark(item);
    say(message, keys.length ? `After ${answersText(keys)}: guess ${item.bactreeNode.guess} at depth ${item.bactreeDepth}.` : "");
  }

  function mark(item) {
    for (const old of document.querySelectorAll(".node.target")) old.classList.remove("target");
    const button = item.firstChild;
    button.classList.add("target");
    button.focus();
    button.scrollIntoView({ block: "nearest" });
  }

  $("browse-form").addEventListener("submit", (event) => {
    event.preventDefault();
    browseFollow($("browse-path").value);
  });
  $("browse-collapse").addEventListener("click", () => { browseReset(); say($("browse-message"), ""); });

  // --- stats ---------------------------------------------------------------------

  function renderStats() {
    const stats = TREE.stats;
    const objective = TREE.objective;
    const proven = TREE.optimal
      ? "yes: no tree is better for this objective"
      : "no" + (stats.lower_bound !== undefined ? ` (proven lower bound ${stats.lower_bound})` : "");
    const rows = [
      ["Objective", objective.name + (objective.tie_breaks.length ? `, then ${objective.tie_breaks.join(", then ")}` : "")],
      ["Proven optimal", proven],
      ["Hard mode", objective.hard_mode ? "yes: every guess could be the secret" : "no"],
      ["Guess cap", objective.max_guesses === null ? "none" : String(objective.max_guesses)],
      ["Secrets", String(stats.secrets)],
      ...(GAME.guesses ? [["Allowed guesses", String(CODES.length)]] : []), // a word game's guesses beyond its secrets
      ["Most guesses", String(stats.max_guesses)],
      ["Total guesses", String(stats.total_guesses)],
      ["Mean guesses", stats.mean_guesses.toFixed(4)],
      ["Nodes", String(stats.nodes)],
    ];
    $("stats-table").replaceChildren(...rows.map(([name, value]) => element("tr", {}, element("th", { scope: "row" }, name), element("td", {}, value))));
    $("stats-chart").innerHTML = histogramSvg(stats.histogram);
  }

  function histogramSvg(histogram) {
    const ks = Object.keys(histogram).map(Number).sort((a, b) => a - b);
    const top = Math.max(...ks.map((k) => histogram[k]));
    const width = 40 + ks.length * 60, height = 220, base = 190, scale = 160 / top;
    const bars = ks.map((k, i) => {
      const v = histogram[k], h = Math.max(v * scale, v ? 1 : 0), x = 40 + i * 60;
      return `<g class="bar" data-guesses="${k}" data-secrets="${v}"><title>${v} secrets in ${k} guesses</title>` +
        `<rect x="${x + 8}" y="${base - h}" width="44" height="${h}" fill="#1f6feb"></rect>` +
        `<text x="${x + 30}" y="${base - h - 5}" text-anchor="middle" font-size="13">${v}</text>` +
        `<text x="${x + 30}" y="${base + 18}" text-anchor="middle" font-size="13">${k}</text></g>`;
    }).join("");
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" role="img" aria-label="Histogram of guesses">` +
      `<line x1="40" y1="${base}" x2="${width - 10}" y2="${base}" stroke="#5b6672"></line>` +
      `<text x="4" y="${base + 18}" font-size="12" fill="#5b6672">guesses</text>${bars}</svg>`;
  }

  // --- modes ---------------------------------------------------------------------

  const FOCUS = { play: "play-input", find: "find-input", browse: "browse-path", stats: "tab-stats" }; // where the keyboard lands

  const TABS = [...document.querySelectorAll(".tab")];

  function show(mode, focus) {
    for (const tab of TABS) {
      const on = tab.dataset.mode === mode;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1; // Tab reaches the chosen mode; arrows move between modes
      $(tab.dataset.mode).hidden = !on;
    }
    if (focus) $(FOCUS[mode]).focus();
  }

  for (const tab of TABS) tab.addEventListener("click", () => show(tab.dataset.mode, true));
  $("tabs").addEventListener("keydown", (event) => {
    const at = TABS.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: TABS.length - 1 }[event.key];
    if (at < 0 || to === undefined) return;
    event.preventDefault();
    const tab = TABS[(to + TABS.length) % TABS.length];
    show(tab.dataset.mode, false);
    tab.focus();
  });

  $("game-line").textContent = `${gameText} · ${TREE.objective.name} tree, at most ${TREE.stats.max_guesses} guesses`;
  $("tree-name").textContent = DATA.name;
  $("play-intro").textContent = `Think of ${aSecret}. I will find it in at most ${TREE.stats.max_guesses} guesses. ` +
    `Answer each guess with its ${TOLD_IN_PEGS ? "black and white pegs" : "bulls and cows"}: the outlined buttons are the answers some remaining secret gives.`;
  $("find-intro").textContent = `I have picked ${aSecret}. Find it! Type ${WORDS ? "a word of the list, in any case" : "a guess"}.`;
  if (WORDS) $("find-input").placeholder = "a word";
  playRestart();
  findNew();
  browseReset();
  renderStats();
  show("play", false);
  document.body.dataset.ready = "true";
})();
