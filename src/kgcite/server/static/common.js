// Shared by the pages. Every string from the server (labels, values, model output) goes
// into the page through textContent or an attribute, never as HTML.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

async function getJSON(url, options) {
  const res = await fetch(url, options);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) {
    const d = body.detail;
    const msg = typeof d === "string" ? d : (d && d.msg) || JSON.stringify(d || body);
    throw new Error(`${res.status}: ${msg}`);
  }
  return body;
}

function setStatus(text, isError) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.className = isError ? "error" : "";
}

// "Tarn Junction (Q12)", but "Tarn Junction" alone where the id is the label (a TSV graph).
function named(label, id) {
  if (!label) return String(id);
  return label === id ? String(label) : `${label} (${id})`;
}

// A property as a reader says it ("designed by"), from the server's property_labels.
function said(labels, property) {
  return (labels && labels[property]) || property;
}
