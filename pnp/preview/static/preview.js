// pnp preview: draws the state the server pushes (/events) and keeps it current without
// reloading. Pieces are kept by id; an image is fetched again only when its key (a hash of the
// piece's inputs) changes, so an edit swaps exactly the pieces it touched.
"use strict";

const $ = (id) => document.getElementById(id);
const pieces = new Map();   // item id -> figure element
const sectionEls = new Map(); // section id -> section element
let current = null;

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
}

function findingItem(f, withItems) {
  const li = el("li", { class: f.severity, "data-severity": f.severity, "data-section": f.section || "",
                        "data-rule": f.rule });
  li.append(el("span", { class: "sev", text: f.severity }));
  if (f.location) li.append(el("span", { class: "loc", text: f.location }), ": ");
  li.append(f.message + " ");
  li.append(el("span", { class: "rule", text: "[" + f.rule + "]" }));
  if (withItems && f.items && f.items.length) {
    li.append(el("span", { class: "hint", text: "pieces: " + f.items.slice(0, 6).join(", ") +
                           (f.items.length > 6 ? ", …" : "") }));
  }
  if (f.hint) li.append(el("span", { class: "hint", text: "hint: " + f.hint }));
  return li;
}

function sideEl(side) {
  const box = el("div", { class: "side", "data-side": side.side });
  const img = el("img", { alt: side.side, loading: "lazy", decoding: "async" });
  box.append(img);
  if (side.bleed) {
    const trim = el("div", { class: "trim" + (side.shape === "circle" ? " circle" : "") });
    trim.style.left = trim.style.right = (side.bleed[0] * 100) + "%";
    trim.style.top = trim.style.bottom = (side.bleed[1] * 100) + "%";
    box.append(trim);
  }
  return box;
}

function updateSide(box, side, zoom) {
  const img = box.querySelector("img");
  if (img.dataset.key !== side.key) {
    img.dataset.key = side.key;
    img.src = "/img/" + side.key + ".png";
  }
  if (side.w) {
    img.width = side.w;
    img.height = side.h;
    img.style.width = Math.round(side.w * zoom) + "px";
  } else {
    img.style.width = Math.round(510 * zoom) + "px";
  }
}

function pieceEl(item, sectionId) {
  const fig = el("figure", { class: "piece", "data-item": item.id, "data-section": sectionId });
  fig.append(el("div", { class: "sides" }), el("figcaption"), el("ul", { class: "findings" }));
  return fig;
}

function updatePiece(fig, item, zoom, findings) {
  const sides = fig.querySelector(".sides");
  while (sides.children.length > item.sides.length) sides.lastChild.remove();
  item.sides.forEach((side, i) => {
    let box = sides.children[i];
    if (!box || box.dataset.side !== side.side) {
      const fresh = sideEl(side);
      if (box) box.replaceWith(fresh); else sides.append(fresh);
      box = fresh;
    }
    updateSide(box, side, zoom);
  });
  const cap = fig.querySelector("figcaption");
  cap.replaceChildren(el("b", { text: item.label }), item.copies > 1 ? " ×" + item.copies : "",
                      item.where ? el("span", { class: "where", text: "  " + item.where }) : "");
  const list = fig.querySelector("ul.findings");
  list.replaceChildren(...findings.map((f) => findingItem(f, false)));
  fig.classList.toggle("has-error", findings.some((f) => f.severity === "error"));
  fig.classList.toggle("has-warning", findings.some((f) => f.severity === "warning"));
  fig.dataset.findings = findings.map((f) => f.severity).join(" ");
}

function render(state) {
  current = state;
  const zoom = parseFloat($("zoom").value);
  document.title = state.title + " — pnp preview";
  $("title").textContent = state.title;
  const byItem = new Map();
  for (const f of state.findings) for (const id of f.items) {
    if (!byItem.has(id)) byItem.set(id, []);
    byItem.get(id).push(f);
  }
  // sections and their pieces, in order; pieces kept by id
  const holder = $("sections");
  const seenSections = new Set();
  const seenItems = new Set();
  const select = $("filter-section");
  const chosen = select.value;
  select.replaceChildren(el("option", { value: "", text: "everything" }));
  for (const section of state.sections) {
    seenSections.add(section.id);
    select.append(el("option", { value: section.id, text: section.name }));
    let sec = sectionEls.get(section.id);
    if (!sec) {
      sec = el("section", { id: "section-" + section.id, "data-section": section.id },
               el("h2"), el("div", { class: "grid" }));
      sectionEls.set(section.id, sec);
    }
    holder.append(sec);  // keeps the server's order
    const count = section.items.reduce((n, i) => n + i.copies, 0);
    sec.querySelector("h2").replaceChildren(section.name + " ",
      el("small", { text: section.kind === "rulebook" ? `${section.items.length} pages`
                                                       : `${section.items.length} designs, ${count} printed` }));
    const grid = sec.querySelector(".grid");
    for (const item of section.items) {
      seenItems.add(item.id);
      let fig = pieces.get(item.id);
      if (!fig) {
        fig = pieceEl(item, section.id);
        pieces.set(item.id, fig);
      }
      fig.dataset.section = section.id;
      grid.append(fig);
      updatePiece(fig, item, zoom, byItem.get(item.id) || []);
    }
  }
  for (const [id, fig] of pieces) if (!seenItems.has(id)) { fig.remove(); pieces.delete(id); }
  for (const [id, sec] of sectionEls) if (!seenSections.has(id)) { sec.remove(); sectionEls.delete(id); }
  select.value = [...select.options].some((o) => o.value === chosen) ? chosen : "";
  // the findings list and the error banner
  $("findings").replaceChildren(...state.findings.map((f) => findingItem(f, true)));
  $("errors").replaceChildren(...state.errors.map((f) => findingItem(f, true)));
  $("broken").hidden = state.loaded;
  $("checking").hidden = !state.checking;
  for (const sev of ["error", "warning", "info"]) $("count-" + sev).textContent = state.counts[sev];
  const status = $("status");
  status.classList.toggle("bad", !state.loaded || state.counts.error > 0);
  status.textContent = !state.loaded ? "the last change does not load"
    : state.checking ? "checking…"
    : state.counts.error ? `${state.counts.error} error(s)`
    : state.counts.warning ? `no errors, ${state.counts.warning} warning(s)` : "checks clean";
  document.body.dataset.version = state.version;
  applyFilters();
}

function applyFilters() {
  const section = $("filter-section").value;
  const severities = new Set([...document.querySelectorAll("input[name=severity]:checked")].map((i) => i.value));
  const only = $("only-findings").checked;
  for (const [id, sec] of sectionEls) sec.classList.toggle("filtered", !!section && id !== section);
  for (const li of document.querySelectorAll("li[data-severity]")) {
    const wrongSection = section && li.closest("aside") && li.dataset.section !== section;
    li.classList.toggle("filtered", !severities.has(li.dataset.severity) || !!wrongSection);
  }
  for (const fig of pieces.values()) {
    const shown = (fig.dataset.findings || "").split(" ").filter((s) => severities.has(s));
    fig.classList.toggle("filtered", only && shown.length === 0);
  }
  document.body.classList.toggle("trim-lines", $("trim-lines").checked);
}

$("filters").addEventListener("change", (e) => {
  if (e.target.id === "zoom" && current) render(current); else applyFilters();
});

function connect() {
  const source = new EventSource("/events");
  source.addEventListener("state", (e) => render(JSON.parse(e.data)));
  source.onerror = () => { $("status").textContent = "reconnecting…"; };
}
connect();
