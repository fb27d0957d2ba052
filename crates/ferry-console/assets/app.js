// FerryMQ console: a page over the HTTP/JSON admin API (/api/v1, docs/console.md).
// No framework and no build step: views are functions that fetch and render into #view; the
// live ones refresh every few seconds. Every value shown passes through esc().
"use strict";

const API = "/api/v1";
const REFRESH_MS = 2000;
let timer = null;
let me = null;

function esc(v) {
  return String(v ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.reason ? `${e.text} (${e.name} ${e.reason})` : e.text || `HTTP ${status}`);
    this.status = status;
    this.reason = e.reason;
  }
}

async function api(path, opts = {}) {
  const init = { method: opts.method || "GET", headers: {}, credentials: "same-origin" };
  if (init.method !== "GET") init.headers["X-Ferry-Request"] = "console";
  if (opts.body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(opts.body);
  }
  const res = await fetch(API + path, init);
  const body = await res.json().catch(() => null);
  if (res.status === 401 && path !== "/login") {
    showLogin();
    throw new ApiError(res.status, body);
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

function notice(text, ok = false) {
  const n = $("#notice");
  n.textContent = text;
  n.className = ok ? "ok" : "";
  n.hidden = !text;
}

function fmtNum(n) {
  if (n === null || n === undefined) return "";
  return typeof n === "number" ? n.toLocaleString("en-US", { maximumFractionDigits: 1 }) : String(n);
}

function fmtSecs(s) {
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
  return d ? `${d}d ${h}h` : h ? `${h}h ${m}m` : `${m}m ${s % 60}s`;
}

function fmtBytes(b) {
  if (b === null || b === undefined) return "";
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let i = 0;
  while (b >= 1024 && i < units.length - 1) { b /= 1024; i++; }
  return `${b.toFixed(i ? 1 : 0)} ${units[i]}`;
}

// A line chart of one or two series (values oldest first) as SVG, with its largest value.
function chart(series, label) {
  const w = 600, h = 160, pad = 28;
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const n = Math.max(2, ...series.map((s) => s.values.length));
  const x = (i) => pad + (i * (w - pad - 4)) / (n - 1);
  const y = (v) => h - 16 - (v * (h - 26)) / max;
  const lines = series.map((s, k) => {
    const pts = s.values.map((v, i) => `${x(i + n - s.values.length).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    return `<polyline fill="none" stroke="${k ? "#d9480f" : "#0b63c5"}" stroke-width="1.6" points="${pts}"/>`;
  });
  const legend = series.map((s, k) => `<span><span class="sw${k + 1}"></span>${esc(s.name)}</span>`).join("");
  return `<div class="legend">${legend}<span class="muted">${esc(label)}</span></div>
    <svg class="chart" viewBox="0 0 ${w} ${h}" preserveAspectRatio="none" role="img" aria-label="${esc(series.map((s) => s.name).join(", "))}">
      <line class="axis" x1="${pad}" y1="${h - 16}" x2="${w}" y2="${h - 16}"/>
      <line class="axis" x1="${pad}" y1="6" x2="${pad}" y2="${h - 16}"/>
      <text x="2" y="14">${esc(fmtNum(max))}</text><text x="2" y="${h - 18}">0</text>
      ${lines.join("")}
    </svg>`;
}

function fullBar(pct) {
  const cls = pct >= 100 ? "full" : pct >= 80 ? "high" : "";
  return `<div class="bar ${cls}" title="${esc(fmtNum(pct))}% of MAXDEPTH"><span data-pct="${Math.min(100, pct)}"></span></div>`;
}

// Widths are set here, not in markup: the page's content security policy allows no inline styles.
function sizeBars(root) {
  $$("[data-pct]", root).forEach((el) => { el.style.width = `${el.dataset.pct}%`; });
}

function live(fn) {
  clearInterval(timer);
  timer = setInterval(() => fn().catch((e) => notice(e.message)), REFRESH_MS);
}

// An attribute table whose settable rows are inputs (choices as a select); `save` gets the
// changed attributes. The change names the version the page read, so a newer change made
// meanwhile is refused rather than overwritten.
function attrForm(form, obj, path) {
  const render = () => {
    const settable = new Map((obj.settable || []).map((s) => [s.name, s.values]));
    $("table", form).innerHTML = Object.entries(obj.attributes || {}).map(([k, v]) => {
      if (!settable.has(k)) return `<tr><td>${esc(k)}</td><td>${esc(v === true ? "yes" : v)}</td></tr>`;
      const vals = settable.get(k);
      const input = vals.length
        ? `<select name="${esc(k)}">${vals.map((x) => `<option ${x === v ? "selected" : ""}>${esc(x)}</option>`).join("")}</select>`
        : `<input name="${esc(k)}" value="${esc(v)}">`;
      return `<tr><td>${esc(k)}</td><td>${input}</td></tr>`;
    }).join("");
    $(".save", form).hidden = !settable.size;
    $(".version", form).textContent = settable.size ? `version ${obj.version}` : "";
  };
  render();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const changed = {};
    $$("[name]", form).forEach((el) => { if (String(obj.attributes[el.name]) !== el.value) changed[el.name] = el.value; });
    if (!Object.keys(changed).length) return notice("Nothing was changed.", true);
    try {
      const r = await api(path, { method: "PATCH", body: { version: obj.version, attributes: changed } });
      obj.attributes = r.attributes;
      obj.version = r.version;
      render();
      notice(`Saved: ${Object.keys(changed).join(", ")}.`, true);
    } catch (e) { notice(e.message); }
  });
}

const ATTR_FORM = `<table class="attrs"></table>
  <div class="toolbar"><button class="primary save" type="submit">Save changes</button><span class="muted version"></span></div>`;

// ---- login ----

function showLogin() {
  clearInterval(timer);
  $("#top").hidden = true;
  const view = $("#view");
  view.replaceChildren($("#login-form").content.cloneNode(true));
  $("#login").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    try {
      me = await api("/login", { method: "POST", body: { user: f.user.value, password: f.password.value } });
      start();
    } catch (e) {
      const err = $("#login-error");
      err.textContent = e.message;
      err.hidden = false;
    }
  });
}

