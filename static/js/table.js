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
    if (state !== "open") { holdHand(); }  // a card clicked now would be sent much later
  }
  // The hand's buttons: held (disabled) while the socket is down and once a card is on its
  // way (no double play), until the next board or a refusal.
  function holdHand() {
    document.querySelectorAll("#hand button.card").forEach(function (button) {
      button.disabled = true;
    });
  }
  function releaseHand() {
    var board = document.getElementById("board");
    if (!board || board.dataset.yourTurn !== "true" || document.body.dataset.ws !== "open") { return; }
    document.querySelectorAll("#hand button.card").forEach(function (button) {
      button.disabled = false;
    });
  }
  document.body.dataset.ws = "connecting";
  document.addEventListener("DOMContentLoaded", function () {
    if (document.body.dataset.ws !== "open") { holdHand(); }
  });
  document.addEventListener("htmx:wsConnecting", function () { setState("connecting"); });
  // An update can be lost on the way (the channel layer may drop one): after a silence
  // while the table is open, ask whether it moved. The server answers only if it did.
  var SYNC = '{"sync": true}', SILENCE_MS = 8000;
  var socket = null, lastHeard = Date.now();
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    lastHeard = Date.now();
    setState("open");
    releaseHand();
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
    if (event.target && event.target.closest && event.target.closest("#hand")) { holdHand(); }
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
      releaseHand();  // refused: the card stays in hand and may be played again
      markHint();
    } else if (text.indexOf('id="board"') !== -1) {
      restoreFocus();
      announce();
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
  // Keyboard play: after each board the focus goes back to the hand if it was there (or
  // nowhere); arrow keys move along the hand, Home and End to its ends; Enter plays.
  var focusInHand = false;
  document.addEventListener("htmx:wsBeforeMessage", function () {
    var active = document.activeElement;
    focusInHand = !active || active === document.body || Boolean(active.closest && active.closest("#hand"));
  });
  function restoreFocus() {
    var hand = document.getElementById("hand");
    var active = document.activeElement;
    var lost = !active || active === document.body;
    if (!hand || !(focusInHand || lost) || (active && active.closest && active.closest("#chat"))) { return; }
    var first = hand.querySelector("button.card:not([disabled])");
    (first || hand).focus({ preventScroll: true });
  }
  document.addEventListener("keydown", function (event) {
    var card = event.target.closest && event.target.closest("#hand button.card");
    if (!card) { return; }
    var cards = Array.prototype.slice.call(document.querySelectorAll("#hand button.card:not([disabled])"));
    var at = cards.indexOf(card), next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowDown") { next = cards[at + 1]; }
    else if (event.key === "ArrowLeft" || event.key === "ArrowUp") { next = cards[at - 1]; }
    else if (event.key === "Home") { next = cards[0]; }
    else if (event.key === "End") { next = cards[cards.length - 1]; }
    if (next) { event.preventDefault(); next.focus(); }
  });
  // Screen readers hear each card as it lands, who took each trick and for how much, and
  // when it is their turn (once each: a board redrawn for another reason says nothing).
  var heard = {}, heardHand = null, turnAt = null;
  function newsOf(board) {
    var hand = board.dataset.hand, lines = [];
    if (hand !== heardHand) { heard = {}; heardHand = hand; }
    [["#last-trick", ".mini", ".last-result"], ["#trick", ".played", ".trick-result"]].forEach(function (spot) {
      var place = document.querySelector(spot[0]);
      if (!place) { return; }
      var trick = place.dataset.trick;
      place.querySelectorAll(spot[1] + "[data-announce]").forEach(function (card) {
        var key = trick + ":" + card.dataset.card;
        if (!heard[key]) { heard[key] = true; lines.push(card.dataset.announce); }
      });
      var result = place.querySelector(spot[2]);
      if (result && !heard["won:" + trick]) {
        heard["won:" + trick] = true;
        lines.push(result.textContent.replace(/\s+/g, " ").trim());
      }
    });
    // Your turn, after every move that makes it yours (winning a trick and leading again too).
    var mine = board.dataset.yourTurn === "true";
    var out = document.getElementById("announcer");
    if (mine && board.dataset.moves !== turnAt && out) { lines.push(out.dataset.yourTurn); }
    turnAt = mine ? board.dataset.moves : null;
    return lines;
  }
  function announce() {
    var board = document.getElementById("board"), out = document.getElementById("announcer");
    if (!board || !out) { return; }
    var lines = newsOf(board);
    if (lines.length) { out.textContent = lines.join(" "); }
  }
  document.addEventListener("DOMContentLoaded", function () {
    var board = document.getElementById("board");
    if (board) { newsOf(board); }  // what was on the table before: not news
  });
  // A hint marks its card in the hand (and puts the focus on it).
  function markHint() {
    var message = document.querySelector("#table-message[data-hint-card]");
    if (!message) { return; }
    var card = document.querySelector("#hand button.card[data-card='" + message.dataset.hintCard + "']");
    if (card) {
      card.classList.add("hinted");
      card.focus({ preventScroll: true });
    }
  }
})();
