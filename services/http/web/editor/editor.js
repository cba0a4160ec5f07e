// The editor's page (issue 16): pick a site and cluster, annotate the page the
// editor loop asks for by clicks in a sandboxed frame, learn, see what the
// rule extracts, its history with rollback, and the site's monitoring
// history. Talks to the server's JSON API only (POST /v1/rpc/{Service}/{Method},
// protobuf JSON with proto field names). Plain JS, no framework, no build.
//
// The frame shows GetEditorPage's HTML: rendered from the server's own tree,
// every element carrying data-vx, the XPath of the server's node. A click's
// annotation is {url, attribute, value, xpath = that data-vx}: the server
// looks for the value only inside that node, so the occurrence is the
// editor's choice; no XPath is ever computed from the browser's DOM.
"use strict";

const LEARNING = "vertex.v1.LearningService";
const MONITORING = "vertex.v1.MonitoringService";
const COLOURS = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42d4f4", "#f032e6", "#9a6324",
                 "#800000", "#469990", "#000075", "#808000", "#bfef45", "#fabed4", "#dcbeff", "#aaffc3"];
const VERDICT_COLOURS = {OK: "#3cb44b", CHANGED: "#f58231", BROKEN: "#e6194b", NO_PAGES: "#a9a9a9",
                         UNREACHABLE: "#911eb4", VERDICT_UNSPECIFIED: "#dddddd"};
const DIAGNOSTIC_WORDS = {
  learnt: "learnt",
  learnt_classifier: "learnt, with a classifier choosing among the candidates",
  ambiguous: "ambiguous: the rule selects several nodes on some pages",
  not_annotated: "not annotated yet",
  value_not_found: "value not found on the page",
  xpath_selects_nothing: "the clicked node is not on the page",
  no_recall_1_xpath: "no XPath selects every annotated value",
  classifier_below_threshold: "the classifier does not pick the annotated values",
  range_inconsistent: "inconsistent range: the value sits differently in its text from page to page",
  value_mismatch: "the rule does not reproduce an annotated value",
};
const STATE_SHORT = {LEARN_STATE_UNSPECIFIED: "to annotate", NEEDS_MORE_PAGES: "needs more pages", DONE: "done",
                     EXHAUSTED: "exhausted"};
const STATE_WORDS = {LEARN_STATE_UNSPECIFIED: "not annotated yet", NEEDS_MORE_PAGES: "needs more pages",
                     DONE: "done: the rule extracts every mandatory attribute on all sample pages",
                     EXHAUSTED: "no page left to annotate, yet the rule still fails on some"};

const $ = (id) => document.getElementById(id);
const state = {sites: [], site: null, cluster: "", page: null, annotations: [], colour: {}, lastLearn: null};

// ---- API ----

async function rpc(service, method, request) {
  const headers = {"Content-Type": "application/json"};
  const token = $("token").value.trim();
  if (token) headers.Authorization = "Bearer " + token;
  let response;
  try {
    response = await fetch(`/v1/rpc/${service}/${method}`, {method: "POST", headers, body: JSON.stringify(request)});
  } catch (e) {
    throw new Error(`${method}: the server cannot be reached (${e.message})`);
  }
  const text = await response.text();
  let body = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch (e) {
    throw new Error(`${method}: the server answered ${response.status} with something that is not JSON`);
  }
  if (!response.ok) {
    const code = body.code || `HTTP ${response.status}`;
    throw new Error(`${method} failed (${code}): ${body.message || text}`);
  }
  return body;
}

function showError(e) {
  $("error").textContent = e.message || String(e);
  $("error").hidden = false;
}

function clearError() {
  $("error").hidden = true;
  $("error").textContent = "";
}

// Runs `f`, showing its error in words.
async function guarded(f) {
  clearError();
  try {
    await f();
  } catch (e) {
    showError(e);
  }
}

// ---- small DOM helpers ----

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "colour") e.style.backgroundColor = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : String(c));
  return e;
}

function int(v) {
  return Number(v || 0);
}

function siteRecord() {
  return state.sites.find((s) => s.site === state.site);
}