async function start() {
  try {
    me = await api("/whoami");
  } catch (e) {
    return;
  }
  $("#top").hidden = false;
  $("#qmgr-name").textContent = me.qmgr;
  $("#user-name").textContent = me.user;
  document.title = `${me.qmgr} · FerryMQ console`;
  route();
}

// ---- overview ----

// The MQTT listeners: clients now, and PUBLISH packets a second each way since the last refresh.
function mqttPanel(listeners, prev, now) {
  if (!listeners.length) return `<p class="muted" data-test="mqtt">No MQTT clients have connected (or the MQTT service is off).</p>`;
  const rate = (l, key) => {
    const p = prev.rows.find((x) => x.channel === l.channel);
    const secs = (now - prev.at) / 1000;
    return p && secs > 0 ? fmtNum(Math.round((l[key] - p[key]) / secs)) : "–";
  };
  const rows = listeners.map((l) => `<tr data-mqtt="${esc(l.channel)}"><td>${esc(l.channel)}</td><td class="num">${esc(fmtNum(l.clients))}</td><td class="num">${esc(fmtNum(l.connects))}</td><td class="num">${esc(rate(l, "msgs_received"))}</td><td class="num">${esc(rate(l, "msgs_sent"))}</td></tr>`).join("");
  return `<table data-test="mqtt"><tr><th>Listener</th><th class="num">Clients</th><th class="num">Connects</th><th class="num">In/s</th><th class="num">Out/s</th></tr>${rows}</table>`;
}

