// Reactions at the table: each one that arrives (a frame replacing #reaction-news) shows as
// a bubble by its sender's seat for a moment and is said to screen readers ("Ana: Applause").
// A switch, kept in this browser, hides them all (and the buttons); on at first. Without
// JavaScript there are no reactions: the buttons and the switch stay hidden.
(function () {
  "use strict";
  var OFF = "coins.reactionsOff", SHOWN_MS = 2600;
  function off() {
    try { return window.localStorage.getItem(OFF) === "1"; } catch (e) { return false; }
  }
  function showSwitch() {
    var hide = off();
    document.body.classList.toggle("reactions-off", hide);
    document.querySelectorAll("[data-action=reactions]").forEach(function (button) {
      button.setAttribute("aria-pressed", hide ? "false" : "true");
    });
    if (hide) { clearBubbles(); }
  }
  function clearBubbles() {
    var layer = document.getElementById("reaction-layer");
    if (layer) { layer.textContent = ""; }
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-reactions], [data-reactions-switch]").forEach(function (part) {
      part.hidden = false;
    });
    showSwitch();
  });
  document.addEventListener("click", function (event) {
    if (!(event.target.closest && event.target.closest("[data-action=reactions]"))) { return; }
    try { window.localStorage.setItem(OFF, off() ? "" : "1"); } catch (e) { /* private mode */ }
    showSwitch();
  });
  // The seat a reaction is shown by: on the felt, or in the list of a table still waiting.
  function seatOf(number) {
    return document.querySelector('#board .seat[data-seat="' + number + '"], #board .seat-list li[data-seat="' + number + '"]');
  }
  // Over the seat's top right corner, inside the page (the layer takes no room: nothing moves).
  function place(bubble) {
    var seat = seatOf(bubble.dataset.seat), layer = document.getElementById("reaction-layer");
    if (!seat || !layer) { bubble.hidden = true; return; }
    var at = seat.getBoundingClientRect(), origin = layer.getBoundingClientRect();
    var left = Math.min(at.right - origin.left - bubble.offsetWidth - 4, origin.width - bubble.offsetWidth);
    bubble.style.left = Math.max(0, left) + "px";
    bubble.style.top = Math.max(0, at.top - origin.top - bubble.offsetHeight * 0.45) + "px";
    bubble.hidden = false;
  }
  function say(text) {
    var out = document.getElementById("reaction-said");
    if (!out) { return; }
    // The same words twice in a row must change the region to be said again.
    out.textContent = out.textContent === text ? text + "\u00a0" : text;
  }
  function show(news) {
    if (off()) { return; }
    var layer = document.getElementById("reaction-layer");
    if (!layer) { return; }
    // One bubble per seat at a time: a newer reaction replaces the last one.
    var old = layer.querySelector('.reaction-bubble[data-seat="' + news.dataset.seat + '"]');
    if (old) { old.remove(); }
    var bubble = document.createElement("span");
    bubble.className = "reaction-bubble";
    bubble.dataset.seat = news.dataset.seat;
    bubble.dataset.reaction = news.dataset.reaction;
    bubble.textContent = news.dataset.emoji;
    layer.appendChild(bubble);
    place(bubble);
    setTimeout(function () { bubble.remove(); }, SHOWN_MS);  // also with no animation at all
    say(news.dataset.said);
    // How many reactions this page has shown (tests wait on it).
    document.body.dataset.reactionsShown = String(Number(document.body.dataset.reactionsShown || 0) + 1);
  }
  // A refusal ("wait a moment") says its piece, then goes.
  var noticeTimer = null;
  function clearNoticeLater() {
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(function () {
      var notice = document.getElementById("reaction-notice");
      if (notice) { notice.textContent = ""; }
    }, 5000);
  }
  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var text = String(event.detail.message || "");
    if (text.indexOf('id="reaction-notice"') !== -1) { clearNoticeLater(); }
    if (text.indexOf('id="reaction-news"') !== -1) {
      var news = document.getElementById("reaction-news");
      if (news && news.dataset.reaction) { show(news); }
    }
    if (text.indexOf('id="board"') !== -1) {  // a new board may have moved the seats
      document.querySelectorAll("#reaction-layer .reaction-bubble").forEach(place);
    }
  });
  window.addEventListener("resize", function () {
    document.querySelectorAll("#reaction-layer .reaction-bubble").forEach(place);
  });
})();
