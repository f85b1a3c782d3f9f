/* Qwixx table: what every page shares. Plain JavaScript, no build step, nothing from the internet. */
"use strict";

const Qwixx = (() => {
  const COLOURS = ["red", "yellow", "green", "blue"];
  const TITLE = { red: "Red", yellow: "Yellow", green: "Green", blue: "Blue", white: "White" };
  const LOCK_SVG = '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 5a3 3 0 0 1 6 0v3H9V7z"/></svg>';

  /* ----- small DOM helpers ----- */
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "html") node.innerHTML = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined && child !== false) node.append(child);
    }
    return node;
  }
  const $ = (selector, root) => (root || document).querySelector(selector);
  function plural(count, word, many) { return `${count} ${count === 1 ? word : many || `${word}s`}`; }
  function names(list) { return list.length < 2 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list[list.length - 1]}`; }

  /* A page redrawn between a finger's press and its release would swallow the tap: the release lands on a
     new element, and the browser sends no click. Live updates come at any moment (another player decides),
     so a redraw waits for the release, or for HELD_TOO_LONG_MS when the release never comes. */
  const HELD_TOO_LONG_MS = 2000;
  let pressedAt = null;
  let postponedDraw = null;
  let focusAfterDraw = null;  // the id of the element to focus once the postponed redraw has drawn it

  function drawPostponed() {
    pressedAt = null;
    const draw = postponedDraw;
    const id = focusAfterDraw;
    postponedDraw = focusAfterDraw = null;
    if (draw) keepingFocus(draw);
    if (id !== null) focusById(id);
  }

  function focusById(id) {
    const node = document.getElementById(id);
    if (node) node.focus();
  }

  /* Focus the element with this id, which a redraw just asked for draws: now, or once a tap's release lets it draw. */
  function focusOnceDrawn(id) {
    if (postponedDraw) focusAfterDraw = id;
    else focusById(id);
  }

  document.addEventListener("pointerdown", () => {
    pressedAt = performance.now();
    setTimeout(() => { if (pressedAt !== null && performance.now() - pressedAt >= HELD_TOO_LONG_MS) drawPostponed(); },
               HELD_TOO_LONG_MS);
  }, true);
  // The click follows the release in the same task: the redraw comes after it.
  for (const type of ["pointerup", "pointercancel"]) {
    document.addEventListener(type, () => setTimeout(drawPostponed, 0), true);
  }

  /* Redraw without losing the keyboard's place: the focused element is found again in the new drawing by its id, else
     by its kind and name (an option button, a summary, a link). */
  function keepingFocus(draw) {
    if (pressedAt !== null && performance.now() - pressedAt < HELD_TOO_LONG_MS) {
      postponedDraw = draw;
      return;
    }
    const focused = document.activeElement;
    const drawn = focused && focused !== document.body && focused.isConnected;
    const id = drawn && focused.id;
    const kind = drawn && focused.tagName;
    const name = drawn && accessibleName(focused);
    draw();
    if (!drawn || document.activeElement === focused) return;
    if (id) focusById(id);
    else {
      const again = [...document.querySelectorAll(kind)].find((node) => accessibleName(node) === name);
      if (again) again.focus();
    }
  }
  const accessibleName = (node) => node.getAttribute("aria-label") || node.textContent;

  /* ----- talking to the server ----- */
  async function api(path, body) {
    const options = { method: body === undefined ? "GET" : "POST", headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (error) {
      throw Object.assign(new Error("The table cannot be reached: check the Wi-Fi and try again."), { code: "offline" });
    }
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const said = data.message || (response.status === 413 ? "That is too large for the table." : `The table refused (${response.status}).`);
      throw Object.assign(new Error(said),
        { code: data.error, rule: data.rule, status: response.status });
    }
    return data;
  }

  /* Whether `next`, a state from a live update or an action's answer, is at least as new as `current`: the two can
     arrive in either order, and an older one shown would hold a page in an action that is over. */
  function isNewer(next, current) {
    return !current || next.boot !== current.boot || next.version >= current.version;
  }

  /* Live state: Server-Sent Events, with a banner while the connection is down. The table says it is there every
     5 s (`alive`); a stream silent for SILENT_S is taken for dead and opened again: a table that lost power, or a
     Wi-Fi that dropped the connection, sends nothing, not even an error, and the page would wait for ever. */
  const SILENT_S = 20;
  let serverClockAhead = 0;  // ms the server's clock is ahead of this page's (the page's may be set otherwise)
  function connect(onState) {
    const banner = $("#connection");
    let source;
    let heardAt = Date.now();
    function open() {
      heardAt = Date.now();
      source = new EventSource("/api/events");
      source.addEventListener("alive", (event) => {
        heardAt = Date.now();
        serverClockAhead = JSON.parse(event.data).now * 1000 - Date.now();
      });
      source.addEventListener("state", (event) => {
        heardAt = Date.now();
        banner.hidden = true;
        const state = JSON.parse(event.data);
        const notice = $("#notice");  // something the table had to do at start, such as setting a damaged file aside
        notice.textContent = state.notice || "";
        notice.hidden = !state.notice;
        onState(state);
      });
      source.onerror = () => {
        banner.hidden = false;
        if (source.readyState === EventSource.CLOSED) setTimeout(open, 2000);
      };
    }
    function reopenIfSilent() {
      if (source.readyState !== EventSource.OPEN || Date.now() - heardAt < SILENT_S * 1000) return;
      banner.hidden = false;
      source.close();
      open();
    }
    setInterval(reopenIfSilent, 1000);
    // A phone waking up, or finding its network again, looks at once rather than at the next check.
    document.addEventListener("visibilitychange", () => { if (!document.hidden) reopenIfSilent(); });
    window.addEventListener("online", reopenIfSilent);
    open();
  }

  /* ----- announcements: aria-live for screen readers, speech where it is switched on ----- */
  const speech = {
    key: "qwixx-speech",
    enabled(defaultOn) {
      const stored = localStorage.getItem(this.key);
      return stored === null ? defaultOn : stored === "on";
    },
    set(on) { localStorage.setItem(this.key, on ? "on" : "off"); if (!on && window.speechSynthesis) speechSynthesis.cancel(); },
    say(text) {
      if (!window.speechSynthesis || !window.SpeechSynthesisUtterance) return;
      const utterance = new SpeechSynthesisUtterance(text);
      utterance.rate = 1.0;
      speechSynthesis.speak(utterance);
    },
  };
  const heard = [];  // what was announced and when (the latency benchmark reads it)
  /* `speak`: false, or the words to say aloud (true: the text itself). */
  function announce(text, speak) {
    // Each announcement is a new line in the live region, so a repeated sentence is read again too.
    const region = $("#announcer");
    region.append(el("p", {}, text));
    while (region.childElementCount > 3) region.firstElementChild.remove();
    heard.push({ text, at: Date.now() });
    if (speak) speech.say(speak === true ? text : speak);
  }

  /* Which news items are new: nothing is announced for the state a page opens with, or after a restart. */
  function newsTracker() {
    let seen = null;
    return (state) => {
      const game = state.game;
      const key = game ? game.id : null;
      const items = game ? game.news : [];
      const latest = items.length ? items[items.length - 1].id : 0;
      if (!seen || seen.key !== key || seen.boot !== state.boot) {
        const fresh = seen && seen.key !== key ? items : [];
        seen = { key, boot: state.boot, id: latest };
        return fresh;
      }
      const fresh = items.filter((item) => item.id > seen.id);
      seen.id = Math.max(seen.id, latest);
      return fresh;
    };
  }

  let toastTimer = null;
  function toast(text) {
    const box = $("#alert");
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  /* ----- host PIN ----- */
  // The PIN dialog either unlocks host controls in this browser, or approves one request alone (`approve`, given
  // the PIN: moving a player to this phone), which leaves this browser as it was.
  let hostWaiters = [];
  let approve = null;
  let unlockText = null;  // the dialog's words for unlocking, as the page gives them
  function initHost() {
    const dialog = $("#host-dialog");
    const form = $("#host-form");
    const error = $("#host-error");
    $("#host-button").addEventListener("click", () => (isHost ? lockHost() : openHost()));
    $("#host-cancel").addEventListener("click", () => { dialog.close(); settleHost(false); });
    dialog.addEventListener("cancel", () => settleHost(false));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const pin = $("#host-pin").value.trim();
      try {
        const result = approve ? await approve(pin) : await api("/api/host", { pin });
        $("#host-pin").value = "";
        dialog.close();
        if (!approve) setHost(true);
        settleHost(result);
      } catch (failure) {
        error.textContent = failure.message;
      }
    });
  }
  /* Ask for the host PIN; resolves to false if cancelled, else to what `approving` returned for it (true when
     the PIN unlocked this browser). */
  function openHost(approving = null, title = "Unlock host controls", text = null) {
    approve = approving;
    unlockText = unlockText || $("#host-dialog-text").textContent;
    $("#host-dialog-title").textContent = title;
    $("#host-dialog-text").textContent = text || unlockText;
    $("#host-submit").textContent = approving ? "Approve" : "Unlock";
    $("#host-error").textContent = "";
    $("#host-dialog").showModal();
    $("#host-pin").focus();
    return new Promise((resolve) => hostWaiters.push(resolve));
  }
  function settleHost(result) { hostWaiters.forEach((resolve) => resolve(result)); hostWaiters = []; }
  async function lockHost() {
    if (!confirm("Lock the host controls on this browser? Unlocking them again needs the host PIN.")) return;
    try {
      await api("/api/host/lock", {});
      setHost(false);
    } catch (failure) {
      toast(failure.message);
    }
  }
  let isHost = false;
  let hostChanges = 0;
  const hostListeners = [];
  function setHost(value) {
    isHost = value;
    hostChanges++;
    const button = $("#host-button");
    button.classList.toggle("unlocked", value);
    button.setAttribute("aria-label", value ? "Host controls unlocked: lock them" : "Unlock host controls");
    hostListeners.forEach((listener) => listener(value));
  }
  /* Run a host action; if the browser is not unlocked yet, ask for the PIN first and try again. */
  async function asHost(action) {
    try {
      return await action();
    } catch (failure) {
      if (failure.code !== "host-only") throw failure;
      setHost(false);
      if (!(await openHost())) throw failure;
      return action();
    }
  }

  /* ----- dice outlined on a camera picture (SVG): the table screen's view and the calibration's result ----- */
  const OUTLINE = { white: "#ffffff", red: "#ff5252", yellow: "#ffd600", green: "#69f0ae", blue: "#40c4ff" };

  function svg(tag, attributes, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text) node.textContent = text;
    return node;
  }

  /* Each die (a reading: colour, value, corners, center) outlined a little outside its edge, so that the outline
     shows on a die of its own colour, dashed when it has no value, and named where the name covers no die and no
     other name; `w` is the width of the picture shown, in its pixels. */
  function diceOutlines(dice, w) {
    const stroke = Math.max(1.5, w / 400);
    const font = w / 34;
    const rings = dice.map((die) => {
      const [x, y] = die.center || [die.corners.reduce((sum, [cx]) => sum + cx, 0) / die.corners.length,
                                    die.corners.reduce((sum, [, cy]) => sum + cy, 0) / die.corners.length];
      const corners = die.corners && die.corners.length >= 3 ? die.corners : [[x - 14, y - 14], [x + 14, y - 14], [x + 14, y + 14], [x - 14, y + 14]];
      return corners.map(([cx, cy]) => [x + (cx - x) * 1.45, y + (cy - y) * 1.45]);
    });
    const taken = rings.map((ring) => box(ring));
    return dice.flatMap((die, index) => {
      const ring = rings[index];
      const points = ring.map((point) => point.join(",")).join(" ");
      const dashes = die.value === null || die.problem ? `${stroke * 4} ${stroke * 3}` : "none";
      const nodes = [
        svg("polygon", { points, fill: "none", stroke: "#000", "stroke-width": stroke * 4, "stroke-dasharray": dashes }),
        svg("polygon", { points, fill: "none", stroke: OUTLINE[die.colour] || "#fff", "stroke-width": stroke * 2, "stroke-dasharray": dashes })];
      const label = `${TITLE[die.colour] || die.colour} ${die.value ?? "?"}`;
      const near = box(ring);
      const spot = labelSpot(taken, near, label.length * font * 0.6, font * 1.15);
      if (Math.abs(spot.y - near.y) > near.h / 2 + spot.h && Math.abs(spot.x - near.x) < spot.w / 2) {
        // A label pushed away from its die keeps a thread to it.
        const end = spot.y < near.y ? spot.y + spot.h / 2 : spot.y - spot.h / 2;
        const start = spot.y < near.y ? near.y - near.h / 2 : near.y + near.h / 2;
        nodes.push(svg("line", { x1: near.x, y1: start, x2: near.x, y2: end, stroke: OUTLINE[die.colour] || "#fff",
                                 "stroke-width": stroke, "stroke-dasharray": `${stroke * 2} ${stroke * 2}` }));
      }
      nodes.push(svg("text", { x: spot.x, y: spot.y + font * 0.36, "text-anchor": "middle", "font-size": font,
                               "stroke-width": font / 5 }, label));
      return nodes;
    });
  }

  function box(points) {
    const xs = points.map((point) => point[0]);
    const ys = points.map((point) => point[1]);
    return { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2,
             w: Math.max(...xs) - Math.min(...xs), h: Math.max(...ys) - Math.min(...ys) };
  }

  /* A label's place: above its die, below, to a side, or further out, where it covers no die and no other label. */
  function labelSpot(taken, die, w, h) {
    const gap = h * 0.2;
    const above = die.y - die.h / 2 - gap - h / 2;
    const below = die.y + die.h / 2 + gap + h / 2;
    const left = die.x - die.w / 2 - gap - w / 2;
    const right = die.x + die.w / 2 + gap + w / 2;
    const candidates = [[die.x, above], [die.x, below], [left, die.y], [right, die.y], [die.x, above - h],
                        [die.x, below + h], [left, above], [right, above], [left, below], [right, below],
                        [die.x, above - 2 * h], [die.x, below + 2 * h]].map(([x, y]) => ({ x, y, w, h }));
    const overlap = (spot) => taken.reduce((sum, other) =>
      sum + Math.max(0, (other.w + spot.w) / 2 - Math.abs(other.x - spot.x)) * Math.max(0, (other.h + spot.h) / 2 - Math.abs(other.y - spot.y)), 0);
    // The first place that covers nothing, else the one that covers least.
    const spot = candidates.find((candidate) => overlap(candidate) === 0)
      || candidates.reduce((best, candidate) => (overlap(candidate) < overlap(best) ? candidate : best));
    taken.push(spot);
    return spot;
  }

  /* ----- the score sheet, drawn like the paper pad ----- */
  function optionFor(options, colour, number) {
    return (options || []).find(({ action }) => action.action === "mark" && action.colour === colour && action.number === number);
  }

  function drawSheet(sheet, view) {
    /* view: {options, selected: {colour, number} or a list of them, pending: action json, onBox(colour, number, option), label} */
    view = view || {};
    const chosen = [].concat(view.selected || []);
    const rows = sheet.rows.map((row) => {
      const numbers = row.boxes.map((box) => box[0]);
      const direction = `${numbers[0]} to ${numbers[numbers.length - 1]}`;
      const cells = row.boxes.map(([number, state]) => {
        const option = optionFor(view.options, row.colour, number);
        const selected = chosen.some((box) => box.colour === row.colour && box.number === number);
        const pending = view.pending && view.pending.action === "mark" && view.pending.colour === row.colour && view.pending.number === number;
        const classes = ["box", state];
        if (option) classes.push("legal");
        if (selected || pending) classes.push("selected");
        let label = `${TITLE[row.colour]} ${number}: `;
        if (pending) label += "your choice, waiting for the others";
        else if (option) label += `can be marked, ${option.text}`;
        else label += { marked: "marked", gone: "gone (left of your last mark)", open: "open", closed: "row closed" }[state];
        return el("button", {
          type: "button", class: classes.join(" "), "aria-label": label, "data-colour": row.colour, "data-number": number,
          id: view.idPrefix ? `${view.idPrefix}-${row.colour}-${number}` : null,
          disabled: !view.onBox, onclick: view.onBox ? () => view.onBox(row.colour, number, option) : null,
        }, String(number), option ? el("span", { class: "cost" }, option.cost) : null);
      });
      const lockNumber = numbers[numbers.length - 1];
      const lock = el("button", {
        type: "button", class: `box lock ${row.locked ? "marked" : row.closed ? "closed" : "open"}`,
        "aria-label": `${TITLE[row.colour]} lock: ${row.locked ? "locked by you" : row.closed ? "closed" : `open: locks the row when ${lockNumber} is marked after five marks`}`,
        disabled: !view.onBox, onclick: view.onBox ? () => view.onBox(row.colour, lockNumber, optionFor(view.options, row.colour, lockNumber)) : null,
        html: LOCK_SVG,
      });
      const count = row.marks.length + (row.locked ? 1 : 0);
      return el("div", { class: `row c-${row.colour}${row.closed ? " closed" : ""}`, role: "group",
                         "aria-label": `${TITLE[row.colour]} row, ${direction}${row.closed ? ", closed" : ""}` },
        el("div", { class: "row-name shape", "aria-hidden": "true" }, TITLE[row.colour],
           el("span", { class: "dir" }, `${numbers[0]}→${numbers[numbers.length - 1]}`)),
        cells, lock,
        el("div", { class: "row-score" }, el("span", { "aria-hidden": "true" }, `${row.points} pts`),
           el("span", { class: "visually-hidden" }, `${TITLE[row.colour]}: ${plural(count, "mark")}, ${plural(row.points, "point")}`)));
    });
    const penalties = [0, 1, 2, 3].map((index) => el("span", {
      class: `penalty${index < sheet.penalties ? " taken" : ""}`, role: "img",
      "aria-label": index < sheet.penalties ? "penalty taken, minus 5" : "penalty box, empty" }, "−5"));
    return el("section", { class: "sheet", "aria-label": view.label || `${sheet.player}'s sheet` },
      el("div", { class: "sheet-rows" }, rows),
      el("div", { class: "penalties" }, el("strong", {}, "Penalties"), penalties,
         el("span", { class: "total", "aria-live": "off" }, `Total ${sheet.score.total}`)));
  }

  function diceList(dice) {
    if (!dice) return el("p", { class: "hint" }, "No dice yet.");
    const items = [];
    dice.white.forEach((value, index) => items.push(["white", value, `White die ${index + 1}`]));
    COLOURS.forEach((colour) => { if (dice[colour]) items.push([colour, dice[colour], TITLE[colour]]); });
    return el("ul", { class: "dice", "aria-label": "The dice" },
      items.map(([colour, value, label]) => el("li", { class: `die swatch c-${colour}`, "aria-label": `${label}: ${value}`,
                                                       "data-colour": colour }, String(value))));
  }

  function closedBanners(game) {
    return el("ul", { class: "closed-list" }, (game.closed || []).map((colour) =>
      el("li", { class: `swatch c-${colour} shape` }, ` ${TITLE[colour]} is closed: take the ${colour} die off the table.`)));
  }

  /* The time left, by the server's clock as its `alive` events last gave it. */
  function secondsLeft(state) {
    if (!state.timer || !state.timer.ends_at) return null;
    return Math.max(0, Math.ceil((state.timer.ends_at * 1000 - (Date.now() + serverClockAhead)) / 1000));
  }
  function timerText(state) {
    const left = secondsLeft(state);
    return left === null ? "" : `${left} s left`;
  }

  /* A screen reader does not read a counting number: a player still deciding (`deciding()`, where given) hears once,
     WARN_AT_S before the table passes for them, how long is left. */
  const WARN_AT_S = 10;
  function startTimer(getState, selector, deciding = null) {
    let warned = null;  // the deadline already warned of
    setInterval(() => {
      const node = $(selector);
      const state = getState();
      if (!node || !state) return;
      node.textContent = timerText(state);
      const left = secondsLeft(state);
      if (deciding && left !== null && left > 0 && left <= WARN_AT_S && warned !== state.timer.ends_at && deciding()) {
        warned = state.timer.ends_at;
        announce(`${left} seconds left to decide, then the table passes for you.`, false);
      }
    }, 250);
  }

  /* The decision every page shows for a seat that has marked or passed already. */
  function decisionText(action) {
    return action.action === "pass" ? "passed" : `marked ${action.colour} ${action.number}`;
  }

  document.addEventListener("DOMContentLoaded", () => {
    initHost();
    const asked = hostChanges;
    // A PIN typed while this question was on its way has answered it already, and more recently.
    api("/api/me").then((me) => { if (hostChanges === asked) setHost(me.host); }).catch(() => {});
  });

  return {
    COLOURS, TITLE, el, $, svg, diceOutlines, keepingFocus, focusOnceDrawn, api, isNewer, connect, announce, newsTracker, toast, speech, heard, asHost, openHost,
    onHost: (listener) => { hostListeners.push(listener); listener(isHost); }, get isHost() { return isHost; },
    drawSheet, diceList, closedBanners, startTimer, plural, names, decisionText, optionFor,
  };
})();