async function overview() {
  const view = $("#view");
  let prevMqtt = { rows: [], at: 0 };
  const render = async () => {
    const o = await api("/qmgr");
    const rates = o.rates || [];
    const now = Date.now();
    const mqtt = mqttPanel(o.mqtt || [], prevMqtt, now);
    prevMqtt = { rows: o.mqtt || [], at: now };
    const cards = [
      ["Status", o.status], ["Up", fmtSecs(o.uptime_secs)], ["Connections", o.connections],
      ["Queues", o.queues], ["Messages", fmtNum(rates.length ? rates[rates.length - 1].depth : 0)],
      ["Log extents", o.log ? o.log.extents : "none"], ["Log disk free", o.log ? fmtBytes(o.log.disk_free) : ""],
      ["Memory", `${fmtBytes(o.memory.used)} of ${fmtBytes(o.memory.limit)}`],
    ];
    const alerts = o.alerts.length
      ? `<ul class="alerts" data-test="alerts">${o.alerts.map((a) => `<li class="level-${esc(a.level)}"><b>${esc(a.kind)}</b>: ${esc(a.text)}</li>`).join("")}</ul>`
      : `<p class="muted" data-test="alerts">No alerts.</p>`;
    const qtable = (rows, col, label) => rows.length
      ? `<table><tr><th>Queue</th><th class="num">${label}</th></tr>${rows.map((q) => `<tr class="clickable" data-queue="${esc(q.name)}"><td>${esc(q.name)}</td><td class="num">${esc(fmtNum(q[col]))}</td></tr>`).join("")}</table>`
      : `<p class="muted">None.</p>`;
    const chans = o.channels_not_running.length
      ? `<table><tr><th>Channel</th><th>Status</th></tr>${o.channels_not_running.map((c) => `<tr><td>${esc(c.CHANNEL)}</td><td class="status-${esc(c.STATUS)}">${esc(c.STATUS)}</td></tr>`).join("")}</table>`
      : `<p class="muted">All channels running (or none started).</p>`;
    view.innerHTML = `<h1>Queue manager ${esc(o.qmgr)}</h1>
      <div class="cards">${cards.map(([l, v]) => `<div class="card"><div class="label">${esc(l)}</div><div class="value">${esc(v)}</div></div>`).join("")}</div>
      <div class="grid2">
        <div class="panel"><h2>Messages in and out</h2>${chart([{ name: "put/s", values: rates.map((r) => r.puts_per_sec) }, { name: "got/s", values: rates.map((r) => r.gets_per_sec) }], `last ${fmtSecs(Math.round(rates.length * o.sample_secs))}`)}</div>
        <div class="panel"><h2>Messages held</h2>${chart([{ name: "depth", values: rates.map((r) => r.depth) }], "all local queues")}</div>
        <div class="panel"><h2>Alerts</h2>${alerts}</div>
        <div class="panel"><h2>Channels not running</h2>${chans}</div>
        <div class="panel"><h2>MQTT</h2>${mqtt}</div>
        <div class="panel"><h2>Deepest queues</h2>${qtable(o.deepest, "depth", "Depth")}</div>
        <div class="panel"><h2>Fastest growing (last minute)</h2>${qtable(o.growing, "growth", "Growth")}</div>
      </div>`;
    $$("[data-queue]", view).forEach((tr) => tr.addEventListener("click", () => { location.hash = `#/queue/${encodeURIComponent(tr.dataset.queue)}`; }));
  };
  await render();
  live(render);
}

// ---- queues ----

const queueState = { name: "", type: "", system: false, sort: "name", desc: false, page: 0, size: 50 };

