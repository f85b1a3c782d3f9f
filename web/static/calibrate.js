/* Calibrating the camera (the host): clear the table, lay out the six dice, look at what was learned, save or cancel.
   The server keeps where the calibration stands, so this page may be closed and opened again. */
"use strict";

(() => {
  const { el, $, api, svg, diceOutlines, TITLE } = Qwixx;
  const STEP_TEXT = {
    null: "Start when the players are ready: the camera stops reading rolls until you save or cancel.",
    empty: "1. Take every die off the table, then press “The table is clear”.",
    dice: "2. Lay the six dice (two white, red, yellow, green, blue) apart on the tray, top faces up, then press “Learn the dice”.",
    learned: "3. Check the result: each die outlined and named, the play area dashed (drag its corners onto the tray's, or move a focused corner with the arrow keys). Save it, or lay the dice out again.",
  };
  const overlay = $("#calibration-overlay");  // the result; out of the page while the live picture shows
  let live = null;  // the timer refreshing the camera's picture during steps 1 and 2
  let learnedArea = [];  // the play area as the server has it, to go back to when a change is refused

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
      svg("polygon", { class: "play-area", fill: "none", stroke: "#fff", "stroke-width": stroke * 1.5,
                       "stroke-dasharray": `${stroke * 6} ${stroke * 4}` }),
      ...diceOutlines(result.dice, width),
      ...result.play_area.map((_, index) => cornerHandle(index, width, height, stroke)));
    learnedArea = result.play_area;
    placeCorners(learnedArea);
    view.replaceChildren(overlay);
    sizeHandles();
  }

  /* A corner a finger can take on a phone too: at least HANDLE_PX across on the screen, whatever the picture's size. */
  const HANDLE_PX = 32;
  function sizeHandles() {
    const shown = overlay.getBoundingClientRect().width;
    const width = overlay.viewBox.baseVal.width;
    if (!shown || !width) return;
    overlay.querySelectorAll("circle.corner").forEach((handle) => {
      handle.setAttribute("r", Math.max(Number(handle.dataset.radius), HANDLE_PX / 2 * width / shown));
    });
  }
  window.addEventListener("resize", sizeHandles);

  /* The play area's corners: dragged, or moved by the arrow keys (a hundredth of the picture, Shift five), then
     sent; the server refuses an area that leaves out a die or whose edges cross, and the last one comes back. */
  function cornerHandle(index, width, height, stroke) {
    const handle = svg("circle", { class: "corner", id: `play-area-corner-${index}`, r: stroke * 7, "data-radius": stroke * 7,
                                   "stroke-width": stroke, tabindex: 0, role: "button" });
    const moveTo = (x, y) => {
      const corners = currentCorners();
      corners[index] = [Math.round(Math.min(Math.max(x, 0), width)), Math.round(Math.min(Math.max(y, 0), height))];
      placeCorners(corners);
    };
    handle.addEventListener("pointerdown", (event) => {
      handle.setPointerCapture(event.pointerId);
      event.preventDefault();
    });
    handle.addEventListener("pointermove", (event) => {
      if (!handle.hasPointerCapture(event.pointerId)) return;
      const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(overlay.getScreenCTM().inverse());
      moveTo(point.x, point.y);
    });
    handle.addEventListener("lostpointercapture", () => sendCorners());
    handle.addEventListener("keydown", (event) => {
      const step = (event.shiftKey ? 5 : 1) * width / 100;
      const [dx, dy] = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] }[event.key] || [];
      if (dx === undefined) return;
      event.preventDefault();
      const [x, y] = currentCorners()[index];
      moveTo(x + dx, y + dy);
      sendCorners();
    });
    return handle;
  }

  function currentCorners() {
    return [...overlay.querySelectorAll("circle.corner")].map((handle) => [Number(handle.getAttribute("cx")), Number(handle.getAttribute("cy"))]);
  }

  function placeCorners(corners) {
    overlay.querySelector("polygon.play-area").setAttribute("points", corners.map((point) => point.join(",")).join(" "));
    overlay.querySelectorAll("circle.corner").forEach((handle, index) => {
      handle.setAttribute("cx", corners[index][0]);
      handle.setAttribute("cy", corners[index][1]);
      handle.setAttribute("aria-label", `Play area corner ${index + 1} of ${corners.length}, at ${corners[index].map(Math.round).join(", ")}`);
    });
  }

  let sending = Promise.resolve();
  function sendCorners() {
    const corners = currentCorners();
    // One change at a time, in the order made: a held arrow key sends many.
    sending = sending.then(async () => {
      try {
        const calibration = await Qwixx.asHost(() => api("/api/calibration/play-area", { corners }));
        learnedArea = calibration.result.play_area;
        $("#calibration-error").textContent = "";
      } catch (failure) {
        $("#calibration-error").textContent = failure.message;
        placeCorners(learnedArea);
      }
    });
  }

  async function take(step) {
    await sending;  // the play area as the host left it is part of what is saved
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
