// The report page: a report.md rendered block by block (headings, tables, code, images,
// paragraphs), every cell and line as text; the PNG plots come from the report's folder.
"use strict";

function cells(line) {
  return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((c) => c.trim().replace(/^`(.*)`$/, "$1"));
}

// `code` spans become <code> elements; everything else stays a text node
function inline(text) {
  return text.split("`").map((part, i) => (i % 2 ? el("code", {}, part) : part)).filter((x) => x !== "");
}

function renderMarkdown(md, name) {
  const out = [];
  const lines = md.split("\n");
  const imageURL = (file) => `/reports/${name.split("/").map(encodeURIComponent).join("/")}/files/${encodeURIComponent(file)}`;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith("```")) {
      const code = [];
      for (i++; i < lines.length && !lines[i].startsWith("```"); i++) code.push(lines[i]);
      out.push(el("pre", {}, code.join("\n")));
    } else if (/^#{1,6} /.test(line)) {
      const level = Math.min(6, line.indexOf(" ") + 1);
      out.push(el(`h${level}`, {}, ...inline(line.replace(/^#+ /, ""))));
    } else if (line.trim().startsWith("|")) {
      const rows = [];
      for (; i < lines.length && lines[i].trim().startsWith("|"); i++) rows.push(lines[i]);
      i--;
      const body = rows.filter((r) => !/^\s*\|[\s:|-]+\|\s*$/.test(r));
      const [head, ...rest] = body;
      out.push(el("table", {}, el("thead", {}, el("tr", {}, ...cells(head).map((c) => el("th", {}, c)))),
        el("tbody", {}, ...rest.map((r) => el("tr", {}, ...cells(r).map((c) => el("td", {}, c)))))));
    } else {
      const img = line.match(/^!\[([^\]]*)\]\(([^)]+)\)\s*$/);
      if (img) {
        const file = img[2].split("/").pop();
        out.push(el("figure", {}, el("img", { src: imageURL(file), alt: img[1] }), el("figcaption", {}, img[1])));
      } else if (line.trim()) {
        out.push(el("p", {}, ...inline(line)));
      }
    }
  }
  return out;
}

async function show(name) {
  const article = document.getElementById("report");
  setStatus(`loading ${name}…`);
  try {
    const r = await getJSON(`/reports/${name.split("/").map(encodeURIComponent).join("/")}`);
    const blocks = renderMarkdown(r.markdown, r.name);
    const shown = new Set(blocks.filter((b) => b.tagName === "FIGURE").map((f) => f.querySelector("img").getAttribute("src").split("/").pop()));
    for (const png of r.images) {
      if (!shown.has(encodeURIComponent(png))) blocks.push(el("figure", {}, el("img", { src: `/reports/${r.name.split("/").map(encodeURIComponent).join("/")}/files/${encodeURIComponent(png)}`, alt: png }), el("figcaption", {}, png)));
    }
    article.replaceChildren(...blocks);
    setStatus("");
    history.replaceState(null, "", `/report?name=${encodeURIComponent(name)}`);
  } catch (err) {
    setStatus(String(err.message || err), true);
  }
}

async function init() {
  const list = document.getElementById("report-list");
  try {
    const { reports } = await getJSON("/reports");
    if (!reports.length) { setStatus("no reports in this server's --reports folder", true); return; }
    list.replaceChildren(...reports.map((n) => el("option", { value: n }, n)));
    const wanted = new URLSearchParams(location.search).get("name");
    list.value = reports.includes(wanted) ? wanted : reports[0];
    list.addEventListener("change", () => show(list.value));
    await show(list.value);
  } catch (err) {
    setStatus(String(err.message || err), true);
  }
}

init();