async function queues() {
  const view = $("#view");
  view.innerHTML = `<h1>Queues</h1>
    <div class="toolbar">
      <input id="q-filter" placeholder="Filter by name (APP* for a prefix)" value="${esc(queueState.name)}">
      <select id="q-type">${["", "QLOCAL", "QALIAS", "QREMOTE", "QMODEL"].map((t) => `<option value="${t}" ${t === queueState.type ? "selected" : ""}>${t || "All types"}</option>`).join("")}</select>
      <label><input type="checkbox" id="q-system" ${queueState.system ? "checked" : ""}> SYSTEM queues</label>
    </div>
    <div id="q-table"></div>`;
  const reload = () => { queueState.page = 0; render().catch((e) => notice(e.message)); };
  $("#q-filter").addEventListener("input", (e) => { queueState.name = e.target.value; reload(); });
  $("#q-type").addEventListener("change", (e) => { queueState.type = e.target.value; reload(); });
  $("#q-system").addEventListener("change", (e) => { queueState.system = e.target.checked; reload(); });
  const cols = [["name", "Queue"], ["type", "Type"], ["depth", "Depth", true], ["full", "Full", true], ["puts_per_sec", "Put/s", true], ["gets_per_sec", "Got/s", true], ["growth", "Growth/min", true], ["ipprocs", "In", true], ["opprocs", "Out", true], ["uncommitted", "Uncom", true]];
  const sortable = new Set(["name", "type", "depth", "full", "puts_per_sec", "gets_per_sec", "growth"]);
  const render = async () => {
    const s = queueState;
    const qs = new URLSearchParams({ name: s.name, sort: s.sort, desc: s.desc, page: s.page, size: s.size, system: s.system });
    if (s.type) qs.set("type", s.type);
    const r = await api(`/queues?${qs}`);
    const head = cols.map(([k, l, num]) => {
      const cls = [num ? "num" : "", sortable.has(k) ? "sortable" : "", s.sort === k ? (s.desc ? "sorted-desc" : "sorted-asc") : ""].join(" ");
      return `<th class="${cls}" data-sort="${sortable.has(k) ? k : ""}">${l}</th>`;
    }).join("");
    const rows = r.items.map((q) => `<tr class="clickable" data-queue="${esc(q.name)}">
      <td>${esc(q.name)}</td><td>${esc(q.type)}</td>
      <td class="num" data-test="depth">${esc(fmtNum(q.depth))}</td>
      <td>${q.full !== undefined ? fullBar(q.full) : ""}</td>
      <td class="num">${esc(fmtNum(q.puts_per_sec))}</td><td class="num">${esc(fmtNum(q.gets_per_sec))}</td>
      <td class="num">${esc(fmtNum(q.growth))}</td><td class="num">${esc(fmtNum(q.ipprocs))}</td>
      <td class="num">${esc(fmtNum(q.opprocs))}</td><td class="num">${esc(fmtNum(q.uncommitted))}</td></tr>`).join("");
    const last = Math.max(0, Math.ceil(r.total / r.size) - 1);
    $("#q-table").innerHTML = `<table data-test="queues"><tr>${head}</tr>${rows}</table>
      <div class="pager"><button id="q-prev" ${s.page === 0 ? "disabled" : ""}>Previous</button>
      <span>Page ${r.page + 1} of ${last + 1} · ${fmtNum(r.total)} queues</span>
      <button id="q-next" ${s.page >= last ? "disabled" : ""}>Next</button></div>`;
    sizeBars($("#q-table"));
    $$("th[data-sort]", view).forEach((th) => th.dataset.sort && th.addEventListener("click", () => {
      s.desc = s.sort === th.dataset.sort ? !s.desc : th.dataset.sort !== "name" && th.dataset.sort !== "type";
      s.sort = th.dataset.sort;
      render().catch((e) => notice(e.message));
    }));
    $$("tr[data-queue]", view).forEach((tr) => tr.addEventListener("click", () => { location.hash = `#/queue/${encodeURIComponent(tr.dataset.queue)}`; }));
    $("#q-prev").addEventListener("click", () => { s.page--; render().catch((e) => notice(e.message)); });
    $("#q-next").addEventListener("click", () => { s.page++; render().catch((e) => notice(e.message)); });
  };
  await render();
  live(render);
}

// ---- one queue ----

async function queuePage(name) {
  const view = $("#view");
  let q = await api(`/queues/${encodeURIComponent(name)}`);
  const msgState = { start: 0, count: 20, open: new Set() };
  view.innerHTML = `<h1>${esc(q.type)} ${esc(q.name)}</h1>
    <div class="cards" id="qd-status"></div>
    <div class="grid2">
      <div class="panel" id="qd-depth"></div><div class="panel" id="qd-rates"></div>
    </div>
    <h2>Attributes</h2>
    <form id="qd-form">${ATTR_FORM}</form>
    ${q.type === "QLOCAL" ? `<h2>Messages</h2>
    <div class="toolbar">
      <button id="m-refresh" type="button">Refresh</button>
      <button id="m-delete" class="danger" type="button">Delete selected</button>
      <input id="m-target" placeholder="to queue">
      <button id="m-move" type="button">Move selected</button>
      <button id="m-copy" type="button">Copy selected</button>
    </div>
    <div id="m-list"></div>
    <h2>Put a test message</h2>
    <form id="put-form" class="panel">
      <textarea name="body" rows="3" placeholder="message body"></textarea>
      <div class="toolbar"><label><input type="checkbox" name="persistent"> persistent</label>
      <label>priority <select name="priority">${[...Array(10).keys()].map((p) => `<option>${p}</option>`).join("")}</select></label>
      <button class="primary" type="submit" id="put-send">Put</button></div>
    </form>` : ""}`;
  const renderStatus = async () => {
    const s = q.status;
    const h = q.history;
    $("#qd-status").innerHTML = [["Depth", s.depth], ["MAXDEPTH", s.max_depth], ["Full", s.full !== undefined ? `${fmtNum(s.full)}%` : ""], ["Put/s", s.puts_per_sec], ["Got/s", s.gets_per_sec], ["Open input", s.ipprocs], ["Open output", s.opprocs], ["Uncommitted", s.uncommitted]]
      .map(([l, v]) => `<div class="card"><div class="label">${l}</div><div class="value" data-test="${esc(l)}">${esc(fmtNum(v))}</div></div>`).join("");
    $("#qd-depth").innerHTML = `<h2>Depth</h2>${chart([{ name: "depth", values: h.map((x) => x.depth) }], h.length ? `last ${fmtSecs(Math.round(h.length * q.sample_secs))}` : "no activity yet")}`;
    $("#qd-rates").innerHTML = `<h2>Rates</h2>${chart([{ name: "put/s", values: h.map((x) => x.puts_per_sec) }, { name: "got/s", values: h.map((x) => x.gets_per_sec) }], "")}`;
  };
  attrForm($("#qd-form"), q, `/queues/${encodeURIComponent(name)}`);
  await renderStatus();
  if (q.type === "QLOCAL") wireMessages(name, msgState);
  live(async () => {
    const fresh = await api(`/queues/${encodeURIComponent(name)}`);
    q.status = fresh.status;
    q.history = fresh.history;
    await renderStatus();
  });
}

