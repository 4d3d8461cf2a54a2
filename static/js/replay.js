// Keyboard steps for the replay page: each key follows one of the step links. With htmx the
// board is fetched and swapped directly (a link swapped in a moment ago is not wired up by
// htmx until its swap settles, and clicking it then would load the whole page).
(function () {
  "use strict";
  var KEYS = {
    ArrowLeft: "prev",
    ArrowRight: "next",
    PageUp: "prev-hand",  // (the up and down arrows scroll the page, as everywhere)
    PageDown: "next-hand",
    Home: "first",
    End: "last",
    m: "next-mistake",  // the analysis: the next card labelled mistake or blunder
  };
  document.addEventListener("keydown", function (event) {
    var step = KEYS[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!step || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) {
      return;
    }
    var board = document.getElementById("replay-board");
    if (!board) return;
    event.preventDefault();
    var link = board.querySelector('a[data-replay="' + step + '"]');
    if (!link) return;
    if (window.htmx) {
      window.htmx.ajax("get", link.getAttribute("href"), {
        source: link,
        target: "#replay-board",
        swap: "outerHTML",
      });
    } else {
      link.click();
    }
  });
})();
