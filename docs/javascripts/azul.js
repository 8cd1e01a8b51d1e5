// The language switcher keeps the reader's place: a rule's section has the same anchor (#FLOOR-3) in every
// language, so the anchor being read goes along to the other language's page.
document.addEventListener("click", function (event) {
  var link = event.target.closest ? event.target.closest("a.md-select__link[hreflang]") : null;
  if (link && location.hash) {
    link.href = link.href.split("#")[0] + location.hash;
  }
}, true);

// A code block that scrolls sideways must be reachable with the keyboard (axe-core: scrollable-region-
// focusable). The theme gives a block tabindex only while it measures an overflow and drops it otherwise, which
// a narrower window or a late layout then lacks: every block keeps one.
(function () {
  function focusable() {
    document.querySelectorAll("pre > code:not([tabindex])").forEach(function (code) {
      code.setAttribute("tabindex", "0");
    });
  }
  focusable();
  new MutationObserver(focusable).observe(document.body, {subtree: true, childList: true, attributes: true,
                                                          attributeFilter: ["tabindex"]});
})();