function messageDetail(m) {
  const props = Object.entries(m.properties);
  const desc = [["MsgId", m.msg_id], ["CorrelId", m.correl_id], ["Persistent", m.persistent ? "yes" : "no"], ["Priority", m.priority], ["Type", m.type], ["Format", m.format], ["ReplyToQ", m.reply_to_queue], ["ReplyToQMgr", m.reply_to_qmgr], ["UserIdentifier", m.user_id], ["PutApplName", m.put_appl_name], ["Put time", m.put_time], ["BackoutCount", m.backout_count], ["Length", m.length]];
  const views = { text: m.body_text ?? "(not UTF-8 text: see hex)", json: m.body_json !== null ? JSON.stringify(m.body_json, null, 2) : "(not JSON)", hex: (m.body_hex.match(/.{1,64}/g) || []).join("\n") };
  return `<td colspan="6" class="msg-detail">
    <table class="attrs">${desc.map(([k, v]) => `<tr><td>${k}</td><td class="mono">${esc(v)}</td></tr>`).join("")}
    ${props.map(([k, v]) => `<tr><td>property ${esc(k)}</td><td class="mono">${esc(JSON.stringify(v))}</td></tr>`).join("")}</table>
    <div class="tabs toolbar">${Object.keys(views).map((k, i) => `<button type="button" data-view="${k}" class="${i ? "" : "active"}">${k}</button>`).join("")}${m.truncated ? `<span class="muted">first 64 KiB shown</span>` : ""}</div>
    ${Object.entries(views).map(([k, v], i) => `<pre class="mono ${i ? "hidden" : ""}" data-body="${k}">${esc(v)}</pre>`).join("")}</td>`;
}

