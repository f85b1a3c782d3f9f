/* The games kept at this table: who won, every score, the record to save, a replay; and loading a record. */
"use strict";

(() => {
  const { el, $, api, names, COLOURS, TITLE } = Qwixx;
  const when = (seconds) => new Date(seconds * 1000).toLocaleString([], { dateStyle: "medium", timeStyle: "short" });

  function headline(game) {
    const result = game.result;
    if (game.match && result.match_winners && result.match_winners.length) {
      return `Match: ${names(result.match_winners)} ${result.match_winners.length > 1 ? "share the win" : "won"}`;
    }
    if (!result.winners.length) return game.origin === "abandoned" ? "Ended early" : "Unfinished game";
    return `${names(result.winners)} ${result.winners.length > 1 ? "share the win" : "won"}`;
  }

  function gameCard(game) {
    const result = game.result;
    // A match is won on its totals (ruling 12): its rows are ranked, and its winners marked, by them.
    const match = game.match && result.match_totals;
    const ranked = match ? (seat) => result.match_totals[seat] : (seat) => result.scores[seat].total;
    const winners = (match ? result.match_winners : result.winners) || [];
    const ranking = result.seats.slice().sort((a, b) => ranked(b) - ranked(a));
    const end = { "two-colours-closed": "two colours closed", "four-penalties": "a fourth penalty",
                  "two-rows-locked": "a second row locked" }[result.end]
      || (game.origin === "abandoned" ? "ended by the host" : "not finished");
    const kind = { cards: "the card game", "cards-joker": "the card game with jokers" }[game.variant];
    return el("li", { class: "card" },
      el("h2", {}, headline(game)),
      el("p", { class: "hint" }, [when(game.finished), kind, end, game.origin === "imported" ? "loaded from a record" : null,
                                  game.match ? "three-game match (last game shown)" : null].filter(Boolean).join(" · ")),
      el("div", { class: "scroll" }, el("table", { class: "scores" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"),
          COLOURS.map((colour) => el("th", { scope: "col" }, TITLE[colour])),
          el("th", { scope: "col" }, "Penalties"), el("th", { scope: "col" }, "Total"),
          match ? el("th", { scope: "col" }, "Match") : null)),
        el("tbody", {}, ranking.map((seat) => {
          const score = result.scores[seat];
          return el("tr", { class: winners.includes(seat) ? "winner" : null },
            el("th", { scope: "row" }, seat),
            COLOURS.map((colour) => el("td", {}, String(score[colour]))),
            el("td", {}, String(score.penalties)), el("td", {}, String(score.total)),
            match ? el("td", {}, String(result.match_totals[seat])) : null);
        })))),
      el("div", { class: "buttons" },
        el("a", { class: "button primary", href: `/games/${game.id}` }, "Replay"),
        el("a", { class: "button", href: `/api/games/${game.id}/record`, download: `qwixx-game-${game.id}.json` }, "Save the record")));
  }

  function load() {
    api("/api/games").then((data) => {
      $("#games").replaceChildren(data.games.length
        ? el("ol", { class: "game-list", "aria-label": "Games, latest first" }, data.games.map(gameCard))
        : el("p", {}, "No games played yet."));
    }).catch((failure) => { $("#games").textContent = failure.message; });
  }

  $("#record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    const error = $("#import-error");
    error.textContent = "";
    if (!file) return;
    let record;
    try {
      record = JSON.parse(await file.text());
    } catch (failure) {
      error.textContent = "This file is not JSON, so it is not a game record.";
      return;
    }
    try {
      const answer = await Qwixx.asHost(() => api("/api/records", record));
      location.href = `/games/${answer.id}`;
    } catch (failure) {
      error.textContent = failure.message;
    }
  });

  load();
})();
