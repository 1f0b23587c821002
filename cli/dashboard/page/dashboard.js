// The dashboard's page: reads the JSON API (or, in a report, the data inlined as
// window.GPBANDIT_REPORT), draws every view, and while served polls /api/trials?since=N every
// second, appending what changed. Charts are updated in place, so zoom and selections survive.
// Every text from the study goes through textContent (never innerHTML): names are data.
'use strict';
(function () {
  const REPORT = window.GPBANDIT_REPORT || null;
  const params = new URLSearchParams(location.search);
  const token = params.get('token');
  const state = {
    study: null, studies: [], last: 0, rows: new Map(), sense: 'maximize', names: [],
    charts: {}, model: null, modelSequence: -1, modelKey: '', views: {}, errors: [],
  };
  window.__dashboard = state;
  const $ = (id) => document.getElementById(id);

  function api(path, query) {
    const q = new URLSearchParams(query || {});
    if (token) q.set('token', token);
    return fetch(path + '?' + q.toString()).then((r) => r.json().then((body) => {
      if (!r.ok) throw new Error(body.error || ('HTTP ' + r.status));
      return body;
    }));
  }

  function fmt(v) {
    if (v === null || v === undefined) return '';
    if (typeof v !== 'number') return String(v);
    if (!isFinite(v)) return String(v);
    return Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3)
                                                                 : String(+v.toPrecision(5));
  }
  function cell(tr, text, tag) {
    const td = document.createElement(tag || 'td');
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }
  function showError(message) {
    const box = $('error');
    box.hidden = !message;
    box.textContent = message || '';
  }
  function ago(seconds) {
    if (!seconds) return '';
    const d = Date.now() / 1000 - seconds;
    return d < 90 ? Math.round(d) + ' s ago' : d < 5400 ? Math.round(d / 60) + ' min ago'
                                                        : Math.round(d / 3600) + ' h ago';
  }
  function setCount(view, n) {
    state.views[view] = n;
    const el = $(view + '-view');
    if (el) el.dataset.count = String(n);
  }

  // ---- Study list ------------------------------------------------------------------------
  function renderStudies(body) {
    state.studies = body.studies;
    $('source').textContent = body.source;
    const tbody = $('studies').tBodies[0];
    tbody.textContent = '';
    for (const s of body.studies) {
      const tr = document.createElement('tr');
      tr.className = 'study' + (s.name === state.study ? ' selected' : '');
      cell(tr, s.name || '(this file)');
      if (s.error) {
        const td = cell(tr, 'cannot be read: ' + s.error);
        td.colSpan = 9;
        td.className = 'error';
      } else {
        cell(tr, s.strategy);
        cell(tr, s.parameters.join(', '));
        cell(tr, s.trials);
        cell(tr, s.complete);
        cell(tr, s.failed);
        cell(tr, s.pending);
        cell(tr, fmt(s.best) + (s.sense === 'minimize' ? ' (min)' : ''));
        cell(tr, ago(s.last_activity));
        cell(tr, s.workers.length);
      }
      tr.addEventListener('click', () => selectStudy(s.name));
      tbody.appendChild(tr);
    }
    setCount('studies', body.studies.length);
    renderWorkers();
  }

  function renderWorkers() {
    const s = state.studies.find((x) => x.name === state.study);
    const tbody = $('workers').tBodies[0];
    tbody.textContent = '';
    if (!s || !s.workers) return;
    for (const w of s.workers) {
      const tr = document.createElement('tr');
      cell(tr, w.name);
      cell(tr, w.trials);
      cell(tr, w.pending);
      cell(tr, w.pending ? leaseText(w.lease_until) : '');
      tbody.appendChild(tr);
    }
    setCount('workers', s.workers.length);
  }
  function leaseText(until) {
    if (until === null || until === undefined) return 'never ends';
    const left = until - Date.now() / 1000;
    return left < 0 ? 'expired ' + Math.round(-left) + ' s ago' : Math.round(left) + ' s left';
  }

  // ---- Trials and history ----------------------------------------------------------------
  function mergeTrials(body) {
    state.last = Math.max(state.last, body.last);
    state.sense = body.sense;
    state.names = body.parameters;
    for (const r of body.rows) state.rows.set(r.id, r);
    $('history-note').textContent = body.downsampled
        ? 'Downsampled: ' + body.rows.length + ' of ' + body.changed + ' trials (every ' +
          body.stride + '-th, each new best, the pending and the latest).' : '';
  }

  function completed() {
    const done = [];
    for (const r of state.rows.values()) if (r.n >= 0) done.push(r);
    done.sort((a, b) => a.n - b.n);
    return done;
  }

  function renderHistory() {
    const done = completed();
    const ok = done.filter((r) => r.state === 'complete');
    const failed = done.filter((r) => r.state === 'failed');
    const points = ok.map((r) => ({x: r.n, y: r.y}));
    const best = ok.map((r) => ({x: r.n, y: r.best}));
    let low = Infinity;
    for (const p of points) low = Math.min(low, p.y);
    const fails = failed.map((r) => ({x: r.n, y: isFinite(low) ? low : 0}));
    let chart = state.charts.history;
    if (!chart) {
      chart = new Chart($('history'), {
        type: 'line',
        data: {datasets: [
          {label: 'outcome', data: points, showLine: false, pointRadius: 2,
           borderColor: '#486581', backgroundColor: '#486581'},
          {label: 'best so far', data: best, pointRadius: 0, borderColor: '#27ab83',
           borderWidth: 2, stepped: true},
          {label: 'failed', data: fails, showLine: false, pointStyle: 'crossRot', pointRadius: 5,
           borderColor: '#e12d39', backgroundColor: '#e12d39'}]},
        options: {animation: false, parsing: false, normalized: true, maintainAspectRatio: false,
                  scales: {x: {type: 'linear', title: {display: true, text: 'trial (told order)'}},
                           y: {title: {display: true, text: state.sense === 'minimize' ? 'cost' : 'reward'}}},
                  plugins: {decimation: {enabled: points.length > 4000, algorithm: 'lttb', samples: 2000}}},
      });
      attachZoom(chart);
      state.charts.history = chart;
    } else {
      chart.data.datasets[0].data = points;
      chart.data.datasets[1].data = best;
      chart.data.datasets[2].data = fails;
      chart.update('none');
    }
    setCount('history', points.length);
    state.views.failures = fails.length;
  }

  // Drag to zoom along x, double-click to reset: kept in the chart's own scale options, which
  // updates leave alone.
  function attachZoom(chart) {
    const canvas = chart.canvas;
    let start = null;
    canvas.addEventListener('mousedown', (e) => { start = e.offsetX; });
    canvas.addEventListener('mouseup', (e) => {
      if (start === null || Math.abs(e.offsetX - start) < 5) { start = null; return; }
      const s = chart.scales.x;
      const a = s.getValueForPixel(Math.min(start, e.offsetX));
      const b = s.getValueForPixel(Math.max(start, e.offsetX));
      chart.options.scales.x.min = a;
      chart.options.scales.x.max = b;
      start = null;
      chart.update('none');
    });
    canvas.addEventListener('dblclick', () => {
      delete chart.options.scales.x.min;
      delete chart.options.scales.x.max;
      chart.update('none');
    });
  }

  function renderTrials() {
    const head = $('trials').tHead.rows[0];
    const columns = ['id', 'trial', 'state', ...state.names, 'value', 'best', 'worker', 'lease'];
    if (head.cells.length !== columns.length) {
      head.textContent = '';
      for (const c of columns) cell(head, c, 'th');
    }
    const wanted = $('filter-state').value;
    const text = $('filter-text').value.toLowerCase();
    const rows = Array.from(state.rows.values());
    rows.sort((a, b) => (b.state === 'pending') - (a.state === 'pending') || b.id - a.id);
    const tbody = $('trials').tBodies[0];
    const fragment = document.createDocumentFragment();
    let shown = 0;
    for (const r of rows) {
      if (wanted && r.state !== wanted) continue;
      const values = [r.id, r.trial, r.state, ...r.x.map(fmt), fmt(r.y), fmt(r.best), r.worker,
                      r.state === 'pending' ? leaseText(r.lease_until) : ''];
      if (text && !values.join(' ').toLowerCase().includes(text)) continue;
      if (shown++ >= 500) continue;  // the table shows the first 500 that pass the filter
      const tr = document.createElement('tr');
      tr.className = r.state;
      for (const v of values) cell(tr, v);
      fragment.appendChild(tr);
    }
    tbody.textContent = '';
    tbody.appendChild(fragment);
    $('trials-note').textContent = shown + ' trials' + (shown > 500 ? ' (first 500 shown)' : '');
    setCount('trials', Math.min(shown, 500));
    let pending = 0;
    for (const r of state.rows.values()) if (r.state === 'pending') ++pending;
    state.views.pending = pending;
  }

  // ---- The model -------------------------------------------------------------------------
  function lineChart(canvas, datasets, xTitle) {
    return new Chart(canvas, {
      type: 'line', data: {datasets},
      options: {animation: false, parsing: false, maintainAspectRatio: false,
                scales: {x: {type: 'linear', title: {display: !!xTitle, text: xTitle}}},
                plugins: {legend: {display: false}}},
    });
  }
  const xy = (xs, ys) => xs.map((x, i) => ({x, y: ys[i]}));

  function renderSlices(m) {
    const box = $('slices');
    const rec = m.recommendation;
    $('recommendation').textContent = '(' + m.parameters.map((n, i) => n + ' = ' + fmt(rec.x[i])).join(', ') +
        '; mean ' + fmt(rec.mean) + ')';
    let points = 0;
    m.slices.forEach((s, k) => {
      const id = 'slice-' + k;
      let chart = state.charts[id];
      const mean = xy(s.x, s.mean);
      const lo = xy(s.x, s.mean.map((v, i) => v - 2 * s.sd[i]));
      const hi = xy(s.x, s.mean.map((v, i) => v + 2 * s.sd[i]));
      const obs = completed().filter((r) => r.state === 'complete').map((r) => ({x: r.x[s.dim], y: r.y}));
      if (!chart) {
        const div = document.createElement('div');
        const title = document.createElement('div');
        title.className = 'note';
        title.textContent = m.parameters[s.dim];
        const wrap = document.createElement('div');
        wrap.className = 'chart';
        const canvas = document.createElement('canvas');
        canvas.id = id;
        wrap.appendChild(canvas);
        div.append(title, wrap);
        box.appendChild(div);
        chart = lineChart(canvas, [
          {data: hi, pointRadius: 0, borderWidth: 0, backgroundColor: 'rgba(72,101,129,0.2)', fill: '+1'},
          {data: lo, pointRadius: 0, borderWidth: 0},
          {data: mean, pointRadius: 0, borderColor: '#243b53', borderWidth: 2},
          {data: obs, showLine: false, pointRadius: 1.5, borderColor: '#9fb3c8', backgroundColor: '#9fb3c8'}],
          m.parameters[s.dim]);
        state.charts[id] = chart;
      } else {
        chart.data.datasets[0].data = hi;
        chart.data.datasets[1].data = lo;
        chart.data.datasets[2].data = mean;
        chart.data.datasets[3].data = obs;
        chart.update('none');
      }
      points += mean.length;
    });
    setCount('slices', points);
    renderSafety(m);
  }

  function renderSafety(m) {
    const has = m.slices.some((s) => s.safety_margin.some((v) => v !== null));
    $('safety-view').hidden = !has && !(m.num_constraints > 0);
    if ($('safety-view').hidden) return;
    let points = 0;
    m.slices.forEach((s, k) => {
      const id = 'safety-' + k;
      const data = [{data: xy(s.x, s.safety_margin.map((v) => v === null ? NaN : v)), pointRadius: 0,
                     borderColor: '#27ab83', borderWidth: 2},
                    {data: [{x: s.x[0], y: 0}, {x: s.x[s.x.length - 1], y: 0}], pointRadius: 0,
                     borderColor: '#e12d39', borderDash: [4, 4]}];
      (s.constraints || []).forEach((g) => data.push(
          {data: xy(s.x, g.mean), pointRadius: 0, borderColor: '#f0b429'}));
      let chart = state.charts[id];
      if (!chart) {
        const wrap = document.createElement('div');
        wrap.className = 'chart';
        const canvas = document.createElement('canvas');
        wrap.appendChild(canvas);
        $('safety').appendChild(wrap);
        state.charts[id] = lineChart(canvas, data, m.parameters[s.dim]);
      } else {
        chart.data.datasets = data;
        chart.update('none');
      }
      points += s.x.length;
    });
    setCount('safety', points);
  }

  function colour(t) {  // 0..1 -> a blue-to-yellow ramp
    const c = [[13, 8, 135], [126, 3, 168], [204, 71, 120], [248, 149, 64], [240, 249, 33]];
    const f = Math.max(0, Math.min(0.9999, t)) * (c.length - 1);
    const i = Math.floor(f), u = f - i;
    return c[i].map((v, k) => Math.round(v + (c[i + 1][k] - v) * u));
  }

  function renderContour(m) {
    const canvas = $('contour');
    const ctx = canvas.getContext('2d');
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    if (!m.contour) {
      $('contour-note').textContent = 'A contour needs two parameters.';
      setCount('contour', 0);
      return;
    }
    const c = m.contour;
    const grid = $('cshow').value === 'sd' ? c.sd : c.mean;
    let lo = Infinity, hi = -Infinity;
    for (const row of grid) for (const v of row) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
    const w = canvas.width / c.x.length, h = canvas.height / c.y.length;
    let cells = 0;
    grid.forEach((row, j) => row.forEach((v, i) => {
      const [r, g, b] = colour(hi > lo ? (v - lo) / (hi - lo) : 0.5);
      ctx.fillStyle = 'rgb(' + r + ',' + g + ',' + b + ')';
      ctx.fillRect(i * w, canvas.height - (j + 1) * h, Math.ceil(w), Math.ceil(h));
      ++cells;
    }));
    const [a, b] = c.dims;
    const sx = (v) => (v - m.lower[a]) / (m.upper[a] - m.lower[a]) * canvas.width;
    const sy = (v) => canvas.height - (v - m.lower[b]) / (m.upper[b] - m.lower[b]) * canvas.height;
    ctx.fillStyle = '#fff';
    for (const r of completed()) {
      if (r.state !== 'complete') continue;
      ctx.fillRect(sx(r.x[a]) - 1.5, sy(r.x[b]) - 1.5, 3, 3);
    }
    ctx.strokeStyle = '#00e676';
    ctx.lineWidth = 2;
    ctx.strokeRect(sx(m.recommendation.x[a]) - 5, sy(m.recommendation.x[b]) - 5, 10, 10);
    $('contour-note').textContent = ($('cshow').value) + ' over ' + m.parameters[a] + ' (x) and ' +
        m.parameters[b] + ' (y): ' + fmt(lo) + ' to ' + fmt(hi) + '; white: observations, green: the recommendation.';
    canvas.dataset.cells = String(cells);
    setCount('contour', cells);
  }

  // The optimizer's next ask (what `gpbandit suggest` would hand out now), every parameter.
  function describeNext(m) {
    const n = m.next;
    if (!n) return '';
    if (n.error) return ' Next ask: none (' + n.error + ').';
    const point = n.x.map((v, i) => m.parameters[i] + ' = ' + fmt(v)).join(', ');
    return ' Next ask (round ' + n.round + (n.design ? ', from the initial design' : '') +
        (n.refit ? ', after the refit due' : '') + '): ' + point + '.';
  }

  function renderAcquisition(m) {
    const a = m.acquisition;
    const note = $('acquisition-note');
    state.views.next = m.next && m.next.x ? m.next.x.slice() : null;
    if (!a || a.error) {
      note.textContent = 'No acquisition drawn: ' + (a ? a.error : 'none') + '.' + describeNext(m);
      setCount('acquisition', 0);
      return;
    }
    const curve = xy(a.x, a.value);
    let top = 0;
    a.value.forEach((v, i) => { if (v > a.value[top]) top = i; });
    const interp = (x) => {  // the curve's value at x, for placing the pending points
      let k = 0;
      while (k < a.x.length - 1 && a.x[k + 1] < x) ++k;
      return a.value[k];
    };
    const pending = m.pending.map((p) => ({x: p.x[a.dim], y: interp(p.x[a.dim])}));
    const hasNext = m.next && m.next.x && a.next_value !== null && a.next_value !== undefined;
    const next = hasNext ? [{x: m.next.x[a.dim], y: a.next_value}] : [];
    const data = [
      {data: curve, pointRadius: 0, borderColor: '#9446ed', borderWidth: 2},
      {data: pending, showLine: false, pointRadius: 5, pointStyle: 'triangle', borderColor: '#f0b429', backgroundColor: '#f0b429'},
      {data: next, showLine: false, pointRadius: 7, pointStyle: 'star', borderColor: '#e12d39', borderWidth: 2}];
    let chart = state.charts.acquisition;
    if (!chart) {
      state.charts.acquisition = lineChart($('acquisition'), data, m.parameters[a.dim]);
    } else {
      chart.data.datasets.forEach((d, i) => { d.data = data[i].data; });
      chart.options.scales.x.title.text = m.parameters[a.dim];
      chart.update('none');
    }
    note.textContent = a.name + (a.figure_name ? ', ' + a.figure_name + ' = ' + fmt(a.figure) : '') +
        ' along ' + m.parameters[a.dim] + ' through the next ask (pending points not hallucinated in this curve;' +
        ' its maximum here: ' + m.parameters[a.dim] + ' = ' + fmt(a.x[top]) + '). Triangles: ' + pending.length +
        ' pending points; star: the optimizer\'s next ask.' + describeNext(m);
    setCount('acquisition', curve.length);
    state.views.acquisition_pending = pending.length;
  }

  function renderHealth(m) {
    if (m.health_error) {
      $('loo-note').textContent = m.health_error;
      return;
    }
    const loo = m.loo.points.map((p) => ({x: p[0], y: p[1]}));
    let lo = Infinity, hi = -Infinity;
    for (const p of loo) { lo = Math.min(lo, p.x, p.y); hi = Math.max(hi, p.x, p.y); }
    const diagonal = isFinite(lo) ? [{x: lo, y: lo}, {x: hi, y: hi}] : [];
    const hyper = m.hyperparameters;
    const fits = hyper.fits;
    const hyperSets = hyper.names.map((n, k) => ({label: n, pointRadius: 2,
        data: fits.map((f) => ({x: f.round, y: f.log_params[k]}))}));
    const importance = m.importance;
    if (!state.charts.loo) {
      state.charts.loo = lineChart($('loo'), [
        {data: loo, showLine: false, pointRadius: 2, borderColor: '#486581', backgroundColor: '#486581'},
        {data: diagonal, pointRadius: 0, borderColor: '#bcccdc', borderDash: [4, 4]}], 'observed');
      state.charts.hyper = lineChart($('hyper'), hyperSets, 'round');
      state.charts.hyper.options.plugins.legend.display = true;
      state.charts.hyper.update('none');
      state.charts.importance = new Chart($('importance'), {
        type: 'bar', data: {labels: importance.map((p) => p.name),
                            datasets: [{data: importance.map((p) => p.importance), backgroundColor: '#27ab83'}]},
        options: {animation: false, maintainAspectRatio: false, plugins: {legend: {display: false}}}});
    } else {
      state.charts.loo.data.datasets[0].data = loo;
      state.charts.loo.data.datasets[1].data = diagonal;
      state.charts.hyper.data.datasets = hyperSets;
      state.charts.importance.data.labels = importance.map((p) => p.name);
      state.charts.importance.data.datasets[0].data = importance.map((p) => p.importance);
      for (const k of ['loo', 'hyper', 'importance']) state.charts[k].update('none');
    }
    $('loo-note').textContent = m.loo.used + ' of ' + m.loo.of + ' observations; ' + fits.length + ' fits.';
    setCount('health', loo.length);
    state.views.fits = fits.length;
    state.views.importance = importance.length;
  }

  function fillDimensionSelects(names) {
    const defaults = {cx: 0, cy: Math.min(1, names.length - 1), acq: 0};
    for (const id of ['cx', 'cy', 'acq']) {
      const select = $(id);
      if (select.options.length === names.length) continue;
      const keep = select.value;
      select.textContent = '';
      names.forEach((n, i) => {
        const o = document.createElement('option');
        o.value = String(i);
        o.textContent = n;
        select.appendChild(o);
      });
      select.value = keep !== '' && +keep < names.length ? keep : String(defaults[id]);
    }
  }

  function renderModel(m) {
    state.model = m;
    $('model-note').textContent = m.observations + ' observations; computed in ' + fmt(m.seconds) + ' s.';
    fillDimensionSelects(m.parameters);
    renderSlices(m);
    renderContour(m);
    renderAcquisition(m);
    renderHealth(m);
  }

  function modelQuery() {
    return {study: state.study, cx: $('cx').value || 0, cy: $('cy').value || Math.max(0, Math.min(1, state.names.length - 1)),
            acq: $('acq').value || 0};
  }

  function loadModel(force) {
    if (REPORT) return Promise.resolve();
    const q = modelQuery();
    const key = JSON.stringify(q);
    if (state.modelBusy) return Promise.resolve();
    if (!force && key === state.modelKey && state.last === state.modelSequence) return Promise.resolve();
    state.modelKey = key;
    state.modelBusy = true;
    const seen = state.last;
    return api('/api/model', q).then((m) => {
      state.modelSequence = seen;
      renderModel(m);
      window.__modelRendered = performance.now();
    }).catch((e) => { $('model-note').textContent = 'No model yet: ' + e.message; })
      .finally(() => { state.modelBusy = false; });
  }

  // ---- Live updates ----------------------------------------------------------------------
  function renderRows() {
    renderHistory();
    renderTrials();
  }

  function poll() {
    if (!state.study && state.study !== '') return Promise.resolve();
    return api('/api/trials', {study: state.study, since: state.last}).then((body) => {
      const before = state.last;
      mergeTrials(body);
      if (body.rows.length > 0 || before === 0) renderRows();
      $('status').textContent = 'live · ' + state.rows.size + ' trials · updated ' + new Date().toLocaleTimeString();
      showError('');
    }).catch((e) => {
      $('status').textContent = 'cannot read the study';
      showError('The study cannot be read: ' + e.message);
    });
  }

  function selectStudy(name) {
    if (name === state.study) return;
    state.study = name;
    state.last = 0;
    state.rows = new Map();
    state.modelKey = '';
    for (const k of Object.keys(state.charts)) state.charts[k].destroy();
    state.charts = {};
    $('slices').textContent = '';
    $('safety').textContent = '';
    for (const id of ['cx', 'cy', 'acq']) $(id).textContent = '';
    history.replaceState(null, '', '#' + encodeURIComponent(name));
    const first = poll();
    first.then(() => loadModel(true));
    api('/api/studies').then(renderStudies).catch((e) => showError(e.message));
    return first;
  }

  function start() {
    for (const id of ['cx', 'cy', 'acq']) $(id).addEventListener('change', () => loadModel(true));
    $('cshow').addEventListener('change', () => state.model && renderContour(state.model));
    $('filter-state').addEventListener('change', renderTrials);
    $('filter-text').addEventListener('input', renderTrials);
    if (REPORT) {
      const first = REPORT.studies.studies[0];
      state.study = first ? first.name : null;
      renderStudies(REPORT.studies);
      if (first) {
        mergeTrials(REPORT.trials[first.name]);
        renderRows();
        const m = REPORT.models[first.name];
        if (m && !m.error) renderModel(m); else $('model-note').textContent = m ? m.error : '';
      }
      $('status').textContent = 'report · ' + state.rows.size + ' trials';
      window.__rendered = performance.now();
      return;
    }
    api('/api/studies').then((body) => {
      renderStudies(body);
      const wanted = decodeURIComponent(location.hash.slice(1));
      const names = body.studies.map((s) => s.name);
      if (names.length === 0) { showError('No study in ' + body.source); return; }
      const bad = body.studies.find((s) => s.error);
      if (bad && body.studies.length === 1) showError('The study cannot be read: ' + bad.error);
      return selectStudy(names.includes(wanted) ? wanted : names[0]);
    }).then(() => {
      window.__rendered = performance.now();
    }).catch((e) => showError('The dashboard cannot read its studies: ' + e.message));
    setInterval(() => {
      poll().then(() => loadModel(false));
    }, 1000);
    setInterval(() => api('/api/studies').then(renderStudies).catch(() => {}), 5000);
  }
  window.addEventListener('error', (e) => { state.errors.push(String(e.message)); });
  start();
})();
