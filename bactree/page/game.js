"use strict";
// The rules of one game for the page: its codes, scoring, and answers and guesses read and told as the terminal
// reads and tells them. Plain JavaScript; the rules mirror bactree/game/__init__.py and bactree/game/words.py.
const bactreeRules = (function () {
  /** The rules of the tree file's `GAME` (its game object) with `ANSWERS`, every answer the game allows. */
  function makeRules(GAME, ANSWERS) {
    const LENGTH = GAME.length;
    const SYMBOLS = GAME.symbols;
    // A word game (version 2: game.secrets, maybe game.guesses) keeps bulls and cows even when its words repeat a
    // letter; only a Mastermind game of every code is told in black and white pegs (Game.pegs in bactree/game).
    const WORDS = Array.isArray(GAME.secrets);
    const TOLD_IN_PEGS = GAME.repeats && !WORDS;

    /** Every code of a game without lists, in lexicographic order of the symbols string, as game.codes. */
    function allCodes() {
      const codes = [], alphabet = [...SYMBOLS]; // one symbol a code point
      const used = new Array(alphabet.length).fill(false);
      (function extend(prefix, size) {
        if (size === LENGTH) { codes.push(prefix); return; }
        for (let i = 0; i < alphabet.length; i++) {
          if (!GAME.repeats && used[i]) continue;
          used[i] = true;
          extend(prefix + alphabet[i], size + 1);
          used[i] = false;
        }
      })("", 0);
      return codes;
    }
    const CODES = WORDS ? GAME.guesses || GAME.secrets : allCodes(); // every allowed guess, as game.codes
    const SECRETS = WORDS ? GAME.secrets : CODES; // every possible secret, as game.secret_codes
    // A symbol is one code point; a string indexes UTF-16 units, which are the code points unless a symbol lies
    // past U+FFFF, and only then are codes split into arrays of code points to be scored.
    const ASTRAL = /[\u{10000}-\u{10FFFF}]/u.test(SYMBOLS);
    const points = ASTRAL ? (code) => [...code] : (code) => code;

    /** The answer `secret` gives to `guess`, e.g. "1B2C" (cows are white pegs with repeats). */
    function score(guessCode, secretCode) {
      const guess = points(guessCode), secret = points(secretCode);
      let bulls = 0;
      const counts = {};
      for (let i = 0; i < LENGTH; i++) {
        if (guess[i] === secret[i]) bulls++;
        counts[guess[i]] = (counts[guess[i]] || 0) + 1;
      }
      let common = 0;
      for (let i = 0; i < LENGTH; i++) {
        const c = secret[i];
        if (counts[c] > 0) { counts[c]--; common++; }
      }
      return bulls + "B" + (common - bulls) + "C";
    }

    /** Refused input quoted for its error, cut short past 40 characters as bactree/game's `_echo` does. */
    function quoted(text) {
      const chars = [...text];
      return chars.length <= 40 ? `'${text}'` : `'${chars.slice(0, 40).join("")}'... (${chars.length.toLocaleString("en-US")} characters)`;
    }

    /** An answer as a player says it, as game.answer_text: "1B2C" in Bulls and Cows, "1 black, 2 white" in Mastermind. */
    function answerText(key) {
      if (!TOLD_IN_PEGS) return key;
      const [bulls, cows] = key.slice(0, -1).split("B").map(Number);
      return `${bulls} black, ${cows} white`;
    }

    /** Answers in a row: "1B1C 2B0C", or "1 black, 1 white; 2 black, 0 white" in Mastermind. */
    const answersText = (keys) => keys.map(answerText).join(TOLD_IN_PEGS ? "; " : " ");

    /** A typed answer (1B2C, 1b2c, '1 2', 12, or as answerText says it) as its key, or throws an Error saying why not. */
    function parseAnswer(text) {
      const raw = text.trim();
      let m = raw.match(/^(\d+)\s*[bB]\s*(\d+)\s*[cC]$/) || raw.match(/^(\d+)[\s,/]+(\d+)$/) ||
        raw.match(/^(\d+)\s*black\s*,?\s*(\d+)\s*white$/);
      if (!m && /^\d\d$/.test(raw) && LENGTH < 10) m = [raw, raw[0], raw[1]];
      const told = TOLD_IN_PEGS ? "black and white pegs" : "bulls and cows";
      if (!m) throw new Error(`invalid answer ${quoted(text)}: type ${told} as 1B2C, '1 2' or 12`);
      const key = Number(m[1]) + "B" + Number(m[2]) + "C";
      checkAnswer(key);
      return key;
    }

    function checkAnswer(key) {
      if (ANSWERS.includes(key)) return;
      const [bulls, cows] = key.slice(0, -1).split("B").map(Number);
      let why = "no guess and secret of this game give it";  // the reasons of game.check_answer, word for word
      const one = bulls === 1;
      if (bulls + cows > LENGTH) why = TOLD_IN_PEGS ? `black and white pegs cannot exceed ${LENGTH} together` : `bulls plus cows cannot exceed ${LENGTH}`;
      else if (bulls === LENGTH - 1 && cows === 1) {
        why = TOLD_IN_PEGS ? `${one ? "1 black peg leaves" : bulls + " black pegs leave"} one peg, which cannot be white`
          : `${one ? "1 bull leaves" : bulls + " bulls leave"} one symbol, which cannot be a cow`;
      }
      throw new Error(`impossible answer ${answerText(key)}: ${why}`);
    }

    /** A word as the lists hold it, as words.normalise_word: NFC and lower case, kept as given (in NFC) when its
     * lower case has another length (Turkish İ lowers to i and a combining dot). */
    function normaliseWord(entry) {
      const composed = entry.normalize("NFC");
      const lower = composed.toLowerCase().normalize("NFC");
      return [...lower].length === [...composed].length ? lower : composed;
    }

    const ALLOWED = WORDS ? new Set(CODES) : null;

    /** A typed guess, checked as game.parse_code does: a word game takes its allowed words in any case. */
    function parseCode(text) {
      if (WORDS) {
        const word = normaliseWord(text.trim());
        if (ALLOWED.has(word)) return word;
        const chars = [...text];
        const shown = `'${chars.length <= 40 ? text : chars.slice(0, 40).join("") + "..."}'`;
        const letters = [...word].length;
        if (letters !== LENGTH) throw new Error(`invalid guess ${shown}: expected ${LENGTH} letters, got ${letters}`);
        throw new Error(`invalid guess ${shown}: not a word of the game's list`);
      }
      const code = text.trim();
      const size = [...code].length;
      if (size !== LENGTH) throw new Error(`invalid code ${quoted(text)}: expected ${LENGTH} symbols, got ${size}`);
      for (const symbol of code) {
        if (!SYMBOLS.includes(symbol)) throw new Error(`invalid code ${quoted(text)}: symbol '${symbol}' is not one of '${SYMBOLS}'`);
      }
      if (!GAME.repeats) {
        for (const symbol of code) {
          if (code.split(symbol).length > 2) throw new Error(`invalid code ${quoted(text)}: symbol '${symbol}' repeats`);
        }
      }
      return code;
    }


    return { WORDS, TOLD_IN_PEGS, CODES, SECRETS, score, answerText, answersText, parseAnswer, parseCode };
  }

  return { makeRules };
})();