function wireMessages(name, st) {
  const list = async () => {
    const r = await api(`/queues/${encodeURIComponent(name)}/messages?start=${st.start}&count=${st.count}`);
    const rows = r.items.map((m) => `<tr class="clickable" data-msg="${esc(m.msg_id)}">
      <td><input type="checkbox" data-pick="${esc(m.msg_id)}"></td><td class="num">${m.position + 1}</td>
      <td class="mono">${esc(m.msg_id)}</td><td>${esc(m.put_time)}</td><td class="num">${esc(fmtNum(m.length))}</td>
      <td class="mono">${esc((m.body_text ?? "(binary)").slice(0, 80))}</td></tr>
      <tr class="${st.open.has(m.msg_id) ? "" : "hidden"}" data-detail="${esc(m.msg_id)}">${messageDetail(m)}</tr>`).join("");
    $("#m-list").innerHTML = `<table data-test="messages"><tr><th></th><th class="num">#</th><th>MsgId</th><th>Put time</th><th class="num">Bytes</th><th>Body</th></tr>${rows}</table>
      <div class="pager"><button id="m-prev" ${st.start === 0 ? "disabled" : ""}>Previous</button>
      <span>Messages ${r.items.length ? st.start + 1 : 0}–${st.start + r.items.length} of ${esc(fmtNum(r.depth))}</span>
      <button id="m-next" ${st.start + r.items.length >= r.depth ? "disabled" : ""}>Next</button></div>`;
    $$("tr[data-msg]").forEach((tr) => tr.addEventListener("click", (ev) => {
      if (ev.target.matches("input")) return;
      const id = tr.dataset.msg;
      st.open.has(id) ? st.open.delete(id) : st.open.add(id);
      $(`tr[data-detail="${id}"]`).classList.toggle("hidden");
    }));
    $$("tr[data-detail] .tabs button").forEach((b) => b.addEventListener("click", () => {
      const cell = b.closest("td");
      $$(".tabs button", cell).forEach((x) => x.classList.toggle("active", x === b));
      $$("pre[data-body]", cell).forEach((p) => p.classList.toggle("hidden", p.dataset.body !== b.dataset.view));
    }));
    $("#m-prev").addEventListener("click", () => { st.start = Math.max(0, st.start - st.count); list().catch((e) => notice(e.message)); });
    $("#m-next").addEventListener("click", () => { st.start += st.count; list().catch((e) => notice(e.message)); });
  };
  const picked = () => $$("[data-pick]:checked").map((c) => c.dataset.pick);
  const act = async (action) => {
    const ids = picked();
    if (!ids.length) return notice("Select the messages first.");
    const to = $("#m-target").value.trim();
    if (action !== "delete" && !to) return notice(`Name the queue to ${action} the messages to.`);
    const what = `${action === "delete" ? "Delete" : action === "move" ? "Move" : "Copy"} ${ids.length} message(s) ${action === "delete" ? `from ${name}` : `from ${name} to ${to}`}?`;
    if (!confirm(`${what}\nThis is recorded in the audit log.`)) return;
    try {
      const r = await api(`/queues/${encodeURIComponent(name)}/messages/${action}`, { method: "POST", body: action === "delete" ? { msg_ids: ids } : { msg_ids: ids, to } });
      notice(`${r.count} message(s): ${action} done.`, true);
    } catch (e) { notice(e.message); }
    await list();
  };
  $("#m-refresh").addEventListener("click", () => list().catch((e) => notice(e.message)));
  $("#m-delete").addEventListener("click", () => act("delete"));
  $("#m-move").addEventListener("click", () => act("move"));
  $("#m-copy").addEventListener("click", () => act("copy"));
  $("#put-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = ev.target;
    try {
      const r = await api(`/queues/${encodeURIComponent(name)}/messages`, { method: "POST", body: { body: f.body.value, persistent: f.persistent.checked, priority: Number(f.priority.value) } });
      notice(`Put message ${r.msg_id}.`, true);
      f.body.value = "";
      await list();
    } catch (e) { notice(e.message); }
  });
  list().catch((e) => notice(e.message));
}

// ---- other objects ----

const COLUMNS = {
  channels: ["CHANNEL", "CHLTYPE", "STATUS", "CONNAME", "XMITQ", "BATCHSZ", "DESCR"],
  chstatus: ["CHANNEL", "CHLTYPE", "STATUS", "CONNAME", "MSGS", "BATCHES"],
  topics: ["TOPIC", "TOPICSTR", "TYPE", "DEFPSIST", "PUB", "SUB", "DESCR"],
  subs: ["SUB", "TOPICSTR", "DEST", "DURABLE", "SUBTYPE", "SELECTOR"],
  listeners: ["LISTENER", "TRPTYPE", "PORT", "IPADDR", "CONTROL", "DESCR"],
  connections: ["CONN", "APPLTAG", "USERID", "CONNOPTS", "CONNAME", "CHANNEL"],
};

