// Connection state of the table's WebSocket, for people (the banner) and tests (data-ws).
(function () {
  "use strict";
  // No inline handlers (the Content-Security-Policy forbids them): forms that ask first say
  // so in data-confirm, and the invite link selects itself when clicked. Delegated, so
  // boards pushed over the socket need nothing more.
  document.addEventListener("submit", function (event) {
    var question = event.target.dataset && event.target.dataset.confirm;
    var cost = event.target.matches && event.target.matches("form.resign") && document.querySelector("[data-leave-cost]");
    if (question && cost) { question += "\n\n" + cost.textContent; }  // what it costs, in figures
    if (question && !window.confirm(question)) { event.preventDefault(); }
  }, true);
  document.addEventListener("click", function (event) {
    if (event.target.matches && event.target.matches("[data-select-on-click]")) {
      event.target.select();
    }
    var help = event.target.closest && event.target.closest("[data-action=rules-help]");
    if (help) {
      var on = !document.body.classList.contains("rules-help");
      keep("coins.rulesHelp", on ? "1" : "");
      showRulesHelp(on);
    }
  });
  // Playing ahead: while others play, a click on a card chooses it (again: un-chooses it);
  // the first board of your turn plays it, as if clicked then. The server checks it as any
  // card (a card chosen stays in your hand: only you play your cards).
  var chosen = null;
  document.addEventListener("click", function (event) {
    var card = event.target.closest && event.target.closest("#hand button.card[data-premove]");
    if (!card || card.disabled) { return; }
    chosen = chosen === card.dataset.card ? null : card.dataset.card;
    showChosen();
  });
  function showChosen() {
    document.querySelectorAll("#hand button.card").forEach(function (button) {
      var on = chosen !== null && button.dataset.card === chosen;
      button.classList.toggle("chosen", on);
      if (button.hasAttribute("data-premove")) { button.setAttribute("aria-pressed", on ? "true" : "false"); }
    });
  }
  function playChosen() {
    var board = document.getElementById("board");
    if (!board || board.dataset.status !== "in_progress") { chosen = null; return; }
    showChosen();
    if (chosen === null || board.dataset.yourTurn !== "true" || document.body.dataset.ws !== "open") { return; }
    var card = document.querySelector('#hand.can-play button.card[data-card="' + chosen + '"]:not([disabled])');
    chosen = null;
    if (card) { card.click(); }
  }
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (String(event.detail.message || "").indexOf('id="board"') !== -1) { playChosen(); }
  });
  // A new deal: the hand's cards fly in (CSS), once, when the board brings another hand.
  var handSeen = null;
  function dealIfNew() {
    var board = document.getElementById("board"), hand = document.getElementById("hand");
    if (!board) { return; }
    if (hand && handSeen !== null && board.dataset.hand !== handSeen) { hand.classList.add("dealt"); }
    handSeen = board.dataset.hand;
  }
  document.addEventListener("DOMContentLoaded", dealIfNew);
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (String(event.detail.message || "").indexOf('id="board"') !== -1) { dealIfNew(); }
  });
  // Rules help ("What would win?"): the person's choice, kept in this browser, survives the
  // boards the socket swaps in.
  function showRulesHelp(on) {
    document.body.classList.toggle("rules-help", on);
    document.querySelectorAll("[data-action=rules-help]").forEach(function (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }
  function rulesHelpChosen() { return stored("coins.rulesHelp", "") === "1"; }
  document.addEventListener("DOMContentLoaded", function () { showRulesHelp(rulesHelpChosen()); });
  document.addEventListener("htmx:wsAfterMessage", function () { showRulesHelp(rulesHelpChosen()); });
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
  // The socket names this tab (random, kept across reloads of the tab): when it reconnects,
  // its new socket replaces its old one at the server, so a socket that died (a server
  // restart, a Redis blip) never counts against the tabs a person may have open.
  var tabId = null;
  try {
    tabId = window.sessionStorage.getItem("coins-tab");
    if (!tabId) {
      var bytes = new Uint8Array(12);
      window.crypto.getRandomValues(bytes);
      tabId = Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
      window.sessionStorage.setItem("coins-tab", tabId);
    }
  } catch (error) { tabId = null; }  // no storage: the server's own staleness check remains
  if (window.htmx) {
    var plainSocket = htmx.createWebSocket;
    htmx.createWebSocket = function (url) {
      if (tabId) { url += (url.indexOf("?") === -1 ? "?" : "&") + "tab=" + tabId; }
      // The chat this page shows (its room and latest line): a socket that finds nothing
      // newer sends no chat panel as it opens.
      var chat = document.getElementById("chat");
      if (chat && chat.dataset.room) {
        var latest = 0;
        chat.querySelectorAll("[data-chat-id]").forEach(function (line) {
          latest = Math.max(latest, Number(line.dataset.chatId) || 0);
        });
        url += (url.indexOf("?") === -1 ? "?" : "&") + "chat=" + chat.dataset.room + "." + latest;
      }
      return plainSocket ? plainSocket(url) : new WebSocket(url);
    };
    // Reconnect soon after a drop (the first try within a second), then every few seconds
    // at most: never the minutes of an unbounded back-off.
    htmx.config.wsReconnectDelay = function (retries) {
      return Math.min(5000, 400 * Math.pow(2, retries)) * (0.75 + Math.random() / 4);
    };
  }
  // An update can be lost on the way (the channel layer may drop one): after a silence
  // while the table is open, ask whether it moved. The server answers only if it did.
  var SYNC = '{"sync": true}', SILENCE_MS = 8000;
  var socket = null, lastHeard = Date.now();
  // A card sent and not yet answered (by a board that shows it, or a refusal). If the
  // connection drops first, the page says so and sends it again once it is back; the
  // server plays a card once however often it arrives (it names the board's move count).
  var pending = null, RESEND_MS = 6000;
  document.addEventListener("htmx:wsBeforeSend", function (event) {
    var form = event.target && event.target.closest && event.target.closest("#hand form");
    var board = document.getElementById("board");
    if (form && board) {
      pending = { message: event.detail.message, moves: Number(board.dataset.moves), sentAt: Date.now() };
    }
  });
  function settle() {
    pending = null;
    if (document.body.dataset.ws === "unconfirmed") { setState("closed"); }
  }
  function resend() {
    if (!pending || !socket) { return; }
    pending.sentAt = Date.now();
    socket.send(pending.message);
  }
  document.addEventListener("htmx:wsOpen", function (event) {
    socket = event.detail.socketWrapper;
    lastHeard = Date.now();
    setState("open");
    if (pending) { resend(); } else { releaseHand(); }
  });
  setInterval(function () {
    var board = document.getElementById("board");
    if (!socket || document.body.dataset.ws !== "open" || !board) { return; }
    // A card with no answer for a while went into a socket that was dying: send it again.
    if (pending && Date.now() - pending.sentAt > RESEND_MS) { resend(); return; }
    // Even on your own turn: another tab of yours may have played.
    var open = board.dataset.status === "in_progress" || board.dataset.status === "waiting";
    if (!open || Date.now() - lastHeard < SILENCE_MS) { return; }
    lastHeard = Date.now();
    socket.send(SYNC);
  }, 1000);
  // The server's reasons to close for good: there is no such table (or it is private), or
  // the page flooded it. The banner says why, and the page does not reconnect. Too many
  // sockets: the page tries again now and then (a tab may have been closed meanwhile).
  // htmx itself reconnects after an abnormal closure (1006, 1011, 1012, 1013); the page
  // does after the other closures too, a server going away (1001) included.
  var FINAL = { 4404: "missing", 4429: "flooding" }, HTMX_RETRIES = [1006, 1011, 1012, 1013];
  var TABS_RETRY_MS = 10000;
  document.addEventListener("htmx:wsClose", function (event) {
    var code = event.detail && event.detail.event ? event.detail.event.code : 0;
    var wrapper = event.detail && event.detail.socketWrapper;
    if (code === 4401) { window.location.reload(); return; }  // logged out: show who we are now
    if (FINAL[code]) { setState(FINAL[code]); return; }
    if (code === 4409) {
      setState("tabs");
      if (wrapper) { setTimeout(wrapper.reconnect, TABS_RETRY_MS); }
      return;
    }
    setState(pending ? "unconfirmed" : "closed");
    if (HTMX_RETRIES.indexOf(code) === -1 && wrapper) {
      setTimeout(wrapper.reconnect, htmx.config.wsReconnectDelay(0));
    }
  });
  document.addEventListener("htmx:wsError", function () { setState(pending ? "unconfirmed" : "closed"); });
  // Your turn: the tab's title says so, and an optional sound plays (a profile setting, off
  // by default) when the turn comes to you.
  var page = document.querySelector(".table-page");
  var baseTitle = document.title, wasMyTurn = null, audio = null;
  // One short tone at the person's volume (0..1, kept in this browser; 0.6 at first).
  function stored(key, fallback) {
    try { var value = window.localStorage.getItem(key); return value === null ? fallback : value; } catch (e) { return fallback; }
  }
  function keep(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function volume() { return Math.max(0, Math.min(1, Number(stored("coins.volume", "60")) / 100)); }
  function tone(frequency, length, loudness, counter) {
    if (volume() === 0) { return; }
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      var now = audio.currentTime, wave = audio.createOscillator(), gain = audio.createGain();
      wave.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now);
      gain.gain.exponentialRampToValueAtTime(Math.max(0.0002, loudness * volume()), now + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + length);
      wave.connect(gain).connect(audio.destination);
      wave.start(now);
      wave.stop(now + length + 0.05);
      document.body.dataset[counter] = String(Number(document.body.dataset[counter] || 0) + 1);
    } catch (error) { /* no audio here: the page says it all in words */ }
  }
  function beep() { tone(660, 0.25, 0.25, "turnSounds"); }
  // Card sounds (off at first, a choice kept in this browser): a tick for each card that
  // lands, a lower note when a trick is taken.
  var movesHeard = null, tricksHeard = null;
  function cardSoundsOn() { return stored("coins.cardSounds", "") === "1"; }
  function showSoundSettings() {
    document.querySelectorAll("[data-action=card-sounds]").forEach(function (button) {
      button.setAttribute("aria-pressed", cardSoundsOn() ? "true" : "false");
    });
    document.querySelectorAll("[data-volume]").forEach(function (slider) {
      slider.value = String(Math.round(volume() * 100));
    });
  }
  function soundTheCards() {
    var board = document.getElementById("board");
    if (!board) { return; }
    var moves = Number(board.dataset.moves), trick = document.getElementById("trick");
    var won = trick && trick.classList.contains("complete") ? trick.dataset.trick : null;
    if (cardSoundsOn() && movesHeard !== null && moves > movesHeard) {
      tone(1100, 0.06, 0.2, "cardSounds");
      if (won && won !== tricksHeard) { tone(330, 0.3, 0.25, "trickSounds"); }
    }
    movesHeard = moves;
    if (won) { tricksHeard = won; }
  }
  document.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("[data-action=card-sounds]")) {
      keep("coins.cardSounds", cardSoundsOn() ? "" : "1");
      showSoundSettings();
      if (cardSoundsOn()) { tone(1100, 0.06, 0.2, "cardSounds"); }  // what it sounds like
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches && event.target.matches("[data-volume]")) {
      keep("coins.volume", event.target.value);
      tone(660, 0.15, 0.25, "volumeSounds");  // the new volume, heard at once
    }
  });
  document.addEventListener("DOMContentLoaded", function () { showSoundSettings(); soundTheCards(); });
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    if (String(event.detail.message || "").indexOf('id="board"') !== -1) { soundTheCards(); }
  });
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
      if (text.indexOf("table-message error") !== -1) { settle(); }  // refused: nothing to resend
      releaseHand();  // refused: the card stays in hand and may be played again
      markHint();
    } else if (text.indexOf('id="board"') !== -1) {
      var moved = document.getElementById("board");
      if (pending && moved && Number(moved.dataset.moves) > pending.moves) { settle(); }
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
