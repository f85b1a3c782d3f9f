/* The Qwixx Card Game on the pages: cards drawn, the phone's hand, tableau, options and plays, and the table
   screen's tableau. The referee decides everything; this page shows its legal options and, for any other
   choice, asks it why not. A phone only ever receives its own hand's colours (/api/me); every other card shows
   its number side, as at the table. */
"use strict";

const QwixxCards = (() => {
  const { el, $, api, drawSheet, names, plural, TITLE, COLOURS } = Qwixx;
  const NUMBERS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

  /* ----- cards ----- */
  function cardLabel([colour, number]) {
    if (colour === null) return number === null ? "a card" : `a ${number}, colour hidden`;
    return colour === "joker" ? `joker ${number}` : `${TITLE[colour]} ${number}`;
  }

  /* A card: the number side (orange) when its colour is hidden, else its colour, named and shaped. Given
     `onclick` it is a toggle button. */
  function card(value, attributes) {
    const [colour, number] = value;
    const face = colour === null ? "back" : colour === "joker" ? "joker" : `face c-${colour}`;
    const tag = attributes && attributes.onclick ? "button" : "span";
    return el(tag, { class: `playing-card ${face}`, "aria-label": cardLabel(value), type: tag === "button" ? "button" : null,
                     role: tag === "span" ? "img" : null, ...attributes },
      el("span", { class: "num", "aria-hidden": "true" }, number === null ? "?" : String(number)),
      colour === null ? null : el("span", { class: `cname${colour === "joker" ? "" : " shape"}`, "aria-hidden": "true" },
        colour === "joker" ? "Joker" : TITLE[colour]));
  }

  function cardRow(cards, label, extra) {
    return el("div", { class: "card-row", role: "group", "aria-label": label }, cards.map((value, index) => card(value, extra && extra(index))));
  }

  const sameCards = (a, b) => JSON.stringify(a.map(String).sort()) === JSON.stringify(b.map(String).sort());
  const sameNumbers = (a, b) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

  function playText(play) {
    const cards = play.cards.map((value) => cardLabel(value) + (value[0] === "joker" ? ` (as ${play.colour})` : ""));
    return `${names(cards)}, ${play.cross.length ? `crossing ${names(play.cross.map(String))}` : "crossing nothing"}`;
  }

  function lastPlay(g) {
    if (!g.last_play) return null;
    return el("p", { class: "last-play" }, el("strong", {}, "Last play: "), `${g.last_play.player} played `,
      el("span", { class: "mini-cards" }, g.last_play.cards.map((value) => card(value))),
      g.last_play.colour ? ` as ${g.last_play.colour}` : "",  // a joker's chosen colour
      ` ${g.last_play.cross.length ? `crossing ${names(g.last_play.cross.map(String))}` : "crossing nothing"}.`);
  }

  function piles(g) {
    return el("p", { class: "piles hint" }, `Draw pile ${plural(g.draw_pile, "card")} · discard pile ${plural(g.discard_pile, "card")}`);
  }

  /* What every page shows of the middle of the table: the announced number, the tableau, the piles, the last play. */
  function middle(g, tableauExtra, badge = true) {
    return el("section", { class: "middle", "aria-label": "The middle of the table" },
      el("div", { class: "middle-row" },
        badge ? el("div", { class: "number-badge", "aria-label": g.announced ? `The number is ${g.announced}` : "No number yet" },
          el("span", { class: "value" }, g.announced ? String(g.announced) : "–"), el("span", { class: "label" }, "the number")) : null,
        // Real cards: the table knows no card of the tableau, which lies on the real table.
        g.deal === "real-cards" ? null
          : el("div", {}, el("h2", { class: "small-head" }, "Tableau"), cardRow(g.tableau, "The tableau", tableauExtra))),
      piles(g), lastPlay(g));
  }

  /* ----- the phone ----- */
  let pick = null;  // this phone's choices in the open action, reset when the action changes

  function resetPick(g, seat) {
    const key = `${g.id}:${g.turn}:${g.phase}:${seat}`;
    if (!pick || pick.key !== key) {
      pick = { key, slots: [], cards: [], cross: [], colour: null, option: null, mark: null, number: null,
               real: [], realColour: "red", realOptions: null, why: "" };
    }
  }

  function status(g, seat) {
    const active = g.seats[g.active];
    const mine = g.active === seat;
    if (g.over) return g.over.winners.includes(seat) ? "You win!" : "The game is over.";
    if (g.phase === "draw") {
      if (!mine) return `${active} draws.`;
      return g.deal === "shuffled" ? `Your turn: take ${plural(g.take, "card")} from the tableau.`
        : "Your turn: draw to 5 cards, refill the tableau, then announce the number on top of the draw pile.";
    }
    if (g.phase === "number") {
      if (g.waiting_for.includes(seat)) return `Cross ${g.announced} in one row, or pass.`;
      return `Waiting for ${names(g.waiting_for.map((index) => g.seats[index]))}.`;
    }
    if (mine) return "Your play: 1 to 3 cards of one colour. Cross their numbers, at most one box skipped between them.";
    return `${active} plays cards.`;
  }

  /* ctx: {g, seat, mine: {hand, options} or null until fetched, send(path, body), toast, rerender, overView, timer} */
  function phone(ctx) {
    const { g, seat } = ctx;
    resetPick(g, seat);
    const mine = ctx.mine || { hand: g.hands[seat], options: [] };
    const options = mine.options || [];
    const active = g.active === seat && !g.over;
    const parts = [];
    if (g.over) parts.push(ctx.overView(g));
    parts.push(el("section", { class: "status", "aria-label": "What happens now" },
      el("p", { class: "prompt" }, status(g, seat)),
      el("p", { class: "detail" }, g.prompt, " ", ctx.timer)));

    const drawing = active && g.phase === "draw";
    const takes = drawing && g.deal === "shuffled";
    parts.push(middle(g, takes ? (slot) => ({
      id: `slot-${slot}`, "aria-pressed": String(pick.slots.includes(slot)),
      onclick: () => { pick.slots = toggle(pick.slots, slot, g.take); ctx.rerender(); },
    }) : null));
    if (drawing && g.deal === "real-cards") parts.push(announcePicker(ctx));

    const playing = active && g.phase === "play";
    parts.push(handSection(ctx, mine, playing));
    if (playing && g.deal === "real-cards") parts.push(realPicker(ctx));
    const plays = playing ? playOptions(ctx, options) : [];
    if (playing) parts.push(playList(ctx, plays));

    const marks = options.filter((option) => option.action.action === "mark");
    if (marks.length) {
      parts.push(el("div", { class: "buttons", role: "group", "aria-label": "Your options" },
        marks.map((option) => el("button", {
          type: "button", class: `swatch c-${option.action.colour}`, "aria-label": `${TITLE[option.action.colour]} ${option.action.number}: ${option.text}`,
          onclick: () => { pick.mark = option.action; ctx.rerender(); Qwixx.focusOnceDrawn("confirm"); },
        }, `${TITLE[option.action.colour]} ${option.action.number} · ${option.cost}`))));
    }
    parts.push(drawSheet(g.sheets[seat], sheetView(ctx, marks, plays, playing)));
    parts.push(others(g, seat));
    parts.push(actionBar(ctx, options, plays, drawing, playing));
    return parts;
  }

  function toggle(list, item, most) {
    if (list.includes(item)) return list.filter((other) => other !== item);
    return list.length < most ? [...list, item] : [...list.slice(1), item];
  }

  function handSection(ctx, mine, playing) {
    const { g, seat } = ctx;
    if (g.deal === "real-cards") {
      return el("section", { class: "hand", "aria-label": "Your hand" }, el("h2", { class: "small-head" }, "Your hand"),
        el("p", { class: "hint" }, `You hold ${plural(g.hands[seat].length, "card")}: real cards, so only you see them.`));
    }
    const hand = mine.hand;
    const choosing = playing && ctx.mine;  // the cards can be chosen once this phone has its hand for this action
    return el("section", { class: "hand", "aria-label": "Your hand" },
      el("h2", { class: "small-head" }, choosing ? "Your hand: tap 1 to 3 cards of one colour to play" : "Your hand"),
      cardRow(hand, "Your hand", choosing ? (index) => ({
        id: `hand-${index}`, "aria-pressed": String(pick.cards.some((value) => String(value) === String(hand[index]))),
        onclick: () => choosePlayCards(ctx, toggle(pick.cards, pick.cards.find((value) => String(value) === String(hand[index])) || hand[index], 3)),
      }) : null));
  }

  function announcePicker(ctx) {
    return el("section", { class: "picker", "aria-label": "The number on top of the draw pile" },
      el("h2", { class: "small-head" }, "The number on top of the draw pile"),
      el("div", { class: "number-grid", role: "group", "aria-label": "Numbers" }, NUMBERS.map((number) => el("button", {
        type: "button", id: `announce-${number}`, "aria-pressed": String(pick.number === number),
        onclick: () => { pick.number = number; ctx.rerender(); },
      }, String(number)))));
  }

  /* Real cards: the player says which cards they play (the referee cannot see a real hand). */
  function realPicker(ctx) {
    const colours = [...COLOURS, ...(ctx.g.variant === "cards-joker" ? ["joker"] : [])];
    return el("section", { class: "picker", "aria-label": "The cards you play" },
      el("h2", { class: "small-head" }, "The cards you play (1 to 3)"),
      pick.real.length ? cardRow(pick.real, "Cards played", (index) => ({
        id: `played-${index}`, "aria-label": `${cardLabel(pick.real[index])}: tap to take back`,
        onclick: () => choosePlayCards(ctx, pick.real.filter((_, other) => other !== index)),
      })) : el("p", { class: "hint" }, "Choose a colour, then the number of each card you play."),
      el("div", { class: "colour-tabs", role: "group", "aria-label": "Colour" }, colours.map((colour) => el("button", {
        type: "button", id: `colour-${colour}`, class: colour === "joker" ? "joker" : `swatch c-${colour}`,
        "aria-pressed": String(pick.realColour === colour), onclick: () => { pick.realColour = colour; ctx.rerender(); },
      }, el("span", { class: colour === "joker" ? "" : "shape" }, ` ${colour === "joker" ? "Joker" : TITLE[colour]}`)))),
      el("div", { class: "number-grid", role: "group", "aria-label": "Number" }, NUMBERS.map((number) => el("button", {
        type: "button", id: `card-${number}`, "aria-label": `${pick.realColour === "joker" ? "joker" : TITLE[pick.realColour]} ${number}`,
        disabled: pick.real.length >= 3, onclick: () => choosePlayCards(ctx, [...pick.real, [pick.realColour, number]]),
      }, String(number)))));
  }

  /* The cards to play changed: the plays of exactly those cards, or the referee's reason why there is none. */
  async function choosePlayCards(ctx, cards) {
    const real = ctx.g.deal === "real-cards";
    if (real) pick.real = cards; else pick.cards = cards;
    pick.cross = []; pick.colour = null; pick.option = null; pick.why = ""; pick.realOptions = null;
    ctx.rerender();
    if (!cards.length) return;
    // An answer about cards chosen before a later tap (or in an earlier action) is dropped: it arrives in any order.
    const chosen = pick;
    const current = () => pick === chosen && (real ? pick.real : pick.cards) === cards;
    try {
      if (real) {
        const answer = await api("/api/options", { seat: ctx.seat, cards });
        if (!current()) return;
        pick.realOptions = answer.options;
      }
      const plays = real ? pick.realOptions : ((ctx.mine && ctx.mine.options) || []).filter((option) => option.action.action === "play" && sameCards(option.action.cards, cards));
      if (!plays.length) {
        const answer = await api("/api/why", { seat: ctx.seat, action: "play", cards, cross: [] });
        if (!current()) return;
        pick.why = answer.message;
      }
    } catch (failure) {
      if (!current()) return;
      pick.why = failure.message;
    }
    ctx.rerender();
  }

  function playOptions(ctx, options) {
    const cards = ctx.g.deal === "real-cards" ? pick.real : pick.cards;
    if (!cards.length) return [];
    const plays = ctx.g.deal === "real-cards" ? pick.realOptions || []
      : options.filter((option) => option.action.action === "play" && sameCards(option.action.cards, cards));
    // A joker crossing nothing may take any colour: one way to cross nothing is enough to show.
    return plays.filter((option, index) => option.action.cross.length || plays.findIndex((other) => !other.action.cross.length) === index);
  }

  function playLabel(option) {
    const play = option.action;
    const joker = play.colour ? ` (joker as ${play.colour})` : "";
    if (!play.cross.length) return `Cross nothing${joker}${option.penalty ? " · penalty −5" : ""}`;
    return `Cross ${play.colour || option.colour} ${names(play.cross.map(String))}${joker} · ${option.cost} · ` +
      `${option.row_before} → ${plural(option.row_after, "point")}`;
  }

  function playList(ctx, plays) {
    const cards = ctx.g.deal === "real-cards" ? pick.real : pick.cards;
    if (!cards.length) return el("p", { class: "hint" }, ctx.g.deal === "real-cards" ? "" : "Tap the cards you play.");
    if (pick.why) return el("p", { class: "refusal", role: "alert" }, pick.why);
    return el("div", { class: "buttons play-options", role: "group", "aria-label": "Ways to play these cards" },
      plays.map((option, index) => el("button", {
        type: "button", id: `play-${index}`, "aria-pressed": String(pick.option === option.action.cross.join() + (option.action.colour || "")),
        class: option.colour ? `swatch c-${option.colour}` : option.penalty ? "danger" : "",
        "aria-label": option.text, onclick: () => choosePlay(ctx, option),
      }, playLabel(option))));
  }

  function choosePlay(ctx, option) {
    pick.option = option.action.cross.join() + (option.action.colour || "");
    pick.cross = option.action.cross;
    pick.colour = option.colour;
    ctx.rerender();
    Qwixx.focusOnceDrawn("confirm");
  }

  function chosenPlay(plays) {
    return plays.find((option) => option.action.cross.join() + (option.action.colour || "") === pick.option) || null;
  }

  function sheetView(ctx, marks, plays, playing) {
    const { g, seat } = ctx;
    const view = { label: `${g.seats[seat]}'s sheet`, idPrefix: "box" };
    if (playing) {
      // Boxes some play of the chosen cards crosses are highlighted; a tap adds or removes a number.
      view.options = plays.flatMap((option) => option.numbers.map((number) => ({
        action: { action: "mark", colour: option.colour, number }, cost: "", text: option.text })));
      view.selected = pick.cross.map((number) => ({ colour: pick.colour, number }));
      view.onBox = (colour, number) => tapPlayBox(ctx, plays, colour, number);
    } else {
      view.options = marks;
      view.selected = pick.mark ? { colour: pick.mark.colour, number: pick.mark.number } : null;
      view.onBox = (colour, number, option) => {
        if (option) { pick.mark = option.action; ctx.rerender(); Qwixx.focusOnceDrawn("confirm"); return; }
        api("/api/why", { seat, colour, number }).then((answer) => ctx.toast(answer.message)).catch((failure) => ctx.toast(failure.message));
      };
    }
    return view;
  }

  function tapPlayBox(ctx, plays, colour, number) {
    const cards = ctx.g.deal === "real-cards" ? pick.real : pick.cards;
    if (!cards.length) { ctx.toast("First tap the cards you play; then their numbers can be crossed."); return; }
    const cross = colour === pick.colour ? toggle(pick.cross, number, 3) : [number];
    const found = plays.find((option) => sameNumbers(option.action.cross, cross) && (!cross.length || option.colour === colour));
    if (found) { choosePlay(ctx, found); return; }
    const jokers = cards.some((value) => value[0] === "joker");
    api("/api/why", { seat: ctx.seat, action: "play", cards, cross, ...(jokers ? { colour } : {}) })
      .then((answer) => ctx.toast(answer.message)).catch((failure) => ctx.toast(failure.message));
  }

  function others(g, seat) {
    return el("section", { class: "others", "aria-label": "The other players" },
      el("h2", { class: "small-head" }, "The others' hands (numbers only)"),
      el("ul", { class: "other-hands" }, g.seats.map((name, index) => index === seat ? null : el("li", {},
        el("strong", {}, name), g.waiting_for.includes(index) ? el("span", { class: "hint" }, g.phase === "number" ? " deciding…" : g.phase === "draw" ? " draws…" : " plays…") : null,
        el("span", { class: "mini-cards" }, g.hands[index].map((value) => card(value)))))));
  }

  function actionBar(ctx, options, plays, drawing, playing) {
    const { g, seat, send } = ctx;
    const bar = el("div", { class: "action-bar" });
    const pass = options.find((option) => option.action.action === "pass");
    if (drawing && g.deal === "shuffled") {
      const numbers = pick.slots.map((slot) => g.tableau[slot][1]);
      bar.append(el("span", { class: "choice-text" }, pick.slots.length === g.take ? `Take the ${names(numbers.map(String))}.`
        : `Tap ${plural(g.take, "card")} of the tableau to take.`),
        el("button", { type: "button", class: "primary big", id: "confirm", disabled: pick.slots.length !== g.take,
                       onclick: () => send("/api/act", { seat, action: "take", slots: pick.slots }) },
          pick.slots.length === g.take ? `Take the ${names(numbers.map(String))}` : "Take"));
    } else if (drawing) {
      bar.append(el("span", { class: "choice-text" }, pick.number ? `Announce ${pick.number} to everyone.` : "Tap the number on the draw pile."),
        el("button", { type: "button", class: "primary big", id: "confirm", disabled: !pick.number,
                       onclick: () => send("/api/act", { seat, action: "announce", number: pick.number }) }, pick.number ? `Announce ${pick.number}` : "Announce"));
    } else if (playing) {
      const chosen = chosenPlay(plays);
      const cards = g.deal === "real-cards" ? pick.real : pick.cards;
      bar.append(el("span", { class: "choice-text" }, chosen ? `Play ${playText(chosen.action)}.` : "Pick your cards, then how to cross them."),
        el("button", { type: "button", class: chosen && chosen.penalty ? "big danger" : "primary big", id: "confirm", disabled: !chosen,
                       onclick: () => send("/api/act", { seat, action: "play", cards: chosen.action.cards, cross: chosen.action.cross,
                                                         ...(chosen.action.colour ? { colour: chosen.action.colour } : {}) }) },
          chosen && chosen.penalty ? "Play (penalty −5)" : `Play ${plural(cards.length, "card")}`));
    } else if (pass) {
      if (pick.mark) {
        bar.append(el("span", { class: "choice-text" }, `Cross ${pick.mark.colour} ${pick.mark.number}.`),
          el("button", { type: "button", class: "secondary", onclick: () => { pick.mark = null; ctx.rerender(); } }, "Cancel"),
          el("button", { type: "button", class: "primary big", id: "confirm",
                         onclick: () => send("/api/act", { seat, action: "mark", colour: pick.mark.colour, number: pick.mark.number }) },
            `Cross ${TITLE[pick.mark.colour]} ${pick.mark.number}`));
      } else {
        bar.append(el("span", { class: "choice-text" }, options.length > 1 ? "Tap a highlighted box, or pass." : "Nothing to cross this time."),
          el("button", { type: "button", class: "big", id: "pass", onclick: () => send("/api/act", { seat, action: "pass" }) }, "Pass"));
      }
    } else {
      return el("div");
    }
    return bar;
  }

  /* ----- the table screen ----- */
  function seatStatus(g, seat) {
    if (g.over) return g.over.winners.includes(seat) ? "wins" : "";
    if (g.phase === "number") return g.waiting_for.includes(seat) ? "deciding…" : "decided";
    if (g.active !== seat) return "";
    return g.phase === "draw" ? "draws…" : "plays…";
  }

  return { card, cardRow, middle, phone, seatStatus, NUMBERS };
})();
