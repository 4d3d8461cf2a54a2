// Connection state of the table's WebSocket, for people (the banner) and tests (data-ws).
(function () {
  "use strict";
  var labels = { open: "", connecting: "Connecting…", closed: "Connection lost: reconnecting…" };
  function setState(state) {
    document.body.dataset.ws = state;
    var banner = document.getElementById("connection");
    if (banner) {
      banner.dataset.state = state;
      banner.textContent = labels[state] || "";
    }
  }
  document.addEventListener("htmx:wsConnecting", function () { setState("connecting"); });
  document.addEventListener("htmx:wsOpen", function () { setState("open"); });
  document.addEventListener("htmx:wsClose", function () { setState("closed"); });
  document.addEventListener("htmx:wsError", function () { setState("closed"); });
  // An error message stays a few seconds, then the next board update clears it.
  var messageShownAt = 0;
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var text = String(event.detail.message || "");
    if (text.indexOf('id="table-message"') !== -1) {
      messageShownAt = Date.now();
    } else if (text.indexOf('id="board"') !== -1 && Date.now() - messageShownAt > 4000) {
      var message = document.getElementById("table-message");
      if (message) { message.textContent = ""; }
    }
  });
})();
