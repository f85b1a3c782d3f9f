/* The setup page: variant, players in seating order, who starts, the decision timer. */
"use strict";

(() => {
  const { el, $, api } = Qwixx;
  const LIMITS = { standard: [2, 5], "two-sheets": [2, 2], partners: [4, 10], cards: [2, 5], "cards-joker": [2, 5] };
  const cardGame = () => variant().startsWith("cards");
  const form = $("#setup");
  const list = $("#players");
  let players = ["", "", ""];

  const variant = () => form.querySelector("input[name=variant]:checked").value;

  function label(index) {
    if (variant() !== "partners") return `Player ${index + 1}`;
    return `Team ${Math.floor(index / 2) + 1}, partner ${index % 2 + 1}`;
  }

  function fit() {
    const [low, high] = LIMITS[variant()];
    while (players.length < low) players.push("");
    if (players.length > high) players = players.slice(0, high);
    if (variant() === "partners" && players.length % 2) players.push("");
  }

  function render() {
    fit();
    const [low, high] = LIMITS[variant()];
    const teamHead = (index) => variant() === "partners" && index % 2 === 0
      ? el("li", { class: "team-head", "aria-hidden": "true" }, `Team ${index / 2 + 1}`) : null;
    list.replaceChildren(...players.flatMap((name, index) => [teamHead(index), el("li", { class: "player-row" },
      el("label", { for: `player-${index}`, class: "visually-hidden" }, `${label(index)} name`),
      el("input", { id: `player-${index}`, value: name, maxlength: "24", autocomplete: "off", placeholder: label(index),
                    oninput: (event) => { players[index] = event.target.value; renderStarters(); } }),
      el("button", { type: "button", "aria-label": `Move ${label(index)} up`, disabled: index === 0,
                     onclick: () => move(index, -1) }, "↑"),
      el("button", { type: "button", "aria-label": `Move ${label(index)} down`, disabled: index === players.length - 1,
                     onclick: () => move(index, 1) }, "↓"),
      el("button", { type: "button", "aria-label": `Remove ${label(index)}`, disabled: players.length - (variant() === "partners" ? 2 : 1) < low,
                     onclick: () => remove(index) }, "✕"))]).filter(Boolean));
    $("#add-player").hidden = players.length >= high;
    $("#add-player").textContent = variant() === "partners" ? "Add a team" : "Add a player";
    $("#players-legend").textContent = variant() === "partners" ? "Teams, in seating order" : "Players, in seating order";
    // The card game: dealt or real cards; no match and no roll-off (the rulebook: whoever's birthday is furthest away).
    $("#deal-choice").hidden = !cardGame();
    $("#match-choice").hidden = cardGame();
    $("#starter-hint").textContent = cardGame()
      ? "The rulebook: whoever's birthday is furthest from today starts. Play passes to the left."
      : "A roll-off: each rolls one white die in turn, read by the camera, until someone rolls a 6.";
    renderStarters();
  }

  function move(index, step) {
    const [moved] = players.splice(index, 1);
    players.splice(index + step, 0, moved);
    render();
    $(`#player-${index + step}`).focus();
  }

  function remove(index) {
    if (variant() === "partners") players.splice(index - (index % 2), 2);
    else players.splice(index, 1);
    render();
  }

  /* Who may start: by seat. Two sheets each: each person's first sheet; partners: each team. */
  function renderStarters() {
    const select = $("#starter");
    const previous = select.value;
    const names = players.map((name, index) => name.trim() || label(index));
    const seats = variant() === "partners"
      ? names.filter((_, index) => index % 2 === 0).map((first, team) => `${first} & ${names[2 * team + 1]}`)
      : names;
    select.replaceChildren(cardGame() ? "" : el("option", { value: "" }, "A roll-off, read by the camera"),
      ...seats.map((name, seat) => el("option", { value: String(seat) }, name)));
    if ([...select.options].some((option) => option.value === previous)) select.value = previous;
  }

  form.addEventListener("change", (event) => { if (event.target.name === "variant") render(); });
  $("#add-player").addEventListener("click", () => {
    players.push(...(variant() === "partners" ? ["", ""] : [""]));
    render();
    $(`#player-${players.length - (variant() === "partners" ? 2 : 1)}`).focus();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = $("#setup-error");
    error.textContent = "";
    const names = players.map((name) => name.trim());
    const missing = names.findIndex((name) => !name);
    if (missing >= 0) {
      error.textContent = `${label(missing)} needs a name.`;
      $(`#player-${missing}`).focus();
      return;
    }
    const starter = $("#starter").value;
    const body = { players: names, variant: variant(), starter: starter === "" ? null : Number(starter),
                   timer: Number($("#timer").value) };
    if (cardGame()) body.deal = form.querySelector("input[name=deal]:checked").value;
    else body.match = $("#match").checked;
    try {
      await Qwixx.asHost(() => api("/api/games", body));
      location.href = "/table";
    } catch (failure) {
      error.textContent = failure.message;
    }
  });

  /* Start from the people of the last game: "the same again, but..." is the usual case. */
  api("/api/state").then((state) => {
    const game = state.game;
    if (game) {
      const radio = form.querySelector(`input[name=variant][value="${game.variant}"]`);
      if (radio) radio.checked = true;
      const deal = form.querySelector(`input[name=deal][value="${game.deal}"]`);
      if (deal) deal.checked = true;
      players = game.people.map((person) => person.name);
      $("#timer").value = String(game.timer || 0);
    }
    render();
  }).catch(() => render());
})();
