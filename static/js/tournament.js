// A tournament page's live part: pushed over its socket (ws/tournaments/<id>/); the 3 s
// poll (hx-trigger on #tournament-live) runs only while the socket is not open, and every
// 30 s even while it is, in case a notice was lost (nothing depends on a socket staying open).
(function () {
  "use strict";
  var SAFETY_POLL_MS = 30000;
  var open = false;
  var lastFrame = 0;

  function setOpen(value) {
    open = value;
    document.body.dataset.tournamentSocket = value ? "open" : "closed";
  }
  document.addEventListener("htmx:wsOpen", function () { setOpen(true); });
  document.addEventListener("htmx:wsClose", function () { setOpen(false); });
  document.addEventListener("htmx:wsError", function () { setOpen(false); });
  document.addEventListener("htmx:wsAfterMessage", function () { lastFrame = Date.now(); });
  document.addEventListener("htmx:afterRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (element && element.id === "tournament-live" && event.detail.successful) { lastFrame = Date.now(); }
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var element = event.detail && event.detail.elt;
    if (!element || element.id !== "tournament-live") { return; }
    if (open && Date.now() - lastFrame < SAFETY_POLL_MS) { event.preventDefault(); }
  });
})();