async function objects(kind) {
  const view = $("#view");
  const st = { name: "", page: 0, sort: "", desc: false };
  const titles = { channels: "Channels", topics: "Topics", subs: "Subscriptions", listeners: "Listeners", connections: "Connections", chstatus: "Channel status" };
  view.innerHTML = `<h1>${esc(titles[kind] || kind)}</h1>
    <div class="toolbar"><input id="o-filter" placeholder="Filter by name"><label><input type="checkbox" id="o-system"> SYSTEM objects</label></div>
    <div id="o-table"></div><div id="o-detail"></div>`;
  const render = async () => {
    const qs = new URLSearchParams({ name: st.name, page: st.page, size: 100, system: $("#o-system").checked, desc: st.desc });
    if (st.sort) qs.set("sort", st.sort);
    const r = await api(`/objects/${kind}?${qs}`);
    const cols = COLUMNS[kind] || Object.keys(r.items[0] || {}).slice(0, 8);
    const actions = kind === "channels";
    const rows = r.items.map((o) => `<tr class="clickable" data-name="${esc(o[r.key])}">${cols.map((c) => `<td class="${c === "STATUS" ? `status-${esc(o[c])}` : ""}">${esc(o[c] === true ? "yes" : o[c])}</td>`).join("")}
      ${actions ? `<td>${["start", "stop", "ping", "resolve", "reset"].map((a) => `<button type="button" data-act="${a}" data-ch="${esc(o.CHANNEL)}">${a}</button>`).join(" ")}</td>` : ""}</tr>`).join("");
    const sorted = st.sort || r.key;
    $("#o-table").innerHTML = `<table data-test="objects"><tr>${cols.map((c) => `<th class="sortable ${c === sorted ? (st.desc ? "sorted-desc" : "sorted-asc") : ""}" data-sort="${esc(c)}">${esc(c)}</th>`).join("")}${actions ? "<th>Actions</th>" : ""}</tr>${rows}</table>
      <p class="muted">${esc(fmtNum(r.total))} in all${r.total > r.items.length ? `; the first ${r.items.length} shown (filter to narrow)` : ""}.</p>`;
    $$("th[data-sort]", view).forEach((th) => th.addEventListener("click", () => {
      st.desc = sorted === th.dataset.sort ? !st.desc : false;
      st.sort = th.dataset.sort;
      render().catch((e) => notice(e.message));
    }));
    $$("tr[data-name]", view).forEach((tr) => tr.addEventListener("click", (ev) => { if (!ev.target.matches("button")) detail(tr.dataset.name); }));
    $$("button[data-act]", view).forEach((b) => b.addEventListener("click", () => channelAction(b.dataset.ch, b.dataset.act, render)));
  };
  const detail = async (name) => {
    try {
      const d = await api(`/objects/${kind}/${encodeURIComponent(name)}`);
      const status = (d.status || []).map((s) => `<h2>Status</h2><table class="attrs">${Object.entries(s).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join("")}</table>`).join("");
      const h = d.history;
      const charts = h ? `<div class="grid2">
        ${kind === "channels" ? `<div class="panel"><h2>Messages moved</h2>${chart([{ name: "msg/s", values: h.rate.map((x) => x.per_sec) }], h.rate.length ? `last ${fmtSecs(Math.round(h.rate.length * h.sample_secs))}` : "no messages moved yet")}</div>` : ""}
        ${h.depth_of ? `<div class="panel"><h2>${esc(h.depth_of)}</h2>${chart([{ name: "depth", values: h.depth.map((x) => x.depth) }], h.depth.length ? "" : "no activity yet")}</div>` : ""}
        ${kind === "subs" && h.depth_of ? `<div class="panel"><h2>Delivered and got</h2>${chart([{ name: "delivered/s", values: h.depth.map((x) => x.puts_per_sec) }, { name: "got/s", values: h.depth.map((x) => x.gets_per_sec) }], "")}</div>` : ""}
      </div>` : "";
      $("#o-detail").innerHTML = `<h2>${esc(name)}</h2>${charts}<form id="o-form">${ATTR_FORM}</form>${status}`;
      attrForm($("#o-form"), d, `/objects/${kind}/${encodeURIComponent(name)}`);
    } catch (e) { notice(e.message); }
  };
  $("#o-filter").addEventListener("input", (e) => { st.name = e.target.value; render().catch((x) => notice(x.message)); });
  $("#o-system").addEventListener("change", () => render().catch((x) => notice(x.message)));
  await render();
  live(render);
}

