// A game's page: step through the moves (buttons, ← → Home End), show each moment in
// the reader's own time zone, and follow the game live: the server's event stream
// says when the game moves, and the page fetches itself again and swaps what changed.
"use strict";

(function () {
  const game = document.getElementById("game");
  if (!game) return;
  const path = game.dataset.path;
  let version = Number(game.dataset.version);
  let plies = Number(game.dataset.plies);
  let shown = plies; // the position on the board: plies = now, following the game

  const $ = (id) => document.getElementById(id);

  function localTimes(root) {
    for (const t of root.querySelectorAll("time[datetime]")) {
      const at = new Date(t.getAttribute("datetime"));
      if (isNaN(at)) continue;
      t.title = t.textContent;
      t.textContent = at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
    }
  }

  function swatches(root) {
    for (const s of root.querySelectorAll(".swatch[data-colour]")) {
      s.style.backgroundColor = s.dataset.colour;
    }
  }

  function links() {
    return Array.from(document.querySelectorAll("a[data-ply]"));
  }

  function show(ply) {
    const board = $("board");
    if (!board) return;
    shown = Math.max(0, Math.min(plies, ply));
    board.src = shown === plies
      ? `${path}/board.png?v=${version}`
      : `${path}/board/${shown}.png?v=${version}`;
    let caption = `${document.querySelector("h1").textContent} at the start`;
    for (const a of links()) {
      const here = Number(a.dataset.ply) === shown;
      if (here) {
        a.setAttribute("aria-current", "step");
        if (shown > 0) {
          caption = `${document.querySelector("h1").textContent} after move ${shown} of ${plies} (${a.textContent})`;
        }
      } else {
        a.removeAttribute("aria-current");
      }
    }
    board.alt = caption;
    // the board in words is the position now: it describes the picture only there
    if (shown === plies && $("words")) board.setAttribute("aria-describedby", "words");
    else board.removeAttribute("aria-describedby");
    $("position").textContent = shown === plies && plies > 0 ? `${caption} — now` : caption;
    // aria-disabled rather than disabled: a control that cannot act now keeps the
    // focus of the reader who just used it (a disabled one would drop it to the page)
    for (const id of ["first", "prev"]) $(id).setAttribute("aria-disabled", String(shown === 0));
    for (const id of ["next", "last"]) $(id).setAttribute("aria-disabled", String(shown === plies));
    inView(document.querySelector('#moves a[aria-current="step"]'));
  }

  // The move shown, scrolled into view inside the list of moves only: the page itself
  // stays where its reader has it (on a phone the list is far below the board).
  function inView(current) {
    const list = $("moves");
    if (!current || !list) return;
    const item = current.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (item.top < box.top || item.bottom > box.bottom) {
      list.scrollTop += item.top - box.top - (box.height - item.height) / 2;
    }
  }

  function controls() {
    if (!$("board")) return;
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(shown - 1));
    $("next").addEventListener("click", () => show(shown + 1));
    $("last").addEventListener("click", () => show(plies));
    $("zoom").addEventListener("click", () => {
      const on = $("frame").classList.toggle("zoomed");
      $("zoom").setAttribute("aria-pressed", String(on));
      // the grown board pushes the button down: keep it in sight, to zoom back out
      $("zoom").scrollIntoView({ block: "nearest" });
    });
    document.addEventListener("click", (event) => {
      const a = event.target.closest && event.target.closest("a[data-ply]");
      if (!a) return;
      event.preventDefault();
      show(Number(a.dataset.ply));
      $("board").scrollIntoView({ block: "nearest" });
    });
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // the zoomed board's frame has the focus: the arrows scroll the board in it
      if (event.target === $("frame") && $("frame").classList.contains("zoomed")) return;
      const step = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: plies }[event.key];
      if (step === undefined) return;
      event.preventDefault();
      show(step);
    });
    show(plies);
  }

  async function refresh() {
    const answer = await fetch(location.pathname, { cache: "no-store" });
    if (!answer.ok) return;
    const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
    const main = fresh.getElementById("game");
    if (!main) return;
    const following = shown === plies;
    version = Number(main.dataset.version);
    plies = Number(main.dataset.plies);
    for (const id of ["live", "facts"]) {
      const part = fresh.getElementById(id);
      if (part && $(id)) $(id).replaceWith(document.adoptNode(part));
    }
    localTimes($("game"));
    swatches($("game"));
    game.dataset.version = String(version);
    game.dataset.plies = String(plies);
    if ($("board")) show(following ? plies : shown);
    else if (fresh.getElementById("board")) location.reload(); // the game began
  }

  function live() {
    if (!window.EventSource) return;
    const events = new EventSource(`${path}/events`);
    events.onmessage = (event) => {
      if (Number(event.data) !== version) refresh();
    };
  }

  localTimes(document);
  swatches(document);
  controls();
  live();
})();
