/* The finished games: when, who won, every score. */
"use strict";

(() => {
  const { el, $, api, names } = Qwixx;
  const when = (seconds) => new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

  function gameCard(game) {
    const result = game.result;
    const ranking = result.seats.slice().sort((a, b) => result.scores[b].total - result.scores[a].total);
    return el("li", { class: "card" },
      el("h2", {}, `${names(result.winners)} ${result.winners.length > 1 ? "share the win" : "won"}`),
      el("p", { class: "hint" }, `${when(game.finished)} · ${result.end === "two-colours-closed" ? "two colours closed" : "a fourth penalty"}`,
         game.match ? ` · match game ${game.match.game} of 3` : ""),
      el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"),
          ["Red", "Yellow", "Green", "Blue"].map((title) => el("th", { scope: "col" }, title)),
          el("th", { scope: "col" }, "Penalties"), el("th", { scope: "col" }, "Total"))),
        el("tbody", {}, ranking.map((seat) => {
          const score = result.scores[seat];
          return el("tr", { class: result.winners.includes(seat) ? "winner" : null },
            el("th", { scope: "row" }, seat),
            ["red", "yellow", "green", "blue"].map((colour) => el("td", {}, String(score[colour]))),
            el("td", {}, String(score.penalties)), el("td", {}, String(score.total)));
        }))));
  }

  api("/api/games").then((data) => {
    $("#games").replaceChildren(data.games.length
      ? el("ol", { class: "game-list" }, data.games.map(gameCard))
      : el("p", {}, "No finished games yet."));
  }).catch((failure) => { $("#games").textContent = failure.message; });
})();
