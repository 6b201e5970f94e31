// Nothing of the control bar is ever cut off: at any frame size (a 320-pixel phone, a
// 400 x 225 popout) the bar's parts are zoomed down just enough that every visible control lies
// inside the window. The reels' canvas is never zoomed (it draws at the device's pixels).
//
// With ?debug=1 the zoom in force is window.slotFit.zoom.

/** The smallest zoom the bar goes to (below it a control would be too small to press). */
const MIN_ZOOM = 0.45;

/** The box around every visible control of `root` (its own box included). */
function extent(root) {
  const r = root.getBoundingClientRect();
  let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
  for (const el of root.querySelectorAll("*")) {
    if (el.closest("[hidden]")) continue;
    const b = el.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    left = Math.min(left, b.left);
    top = Math.min(top, b.top);
    right = Math.max(right, b.right);
    bottom = Math.max(bottom, b.bottom);
  }
  return { left, top, right, bottom, width: right - left, height: bottom - top };
}

/** The zoom that brings `root`'s controls inside the window, from the zoom in force. */
function nextZoom(root, zoom) {
  const u = extent(root);
  const vw = document.documentElement.clientWidth;
  const vh = document.documentElement.clientHeight;
  const overV = Math.max(0, u.bottom - vh) + Math.max(0, -u.top);
  const overH = Math.max(0, u.right - vw) + Math.max(0, -u.left);
  const fit = Math.min(
    u.height > 0 ? (u.height - overV) / u.height : 1,
    u.width > 0 ? (u.width - overH) / u.width : 1,
  );
  return fit >= 0.999 ? zoom : Math.max(MIN_ZOOM, zoom * fit * 0.995);
}

/** Keep `bar` inside the window as the window and the bar's contents change. */
export function fitBar(bar) {
  const state = { zoom: 1, runs: 0 };
  let busy = false;
  // The bar's parts are zoomed, not the bar: its own box (its share of the window) stays.
  const apply = (z) => {
    state.zoom = z;
    for (const part of bar.children) part.style.zoom = z === 1 ? "" : z.toFixed(4);
  };
  const fit = () => {
    if (busy) return;
    busy = true;
    try {
      state.runs += 1;
      apply(1);
      // Zooming re-flows the bar (rows wrap, labels move): a few rounds settle it.
      for (let i = 0; i < 6; i++) {
        const z = nextZoom(bar, state.zoom);
        if (z === state.zoom) break;
        apply(z);
      }
    } finally {
      busy = false;
    }
  };
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fit();
    });
  };
  window.addEventListener("resize", later);
  // What the bar shows changes with the game (a jackpot shown, a stepper or a button revealed);
  // the meters' digits do not re-fit it at every frame of a count-up.
  new MutationObserver(later).observe(bar, { subtree: true, childList: true, attributes: true, attributeFilter: ["hidden"] });
  fit();
  return state;
}
