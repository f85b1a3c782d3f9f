/* The player screen: join a seat, then play your own sheet. The referee decides everything: this page shows
   its legal options and, for any other box, asks it why not. */
"use strict";

(() => {
  const { el, $, api, drawSheet, diceList, closedBanners, names, decisionText, toast, announce, TITLE } = Qwixx;
  const root = $("#play");
  const freshNews = Qwixx.newsTracker();
  let state = null;
  let me = { seats: [], people: [], pending: {} };
  let meKey = null;
  let drawnMoment = null;  // the game's moment on the screen now (the server refuses a choice made at another)
  let chosenSeat = null;  // which of this phone's seats is shown (two sheets each, or two people: several)
  let adding = false;     // the names shown again, for this phone to play someone else too
  let selected = null;    // {colour, number}: a legal box tapped, waiting for confirmation
  let busy = false;

  Qwixx.connect((next) => {
    if (!Qwixx.isNewer(next, state)) return;
    const news = freshNews(next);
    adopt(next);
    render();
    news.forEach((item) => announce(item.text, false));
  });

  /* A newer state, from a live update or the answer to this phone's own decision, whichever comes first. */
  function adopt(next) {
    if (!Qwixx.isNewer(next, state)) return;
    const moment = state && state.game && state.game.moment;
    state = next;
    const game = state.game;
    if (!game || game.moment !== moment) selected = null;  // a box tapped at another decision; not at another's mark
    const key = game ? `${game.id}:${game.phase}:${game.turn}:${(game.waiting_for || []).join(",")}:${state.phones_moved}`
      : "none";
    if (key !== meKey) {
      meKey = key;
      me = { ...me, cards: null };  // a card game's hand and options were for the action that just ended
      refreshMe();
    }
  }

  let meAsked = 0;
  async function refreshMe() {
    const asked = ++meAsked;
    let answer;
    try {
      answer = await api("/api/me");
    } catch (failure) {
      return;
    }
    if (asked !== meAsked) return;  // a later question's answer is the newer one
    me = answer;
    if (!me.seats.includes(chosenSeat)) chosenSeat = me.seats.length ? me.seats[0] : null;
    render();
  }

  /* One decision at a time: until the table answers, the action bar's buttons are disabled, so that a second tap
     neither decides twice nor vanishes unseen. */
  async function send(path, body) {
    if (busy) return;
    busy = true;
    const moment = drawnMoment;  // the decision the player saw: a redraw waits while a finger is down
    render();
    try {
      adopt(await api(path, moment ? { ...body, moment } : body));
      selected = null;
    } catch (failure) {
      toast(failure.message);  // an alert: screen readers read it at once
    } finally {
      busy = false;
      render();
    }
    // The button pressed is gone (Mark, Pass): the keyboard goes on from what the player may do next.
    if (!document.activeElement || document.activeElement === document.body) {
      const next = ["change", "pass"].map((id) => document.getElementById(id)).find(Boolean);
      if (next) next.focus();
    }
  }

  function render() {
    if (!state) return;
    const game = state.game;
    Qwixx.keepingFocus(() => {
      drawnMoment = game && game.moment;
      if (game) gameSeen = game.id;
      root.replaceChildren(...(game === null ? noGame() : chosenSeat === null || adding ? joinView(game) : playView(game)));
      if (busy) root.querySelectorAll(".action-bar button").forEach((button) => { button.disabled = true; });
    });
  }

  let gameSeen = null;  // the game this page last showed: when it goes, the page says the host ended it
  function noGame() {
    return [
      el("h1", {}, gameSeen === null ? "No game yet" : "The host ended the game"),
      gameSeen === null ? null : el("p", {}, "What was played is kept: ", el("a", { href: `/games/${gameSeen}` }, "see the game"), "."),
      el("p", {}, "The host sets up a game; then pick your name here to play your sheet on this phone."),
      el("div", { class: "buttons" },
        el("a", { class: "button primary big", href: "/setup" }, "Set up a game"),
        el("a", { class: "button big", href: "/table" }, "Open the table screen")),
    ];
  }

  function joinView(game) {
    const names = game.people.map((person, index) => el("li", {},
      el("button", { type: "button", class: person.joined ? "" : "primary", id: `join-${index}`,
                     onclick: () => join(index, person) },
        el("span", {}, person.name),
        el("span", { class: "held" }, person.joined ? "on another phone" : "free"))));
    if (adding) {
      return [
        el("h1", {}, "Play someone else too"),
        el("p", {}, `For someone without a phone: this phone then plays ${myNames()} and them, a sheet each. `
          + "A phone plays one person, so the host approves with the PIN."),
        el("ul", { class: "seats" }, names.filter((_, index) => !me.people.includes(index))),
        el("button", { type: "button", id: "add-cancel", onclick: () => { adding = false; render(); } },
          `Back to ${game.seats[chosenSeat]}`),
      ];
    }
    return [
      el("h1", {}, "Join the game"),
      el("p", {}, "Tap your name: this phone then plays your sheet. Only you can mark it."),
      el("ul", { class: "seats" }, names),
      el("p", { class: "hint" }, "Watching only? Open the ", el("a", { href: "/table" }, "table screen"), "."),
    ];
  }

  const myNames = () => me.people.map((index) => game().people[index].name).join(" and ");

  async function join(index, person) {
    const before = me.seats;
    try {
      if ((person.joined || me.people.length) && !Qwixx.isHost) {
        // The host approves this alone: typing the PIN here does not make this phone the host's.
        const why = me.people.length ? `This phone plays ${myNames()}: the host types the PIN to let it play ${person.name} too.`
          : `The host types the PIN to move ${person.name} here.`;
        const approved = await Qwixx.openHost((pin) => api("/api/join", { person: index, pin }),
          me.people.length ? `Play ${person.name} on this phone too?` : `Move ${person.name} to this phone?`,
          (person.joined ? `${person.name} plays on another phone now. ` : "") + why
          + (person.joined ? " That phone then goes back to the names." : ""));
        if (!approved) return;
        me = approved;
      } else {
        me = await api("/api/join", { person: index });
      }
      meAsked++;  // an answer to a question asked before the join, still on its way, is older than this one
      chosenSeat = me.seats.find((seat) => !before.includes(seat)) ?? me.seats[0];
      adding = false;
      render();
      const first = document.querySelector(".box.legal, #pass, #slot-0, #hand-0");
      announce(`You play ${game().seats[chosenSeat]}.`, false);
      if (first) first.focus();
    } catch (failure) {
      toast(failure.message);
    }
  }

  const game = () => state.game;

  function myStatus(g, seat) {
    const name = g.seats[seat];
    const pending = me.pending[String(seat)];
    if (g.phase === "roll-off") return g.rolloff_seat === seat ? "Your roll: roll one white die." : "Watch the roll-off.";
    if (g.over) return g.over.winners.includes(seat) ? "You win!" : "The game is over.";
    if (g.phase === "roll") return g.roller === seat ? "Your turn: roll all the dice." : `${g.rolling_person} rolls next.`;
    const waiting = g.waiting_for.map((index) => g.seats[index]).filter((other) => other !== name);
    if (pending) return `You ${decisionText(pending)}. ${waiting.length ? `Waiting for ${names(waiting)}.` : ""}`;
    if (g.waiting_for.includes(seat)) {
      if (g.phase === "white") return `Mark ${g.white_sum} in one row, or pass.`;
      return "Your coloured-dice choice: a white die plus one coloured die, in that colour's row, or pass.";
    }
    if (g.phase === "colour") return `Waiting for ${g.seats[g.roller]}'s coloured-dice choice.`;
    return `Waiting for ${names(waiting)}.`;
  }

  function playView(g) {
    const seat = chosenSeat;
    const parts = [];
    if (me.seats.length > 1) {
      parts.push(el("div", { class: "seat-tabs", role: "group", "aria-label": "Your sheets" }, me.seats.map((index) =>
        el("button", { type: "button", "aria-pressed": String(index === seat), id: `tab-${index}`,
                       onclick: () => { chosenSeat = index; selected = null; render(); } },
          g.seats[index], g.waiting_for && g.waiting_for.includes(index) ? " •" : ""))));
    }
    const addPerson = g.over || g.people.every((_, index) => me.people.includes(index)) ? [] : [
      el("button", { type: "button", class: "add-person", id: "add-person", onclick: () => { adding = true; render(); } },
        "Play someone else on this phone too…")];
    if (g.game === "cards") {
      return [...parts, ...QwixxCards.phone({ g, seat, mine: me.cards && me.cards[String(seat)], send, toast, overView,
                                              rerender: render, timer: el("span", { class: "timer", id: "timer" }) }),
              ...addPerson];
    }
    const sheet = g.sheets ? g.sheets[seat] : null;
    const options = (g.options && g.options[seat]) || [];
    const marks = options.filter((option) => option.action.action === "mark");
    const pass = options.find((option) => option.action.action === "pass");
    const pending = me.pending[String(seat)];
    const timer = el("span", { class: "timer", id: "timer" });
    parts.push(el("section", { class: "status", "aria-label": "What happens now" },
      el("p", { class: "prompt" }, myStatus(g, seat)),
      el("p", { class: "detail" }, g.prompt, " ", timer),
      state.pending_roll ? el("p", { class: "detail", role: "alert" }, state.pending_roll.problems.join(" ")) : null,
      g.match ? el("p", { class: "detail" }, `Game ${g.match.game} of 3 · match totals: `
        + g.seats.map((name, index) => `${name} ${g.match.totals[index]}`).join(", ")) : null,
      g.dice ? diceList(g.dice) : null,
      g.closed && g.closed.length ? closedBanners(g) : null));
    if (marks.length || pass) {
      parts.push(el("div", { class: "buttons", role: "group", "aria-label": "Your options" },
        marks.map(({ action, text, cost }) => el("button", {
          type: "button", class: `swatch c-${action.colour}`, "aria-label": `${TITLE[action.colour]} ${action.number}: ${text}`,
          onclick: () => { selected = { colour: action.colour, number: action.number }; render(); Qwixx.focusOnceDrawn("confirm"); },
        }, `${TITLE[action.colour]} ${action.number} · ${cost}`))));
    }
    if (sheet) {
      parts.push(drawSheet(sheet, {
        options, selected, pending, label: `${g.seats[seat]}'s sheet`, idPrefix: "box",
        onBox: (colour, number, option) => tapBox(seat, colour, number, option),
      }));
    }
    parts.push(...addPerson, actionBar(g, seat, marks, pass, pending));
    if (g.over) parts.unshift(overView(g));
    return parts;
  }

  function tapBox(seat, colour, number, option) {
    if (option) {
      selected = { colour, number };
      render();
      Qwixx.focusOnceDrawn("confirm");
      return;
    }
    api("/api/why", { seat, colour, number })
      .then((answer) => toast(answer.message))
      .catch((failure) => toast(failure.message));
  }

  function actionBar(g, seat, marks, pass, pending) {
    const bar = el("div", { class: "action-bar", role: "region", "aria-label": "Your decision" });
    if (selected) {
      const option = Qwixx.optionFor(marks, selected.colour, selected.number);
      if (option) {
        bar.append(
          el("span", { class: "choice-text" }, markSummary(option)),
          el("button", { type: "button", class: "secondary", id: "cancel", onclick: () => {
            const box = `box-${selected.colour}-${selected.number}`;
            selected = null;
            render();
            Qwixx.focusOnceDrawn(box);  // back where the choice began
          } }, "Cancel"),
          el("button", { type: "button", class: "primary big", id: "confirm",
                         onclick: () => send("/api/act", { seat, action: "mark", colour: selected.colour, number: selected.number }) },
            `Mark ${TITLE[selected.colour]} ${selected.number}`));
        return bar;
      }
      selected = null;
    }
    if (pass) {
      bar.append(
        el("span", { class: "choice-text" }, (marks.length ? "Tap a highlighted box, or pass." : "Nothing to mark this time.")
          + (pass.risks_penalty ? " You roll: a pass costs −5 unless you mark with a coloured die next." : "")),
        el("button", { type: "button", class: pass.penalty ? "big danger" : "big", id: "pass",
                       onclick: () => send("/api/act", { seat, action: "pass" }) },
          pass.penalty ? "Pass (penalty −5)" : "Pass"));
    } else if (pending && g.phase === "white") {
      bar.append(
        el("span", { class: "choice-text" }, `You ${decisionText(pending)}.`),
        el("button", { type: "button", id: "change", onclick: () => send("/api/retract", { seat }) }, "Change my choice"));
    } else {
      return el("div");
    }
    return bar;
  }

  /* What a mark gives and costs, in a line: "Skips 3 boxes · yellow 3 → 6 points". */
  function markSummary(option) {
    const parts = [option.skipped ? `Skips ${Qwixx.plural(option.skipped, "box", "boxes")}` : "Skips nothing"];
    const colour = option.action.colour;
    if (option.locks) parts.push(`locks ${colour} for everyone`);
    parts.push(`${colour} ${option.row_before} → ${Qwixx.plural(option.row_after, "point")}`);
    return parts.join(" · ");
  }

  function overView(g) {
    const ranking = g.seats.map((name, index) => ({ name, index, score: g.sheets[index].score }))
      .sort((a, b) => b.score.total - a.score.total);
    return el("section", { class: "card over", "aria-label": "Final scores" },
      el("h2", {}, g.over.text),
      el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Total"))),
        el("tbody", {}, ranking.map((row) => el("tr", { class: g.over.winners.includes(row.index) ? "winner" : "" },
          el("td", {}, row.name), el("td", {}, String(row.score.total)))))),
      el("div", { class: "buttons" },
        el("button", { type: "button", class: "primary big", id: "again",
                       onclick: () => Qwixx.asHost(() => api("/api/games/again", {})).catch((failure) => toast(failure.message)) },
          g.match && g.match.game < 3 ? `Next game (${g.match.game + 1} of 3)` : "Play again")));
  }

  Qwixx.startTimer(() => state, "#timer", () => state.game !== null
    && me.seats.some((seat) => (state.game.waiting_for || []).includes(seat) && !me.pending[String(seat)]));
})();
