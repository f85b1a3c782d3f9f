/* Step through a stored game: every sheet as it was after each step, as the referee replays it. */
"use strict";

(() => {
  const { el, $, api, drawSheet, diceList, closedBanners } = Qwixx;
  const gameId = $("#replay").dataset.game;
  const slider = $("#step");
  let steps = [];
  let shown = -1;

  async function show(step) {
    step = Math.max(0, Math.min(steps.length, step));
    slider.value = String(step);
    if (step === shown) return;
    shown = step;
    const answer = await api(`/api/games/${gameId}/replay/${step}`);
    if (shown !== step) return;  // a later step was asked for meanwhile
    const game = answer.game;
    $("#step-text").textContent = step === 0 ? "The start: empty sheets." : steps[step - 1];
    $("#step-count").textContent = `Step ${step} of ${steps.length}`;
    const sheets = game.sheets || [];
    const cards = game.game === "cards";  // a card game no longer played shows every card's colour
    const match = game.match;
    $("#replay").replaceChildren(
      el("div", { class: "status" }, el("p", { class: "prompt" }, game.prompt),
         el("p", { class: "detail", id: "game-kind" },
           [game.variant_title, match ? `three-game match, game ${match.game} of 3` : null].filter(Boolean).join(" · ")),
         game.dice ? diceList(game.dice) : null, game.closed && game.closed.length ? closedBanners(game) : null),
      cards ? QwixxCards.middle(game) : "",
      ...sheets.map((sheet, seat) => el("div", {},
        el("h2", {}, `${sheet.player}: ${sheet.score.total} points`
                     + (match ? ` (${match.totals[seat]} in the match so far)` : "")),
        cards ? QwixxCards.cardRow(game.hands[seat], `${sheet.player}'s hand`) : null, drawSheet(sheet))));
  }

  $("#first").addEventListener("click", () => show(0));
  $("#back").addEventListener("click", () => show(Number(slider.value) - 1));
  $("#forward").addEventListener("click", () => show(Number(slider.value) + 1));
  $("#last").addEventListener("click", () => show(steps.length));
  slider.addEventListener("input", () => show(Number(slider.value)));
  document.addEventListener("keydown", (event) => {
    if (event.target === slider) return;
    if (event.key === "ArrowRight") show(Number(slider.value) + 1);
    if (event.key === "ArrowLeft") show(Number(slider.value) - 1);
  });

  api(`/api/games/${gameId}/replay`).then((data) => {
    steps = data.steps;
    slider.max = String(steps.length);
    show(steps.length);
  }).catch((failure) => { $("#step-text").textContent = failure.message; });
})();
