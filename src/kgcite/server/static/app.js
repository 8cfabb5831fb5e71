// The ask page: question in, answer out with a chip per citation (its triple or quote on
// hover or click), [NA] sentences flagged, and the retrieved subgraph listed.
"use strict";

const tripleKey = (q, p, v) => JSON.stringify([q, p, v]);

// A citation's details open below its sentence, in the flow of the page: they push the text
// down instead of covering it, so no other citation is ever hidden.
function popover(chip, content) {
  const pop = el("span", { class: "popover", role: "tooltip" }, ...content);
  const wrap = el("span", { class: "cite" }, chip, pop);
  chip.addEventListener("click", (e) => {
    e.preventDefault();
    const open = !wrap.classList.contains("open");
    document.querySelectorAll(".cite.open").forEach((w) => {
      w.classList.remove("open");
      w.querySelector(".chip").setAttribute("aria-expanded", "false");
    });
    wrap.classList.toggle("open", open);
    chip.setAttribute("aria-expanded", String(open));
  });
  return wrap;
}

function tripleChip(n, c, labels) {
  const property = said(labels, c.property);
  const chip = el("button", { type: "button", class: "chip", "data-qid": c.qid, "aria-expanded": "false", title: `${c.subject || c.qid} · ${property} · ${c.value}` }, `${n}`);
  const entityButton = el("button", { type: "button", class: "link" }, `entity ${c.qid}`);
  entityButton.addEventListener("click", (e) => { e.stopPropagation(); showEntity(c.qid); });
  return popover(chip, [
    el("span", { class: "p-subject" }, named(c.subject, c.qid)),
    el("span", { class: "p-property" }, property),
    el("span", { class: "p-value" }, c.value),
    entityButton,
  ]);
}

function quoteChip(q) {
  const chip = el("button", { type: "button", class: "chip", "data-quote": q.index, "aria-expanded": "false", title: q.source }, `${q.index}`);
  return popover(chip, [el("span", { class: "p-source" }, q.source), el("span", { class: "p-quote" }, q.text)]);
}

function sentenceNode(s, chips) {
  const p = el("p", { class: s.na ? "sentence na" : "sentence" }, el("span", { class: "text" }, s.text));
  for (const c of chips) p.append(" ", c);
  if (s.na) p.append(" ", el("span", { class: "na-badge", title: "the knowledge graph cannot support this sentence" }, "[NA]"));
  return p;
}

function renderTriples(r) {
  const answer = document.getElementById("answer");
  const numbers = new Map();
  for (const s of r.sentences) {
    const chips = s.citations.map((c) => {
      const key = tripleKey(c.qid, c.property, c.value);
      if (!numbers.has(key)) numbers.set(key, numbers.size + 1);
      return tripleChip(numbers.get(key), c, r.property_labels);
    });
    answer.append(sentenceNode(s, chips));
  }
  if (r.retrieved.length === 0) {  // nothing retrieved (an [NA] answer, say): say so, no empty table
    document.getElementById("evidence-title").textContent = "No triples retrieved";
    return;
  }
  document.getElementById("evidence-title").textContent =
    `Retrieved subgraph (${r.retrieved_total} triples${r.retrieved_total > r.retrieved.length ? `, first ${r.retrieved.length} shown` : ""})`;
  const rows = r.retrieved.map((t) => {
    const n = numbers.get(tripleKey(t.subject_id, t.property, t.value));
    return el("tr", { class: n ? "cited" : "" }, el("td", {}, n ? `[${n}]` : ""), el("td", {}, named(t.subject, t.subject_id)), el("td", {}, said(r.property_labels, t.property)), el("td", {}, t.value));
  });
  const table = el("table", { id: "retrieved" }, el("thead", {}, el("tr", {}, el("th", {}, "cited"), el("th", {}, "subject"), el("th", {}, "property"), el("th", {}, "value"))), el("tbody", {}, ...rows));
  document.getElementById("evidence").append(table);
}

function renderQuotes(r) {
  const answer = document.getElementById("answer");
  const byIndex = new Map(r.quotes.map((q) => [q.index, q]));
  for (const s of r.sentences) answer.append(sentenceNode(s, s.quotes.filter((i) => byIndex.has(i)).map((i) => quoteChip(byIndex.get(i)))));
  document.getElementById("evidence-title").textContent = `Quotes (${r.quotes.length})`;
  const list = el("ol", { id: "quotes" }, ...r.quotes.map((q) => el("li", { value: q.index }, el("span", { class: "p-source" }, q.source), " ", el("span", {}, q.text))));
  document.getElementById("evidence").append(list);
}

async function showEntity(qid) {
  const aside = document.getElementById("entity");
  try {
    const e = await getJSON(`/entities/${encodeURIComponent(qid)}`);
    document.getElementById("entity-title").textContent = `${named(e.label, e.id)} — ${e.triples_total} triples`;
    const body = document.getElementById("entity-triples");
    body.replaceChildren(...e.triples.map((t) => el("tr", {}, el("td", {}, t.subject), el("td", {}, said(e.property_labels, t.property)), el("td", {}, t.value))));
    aside.hidden = false;
  } catch (err) {
    setStatus(String(err.message || err), true);
  }
}

async function ask(event) {
  event.preventDefault();
  const question = document.getElementById("question").value.trim();
  if (!question) return;
  const button = document.getElementById("ask");
  button.disabled = true;
  // the previous answer goes at once: it must never be read as the answer to the new question
  document.getElementById("result").hidden = true;
  document.getElementById("answer").replaceChildren();
  document.getElementById("evidence").replaceChildren();
  document.getElementById("entity").hidden = true;
  setStatus("answering…");
  const t0 = performance.now();
  try {
    const r = await getJSON("/ask", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question, mode: document.getElementById("mode").value, source: document.getElementById("source").value }),
    });
    (r.kind === "quotes" ? renderQuotes : renderTriples)(r);
    document.getElementById("result").hidden = false;
    const na = r.sentences.filter((s) => s.na).length;
    setStatus(`${r.sentences.length} sentence(s), ${na} [NA] · ${r.mode} · ${r.model} · ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (err) {
    setStatus(String(err.message || err), true);
  } finally {
    button.disabled = false;
  }
}

async function init() {
  document.getElementById("ask-form").addEventListener("submit", ask);
  document.addEventListener("click", (e) => {
    if (!e.target.closest(".cite")) document.querySelectorAll(".cite.open").forEach((w) => w.classList.remove("open"));
  });
  try {
    const h = await getJSON("/health");
    for (const o of document.querySelectorAll("#source option")) o.disabled = !h.sources.includes(o.value);
    if (h.free_uncited) {
      document.querySelector('#mode option[value="free"]').textContent = "free (uncited with the shipped model)";
      const mode = document.getElementById("mode");
      const warn = () => { document.getElementById("mode-note").hidden = mode.value !== "free"; };
      mode.addEventListener("change", warn);
      warn();
    }
  } catch (err) {
    setStatus(`server not ready: ${err.message || err}`, true);
  }
}

init();