function schemaAttributes() {
  const s = siteRecord();
  return s ? s.schema.attributes : [];
}

function attributeColour(name) {
  return state.colour[name] || "#000000";
}

// ---- sites and clusters ----

async function loadSites() {
  const r = await rpc(LEARNING, "ListSites", {});
  state.sites = r.sites || [];
  const select = $("site");
  select.replaceChildren(el("option", {value: ""}, state.sites.length ? "(pick a site)" : "(no site registered)"));
  for (const s of state.sites) select.append(el("option", {value: s.site}, s.site));
  const body = $("sites").tBodies[0];
  body.replaceChildren();
  for (const s of state.sites) {
    const pick = el("a", {href: "#", onclick: (e) => { e.preventDefault(); pickSite(s.site); }}, s.site);
    body.append(el("tr", {}, el("td", {}, pick), el("td", {}, s.schema.vertical || ""),
                   el("td", {}, s.schema.attributes.map((a) => a.name).join(", ")), el("td", {}, s.sample_pages),
                   el("td", {}, (s.clusters || []).length), el("td", {}, s.done_clusters),
                   el("td", {}, s.open_clusters)));
  }
  if (state.site) select.value = state.site;
}

async function pickSite(site) {
  state.site = site || null;
  $("site").value = site || "";
  $("sites-panel").hidden = !!site;
  document.body.classList.toggle("no-site", !site);
  state.colour = {};
  schemaAttributes().forEach((a, i) => { state.colour[a.name] = COLOURS[i % COLOURS.length]; });
  renderLegend();
  if (!site) return;
  await loadClusters();
  await refreshTab();
}

async function loadClusters(keep) {
  await loadSites();
  const s = siteRecord();
  const select = $("cluster");
  select.replaceChildren();
  for (const c of s.clusters || []) {
    const label = `${c.cluster_id}: ${c.pages} pages, ${STATE_SHORT[c.state] || c.state}` +
                  (int(c.current_version) ? `, rule v${c.current_version}` : "");
    select.append(el("option", {value: c.cluster_id}, label));
  }
  const open = (s.clusters || []).find((c) => c.state !== "DONE");
  const chosen = keep && (s.clusters || []).some((c) => c.cluster_id === keep) ? keep : open ? open.cluster_id :
                 s.clusters && s.clusters.length ? s.clusters[0].cluster_id : "";
  select.value = chosen;
  state.cluster = chosen;
}

// ---- the page to annotate ----

// Where the cluster stands in the editor loop (shown), with its next task.
async function clusterProgress() {
  const r = await rpc(LEARNING, "GetAnnotationTasks", {site: state.site, cluster_id: state.cluster, max_pages: 1});
  const progress = (r.clusters || []).find((c) => c.cluster.cluster_id === state.cluster);
  const c = progress ? progress.cluster : null;
  $("cluster-info").textContent = c ? `${c.pages} sample pages (+${c.attached_pages} attached); ` +
      `${(progress.annotated_urls || []).length} annotated; ${STATE_WORDS[c.state] || c.state}` : "";
  return progress;
}

async function nextPage() {
  if (!state.site || !state.cluster) return;
  const progress = await clusterProgress();
  const c = progress ? progress.cluster : null;
  let url = progress && progress.next && progress.next.url;
  $("task-reason").textContent = progress && progress.next ? "Why this page: " + progress.next.reason : "";
  if (!url) {
    // DONE (or exhausted): show the first annotated page, else the first page.
    url = progress && (progress.annotated_urls || [])[0];
    $("task-reason").textContent = c && c.state === "DONE" ? "This cluster is done; nothing left to annotate." : "";
  }
  if (url) await showPage(url);
}

async function showPage(url) {
  const r = await rpc(LEARNING, "GetEditorPage", {site: state.site, url});
  state.page = r;
  state.annotations = (r.annotations || []).map((a) => ({attribute: a.attribute, values: a.values || [],
                                                         xpath: a.xpath || "", absent: !!a.absent, stored: true}));
  $("page-info").textContent = `${url} (${r.how}${r.cluster_id ? " of " + r.cluster_id : ""}; ` +
                                `${r.elements} elements, ${r.page_builder} tree)`;
  const frame = $("frame");
  await new Promise((resolve) => {
    frame.addEventListener("load", resolve, {once: true});
    frame.srcdoc = r.html;
  });
  attachFrame(frame.contentDocument);
  renderAnnotations();
  renderHighlights();
  renderPreview(r.preview || [], r.record);
}

