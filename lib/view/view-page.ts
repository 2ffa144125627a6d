// The page of `pty view`: xterm.js (served from corral's own node_modules)
// drawing what arrives on the WebSocket. The first text message gives the
// size; binary messages are terminal bytes; later text messages say the size
// changed or the program exited. No input is ever sent back.
import { escapeXml } from "../pty/screen-picture.ts";
import { keepAltScreenToItsRows } from "../pty/alt-screen-rows.ts";
import { eraseAboveInLastColumn } from "../pty/erase-above.ts";
import { keepScrollRegionAcrossScreens } from "../pty/scroll-margins.ts";
import { keepRowsBelowCursorOnReflow } from "../pty/reflow-rows.ts";

/** The HTML document; scripts and styles come from the same server (CSP 'self'). */
export function viewPage(title: string): string {
  const label = escapeXml(title);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${label}</title>
<link rel="stylesheet" href="xterm.css">
<link rel="stylesheet" href="view.css">
</head><body>
<header><span id="title">${label}</span> <span id="status">connecting</span></header>
<div id="terminal"></div>
<script src="xterm.js"></script>
<script src="view.js"></script>
</body></html>
`;
}

export const VIEW_CSS = `body{background:#111;color:#ddd;font-family:sans-serif;margin:12px}
header{margin-bottom:8px;font-size:13px}
#status{color:#8ae234}
#status.ended{color:#ef2929}
#terminal{display:inline-block}
`;

// Runs in the browser. The token is the first segment of the page's path:
// the stream is beside the page. The page's xterm.js has the agent's xterm
// bugs too (an ED 1 in the last column throws, and the page stops drawing;
// the alternate screen keeps room for an earlier height; the scroll region
// is kept per screen; narrowing a screen not yet full drops the rows below
// the cursor): the agent's own fixes are sent along as their source
// text (each uses nothing outside itself; __name is what a keep-names
// transform may wrap them in).
export const VIEW_JS = `(function () {
  "use strict";
  var __name = function (f) { return f; };
  var eraseAboveInLastColumn = ${eraseAboveInLastColumn.toString()};
  var keepAltScreenToItsRows = ${keepAltScreenToItsRows.toString()};
  var keepScrollRegionAcrossScreens = ${keepScrollRegionAcrossScreens.toString()};
  var keepRowsBelowCursorOnReflow = ${keepRowsBelowCursorOnReflow.toString()};
  var status = document.getElementById("status");
  var term = null;
  var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + location.pathname.replace(/[^/]*$/, "") + "stream";
  var ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  ws.onopen = function () { status.textContent = "live (read-only)"; };
  ws.onmessage = function (message) {
    if (typeof message.data !== "string") {
      if (term !== null) term.write(new Uint8Array(message.data));
      return;
    }
    var event = JSON.parse(message.data);
    if (event.event === "size") {
      term = new Terminal({ cols: event.cols, rows: event.rows, disableStdin: true, scrollback: 1000, cursorBlink: false, fontSize: 14 });
      try { eraseAboveInLastColumn(term); } catch (e) { /* another xterm.js: its own erase runs */ }
      try { keepAltScreenToItsRows(term); } catch (e) { /* another xterm.js: left as it is */ }
      try { keepScrollRegionAcrossScreens(term); } catch (e) { /* another xterm.js: left as it is */ }
      try { keepRowsBelowCursorOnReflow(term); } catch (e) { /* another xterm.js: its own rewrap runs */ }
      term.open(document.getElementById("terminal"));
      window.corralTerminal = term;
    } else if (event.event === "resize" && term !== null) {
      // After the bytes sent before it are parsed: xterm.js parses writes later, in
      // chunks, and a resize made at once landed in the middle of them (a scroll split
      // across two sizes). An empty write's callback runs once those are parsed.
      var resized = term;
      resized.write("", function () { resized.resize(event.cols, event.rows); });
    } else if (event.event === "exit") {
      status.textContent = "the program exited";
      status.className = "ended";
    }
  };
  ws.onclose = function () {
    if (status.className !== "ended") { status.textContent = "disconnected"; status.className = "ended"; }
  };
})();
`;
