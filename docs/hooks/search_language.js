// The search of one language of the site, loaded by the theme's search worker as the language of the index
// (docs/hooks/docgen_search.py writes it as lunr.azul_LANG.min.js with the three values below filled in).
// What it adds to lunr's support for the language:
// - an ID typed whole (OFFER-5, DIV-offer-pt-walkthrough-omissions, floor-overflow-to-lid) is one word, its
//   exact form ranked first; the words of a hyphenated token are indexed as well;
// - a word is found with or without its accents (chao finds chão);
// - a word typed in any inflection is stemmed as the index is (the theme searches every word as a prefix,
//   which lunr never stems): підлога finds підлоги; Ukrainian, which lunr has no stemmer for, by its endings;
// - an ID is a tag of its own section (docgen_search.tag_ids), which ranks it first;
// - a version's other words for a thing (ES's suelo, its rulebook's word beside piso) find the site's word.
(function () {
  var LANG = "__LANG__", BASE = __BASE__, SYNONYMS = __SYNONYMS__;
  if (BASE) {
    importScripts("../lunr/min/lunr." + BASE + ".min.js");  // resolved from the worker's own folder
  }
  var support = BASE ? lunr[BASE] : LANG === "en" ? lunr : null;

  // Terms are split at blanks only: the theme's query parser would split OFFER-5 into "offer" and "5".
  lunr.QueryLexer.termSeparator = /\s+/;

  var UK_ENDINGS = ["ами", "ями", "ого", "ому", "ими", "іми", "ють", "ять", "ться", "ах", "ях", "ам", "ям",
                    "ом", "ем", "ів", "їв", "ий", "ій", "ої", "ою", "ею", "им", "ім", "ти", "ть", "ся",
                    "а", "я", "о", "е", "и", "і", "ї", "у", "ю", "ь", "й"];
  UK_ENDINGS.sort(function (a, b) { return b.length - a.length; });

  function ukStem(word) {  // the longest inflection ending, leaving a stem of three letters or more
    for (var i = 0; i < UK_ENDINGS.length; i++) {
      var ending = UK_ENDINGS[i];
      if (word.length - ending.length >= 3 && word.slice(-ending.length) === ending) {
        return word.slice(0, -ending.length);
      }
    }
    return word;
  }

  function fold(word) {
    return word.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC");
  }

  function stemWord(word) {
    if (LANG === "uk") return ukStem(word);
    return support.stemmer(new lunr.Token(word, {})).toString();
  }

  function trim(token) {
    return token.update(function (s) { return s.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""); });
  }

  function stem(token) {
    return token.update(stemWord);
  }

  function stopWords(token) {
    return support && support.stopWordFilter ? support.stopWordFilter(token) : token;
  }

  function expand(token) {  // the token, its words if it is hyphenated, each without its accents
    var word = token.toString(), forms = [word];
    if ((token.metadata.fields || []).indexOf("tags") >= 0) return token;  // an ID, only ever found whole
    if (word.indexOf("-") > 0) forms = forms.concat(word.split("-").filter(Boolean));
    forms.slice().forEach(function (form) {
      var bare = fold(form);
      if (bare !== form) forms.push(bare);
    });
    return forms.map(function (form) { return token.clone(function () { return form; }); });
  }

  [[trim, "trim"], [stem, "stem"], [stopWords, "stopWords"], [expand, "expand"]].forEach(function (pair) {
    lunr.Pipeline.registerFunction(pair[0], "azul_" + LANG + "_" + pair[1]);
  });

  lunr["azul_" + LANG] = function () {
    this.pipeline.reset();
    this.pipeline.add(trim, expand, stopWords, stem);
    this.searchPipeline.reset();
    this.searchPipeline.add(trim, stem);
  };

  // The theme asks for every word as a prefix (word*), which lunr never stems: each such word is asked for
  // also whole (lunr then stems it as it stemmed the index), without its accents, and by the site's word for
  // it. A word's prefix is looked for in titles and texts only: "de" must not find every tag (ID) beginning
  // with "de"; an ID (hyphenated) is looked for as typed, and whole, ranked first.
  var search = lunr.Index.prototype.search;
  lunr.Index.prototype.search = function (query) {
    var clauses = [];
    query.split(/\s+/).forEach(function (term) {
      var match = /^([^+\-*~^:][^*~^:]*)\*$/.exec(term);
      if (!match) {
        if (term) clauses.push(term);
        return;
      }
      var word = match[1].toLowerCase(), bare = fold(word);
      if (word.indexOf("-") > 0) {
        clauses.push(term, word + "^100");
        return;
      }
      [word].concat(bare !== word ? [bare] : [], SYNONYMS[word] || SYNONYMS[bare] || []).forEach(function (form) {
        clauses.push("title:" + form + "*", "text:" + form + "*", form);
      });
    });
    return search.call(this, clauses.join(" "));
  };
})();
