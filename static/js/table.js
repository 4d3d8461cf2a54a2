// Connection state of the table's WebSocket, for people (the banner) and tests (data-ws).
(function () {
  "use strict";
  // No inline handlers (the Content-Security-Policy forbids them): forms that ask first say
  // so in data-confirm, and the invite link selects itself when clicked. Delegated, so
  // boards pushed over the socket need nothing more.
  document.addEventListener("submit", function (event) {
    var question = event.target.dataset && event.target.dataset.confirm;
    if (question && !window.confirm(question)) { event.preventDefault(); }
  }, true);
  document.addEventListener("click", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-click]")) {
      event.target.select();
    }
  });
  // The banner's words come from the page, in the viewer's language (data-connecting...).
  function setState(state) {
    document.body.dataset.ws = state;
    var banner = document.getElementById("connection");
    if (banner) {
      banner.dataset.state = state;
      banner.textContent = banner.dataset[state] || "";
    }
  }
  document.addEventListener("htmx:wsConnecting", function () { setState("connecting"); });
  // An update can be lost on the way (the channel layer may drop one): after a silence
  // while the table is open, ask whether it moved. The server answers only if it did.
  var SYNC = '{"sync": true}', SILENCE_MS = 8000;
  var socket = null, lastHeard = Date.now();
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    lastHeard = Date.now();
    setState("open");
  });
  setInterval(function () {
    var board = document.getElementById("board");
    if (!socket || document.body.dataset.ws !== "open" || !board) { return; }
    // Even on your own turn: another tab of yours may have played.
    var open = board.dataset.status === "in_progress" || board.dataset.status === "waiting";
    if (!open || Date.now() - lastHeard < SILENCE_MS) { return; }
    lastHeard = Date.now();
    socket.send(SYNC);
  }, 1000);
  // The server's reasons to close for good: this viewer may not watch, or there is no such
  // table. htmx does not reconnect after them; the banner says why.
  var FINAL = { 4403: "forbidden", 4404: "missing", 4409: "tabs", 4429: "flooding" };
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event ? event.detail.event.code : 0;
    if (code === 4401) { window.location.reload(); return; }  // logged out: show who we are now
    setState(FINAL[code] || "closed");
  });
  document.addEventListener("htmx:wsError", function () { setState("closed"); });
  // Your turn: the tab's title says so, and an optional sound plays (a profile setting, off
  // by default) when the turn comes to you.
  var page = document.querySelector(".table-page");
  var baseTitle = document.title, wasMyTurn = null, audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var now = audio.currentTime, tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
      tone.connect(gain).connect(audio.destination);
      tone.start(now);
      tone.stop(now + 0.3);
      document.body.dataset.turnSounds = String(Number(document.body.dataset.turnSounds || 0) + 1);
    } catch (error) { /* no audio here: the title still says it */ }
  }
  function showTurn() {
    var board = document.getElementById("board");
    if (!page || !board) { return; }
    var mine = board.dataset.yourTurn === "true";
    document.title = mine ? page.dataset.turnTitle : baseTitle;
    if (mine && wasMyTurn === false && page.dataset.turnSound === "true") { beep(); }
    wasMyTurn = mine;
  }
  document.addEventListener("DOMContentLoaded", showTurn);
  // Chat: a sent message clears the box; the log keeps its latest line in view.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    if (event.target && event.target.id === "chat-form") { event.target.reset(); }
  });
  function showLatestChat() {
    var log = document.getElementById("chat-log");
    if (log) { log.scrollTop = log.scrollHeight; }
  }
  document.addEventListener("DOMContentLoaded", showLatestChat);
  // Countdowns: a rematch offer (then the words for an expired offer), and the clock of
  // the person to play, from the server's deadline.
  function clockText(seconds) {
    if (seconds >= 3600) { return Math.floor(seconds / 3600) + " h " + Math.floor(seconds % 3600 / 60) + " min"; }
    if (seconds >= 60) { return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0"); }
    return seconds + " s";
  }
  function countDown() {
    document.querySelectorAll("[data-expires-at]").forEach(function (countdown) {
      var left = Math.round((Number(countdown.dataset.expiresAt) - Date.now()) / 1000);
      countdown.textContent = left > 0 ? left + " s" : countdown.dataset.expired;
    });
    document.querySelectorAll("[data-deadline]").forEach(function (clock) {
      var left = Math.max(0, Math.ceil((Number(clock.dataset.deadline) - Date.now()) / 1000));
      clock.textContent = clockText(left);
      clock.classList.toggle("low", left <= 5);
    });
  }
  setInterval(countDown, 1000);
  document.addEventListener("DOMContentLoaded", countDown);
  // An error message stays a few seconds, then the next board update clears it.
  var messageShownAt = 0, offerSeen = false;
  document.addEventListener("DOMContentLoaded", function () {
    var rematch = document.querySelector("#rematch[data-rematch]");
    offerSeen = Boolean(rematch && rematch.dataset.rematch === "open");
  });
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    lastHeard = Date.now();
    var text = String(event.detail.message || "");
    if (text.indexOf("chat-log") !== -1 || text.indexOf('id="chat"') !== -1) { showLatestChat(); }
    if (text.indexOf('id="table-message"') !== -1) {
      messageShownAt = Date.now();
    } else if (text.indexOf('id="board"') !== -1) {
      // How many boards the socket has brought (tests wait on it).
      document.body.dataset.boards = String(Number(document.body.dataset.boards || 0) + 1);
      var message = document.getElementById("table-message");
      if (message && Date.now() - messageShownAt > 4000) { message.textContent = ""; }
      showTurn();
      // A rematch everyone accepted while this page watched the offer: the players go to
      // the new table together (an old table opened later does not send you away).
      var rematch = document.querySelector("#rematch[data-rematch]");
      if (rematch && rematch.dataset.rematch === "open") { offerSeen = true; }
      var follow = document.querySelector("#board [data-follow]");
      if (follow && offerSeen) { window.location.assign(follow.getAttribute("href")); }
    }
  });
})();
