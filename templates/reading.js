/* The glossary's reading aids (docs/reading.md): the search of every page, and the previews of
   cross-references and citations.  Without this script the page is whole: the search stays
   hidden, links stay plain links.  Nothing is fetched: lunr.js, search-index.js and previews.js
   are <script> files of the site, added on first use, so they load from file:// as over http,
   under any prefix.  No eval; the dictionary's text goes in with textContent, and HTML only as
   the build wrote it (previews.js), parsed inert and cleaned of scripts and handlers again. */
(function () {
  "use strict";
  var me = document.currentScript;
  var root = me ? me.src.replace(/reading\.js(?:[?#].*)?$/, "") : "";
  var loading = {};
  /* The page's own words, in its edition's language: the build sets them on the search box. */
  var said = (document.getElementById("search") || {}).dataset || {};
  var labels = {one: said.one || "term found", many: said.many || "terms found",
                none: said.none || "No term found", reference: said.reference || "Reference",
                shown: said.shown || "shown"};
  var stemming = said.stemmer || "";     // the edition's language, when its search stems it

  /* A script of the site, once; `ready` runs when it has run. */
  function load(name, ready) {
    var state = loading[name];
    if (state === true) { ready(); return; }
    if (state) { state.push(ready); return; }
    loading[name] = [ready];
    var s = document.createElement("script");
    s.src = root + name;
    s.onload = function () {
      var waiting = loading[name];
      loading[name] = true;
      waiting.forEach(function (f) { f(); });
    };
    s.onerror = function () { loading[name] = undefined; };
    document.head.appendChild(s);
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ------------------------------------------------------------------ search
  var box = document.getElementById("search");
  var input = document.getElementById("search-input");
  var list = document.getElementById("search-results");
  var status = document.getElementById("search-status");
  var head = null, docs = null, indexes = {}, results = [], active = -1, pendingEnter = false, shownFor = null;

  /* lunr.js, the edition's stemmer and search-index.js: every document's name, forms, section and
     lengths, not yet an index. */
  function withHead(then) {
    if (head) { then(); return; }
    load("lunr.js", function () {
      function next() {
        load("search-index.js", function () {
          if (!head) { head = window.GLOSSARY_SEARCH; docs = head.docs; }
          then();
        });
      }
      // An edition in a language lunr-languages stems: its stemmer, before the index that names it.
      if (stemming) load("lunr.stemmer.support.js", function () { load("lunr." + stemming + ".js", next); });
      else next();
    });
  }

  /* The scripts named, each once; `ready` runs when all have run. */
  function loadAll(names, ready) {
    var left = names.length;
    if (!left) { ready(); return; }
    names.forEach(function (name) { load(name, function () { if (--left === 0) ready(); }); });
  }

  /* The shard of a token or of a typed word (glossary.reading.shard_key): its first character. */
  function shardKey(w) {
    var c = w.charAt(0);
    return c >= "a" && c <= "z" ? c : c >= "0" && c <= "9" ? "0" : "_";
  }

  function unique(list) {
    return list.filter(function (x, i) { return list.indexOf(x) === i; }).sort();
  }

  /* The lunr index of the shards `keys`, as lunr's builder weighs it (glossary.reading.assembled_index):
     BM25 from the postings and the documents' field lengths, k1 1.2, b 0.75, three decimals.  A query
     reaches only tokens that start as its words do, so the index of their shards finds and scores
     what the whole index would. */
  function indexOf(keys) {
    var id = keys.join("");
    if (indexes[id]) return indexes[id];
    var K1 = 1.2, B = 0.75, n = docs.length;
    var fields = head.fields.map(function (f) { return f[0]; });
    var average = fields.map(function (f, j) {
      var sum = 0;
      docs.forEach(function (d) { sum += d[5][j]; });
      return sum / n;
    });
    var postings = {}, tokens = [];
    keys.forEach(function (k) {
      var shard = window["GLOSSARY_SEARCH_" + k];
      Object.keys(shard).forEach(function (t) { tokens.push(t); postings[t] = shard[t]; });
    });
    tokens.sort();
    var vectors = {}, inverted = tokens.map(function (t, ti) {
      var per = postings[t], withTerm = 0, posting = {_index: ti};
      per.forEach(function (ps) { withTerm += ps.length; });
      var x = (n - withTerm + 0.5) / (withTerm + 0.5), idf = Math.log(1 + Math.abs(x));
      per.forEach(function (ps, j) {
        var refs = posting[fields[j]] = {};
        ps.forEach(function (p) {
          var i = typeof p === "number" ? p : p[0], tf = typeof p === "number" ? 1 : p[1];
          var score = idf * ((K1 + 1) * tf) / (K1 * (1 - B + B * (docs[i][5][j] / average[j])) + tf);
          var ref = fields[j] + "/" + i;
          (vectors[ref] || (vectors[ref] = [])).push(ti, Math.round(score * head.fields[j][1] * 1000) / 1000);
          refs[i] = {};
        });
      });
      return [t, posting];
    });
    indexes[id] = window.lunr.Index.load({version: head.version, fields: fields, pipeline: head.pipeline,
      invertedIndex: inverted, fieldVectors: Object.keys(vectors).map(function (r) { return [r, vectors[r]]; })});
    return indexes[id];
  }

  function stemmerOf() {
    var lunr = window.lunr, language = stemming && lunr[stemming];
    return language ? language.stemmer : lunr.stemmer;
  }

  /* The shards a query needs: those of its words and of their stems. */
  function shardsOf(text) {
    var stemmer = stemmerOf(), keys = [];
    words(text).forEach(function (w) {
      keys.push(shardKey(w), shardKey(stemmer(new window.lunr.Token(w)).toString()));
    });
    return unique(keys);
  }

  function words(text) {
    return text.toLowerCase().split(/[\s\-]+/).map(function (w) {
      return w.replace(/^[^0-9a-z\u00c0-\uffff]+|[^0-9a-z\u00c0-\uffff]+$/g, "");
    }).filter(Boolean);
  }

  function search(text, keys) {
    var ws = words(text);
    if (!ws.length) return [];
    var lunr = window.lunr, language = stemming && lunr[stemming];
    var stemmer = stemmerOf();
    var stopWordFilter = language ? language.stopWordFilter : lunr.stopWordFilter;
    var found = indexOf(keys).query(function (q) {
      ws.forEach(function (w, i) {
        var stem = stemmer(new lunr.Token(w)).toString();
        if (i < ws.length - 1) {
          if (stopWordFilter(new lunr.Token(w))) {
            q.term(w, {presence: lunr.Query.presence.REQUIRED});
          }
          return;
        }
        // The word being typed: itself, or the start of a longer one.
        q.term(w, {boost: 10});
        q.term(w, {boost: 2, usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING});
        if (stem !== w) q.term(stem, {boost: 1, usePipeline: false, wildcard: lunr.Query.wildcard.TRAILING});
      });
    });
    var typed = ws.join(" ");
    /* A name or short form typed whole comes first ("GD"; "gradient descent" for "gradient descent
       (GD)"), then a name or form that starts with what was typed ("gradient": gradient descent,
       gradient step), then one that holds it as a word ("zero-gradient condition"), then the rest. */
    function rank(r) {
      var d = docs[+r.ref], name = words(d[1]).join(" "), bare = words(d[1].replace(/\s*\([^()]*\)\s*$/, ""));
      var forms = d[3].map(function (f) { return words(f).join(" "); });
      if (name === typed || bare.join(" ") === typed || forms.indexOf(typed) >= 0) return 0;
      if (name.indexOf(typed) === 0 || forms.some(function (f) { return f.indexOf(typed) === 0; })) return 1;
      return (" " + name + " ").indexOf(" " + typed) >= 0 ? 2 : 3;
    }
    // Within the ranks of names, the term the dictionary refers to more often first (gradient descent
    // before gradient boosting); then lunr's score.
    return found.map(function (r, i) { return {ref: +r.ref, rank: rank(r), refs: docs[+r.ref][4] || 0, i: i}; })
      .sort(function (a, b) { return a.rank - b.rank || (a.rank < 3 ? b.refs - a.refs : 0) || a.i - b.i; })
      .map(function (r) { return r.ref; });
  }

  function href(slug) { return root + "terms/" + slug + ".html"; }

  function setActive(i) {
    var items = list.querySelectorAll("[role=option]");
    if (active >= 0 && items[active]) items[active].setAttribute("aria-selected", "false");
    active = i;
    if (i >= 0 && items[i]) {
      items[i].setAttribute("aria-selected", "true");
      input.setAttribute("aria-activedescendant", items[i].id);
      items[i].scrollIntoView({block: "nearest"});
    } else {
      input.removeAttribute("aria-activedescendant");
    }
  }

  function close() {
    list.hidden = true;
    list.textContent = "";
    list.removeAttribute("data-query");
    results = [];
    active = -1;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function shownOf(slug) {
    return window["GLOSSARY_SHOWN_" + shardKey(slug)][slug];
  }

  // Every term found is counted; the first ten are listed.
  function show(found) {
    var refs = found.slice(0, 10);
    list.textContent = "";
    results = refs;
    active = -1;
    refs.forEach(function (ref, i) {
      var d = docs[ref];
      /* Each result is a link (open it in a new tab, copy its address) and the listbox's option:
         the focus stays in the box, which names the option the arrows reach. */
      var li = el("li", "result");
      li.setAttribute("role", "none");
      var a = el("a", "result-link");
      a.id = "search-result-" + i;
      a.href = href(d[0]);
      a.tabIndex = -1;
      a.setAttribute("role", "option");
      a.setAttribute("aria-selected", "false");
      a.appendChild(el("span", "result-name", d[1]));
      a.appendChild(el("span", "result-section", head.sections[d[2]]));
      var summary = shownOf(d[0]);
      if (summary) a.appendChild(el("span", "result-summary", summary));
      a.addEventListener("mousedown", function (e) { e.preventDefault(); });     // the focus stays in the box
      li.appendChild(a);
      list.appendChild(li);
    });
    list.hidden = !refs.length;
    input.setAttribute("aria-expanded", refs.length ? "true" : "false");
    status.textContent = refs.length ? found.length + " " + (found.length === 1 ? labels.one : labels.many)
      + (found.length > refs.length ? ", " + refs.length + " " + labels.shown : "") : labels.none;
  }

  function update() {
    var text = input.value;
    if (!words(text).length) { close(); status.textContent = ""; return; }
    /* The head, then the shards of the query's words, then the summaries of the ten results shown;
       a query typed meanwhile drops this one. */
    withHead(function () {
      var keys = shardsOf(text);
      loadAll(keys.map(function (k) { return "search/" + k + ".js"; }), function () {
        if (input.value !== text) return;
        var found = search(text, keys);
        var shown = unique(found.slice(0, 10).map(function (r) { return shardKey(docs[r][0]); }));
        loadAll(shown.map(function (k) { return "search/shown-" + k + ".js"; }), function () {
          if (input.value !== text) return;
          show(found);
          shownFor = text;
          list.setAttribute("data-query", text);      // what the list answers (the tests wait for it)
          if (pendingEnter && results.length) location.href = href(docs[results[0]][0]);
          pendingEnter = false;
        });
      });
    });
  }

  if (box && input && list && status) {
    box.hidden = false;
    input.addEventListener("input", update);
    input.addEventListener("focus", function () { withHead(function () {}); });
    input.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && words(input.value).length && shownFor !== input.value) {
        e.preventDefault(); pendingEnter = true;     // typed before its results came: open the first
      } else if (e.key === "ArrowDown" && results.length) {
        e.preventDefault(); setActive((active + 1) % results.length);
      } else if (e.key === "ArrowUp" && results.length) {
        e.preventDefault(); setActive(active <= 0 ? results.length - 1 : active - 1);
      } else if (e.key === "Enter" && results.length) {
        e.preventDefault();
        var chosen = href(docs[results[Math.max(active, 0)]][0]);
        // Ctrl/Cmd+Enter: in a new tab, as a click on the link would
        if (e.ctrlKey || e.metaKey) window.open(chosen, "_blank", "noopener"); else location.href = chosen;
      } else if (e.key === "Escape") {
        if (results.length) { e.preventDefault(); close(); } else { input.value = ""; status.textContent = ""; }
      }
    });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
    document.addEventListener("keydown", function (e) {
      var t = e.target, tag = t && t.tagName;
      if (e.key === "/" && !e.ctrlKey && !e.metaKey && !e.altKey && tag !== "INPUT" && tag !== "TEXTAREA"
          && tag !== "SELECT" && !(t && t.isContentEditable)) {
        e.preventDefault(); input.focus(); input.select();
      }
    });
  }

  // ---------------------------------------------------------------- previews
  var tip = null, owner = null, hideTimer = null;

  /* HTML the build wrote, as inert nodes: no scripts, no handlers, no links (a preview holds
     nothing to focus), no ids (they are the page's). */
  function clean(node) {
    var drop = node.querySelectorAll("script, style, iframe, object, embed, link, meta, form, input, button");
    Array.prototype.forEach.call(drop, function (e) { e.parentNode.removeChild(e); });
    Array.prototype.forEach.call(node.querySelectorAll("*"), function (e) {
      Array.prototype.slice.call(e.attributes).forEach(function (a) {
        var n = a.name.toLowerCase();
        if (n.indexOf("on") === 0 || n === "id" || n === "href" || n === "src" || n === "srcset"
            || n === "tabindex" || n === "style") e.removeAttribute(a.name);
      });
    });
    Array.prototype.forEach.call(node.querySelectorAll("a, img"), function (a) {
      if (a.tagName === "IMG") { a.parentNode.removeChild(a); return; }
      while (a.firstChild) a.parentNode.insertBefore(a.firstChild, a);
      a.parentNode.removeChild(a);
    });
    return node;
  }

  function fromHTML(tag, cls, markup) {
    var doc = new DOMParser().parseFromString("<!DOCTYPE html><body><div>" + markup + "</div>", "text/html");
    var holder = clean(doc.body.firstChild);
    var e = el(tag, cls);
    while (holder.firstChild) e.appendChild(document.adoptNode(holder.firstChild));
    return e;
  }

  function fromPage(tag, cls, source) {
    var e = el(tag, cls);
    var copy = clean(source.cloneNode(true));
    while (copy.firstChild) e.appendChild(copy.firstChild);
    return e;
  }

  function target(a) {
    var h = a.getAttribute("href") || "";
    if (a.classList.contains("citation")) {
      return h.charAt(0) === "#" ? {cite: document.getElementById(decodeURIComponent(h.slice(1)))} : null;
    }
    var m = /([a-z0-9-]+)\.html(?:#.*)?$/.exec(h);
    return m ? {slug: m[1]} : null;
  }

  function place() {
    var r = owner.getBoundingClientRect();
    var width = Math.min(352, document.documentElement.clientWidth - 16);
    tip.style.width = width + "px";
    var left = Math.max(8, Math.min(r.left, document.documentElement.clientWidth - width - 8));
    tip.style.left = (left + window.scrollX) + "px";
    tip.style.top = (r.bottom + window.scrollY + 6) + "px";
  }

  function hide() {
    clearTimeout(hideTimer);
    if (tip) tip.hidden = true;
    if (owner) owner.removeAttribute("aria-describedby");
    owner = null;
  }

  function open(a, what) {
    if (!tip) {
      tip = el("div", "preview");
      tip.id = "preview";
      tip.setAttribute("role", "tooltip");
      tip.hidden = true;
      tip.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
      tip.addEventListener("mouseleave", function () { later(); });
      (document.querySelector("main") || document.body).appendChild(tip);     // inside a landmark
    }
    tip.textContent = "";
    if (what.cite) {
      tip.appendChild(el("p", "preview-section", labels.reference));
      tip.appendChild(fromPage("p", "preview-summary", what.cite));
    } else {
      var d = window.GLOSSARY_PREVIEWS[what.slug];
      tip.appendChild(fromHTML("p", "preview-name", d[0]));
      tip.appendChild(el("p", "preview-section", d[1]));
      tip.appendChild(fromHTML("p", "preview-summary", d[2]));
    }
    if (owner && owner !== a) owner.removeAttribute("aria-describedby");
    owner = a;
    a.setAttribute("aria-describedby", "preview");
    tip.hidden = false;
    place();
  }

  function want(a) {
    clearTimeout(hideTimer);
    if (a === owner && tip && !tip.hidden) return;
    var what = target(a);
    if (!what) return;
    if (what.cite) { open(a, what); return; }
    load("previews.js", function () {
      var data = window.GLOSSARY_PREVIEWS;
      if (data && Object.prototype.hasOwnProperty.call(data, what.slug)) open(a, what);
    });
  }

  function later() {
    clearTimeout(hideTimer);
    hideTimer = setTimeout(hide, 300);
  }

  function link(e) {
    var t = e.target;
    return t && t.closest ? t.closest("a.xref, a.citation") : null;
  }

  document.addEventListener("mouseover", function (e) { var a = link(e); if (a) want(a); });
  document.addEventListener("mouseout", function (e) {
    var a = link(e);
    if (a && a === owner && !(e.relatedTarget && a.contains(e.relatedTarget))) later();
  });
  document.addEventListener("focusin", function (e) { var a = link(e); if (a) want(a); });
  document.addEventListener("focusout", function (e) { if (link(e) === owner) hide(); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape" && owner) hide();
  });
})();