function frameElement(xpath) {
  const doc = $("frame").contentDocument;
  return doc ? doc.querySelector(`[data-vx="${CSS.escape(xpath)}"]`) : null;
}

// The text a reader sees in `node`: its text nodes, a space where <br> and
// block elements break it (as the server's rendered text), normalised.
function renderedText(node) {
  const parts = [];
  const walk = (n) => {
    if (n.nodeType === Node.TEXT_NODE) {
      parts.push(n.data);
      return;
    }
    if (n.nodeType !== Node.ELEMENT_NODE) return;
    const tag = n.tagName.toLowerCase();
    if (["script", "style", "noscript", "template", "head", "title"].includes(tag)) return;
    const block = tag === "br" || getComputedStyle(n).display !== "inline";
    if (block) parts.push(" ");
    for (const c of n.childNodes) walk(c);
    if (block) parts.push(" ");
  };
  walk(node);
  return normalise(parts.join(""));
}

function normalise(s) {
  return s.replace(/\s+/g, " ").trim();
}

function resolved(value) {
  try {
    return new URL(value, state.page.base_url).href;
  } catch (e) {
    return value;
  }
}

// The values a click on `target` may mean: an image's src, a link's href,
// the element's text.
function candidates(target) {
  const out = [];
  const img = target.closest("img");
  if (img && img.getAttribute("src")) out.push({label: "image", value: resolved(img.getAttribute("src")), node: img});
  const text = renderedText(target);
  if (text) out.push({label: "text", value: text, node: target});
  const link = target.closest("a[href]");
  if (link) out.push({label: "link", value: resolved(link.getAttribute("href")), node: link});
  if (img && img.getAttribute("alt")) out.push({label: "image alt", value: img.getAttribute("alt"), node: img});
  return out;
}

function withXPath(node) {
  const e = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
  return e ? e.closest("[data-vx]") : null;
}

function attachFrame(doc) {
  if (!doc) return;
  const stop = (e) => { e.preventDefault(); e.stopPropagation(); };
  doc.addEventListener("submit", stop, true);
  doc.addEventListener("click", (e) => {
    stop(e);
    const sel = doc.getSelection();
    if (sel && !sel.isCollapsed && normalise(sel.toString())) return;  // handled on mouseup
    const target = withXPath(e.target);
    if (target) openPopover(e, candidates(target));
  }, true);
  doc.addEventListener("mouseup", (e) => {
    const sel = doc.getSelection();
    if (!sel || sel.isCollapsed) return;
    const value = normalise(sel.toString());
    const holder = withXPath(sel.getRangeAt(0).commonAncestorContainer);
    if (value && holder) openPopover(e, [{label: "selected text", value, node: holder}]);
  }, true);
}

function openPopover(event, options) {
  if (!options.length || !state.page) return;
  const pop = $("popover");
  const values = $("pop-values");
  values.replaceChildren();
  options.forEach((o, i) => {
    const id = "pop-value-" + i;
    values.append(el("label", {for: id, class: "pop-value"},
                     el("input", {type: "radio", name: "pop-value", id, value: String(i)}),
                     ` ${o.label}: `, el("span", {class: "value"}, o.value)));
  });
  values.querySelector("input").checked = true;
  const attributes = $("pop-attributes");
  attributes.replaceChildren();
  for (const a of schemaAttributes()) {
    const button = el("button", {class: "attribute", "data-attribute": a.name, onclick: () => {
      const i = Number(values.querySelector("input:checked").value);
      pop.hidden = true;
      addAnnotation(a, options[i]);
    }}, el("span", {class: "swatch", colour: attributeColour(a.name)}), a.name);
    attributes.append(button);
  }
  const frame = $("frame").getBoundingClientRect();
  const work = $("annotate").getBoundingClientRect();
  pop.style.left = `${Math.max(0, frame.left - work.left + event.clientX + 8)}px`;
  pop.style.top = `${Math.max(0, frame.top - work.top + event.clientY + 8)}px`;
  pop.hidden = false;
}