// Start, stop, ping, resolve and reset, with the confirmations MQ Explorer asks for.
async function channelAction(ch, action, after) {
  let body = {};
  if (action === "stop" && !confirm(`Stop channel ${ch}? It stays STOPPED until it is started again.`)) return;
  if (action === "resolve") {
    const a = prompt(`Resolve the in-doubt batch of channel ${ch}: COMMIT (the partner has it) or BACKOUT (send it again)?`, "BACKOUT");
    if (!a) return;
    body = { action: a.trim().toUpperCase() };
  }
  if (action === "reset") {
    const n = prompt(`Reset the message sequence number of channel ${ch} to:`, "1");
    if (n === null) return;
    body = { seqnum: Number(n) };
  }
  try {
    const replies = await api(`/channels/${encodeURIComponent(ch)}/${action}`, { method: "POST", body });
    notice(replies.flatMap((r) => r.messages.map((m) => m.text)).join(" ") || `${action} ${ch}: done.`, true);
  } catch (e) { notice(e.message); }
  await after().catch(() => {});
}

// ---- MQSC ----

function replyTable(msgs) {
  const withAttrs = msgs.filter((m) => m.attributes);
  const plain = msgs.filter((m) => !m.attributes).map((m) => `<div><span class="mono">${esc(m.code)}</span> ${esc(m.text)}</div>`).join("");
  if (!withAttrs.length) return plain;
  const keys = [...new Set(withAttrs.flatMap((m) => Object.keys(m.attributes)))];
  return `${plain}<table><tr>${keys.map((k) => `<th>${esc(k)}</th>`).join("")}</tr>${withAttrs.map((m) => `<tr>${keys.map((k) => `<td>${esc(m.attributes[k] === true ? "yes" : m.attributes[k])}</td>`).join("")}</tr>`).join("")}</table>`;
}

async function mqsc() {
  clearInterval(timer);
  const view = $("#view");
  view.innerHTML = `<h1>MQSC</h1>
    <p class="muted">Commands run as ${esc(me.user)} with the executor <code>ferry admin</code> uses; one command per line (a trailing + continues it).</p>
    <textarea id="mqsc-script" rows="8" placeholder="DISPLAY QLOCAL(*) CURDEPTH"></textarea>
    <div class="toolbar"><button class="primary" id="mqsc-run" type="button">Run</button></div>
    <div id="mqsc-out" data-test="mqsc-out"></div>`;
  $("#mqsc-run").addEventListener("click", async () => {
    try {
      const replies = await api("/mqsc", { method: "POST", body: { script: $("#mqsc-script").value } });
      $("#mqsc-out").innerHTML = replies.map((r) => `<div class="reply ${r.ok ? "" : "failed"}"><div class="cmd">${esc(r.number)}: ${esc(r.command)}${r.ok ? "" : " (failed)"}</div>${replyTable(r.messages)}</div>`).join("");
    } catch (e) { notice(e.message); }
  });
}

async function audit() {
  clearInterval(timer);
  const r = await api("/audit");
  $("#view").innerHTML = `<h1>Audit</h1><p class="muted">Changes made from the console since the queue manager started (also in its log, target ferry::audit).</p>
    <table><tr><th>Time (UTC)</th><th>User</th><th>Action</th><th>Object</th><th>Detail</th></tr>
    ${r.items.map((a) => `<tr><td>${esc(a.time)}</td><td>${esc(a.user)}</td><td>${esc(a.action)}</td><td>${esc(a.object)}</td><td class="mono">${esc(JSON.stringify(a.detail))}</td></tr>`).join("")}</table>`;
}

// ---- routing ----

async function route() {
  clearInterval(timer);
  notice("");
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  const page = parts[0] || "overview";
  $$("header nav a").forEach((a) => a.classList.toggle("active", a.dataset.nav === (page === "objects" ? parts[1] : page === "queue" ? "queues" : page)));
  try {
    if (page === "queues") await queues();
    else if (page === "queue") await queuePage(parts[1]);
    else if (page === "objects") await objects(parts[1]);
    else if (page === "mqsc") await mqsc();
    else if (page === "audit") await audit();
    else await overview();
  } catch (e) {
    if (e.status !== 401) notice(e.message);
  }
}

window.addEventListener("hashchange", () => { if (me) route(); });
document.addEventListener("DOMContentLoaded", () => {
  $("#logout").addEventListener("click", async () => {
    await api("/logout", { method: "POST" }).catch(() => {});
    me = null;
    showLogin();
  });
  start();
});
