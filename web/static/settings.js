/* The settings page: drawn by the server for the host only, so unlocking loads it again. */
"use strict";

Qwixx.onHost((host) => { if (host && !document.getElementById("settings-table")) location.reload(); });