// The XPath of the deepest element holding both data-vx paths.
function commonXPath(a, b) {
  const x = a.split("/");
  const y = b.split("/");
  let n = 0;
  while (n < x.length && n < y.length && x[n] === y[n]) n++;
  return x.slice(0, n).join("/") || "/html[1]";
}

function addAnnotation(attribute, option) {
  const xpath = option.node.getAttribute("data-vx");
  const existing = state.annotations.find((a) => a.attribute === attribute.name);
  if (existing && attribute.multi_valued && !existing.absent && !existing.values.includes(option.value)) {
    existing.values.push(option.value);
    existing.marks = (existing.marks || [existing.xpath]).concat([xpath]);
    existing.xpath = existing.xpath ? commonXPath(existing.xpath, xpath) : xpath;
    existing.stored = false;
  } else {
    state.annotations = state.annotations.filter((a) => a.attribute !== attribute.name);
    state.annotations.push({attribute: attribute.name, values: [option.value], xpath, marks: [xpath], absent: false,
                            stored: false});
  }
  renderAnnotations();
  renderHighlights();
}

function renderAnnotations() {
  const body = $("annotations").tBodies[0];
  body.replaceChildren();
  for (const a of schemaAttributes()) {
    const ann = state.annotations.find((x) => x.attribute === a.name);
    const what = !ann ? el("span", {class: "none"}, "(not annotated)") :
                 ann.absent ? el("span", {class: "none"}, "absent from this page") :
                 el("span", {class: "value"}, ann.values.join(" | "));
    const remove = el("button", {class: "small", title: "forget", onclick: () => {
      state.annotations = state.annotations.filter((x) => x.attribute !== a.name);
      renderAnnotations();
      renderHighlights();
    }}, "×");
    const absent = el("button", {class: "small", title: "the attribute is not on this page", onclick: () => {
      state.annotations = state.annotations.filter((x) => x.attribute !== a.name);
      state.annotations.push({attribute: a.name, values: [], xpath: "", absent: true, stored: false});
      renderAnnotations();
      renderHighlights();
    }}, "absent");
    body.append(el("tr", {"data-attribute": a.name},
                   el("td", {}, el("span", {class: "swatch", colour: attributeColour(a.name)}),
                      a.name + (a.mandatory ? " *" : "")),
                   el("td", {}, what), el("td", {}, ann ? remove : absent)));
  }
}

function renderLegend() {
  const legend = $("legend");
  legend.replaceChildren("Outlined: what the current rule extracts (solid, tinted) and your annotations (dashed). ");
  for (const a of schemaAttributes()) {
    legend.append(el("span", {class: "legend-item"}, el("span", {class: "swatch", colour: attributeColour(a.name)}),
                     a.name));
  }
}

// Outlines, in each attribute's colour, what the rule extracts on the page
// (solid) and what the editor annotated (dashed). CSSOM only: the app's CSP
// forbids style attributes in markup, not styles set by script.
function renderHighlights() {
  const doc = $("frame").contentDocument;
  if (!doc || !state.page) return;
  for (const e of doc.querySelectorAll("[data-vx-mark]")) {
    e.style.outline = "";
    e.style.outlineOffset = "";
    e.style.backgroundColor = "";
    e.removeAttribute("data-vx-mark");
  }
  const mark = (xpath, colour, kind) => {
    const e = xpath && frameElement(xpath);
    if (!e || e.getAttribute("data-vx-mark") === "extracted") return;  // the rule's mark wins
    e.style.outline = `3px ${kind === "extracted" ? "solid" : "dashed"} ${colour}`;
    e.style.outlineOffset = kind === "extracted" ? "1px" : "3px";
    e.style.backgroundColor = kind === "extracted" ? colour + "33" : "";
    e.setAttribute("data-vx-mark", kind);
  };
  for (const n of state.page.nodes || []) mark(n.element_xpath, attributeColour(n.attribute), "extracted");
  for (const a of state.annotations) {
    // The clicked elements (a list's values are sent with the XPath of the
    // element holding them all, but each is outlined).
    if (!a.absent) for (const x of a.marks || [a.xpath]) mark(x, attributeColour(a.attribute), "annotated");
  }
}

