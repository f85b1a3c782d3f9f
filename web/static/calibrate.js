/* Calibrating the camera (the host): clear the table, lay out the six dice, look at what was learned, save or cancel.
   The server keeps where the calibration stands, so this page may be closed and opened again. */
"use strict";

(() => {
  const { el, $, api, TITLE } = Qwixx;
  const OUTLINE = { white: "#ffffff", red: "#ff5252", yellow: "#ffd600", green: "#69f0ae", blue: "#40c4ff" };
  const STEP_TEXT = {
    null: "Start when the players are ready: the camera stops reading rolls until you save or cancel.",
    empty: "1. Take every die off the table, then press “The table is clear”.",
    dice: "2. Lay the six dice (two white, red, yellow, green, blue) apart on the tray, top faces up, then press “Learn the dice”.",
    learned: "3. Check the result: each die outlined and named, the play area dashed. Save it, or lay the dice out again.",
  };
  const overlay = $("#calibration-overlay");  // the result; out of the page while the live picture shows
  let live = null;  // the timer refreshing the camera's picture during steps 1 and 2

  function svg(tag, attributes, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text) node.textContent = text;
    return node;
  }

  function render(calibration, saved) {
    const step = calibration.step;
    $("#calibration-step").textContent = saved && step === null
      ? "Saved: the camera reads the dice with this calibration now." : STEP_TEXT[step];
    $("#calibration-file").textContent = `Kept in ${calibration.file}.` + (calibration.in_use
      ? ` The camera reads with the calibration made ${calibration.in_use.created.replace("T", " at ").replace("+00:00", " UTC")}.`
      : " The camera reads without a calibration now.");
    drawPicture(calibration);
    const result = calibration.result;
    $("#calibration-warnings").replaceChildren(...(result
      ? (result.warnings.length ? result.warnings.map((warning) => el("li", {}, warning)) : [el("li", { class: "hint" }, "No warnings.")])
      : []));
    const button = (id, text, path, primary) => el("button", { type: "button", id, class: primary ? "primary" : null,
                                                               onclick: () => take(path) }, text);
    const buttons = {
      null: [button("calibration-start", "Start calibrating", "start", true),
             el("a", { class: "button", href: "/table" }, "Back to the table")],
      empty: [button("calibration-empty", "The table is clear", "empty", true)],
      dice: [button("calibration-dice", "Learn the dice", "dice", true), button("calibration-again", "Take the empty table again", "start")],
      learned: [button("calibration-save", "Save", "save", true), button("calibration-dice", "Lay out the dice again", "dice")],
    }[step];
    if (step !== null) buttons.push(button("calibration-cancel", "Cancel", "cancel"));
    $("#calibration-buttons").replaceChildren(...buttons);
  }

  /* Steps 1 and 2: the live picture. The result: the picture learned from, the play area and the dice as the
     reader sees them with the new calibration, in that picture's pixels. */
  function drawPicture(calibration) {
    clearTimeout(live);
    const view = $("#calibration-view");
    view.hidden = calibration.step === null || !calibration.camera;
    if (view.hidden) return;
    const result = calibration.result;
    if (!result) {
      const image = el("img", { alt: "" });
      const next = () => { image.src = `/api/camera.jpg?at=${Date.now()}`; };
      image.addEventListener("load", () => { live = setTimeout(next, 250); });
      image.addEventListener("error", () => { live = setTimeout(next, 2000); });
      next();
      view.replaceChildren(image);
      return;
    }
    const [width, height] = result.resolution;
    const stroke = Math.max(1.5, width / 400);
    overlay.setAttribute("viewBox", `0 0 ${width} ${height}`);
    overlay.setAttribute("aria-label", `The dice as learned: ${result.dice.map((die) => `${TITLE[die.colour] || die.colour} ${die.value ?? "?"}`).join(", ") || "none read"}`);
    overlay.replaceChildren(
      svg("image", { href: `/api/calibration/picture.jpg?at=${Date.now()}`, x: 0, y: 0, width, height }),
      svg("polygon", { class: "play-area", points: result.play_area.map((point) => point.join(",")).join(" "), fill: "none",
                       stroke: "#fff", "stroke-width": stroke * 1.5, "stroke-dasharray": `${stroke * 6} ${stroke * 4}` }),
      ...result.dice.flatMap((die) => {
        const x = die.corners.reduce((sum, [cx]) => sum + cx, 0) / die.corners.length;
        const y = die.corners.reduce((sum, [, cy]) => sum + cy, 0) / die.corners.length;
        // A little outside the die's edge, as on the table screen, so that the outline shows on a die of its colour.
        const ring = die.corners.map(([cx, cy]) => [x + (cx - x) * 1.4, y + (cy - y) * 1.4]);
        const points = ring.map((point) => point.join(",")).join(" ");
        const top = Math.min(...ring.map(([, cy]) => cy));
        return [svg("polygon", { points, fill: "none", stroke: "#000", "stroke-width": stroke * 3 }),
                svg("polygon", { points, fill: "none", stroke: OUTLINE[die.colour] || "#fff", "stroke-width": stroke * 1.5 }),
                svg("text", { x, y: top - stroke * 3, "text-anchor": "middle", "font-size": width / 40 },
                    `${TITLE[die.colour] || die.colour} ${die.value ?? "?"}`)];
      }));
    view.replaceChildren(overlay);
  }

  async function take(step) {
    $("#calibration-error").textContent = "";
    const buttons = [...document.querySelectorAll("#calibration-buttons button")];
    buttons.forEach((button) => { button.disabled = true; });
    if (step === "dice") $("#calibration-step").textContent = "Learning the dice… (a few seconds)";
    try {
      const calibration = await Qwixx.asHost(() => api(`/api/calibration/${step}`, {}));
      render(calibration, step === "save");
    } catch (failure) {
      $("#calibration-error").textContent = failure.message;
      buttons.forEach((button) => { button.disabled = false; });
      load();
    }
  }

  async function load() {
    try {
      render(await Qwixx.asHost(() => api("/api/calibration")), false);
    } catch (failure) {
      $("#calibration-step").textContent = failure.message;
    }
  }

  load();
})();
