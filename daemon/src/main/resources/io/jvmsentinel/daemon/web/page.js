// The status page: reads the daemon's JSON API from the same origin every few seconds and draws it.
// Everything that comes from a target (thread names, frames, peers, alert text) is attacker-
// influenced: it goes into the page only through textContent, attribute values and canvas text,
// never innerHTML. The Content-Security-Policy backs this up (no inline script, same origin only).
'use strict';

(function () {
  const REFRESH_MS = 5000;
  const REQUEST_TIMEOUT_MS = 10000;
  // The cause column of a site whose starts are the monitoring's own: never an application cause.
  const OWN_SITE = "none: the monitoring's own (the JDK serving JMX and JFR connections)";
  const MARKER_LABELS = {
    FULL: 'code cache full',
    COMPILATION_DISABLED: 'compilation disabled',
    COMPILATION_ENABLED: 'compilation enabled',
    FLUSHING: 'flushing'
  };
  const MARKER_COLOURS = {
    FULL: '#b3261e',
    COMPILATION_DISABLED: '#6b2fb3',
    COMPILATION_ENABLED: '#1a7f37',
    FLUSHING: '#8a93a6'
  };

  // /targets/{t} or / (the overview), under whatever path prefix an ingress adds.
  const path = location.pathname;
  const at = path.lastIndexOf('/targets/');
  const base = at >= 0 ? path.slice(0, at) : path.replace(/\/+$/, '');
  const targetName = at >= 0 ? decodeURIComponent(path.slice(at + '/targets/'.length)) : '';

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) {
      node.textContent = String(text);
    }
    if (className) {
      node.className = className;
    }
    return node;
  }

  function row(cells) {
    const tr = document.createElement('tr');
    for (const cell of cells) {
      const td = document.createElement('td');
      if (cell instanceof Node) {
        td.appendChild(cell);
      } else {
        td.textContent = cell === undefined || cell === null ? '' : String(cell);
      }
      tr.appendChild(td);
    }
    return tr;
  }

  function fill(tbody, rows) {
    tbody.replaceChildren(...rows);
  }

  async function getJson(apiPath) {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REQUEST_TIMEOUT_MS);
    try {
      const response = await fetch(base + apiPath, {
        signal: abort.signal,
        credentials: 'same-origin',
        cache: 'no-store'
      });
      if (!response.ok) {
        throw new Error(apiPath + ': HTTP ' + response.status);
      }
      return await response.json();
    } finally {
      clearTimeout(timer);
    }
  }

  function targetPath(name) {
    return '/api/v1/targets/' + encodeURIComponent(name);
  }

  function targetLink(name) {
    const a = el('a', name);
    a.href = base + '/targets/' + encodeURIComponent(name);
    return a;
  }

  function duration(seconds) {
    if (!isFinite(seconds) || seconds < 0) {
      return '';
    }
    const d = Math.floor(seconds / 86400);
    const h = Math.floor(seconds % 86400 / 3600);
    const m = Math.floor(seconds % 3600 / 60);
    const s = Math.floor(seconds % 60);
    return d > 0 ? d + 'd ' + h + 'h' : h > 0 ? h + 'h ' + m + 'm' : m > 0 ? m + 'm ' + s + 's' : s + 's';
  }

  function badge(text, kind) {
    return el('span', text, 'badge ' + (kind || ''));
  }

  function dedupKey(alert) {
    return 'jvm-sentinel/' + alert.alert + '/' + alert.target + (alert.key ? '/' + alert.key : '');
  }

  function setProblem(error) {
    const problem = document.getElementById('problem');
    problem.hidden = !error;
    problem.textContent = error ? 'cannot refresh: ' + error.message : '';
  }

  function stamp() {
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  }

  // ---- Overview -------------------------------------------------------------------------------

  function stateCell(t) {
    const span = el('span');
    span.appendChild(el('span', t.up ? 'up' : 'down', t.up ? 'up' : 'down'));
    if (t.warmingUp) {
      span.appendChild(document.createTextNode(' '));
      span.appendChild(badge('JIT warm-up', 'pending'));
    }
    if (!t.up && t.error) {
      span.appendChild(el('div', t.error, 'muted'));
    }
    return span;
  }

  function jfrCell(t) {
    var lag = t.jfrLagSeconds == null ? '' : ', ' + t.jfrLagSeconds + ' s behind';
    if (t.jfrFeed === 'stream') {
      return 'JFR streaming' + lag;
    }
    if (t.jfrFeed === 'chunks') {
      return 'JFR ' + t.jfr + lag;
    }
    return 'JMX only: ' + t.jfr;
  }

  function uptime(t) {
    return t.jvm && t.jvm.startTimeMillis ? duration((Date.now() - t.jvm.startTimeMillis) / 1000) : '';
  }

  async function refreshOverview() {
    const [targets, alerts] = await Promise.all([getJson('/api/v1/targets'), getJson('/api/v1/alerts')]);
    const rows = targets.targets.map(t => {
      const firing = alerts.alerts.filter(a => a.target === t.target && a.state === 'firing');
      const names = el('span');
      for (const a of firing) {
        names.appendChild(badge(a.alert, a.severity));
        if (a.held) {
          names.appendChild(el('span', '(held) ', 'held'));
        }
      }
      if (firing.length === 0) {
        names.appendChild(el('span', 'none', 'muted'));
      }
      return row([targetLink(t.target), stateCell(t), jfrCell(t), t.jvm ? t.jvm.javaVersion : '', uptime(t), names]);
    });
    fill(document.querySelector('#targets tbody'), rows);
  }

  // ---- One target -----------------------------------------------------------------------------

  let selectedAlert = decodeURIComponent((location.hash.match(/^#alert=(.*)$/) || [])[1] || '');
  const charts = {};

  function alertBox(a, recent) {
    const box = el('div', null, 'alert');
    const key = recent ? a.dedupKey : dedupKey(a);
    box.dataset.dedupKey = key;
    if (key === selectedAlert) {
      box.className += ' selected';
    }
    const head = el('div');
    head.appendChild(badge(recent ? a.status : a.state, recent ? a.status : a.state));
    head.appendChild(badge(a.severity, a.severity));
    head.appendChild(el('strong', recent ? a.rule : a.alert));
    if (a.key) {
      head.appendChild(el('span', ' ' + a.key, 'muted'));
    }
    head.appendChild(el('span', ' since ' + new Date(recent ? a.startedAt : a.since).toLocaleString(), 'muted'));
    box.appendChild(head);
    box.appendChild(el('p', a.summary));
    if (a.held) {
      // Firing as it was when the target stopped answering: not judged now, so not current.
      box.appendChild(el('p', a.held, 'held'));
    }
    if (a.explanation) {
      box.appendChild(el('p', a.explanation));
    }
    if (a.action) {
      const action = el('p');
      action.appendChild(el('strong', 'What to do: '));
      action.appendChild(document.createTextNode(a.action));
      box.appendChild(action);
    }
    const buttons = el('div');
    const windowButton = el('button', 'Flame graph of its window');
    windowButton.type = 'button';
    windowButton.addEventListener('click', () => selectAlert(key, recent ? a.startedAt : a.since));
    buttons.appendChild(windowButton);
    if (a.snapshot) {
      const file = a.snapshot.split(/[\\/]/).pop();
      const link = el('a', 'JFR snapshot (' + file + ')');
      link.href = base + '/api/v1/snapshots/' + encodeURIComponent(file);
      link.setAttribute('download', file);
      buttons.appendChild(link);
    } else if (a.snapshotUnavailable) {
      buttons.appendChild(el('span', 'No JFR snapshot: ' + a.snapshotUnavailable, 'muted'));
    }
    box.appendChild(buttons);
    if (a.evidence && Object.keys(a.evidence).length > 0) {
      const details = el('details');
      details.appendChild(el('summary', 'Evidence'));
      details.appendChild(el('pre', JSON.stringify(a.evidence, null, 2)));
      box.appendChild(details);
    }
    return box;
  }

  function selectAlert(key, since) {
    selectedAlert = key;
    history.replaceState(null, '', '#alert=' + encodeURIComponent(key));
    const seconds = Math.min(900, Math.max(60, Math.ceil((Date.now() - Date.parse(since)) / 1000) + 60));
    const select = document.getElementById('window');
    let option = select.querySelector('option[data-alert]');
    if (!option) {
      option = el('option');
      option.dataset.alert = 'true';
      select.appendChild(option);
    }
    option.value = seconds + 's';
    option.textContent = 'the alert\'s window (' + duration(seconds) + ')';
    select.value = option.value;
    refreshTarget().catch(setProblem);
  }

  function renderAlerts(active, recent) {
    const mine = active.alerts.filter(a => a.target === targetName);
    const list = document.getElementById('alerts');
    list.replaceChildren(...(mine.length ? mine.map(a => alertBox(a, false)) : [el('p', 'No alert pending or firing.', 'muted')]));
    // An alert still pending or firing is shown above; the recent list holds the others once each.
    const shown = new Set(mine.map(dedupKey));
    const past = recent.alerts.filter(a => a.target === targetName && !shown.has(a.dedupKey));
    const recentList = document.getElementById('recent');
    recentList.replaceChildren(...(past.length ? past.map(a => alertBox(a, true)) : [el('p', 'None since the daemon started.', 'muted')]));
    if (selectedAlert && !document.getElementById('window').querySelector('option[data-alert]')) {
      const chosen = mine.find(a => dedupKey(a) === selectedAlert) || past.find(a => a.dedupKey === selectedAlert);
      if (chosen) {
        selectAlert(selectedAlert, chosen.since || chosen.startedAt);
      }
    }
  }

  function names(list) {
    return (list || []).map(n => n.name + ' (' + n.count + ')').join(', ');
  }

  function renderFlame(flame) {
    FlameGraph.render(document.getElementById('flame'), flame.root);
    document.getElementById('flame-summary').textContent =
      flame.totalStarts + ' thread starts, ' + flame.sampledStarts + ' with a stack';
    const causes = {};
    (function collect(node) {
      if (node.cause) {
        causes[node.name.replace(/:\d+$/, '')] = node.cause;
      }
      node.children.forEach(collect);
    })(flame.root);
    fill(document.querySelector('#sites tbody'), flame.sites.map(s => {
      // The monitoring's own starts (the JDK serving JMX and JFR connections) are never a cause.
      const cause = s.own ? null : causes[s.site];
      return row([s.site, s.count, (s.share * 100).toFixed(1) + '%', names(s.threadNames), names(s.parentThreads),
        s.own ? OWN_SITE : cause ? cause.id + ': ' + cause.title : '']);
    }));
  }

  function chart(id, title, series, data, axes, hooks) {
    const container = document.getElementById(id);
    const signature = series.map(s => s.label).join('|');
    let plot = charts[id];
    if (plot && plot.signature !== signature) {
      plot.destroy();
      plot = null;
    }
    if (!plot) {
      container.replaceChildren();
      plot = new uPlot({
        title: title,
        width: Math.max(400, container.clientWidth || 1000),
        height: 220,
        cursor: { sync: { key: 'sentinel' } },
        scales: { x: { time: true } },
        series: [{}].concat(series),
        axes: axes,
        hooks: hooks || {}
      }, data, container);
      plot.signature = signature;
      charts[id] = plot;
    } else {
      plot.setData(data);
    }
    return plot;
  }

  const PALETTE = ['#3461c1', '#e4574c', '#1a7f37', '#b36b00', '#6b2fb3', '#00838f'];

  function percent(values) {
    return values.map(v => v === null ? null : v * 100);
  }

  let markers = [];

  function drawMarkers(u) {
    const ctx = u.ctx;
    const top = u.bbox.top;
    const height = u.bbox.height;
    const min = u.scales.x.min;
    const max = u.scales.x.max;
    ctx.save();
    ctx.font = (11 * devicePixelRatio) + 'px sans-serif';
    // Labels of markers at the same time stack downwards instead of overprinting.
    const labelsAt = {};
    for (const m of markers) {
      m.drawn = m.t >= min && m.t <= max;
      if (!m.drawn) {
        continue;
      }
      const x = Math.round(u.valToPos(m.t, 'x', true));
      ctx.strokeStyle = MARKER_COLOURS[m.kind];
      ctx.fillStyle = MARKER_COLOURS[m.kind];
      ctx.lineWidth = (m.kind === 'FULL' ? 2 : 1) * devicePixelRatio;
      ctx.beginPath();
      ctx.moveTo(x, top);
      ctx.lineTo(x, top + height);
      ctx.stroke();
      if (m.kind !== 'FLUSHING') {
        const row = labelsAt[x] = (labelsAt[x] || 0) + 1;
        ctx.fillText(MARKER_LABELS[m.kind], x + 3 * devicePixelRatio, top + 12 * row * devicePixelRatio);
      }
    }
    ctx.restore();
    document.querySelectorAll('#codecache-markers li').forEach((li, i) => {
      li.dataset.drawn = markers[i] && markers[i].drawn ? 'true' : 'false';
    });
  }

  function renderSeries(s) {
    const t = s.t;
    markers = s.markers.map(m => ({ t: m.t, kind: m.kind, segment: m.segment, drawn: false }));
    fill(document.getElementById('codecache-markers'), markers.map(m => {
      const li = el('li', MARKER_LABELS[m.kind] + ' at ' + new Date(m.t * 1000).toLocaleTimeString() +
        (m.segment ? ' (' + m.segment + ')' : ''));
      li.dataset.kind = m.kind;
      li.dataset.t = String(m.t);
      return li;
    }));
    const segments = Object.keys(s.codeCache);
    const pctAxis = [{}, { label: '% of segment max', values: (u, v) => v.map(x => x + '%') }];
    const codeCache = chart('chart-codecache', 'Code cache occupancy per segment (15 min)',
      segments.map((name, i) => ({ label: name, stroke: PALETTE[i % PALETTE.length], width: 2, value: (u, v) => v === null ? '' : v.toFixed(1) + '%' })),
      [t].concat(segments.map(name => percent(s.codeCache[name]))),
      pctAxis,
      { draw: [drawMarkers] });
    codeCache.redraw(false, false);
    chart('chart-jit', 'Compilations, deoptimisations (per s) and compiler CPU share',
      [
        { label: 'compilations/s', stroke: PALETTE[0], width: 2 },
        { label: 'deoptimisations/s', stroke: PALETTE[1], width: 2 },
        { label: 'compiler CPU %', stroke: PALETTE[4], width: 2, scale: '%' }
      ],
      [t, s.compilationsPerSecond, s.deoptimizationsPerSecond, percent(s.compilerCpuShare)],
      [{}, { label: 'per second' }, { side: 1, scale: '%', label: 'compiler CPU %', grid: { show: false } }]);
    chart('chart-threads', 'Thread start rate against the storm threshold',
      [
        { label: 'thread starts/s', stroke: PALETTE[0], width: 2 },
        { label: 'ThreadStorm threshold', stroke: '#b3261e', dash: [6, 4], width: 1 }
      ],
      [t, s.threadStartsPerSecond, t.map(() => s.stormThreshold === 'NaN' ? null : s.stormThreshold)],
      [{}, { label: 'threads/s' }]);
    chart('chart-gc', 'Share of time in GC pauses',
      [{ label: 'GC pause %', stroke: PALETTE[2], width: 2 }],
      [t, percent(s.gcPauseShare)],
      [{}, { label: '%' }]);
  }

  function renderTls(tls) {
    const peers = (tls.handshakes && tls.handshakes.peers) || [];
    fill(document.querySelector('#tls-peers tbody'), peers.length ? peers.map(p => row([
      p.peer, p.handshakes, p.fullHandshakes, p.handshakes - p.fullHandshakes,
      Object.entries(p.protocols || {}).map(e => e[0] + ' ' + e[1]).join(', '),
      p.lastSeen ? new Date(p.lastSeen).toLocaleTimeString() : ''
    ])) : [row([el('span', 'No TLS handshakes seen (JFR jdk.TLSHandshake).', 'muted')])]);
    const certificates = tls.certificates || [];
    fill(document.querySelector('#certificates tbody'), certificates.map(c => {
      const days = (Date.parse(c.validUntil) - Date.now()) / 86400000;
      return row([c.subject, c.issuer, c.validUntil, days < 0 ? 'expired' : Math.floor(days) + ' days']);
    }));
  }

  async function refreshTarget() {
    const win = document.getElementById('window').value;
    const [targets, active, recent, flame, series, tls] = await Promise.all([
      getJson('/api/v1/targets'),
      getJson('/api/v1/alerts'),
      getJson('/api/v1/alerts/recent'),
      getJson(targetPath(targetName) + '/flame?top=64&window=' + encodeURIComponent(win)),
      getJson(targetPath(targetName) + '/series'),
      getJson(targetPath(targetName) + '/tls?top=50')
    ]);
    const me = targets.targets.find(t => t.target === targetName);
    const state = document.getElementById('target-state');
    state.replaceChildren();
    if (me) {
      state.appendChild(stateCell(me));
      state.appendChild(document.createTextNode(' · ' + jfrCell(me) + (me.jvm ? ' · JDK ' + me.jvm.javaVersion + ' · up ' + uptime(me) : '')));
    }
    renderAlerts(active, recent);
    renderFlame(flame);
    renderSeries(series);
    renderTls(tls);
  }

  // ---- Start ----------------------------------------------------------------------------------

  function loop(refresh) {
    const run = () => refresh().then(() => { setProblem(null); stamp(); }, setProblem);
    run();
    setInterval(run, REFRESH_MS);
  }

  if (targetName) {
    document.title = targetName + ' · jvm-sentinel';
    document.getElementById('crumb').textContent = targetName;
    document.getElementById('target-name').textContent = targetName;
    document.getElementById('target').hidden = false;
    document.getElementById('window').addEventListener('change', () => refreshTarget().catch(setProblem));
    loop(refreshTarget);
  } else {
    document.getElementById('overview').hidden = false;
    loop(refreshOverview);
  }
})();