function renderPreview(records, own) {
  const attrs = schemaAttributes();
  const head = $("preview").tHead;
  head.replaceChildren(el("tr", {}, el("th", {}, "Page"), el("th", {}, "Status"),
                          ...attrs.map((a) => el("th", {}, el("span", {class: "swatch", colour: attributeColour(a.name)}),
                                                 a.name))));
  const body = $("preview").tBodies[0];
  body.replaceChildren();
  if (!records.length) {
    body.append(el("tr", {}, el("td", {colspan: String(attrs.length + 2), class: "none"},
                               int(state.page && state.page.rule_version) ? "no other sample page" :
                               "no rule yet: annotate this page and press Learn")));
    return;
  }
  for (const r of records) {
    const cells = attrs.map((a) => {
      const x = (r.attributes || []).find((v) => v.attribute === a.name);
      const values = x ? x.values || [] : [];
      const missing = (r.missing_mandatory || []).includes(a.name);
      return el("td", {class: missing ? "missing" : ""}, values.length ? values.join(" | ") : missing ? "missing" : "");
    });
    const link = el("a", {href: "#", onclick: (e) => { e.preventDefault(); guarded(() => showPage(r.url)); }},
                    r.url.replace(/^https?:\/\/[^/]+/, ""));
    body.append(el("tr", {}, el("td", {}, link), el("td", {}, r.status), ...cells));
  }
}

// ---- learning ----

function learnRequest() {
  const annotations = [];
  for (const a of state.annotations) {
    const out = {url: state.page.url, attribute: a.attribute};
    if (a.absent) out.absent = true;
    else {
      out.values = a.values;
      if (a.xpath) out.xpath = a.xpath;
    }
    annotations.push(out);
  }
  return {site: state.site, cluster_id: state.page.cluster_id, annotations};
}

async function learn() {
  if (!state.page) throw new Error("no page shown: pick a site and a cluster");
  if (!state.annotations.length) throw new Error("annotate at least one value on this page first");
  if (!state.page.cluster_id) throw new Error("this page is in no cluster");
  $("learn").disabled = true;
  $("state").className = "";
  $("state").textContent = "Learning…";
  $("diagnostics").replaceChildren();
  try {
    const r = await rpc(LEARNING, "Learn", learnRequest());
    state.lastLearn = r;
    const url = state.page.url;
    await loadClusters(state.cluster);
    await clusterProgress();
    await showPage(url);
    if ((r.preview || []).length) renderPreview(r.preview, null);
    renderDiagnostics(r);  // last: "Version ..." says the call is over
  } catch (e) {
    $("state").textContent = "";
    throw e;
  } finally {
    $("learn").disabled = false;
  }
}

function renderDiagnostics(r) {
  const list = $("diagnostics");
  list.replaceChildren();
  if (r.refused) {
    list.append(el("li", {class: "bad"}, "Not stored: " + r.refused_reason));
  }
  for (const d of r.diagnostics || []) {
    const words = DIAGNOSTIC_WORDS[d.code] || d.code;
    const item = el("li", {class: d.learnt && d.code !== "ambiguous" ? "good" : d.code === "not_annotated" ? "" : "bad"},
                    el("span", {class: "swatch", colour: attributeColour(d.attribute)}),
                    el("b", {}, d.attribute), `: ${words}`);
    if (d.message) item.append(el("div", {class: "detail"}, d.message));
    if ((d.pages || []).length) item.append(el("div", {class: "detail"}, "pages: " + d.pages.join(", ")));
    list.append(item);
  }
  for (const f of r.failing || []) {
    list.append(el("li", {class: "bad"}, el("b", {}, f.attribute),
                   `: fails on ${f.pages} of ${r.pages_checked} sample pages`,
                   el("div", {class: "detail"}, (f.problems || []).slice(0, 3).join("; "))));
  }
  for (const t of r.transferred || []) {
    list.append(el("li", {class: "good"}, `cluster ${t.cluster_id} took this rule: ${t.reason}`));
  }
  const words = STATE_WORDS[r.state] || r.state;
  $("state").className = r.state === "DONE" ? "done" : "";
  $("state").textContent = `Version ${int(r.version) || "(none stored)"}: ${words}.` +
      (r.state !== "DONE" && (r.next || []).length ? " Press Next page." : "");
}

