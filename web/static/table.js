/* The table screen: camera view with the dice outlined, the white sum, whose turn, who is deciding, closed
   colours, scores, the join code, spoken announcements, and the host's tools. */
"use strict";

(() => {
  const { el, $, keepingFocus, api, toast, announce, speech, diceList, closedBanners, names, COLOURS, TITLE } = Qwixx;
  const freshNews = Qwixx.newsTracker();
  let state = null;
  let entry = null;      // dice being typed by the host: {key, white: [a, b], red, ...}
  let reroll = null;     // single dice being re-rolled: {key, chosen: Set of die names, values: {name: value}}
  let correcting = null; // the turn ("game id:turn") whose "Correct a misread roll" panel the host has open
  let rollsHeard = null; // the camera's count of rolls read when this page last looked; null before the first state
  let picture = null;     // the SVG image element showing the camera, once there is a camera

  /* ----- speech: on by default here, with a toggle; browsers only speak after a first tap ----- */
  const toggle = $("#speech-toggle");
  const unlock = $("#speech-unlock");
  toggle.checked = speech.enabled(toggle.dataset.default !== "off");  // the settings' `speech`
  toggle.addEventListener("change", () => { speech.set(toggle.checked); showUnlock(); });
  unlock.addEventListener("click", () => { speech.say("The table will speak."); unlock.hidden = true; });
  function showUnlock() {
    const activation = navigator.userActivation;
    unlock.hidden = !(toggle.checked && activation && !activation.hasBeenActive);
  }
  showUnlock();

  Qwixx.connect((next) => {
    if (!Qwixx.isNewer(next, state)) return;
    const news = freshNews(next);
    state = next;
    render();
    news.forEach((item) => announce(item.text, toggle.checked && item.speech));
    announceFreeRoll();
  });
  let revealedPin = null;  // the PIN a host browser asked to see, for PIN_SHOWN_S
  const PIN_SHOWN_S = 10;
  Qwixx.onHost(() => { revealedPin = null; if (state) keepingFocus(renderHostTools); });
  Qwixx.startTimer(() => state, "#timer");

  function render() {
    keepingFocus(draw);
  }

  function draw() {
    const game = state.game;
    $("#address").textContent = state.address_name || state.address || location.origin + "/";
    $("#address-ip").textContent = state.address_name && state.address ? `or ${state.address}` : "";
    const cards = Boolean(game && game.game === "cards");
    renderCamera(cards ? { ...state.camera, state: "off", message: "" } : state.camera, cards);
    renderStatus(game);
    renderScores(game);
    showPin();
    renderHostTools();
    const news = game ? game.news.slice().reverse().slice(0, 6) : [];
    $("#news").replaceChildren(...(news.length ? news.map((item) => el("li", {}, item.text))
      : [el("li", { class: "hint" }, "Nothing yet.")]));
  }

  /* The PIN (in the page only on the device's own screen) shows on a screen every player sees only until the host
     unlocks a browser. */
  function showPin() {
    const line = $("#pin-line");
    if (line) line.hidden = state.host_unlocked;
  }

  /* ----- the camera view: the picture and the dice outlines in one SVG, zoomed onto the dice once they rest ----- */
  /* The card game has no dice: the camera view gives its place to the cards. */
  function renderCamera(camera, cards) {
    const on = !cards && (camera.state !== "off" || picture !== null);
    $("#camera").hidden = !on;
    $("#stage").classList.toggle("with-camera", on);
    $("#camera-message").textContent = camera.message || "";
    $("#camera-message").hidden = !camera.message;
    $("#camera-note").textContent = camera.note || "";
    $("#camera-note").hidden = !on || !camera.note;
    if (camera.state !== "off" && !picture && camera.size) startPicture(camera.size);
    drawOverlay(camera);
  }

  function startPicture([width, height]) {
    picture = Qwixx.svg("image", { x: 0, y: 0, width, height, preserveAspectRatio: "none" });
    const next = () => { picture.setAttribute("href", `/api/camera.jpg?at=${Date.now()}`); };
    picture.addEventListener("load", () => setTimeout(next, 150));
    picture.addEventListener("error", () => setTimeout(next, 2000));
    next();
  }

  /* The part of the picture to show: all of it while dice move, the dice and some table once they rest. */
  function viewBox(camera, dice) {
    const [width, height] = camera.size;
    if (!dice.length) return [0, 0, width, height];
    const xs = dice.flatMap((die) => [die.center[0]]);
    const ys = dice.flatMap((die) => [die.center[1]]);
    const margin = width / 10;
    let w = Math.max(Math.max(...xs) - Math.min(...xs) + 2 * margin, width / 2.5);
    let h = Math.max(Math.max(...ys) - Math.min(...ys) + 2 * margin, height / 2.5);
    if (w / h > width / height) h = w * height / width; else w = h * width / height;
    w = Math.min(w, width); h = Math.min(h, height);
    const x = Math.min(Math.max((Math.min(...xs) + Math.max(...xs)) / 2 - w / 2, 0), width - w);
    const y = Math.min(Math.max((Math.min(...ys) + Math.max(...ys)) / 2 - h / 2, 0), height - h);
    return [x, y, w, h];
  }

  function drawOverlay(camera) {
    const overlay = $("#overlay");
    overlay.replaceChildren(...(picture ? [picture] : []));
    if (!camera.size) return;
    const dice = camera.dice || [];
    const [x0, y0, w, h] = viewBox(camera, dice);
    overlay.setAttribute("viewBox", `${x0} ${y0} ${w} ${h}`);
    overlay.append(...Qwixx.diceOutlines(dice, w));
  }

  /* ----- what is going on ----- */
  function cameraWhiteSum(camera) {
    const whites = (camera.dice || []).filter((die) => die.colour === "white" && die.value);
    return whites.length === 2 ? whites[0].value + whites[1].value : null;
  }

  function renderStatus(game) {
    let sum = null;
    let detail = "";
    if (!game) {
      $("#prompt").textContent = "No game is being played: the camera still reads every roll.";
      sum = state.camera.state === "settled" ? cameraWhiteSum(state.camera) : null;
      detail = "The host sets up a game on the setup page.";
    } else if (game.game === "cards") {
      $("#prompt").textContent = game.prompt;
      sum = game.announced ?? null;
      if (game.phase === "number") detail = `Still deciding: ${names(game.waiting_for.map((seat) => game.seats[seat]))}.`;
    } else {
      $("#prompt").textContent = game.prompt;
      sum = game.white_sum ?? null;
      if (game.phase === "roll-off") {
        detail = game.rolloff.length ? `Roll-off so far: ${game.rolloff.map((roll) => `${roll.name} ${roll.value}`).join(", ")}.` : "";
      } else if (game.phase === "white") {
        detail = `Still deciding: ${names(game.waiting_for.map((seat) => game.seats[seat]))}.`;
      } else if (game.phase === "colour") {
        detail = `Everyone else has decided; ${game.seats[game.roller]} chooses.`;
      }
      if (game.match) detail += ` Game ${game.match.game} of 3.`;
    }
    if (state.pending_roll) {
      // The camera's own problems already stand under its picture: say only the others here.
      const shown = state.camera.message || "";
      detail = `${state.pending_roll.problems.filter((problem) => !shown.includes(problem)).join(" ")} ${detail}`;
    }
    $("#white-sum").textContent = sum === null ? "" : String(sum);
    $("#sum-label").textContent = game && game.game === "cards" ? "the number" : "white sum";
    $(".white-sum").hidden = sum === null;
    const cards = Boolean(game && game.game === "cards");
    $("#card-middle").hidden = !cards;
    $("#card-middle").replaceChildren(cards ? QwixxCards.middle(game, null, false) : "");
    $("#detail").textContent = detail.trim();
    $("#dice").replaceChildren(game && game.dice ? diceList(game.dice) : "");
    $("#closed").replaceChildren(game && game.closed && game.closed.length ? closedBanners(game) : "");
  }

  /* With no game on, each roll the camera reads is announced here (in a game the referee's news says it). */
  function announceFreeRoll() {
    const camera = state.camera;
    const fresh = rollsHeard !== null && camera.rolls_read !== rollsHeard;
    rollsHeard = camera.rolls_read;
    if (!fresh || camera.state !== "settled" || (state.game && !state.game.over)) return;
    const sum = cameraWhiteSum(camera);
    if (sum !== null) announce(`White sum ${sum}.`, toggle.checked);
  }

  function seatStatus(game, seat) {
    if (game.game === "cards") return QwixxCards.seatStatus(game, seat);
    if (game.over) return game.over.winners.includes(seat) ? "wins" : "";
    if (game.phase === "white") return game.waiting_for.includes(seat) ? "deciding…" : "decided";
    if (game.phase === "colour" && game.roller === seat) return "choosing…";
    if (game.phase === "roll" && game.roller === seat) return "rolls";
    return "";
  }

  function renderScores(game) {
    const box = $("#scores");
    if (!game || !game.sheets) {
      box.replaceChildren(game ? el("ul", {}, game.seats.map((name) => el("li", {}, name)))
        : el("p", {}, el("a", { class: "button primary", href: "/setup" }, "Set up a game")));
      $("#over").replaceChildren();
      return;
    }
    const head = el("tr", {}, el("th", { scope: "col" }, "Player"),
      COLOURS.map((colour) => el("th", { scope: "col", class: `swatch c-${colour}` },
        el("span", { class: "shape" }, el("span", { class: "colour-name" }, ` ${TITLE[colour]}`)))),
      // "Pen." rather than "Penalties": with five players' names the table fits the screen's column.
      el("th", { scope: "col", "aria-label": "Penalties" }, el("abbr", { title: "Penalties" }, "Pen.")),
      el("th", { scope: "col" }, "Total"),
      // A match: who leads, this game's points included (ruling 12 adds the three games).
      game.match ? el("th", { scope: "col", "aria-label": `Match total, game ${game.match.game} of 3` }, "Match") : null);
    const rows = game.seats.map((name, seat) => {
      const score = game.sheets[seat].score;
      const winner = game.over && game.over.winners.includes(seat);
      return el("tr", { class: winner ? "winner" : null },
        el("th", { scope: "row" }, name, el("span", { class: "seat-status" }, seatStatus(game, seat)),
          game.hands ? el("span", { class: "mini-cards hand-cell", "aria-label": `${name}'s hand` },
            game.hands[seat].map((card) => QwixxCards.card(card))) : null),
        COLOURS.map((colour) => el("td", {}, String(score[colour]))),
        el("td", {}, score.penalties ? `${score.penalties} (−${5 * score.penalties})` : "0"),
        el("td", {}, el("strong", {}, String(score.total))),
        game.match ? el("td", {}, String(game.match.totals[seat])) : null);
    });
    box.replaceChildren(el("table", { class: "scores" }, el("thead", {}, head), el("tbody", {}, rows)));
    $("#over").replaceChildren(game.over ? el("p", { class: "prompt" }, el("strong", {}, game.over.text)) : "");
  }

  /* ----- the host's tools ----- */
  function renderHostTools() {
    const box = $("#host-tools");
    const game = state && state.game;
    if (!Qwixx.isHost) {
      box.replaceChildren(el("p", { class: "hint" }, "Typing the dice or the number, undo, ending a game and calibrating the camera need the host PIN."),
        el("button", { type: "button", onclick: () => Qwixx.openHost() }, "Unlock host controls"));
      return;
    }
    const calibrate = el("a", { class: "button", href: "/calibrate", id: "calibrate" },
      state && state.camera.state === "calibrating" ? "Calibrating: continue…" : "Calibrate the camera…");
    const settings = el("a", { class: "button", href: "/settings", id: "settings" }, "Settings");
    // The host needs the PIN to approve a player's move to another phone; a table screen every player sees does not
    // show it unasked.
    const pin = el("button", { type: "button", id: "show-pin", onclick: revealPin }, revealedPin ? `Host PIN ${revealedPin}` : "Show the host PIN");
    const parts = [];
    if (!game) {
      parts.push(el("a", { class: "button primary", href: "/setup" }, "Set up a game"), calibrate, settings, pin);
      box.replaceChildren(...parts);
      return;
    }
    if (game.phase === "roll-off") parts.push(rollOffEntry());
    else if (game.game === "cards") { if (game.phase === "draw" && game.deal === "real-cards") parts.push(announceEntry(game)); }
    else if (game.phase === "roll") parts.push(diceEntry(game));
    else if (game.can_reroll) {
      // Redrawn at every tap and live update: the panel stays as the host left it, for this turn.
      const turn = `${game.id}:${game.turn}`;
      parts.push(rerollEntry(game), el("details", { class: "correction", open: correcting === turn,
                                                   ontoggle: keepCorrecting(turn) },
        el("summary", {}, "Correct a misread roll"), diceEntry(game)));
    }
    if (game.can_undo) {
      parts.push(el("button", { type: "button", id: "undo", onclick: () => hostAction("/api/undo") }, `Undo: ${game.undo_label}`));
    }
    if (game.over) {
      parts.push(el("button", { type: "button", class: "primary", id: "again", onclick: () => hostAction("/api/games/again") },
        game.match && game.match.game < 3 ? `Next game (${game.match.game + 1} of 3)` : "Play again"));
    } else {
      parts.push(el("button", { type: "button", class: "danger", id: "end",
        onclick: () => confirm(game.match
          ? `End the match now, in game ${game.match.game} of 3? What was played is kept, but the match cannot be continued.`
          : "End this game now? It is kept, but cannot be continued.") && hostAction("/api/games/end") },
        game.match ? "End the match" : "End this game"));
    }
    parts.push(el("a", { class: "button", href: "/setup" }, "New game…"), calibrate, settings, pin);
    box.replaceChildren(...parts);
  }

  async function revealPin() {
    try {
      revealedPin = (await Qwixx.asHost(() => api("/api/host/pin"))).pin;
      keepingFocus(renderHostTools);
      setTimeout(() => { revealedPin = null; keepingFocus(renderHostTools); }, PIN_SHOWN_S * 1000);
    } catch (failure) {
      toast(failure.message);
    }
  }

  // A panel redrawn open queues a toggle event that may run after a later redraw replaced it; only the panel on
  // the page says what the host has open.
  function keepCorrecting(turn) {
    return (event) => { if (event.target.isConnected) correcting = event.target.open ? turn : null; };
  }

  async function hostAction(path, body) {
    const asked = { entry, reroll, correcting };
    try {
      const next = await Qwixx.asHost(() => api(path, body || {}));
      if (Qwixx.isNewer(next, state)) state = next;
      // Done with what the host entered; a live update may have shown it done before this answer came, and what the
      // host has begun since is kept.
      if (entry === asked.entry) entry = null;
      if (reroll === asked.reroll) reroll = null;
      if (correcting === asked.correcting) correcting = null;
      render();
    } catch (failure) {
      toast(failure.message);
    }
  }

  function valueButtons(name, current, choose) {
    return el("div", { class: "die-row", role: "group", "aria-label": name },
      el("span", { class: "name" }, name),
      [1, 2, 3, 4, 5, 6].map((value) => el("button", {
        type: "button", "aria-pressed": String(current === value), "aria-label": `${name} ${value}`,
        id: `die-${name.replace(/ /g, "-").toLowerCase()}-${value}`,
        onclick: () => { choose(value); keepingFocus(renderHostTools); },
      }, String(value))));
  }

  /* Real cards: the host may tell the table the number on the draw pile for the active player. */
  function announceEntry(game) {
    const key = `announce:${game.id}:${game.turn}`;
    if (!entry || entry.key !== key) entry = { key, value: null };
    return el("div", { class: "dice-entry" },
      el("p", {}, `The number ${game.seats[game.active]} announces (or enter it on their phone):`),
      el("div", { class: "die-row", role: "group", "aria-label": "The number on the draw pile" },
        QwixxCards.NUMBERS.map((number) => el("button", {
          type: "button", id: `announce-${number}`, "aria-pressed": String(entry.value === number),
          onclick: () => { entry.value = number; keepingFocus(renderHostTools); } }, String(number)))),
      el("button", { type: "button", class: "primary", id: "enter-number", disabled: !entry.value,
                     onclick: () => hostAction("/api/act", { seat: game.active, action: "announce", number: entry.value }) },
        entry.value ? `Announce ${entry.value}` : "Announce"));
  }

  function rollOffEntry() {
    const key = `roll-off:${state.game.rolloff.length}`;
    if (!entry || entry.key !== key) entry = { key, value: null };
    return el("div", { class: "dice-entry" },
      el("p", {}, "Or type the white die rolled:"),
      valueButtons("White die", entry.value, (value) => { entry.value = value; }),
      el("button", { type: "button", class: "primary", disabled: !entry.value,
                     onclick: () => hostAction("/api/roll-off", { value: entry.value }) }, "Enter the roll-off die"));
  }

  /* Ruling 9: single dice rolled again before anyone decides (cocked, off the table, or by the host's choice).
     The dice to re-roll are those the camera named, or those the host picks; their new values are typed here or
     read by the camera when they settle. */
  function rerollEntry(game) {
    const asked = (state.pending_roll && state.pending_roll.reroll) || [];
    const key = `reroll:${game.id}:${game.turn}:${JSON.stringify(game.dice)}:${asked.join(",")}`;
    if (!reroll || reroll.key !== key) reroll = { key, chosen: new Set(asked), values: {} };
    const dice = [["white1", "White 1", game.dice.white[0]], ["white2", "White 2", game.dice.white[1]],
                  ...COLOURS.filter((colour) => game.dice[colour]).map((colour) => [colour, TITLE[colour], game.dice[colour]])];
    const chosen = dice.filter(([name]) => reroll.chosen.has(name));
    const typed = chosen.length && chosen.every(([name]) => reroll.values[name]);
    const cameraOn = ["watching", "moving", "settled", "problem"].includes(state.camera.state);
    const waiting = asked.length && state.pending_roll.problems.join(" ");
    return el("div", { class: "dice-entry reroll" },
      el("p", {}, "Re-roll single dice (cocked, off the table) before anyone decides; the others keep their values:"),
      el("div", { class: "die-row", role: "group", "aria-label": "Dice to re-roll" },
        dice.map(([name, label, value]) => el("button", {
          type: "button", id: `reroll-${name}`, "aria-pressed": String(reroll.chosen.has(name)),
          onclick: () => { if (!reroll.chosen.delete(name)) reroll.chosen.add(name); keepingFocus(renderHostTools); },
        }, `${label}: ${value}`))),
      chosen.map(([name, label]) => valueButtons(`New ${label}`, reroll.values[name], (value) => { reroll.values[name] = value; })),
      waiting ? el("p", { class: "hint" }, waiting) : null,
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary", id: "enter-reroll", disabled: !typed,
                       onclick: () => hostAction("/api/reroll", { dice: Object.fromEntries(chosen.map(([name]) => [name, reroll.values[name]])) }) },
          "Enter the re-rolled dice"),
        cameraOn ? el("button", { type: "button", id: "camera-reroll", disabled: !chosen.length,
                                  onclick: () => hostAction("/api/reroll", { camera: chosen.map(([name]) => name) }) },
          "The camera reads them") : null));
  }

  function diceEntry(game) {
    const key = `${game.id}:${game.turn}:${game.phase}:${JSON.stringify(state.pending_roll)}:${JSON.stringify(game.dice)}`;
    if (!entry || entry.key !== key) {
      const from = (state.pending_roll && state.pending_roll.dice) || game.dice || {};
      entry = { key, white: [(from.white || [])[0] || null, (from.white || [])[1] || null] };
      COLOURS.forEach((colour) => { entry[colour] = from[colour] || null; });
    }
    const open = COLOURS.filter((colour) => !game.closed.includes(colour));
    const complete = entry.white.every(Boolean) && open.every((colour) => entry[colour]);
    const dice = { white: entry.white };
    open.forEach((colour) => { dice[colour] = entry[colour]; });
    return el("div", { class: "dice-entry" },
      el("p", {}, game.phase === "roll" ? "Type the dice (when there is no camera, or it is unsure):"
        : "Correct every die the camera misread, before anyone decides:"),
      valueButtons("White 1", entry.white[0], (value) => { entry.white[0] = value; }),
      valueButtons("White 2", entry.white[1], (value) => { entry.white[1] = value; }),
      open.map((colour) => valueButtons(TITLE[colour], entry[colour], (value) => { entry[colour] = value; })),
      el("button", { type: "button", class: "primary", id: "enter-dice", disabled: !complete,
                     onclick: () => hostAction("/api/dice", dice) }, game.phase === "roll" ? "Enter the roll" : "Correct the dice"));
  }
})();