// ---- rule history ----

async function loadRules() {
  const r = await rpc(LEARNING, "ListRules", {site: state.site});
  const body = $("rule-clusters").tBodies[0];
  body.replaceChildren();
  for (const c of r.clusters || []) {
    const versions = el("td", {});
    for (const v of c.versions || []) {
      const current = int(v) === int(c.cluster.current_version);
      versions.append(el("button", {class: "version" + (current ? " current" : ""),
                                    onclick: () => guarded(() => showRule(c.cluster, int(v)))}, `v${v}`));
    }
    body.append(el("tr", {}, el("td", {}, c.cluster.cluster_id), el("td", {}, c.cluster.pages),
                   el("td", {}, STATE_SHORT[c.cluster.state] || c.cluster.state),
                   el("td", {}, int(c.cluster.current_version) ? `v${c.cluster.current_version}` : "none"), versions));
  }
  $("rule-detail").replaceChildren();
}

async function showRule(cluster, version) {
  const r = await rpc(LEARNING, "GetRule", {site: state.site, cluster_id: cluster.cluster_id, version: String(version)});
  const rule = r.rule;
  const current = version === int(cluster.current_version);
  const rows = (rule.attributes || []).map((a) => el("tr", {},
      el("td", {}, el("span", {class: "swatch", colour: attributeColour(a.attribute)}), a.attribute),
      el("td", {}, a.method), el("td", {class: "xpath"}, a.xpath),
      el("td", {}, a.value_attribute ? "@" + a.value_attribute : a.range ? "a part of the text" : "")));
  const rollback = el("button", {class: "primary", id: "rollback", onclick: () => guarded(async () => {
    await rpc(LEARNING, "RollbackRule", {site: state.site, cluster_id: cluster.cluster_id, version: String(version)});
    await loadClusters(state.cluster);
    await loadRules();
    $("rule-detail").prepend(el("p", {class: "done"}, `v${version} of ${cluster.cluster_id} is current again.`));
  })}, `Make v${version} current`);
  $("rule-detail").replaceChildren(
      el("h3", {}, `${cluster.cluster_id} v${version}` + (current ? " (current)" : "")),
      el("table", {class: "rule"}, el("thead", {}, el("tr", {}, el("th", {}, "Attribute"), el("th", {}, "Method"),
                                                     el("th", {}, "XPath"), el("th", {}, "Value"))),
         el("tbody", {}, ...rows)),
      current ? el("p", {}, "This version is in force.") : rollback);
}

// ---- monitor history ----

async function loadMonitor() {
  const r = await rpc(MONITORING, "GetHistory", {site: state.site});
  const runs = (r.runs || []).slice().sort((a, b) => int(a.started_unix_ms) - int(b.started_unix_ms));
  $("monitor-info").textContent = runs.length ? `${runs.length} monitoring runs; per run, the clusters by verdict.` :
                                                "No monitoring run recorded for this site yet.";
  $("chart").replaceChildren(verdictChart(runs));
  const body = $("runs").tBodies[0];
  body.replaceChildren();
  for (const run of runs.slice().reverse()) {
    const why = (run.clusters || []).filter((c) => c.verdict !== "OK").map((c) => `${c.cluster_id}: ${c.reason}`);
    body.append(el("tr", {}, el("td", {}, new Date(int(run.started_unix_ms)).toISOString().replace("T", " ").slice(0, 19)),
                   el("td", {class: "verdict-" + run.verdict}, run.verdict), el("td", {}, (run.clusters || []).length),
                   el("td", {}, why.join("; "))));
  }
}

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

// Stacked bars: one per run (oldest left), the run's clusters by verdict.
function verdictChart(runs) {
  const width = 760, height = 260, left = 40, bottom = 40, top = 20;
  const chart = svg("svg", {width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
                            "aria-label": "monitor verdicts over time"});
  const max = Math.max(1, ...runs.map((r) => (r.clusters || []).length));
  const plot = height - bottom - top;
  chart.append(svg("line", {x1: left, y1: top, x2: left, y2: top + plot, stroke: "#333"}));
  chart.append(svg("line", {x1: left, y1: top + plot, x2: width - 10, y2: top + plot, stroke: "#333"}));
  chart.append(svg("text", {x: left - 6, y: top + 4, "text-anchor": "end", "font-size": 11}, String(max)));
  chart.append(svg("text", {x: left - 6, y: top + plot, "text-anchor": "end", "font-size": 11}, "0"));
  const step = runs.length ? (width - left - 20) / runs.length : 0;
  runs.forEach((run, i) => {
    const counts = {};
    for (const c of run.clusters || []) counts[c.verdict] = (counts[c.verdict] || 0) + 1;
    let y = top + plot;
    for (const verdict of Object.keys(VERDICT_COLOURS)) {
      const n = counts[verdict] || 0;
      if (!n) continue;
      const h = (n / max) * plot;
      y -= h;
      const bar = svg("rect", {x: left + i * step + step * 0.15, y, width: Math.max(2, step * 0.7), height: h,
                               fill: VERDICT_COLOURS[verdict], "data-verdict": verdict});
      bar.append(svg("title", {}, `${verdict}: ${n}`));
      chart.append(bar);
    }
    const label = new Date(int(run.started_unix_ms)).toISOString().slice(11, 19);
    chart.append(svg("text", {x: left + i * step + step / 2, y: top + plot + 14, "text-anchor": "middle",
                              "font-size": 10}, label));
  });
  let x = left;
  for (const [verdict, colour] of Object.entries(VERDICT_COLOURS)) {
    if (verdict === "VERDICT_UNSPECIFIED") continue;
    chart.append(svg("rect", {x, y: height - 14, width: 10, height: 10, fill: colour}));
    chart.append(svg("text", {x: x + 14, y: height - 5, "font-size": 11}, verdict));
    x += 110;
  }
  return chart;
}

// ---- tabs and start ----

function currentTab() {
  return document.querySelector("#tabs button.active").dataset.tab;
}

async function refreshTab() {
  if (!state.site) return;
  const tab = currentTab();
  if (tab === "annotate") await nextPage();
  else if (tab === "rules") await loadRules();
  else await loadMonitor();
}

function start() {
  $("token").value = sessionStorage.getItem("vertex-token") || "";
  $("token").addEventListener("change", () => sessionStorage.setItem("vertex-token", $("token").value));
  $("site").addEventListener("change", () => guarded(() => pickSite($("site").value)));
  $("cluster").addEventListener("change", () => guarded(async () => {
    state.cluster = $("cluster").value;
    $("diagnostics").replaceChildren();
    $("state").textContent = "";
    await nextPage();
  }));
  $("learn").addEventListener("click", () => guarded(learn));
  $("next").addEventListener("click", () => guarded(async () => {
    $("diagnostics").replaceChildren();
    await nextPage();
  }));
  $("pop-cancel").addEventListener("click", () => { $("popover").hidden = true; });
  for (const b of document.querySelectorAll("#tabs button")) {
    b.addEventListener("click", () => guarded(async () => {
      for (const o of document.querySelectorAll("#tabs button")) o.classList.toggle("active", o === b);
      for (const t of document.querySelectorAll("main.tab")) t.hidden = t.id !== b.dataset.tab;
      await refreshTab();
    }));
  }
  guarded(async () => {
    await loadSites();
    const wanted = new URLSearchParams(location.search).get("site");
    if (wanted) await pickSite(wanted);
  });
}

document.addEventListener("DOMContentLoaded", start);
