// The review page: the queue on the left, one run on the right. Plain DOM, no libraries: it ships inside the jar.
'use strict';

const STAGES = ['rewrite', 'embed', 'retrieve', 'rerank', 'assemble', 'generate'];
const $ = (id) => document.getElementById(id);
let current = null; // the verdict on the right
let queueRequests = 0; // filters change faster than the queue answers: only the latest request's answer is shown

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') node.className = v; else if (k in node) node[k] = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(c == null ? '' : String(c)));
  return node;
}

async function getJson(url, options) {
  const reply = await fetch(url, options);
  const body = await reply.json();
  if (!reply.ok) throw new Error(body.error || reply.statusText);
  return body;
}

// datetime-local has no zone: read it as the browser's local time, send it as an instant
const instant = (value) => value ? new Date(value).toISOString() : '';
const shortTime = (iso) => iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : '';
const pct = (p) => p == null ? '–' : (100 * p).toFixed(0) + '%';

async function loadPipelines() {
  const select = $('filter-pipeline');
  for (const name of await getJson('api/pipelines')) select.append(el('option', {value: name}, name));
}

async function loadQueue() {
  const params = new URLSearchParams({
    pipeline: $('filter-pipeline').value, stage: $('filter-stage').value, kind: $('filter-kind').value,
    from: instant($('filter-from').value), to: instant($('filter-to').value)});
  const request = ++queueRequests;
  const page = await getJson('api/queue?' + params);
  if (request !== queueRequests) return;
  const body = $('queue').tBodies[0];
  body.replaceChildren(...page.runs.map((run) => {
    const why = el('td', {}, ...run.queue_reasons.map((r) => el('span', {class: 'pill flag'}, r)));
    if (run.reviewed) why.append(el('span', {class: 'pill reviewed'}, 'reviewed'));
    const row = el('tr', {class: 'queue-row'}, el('td', {class: 'when'}, shortTime(run.scored_at)),
        el('td', {}, run.pipeline), why, el('td', {}, run.question));
    row.dataset.runId = run.run_id;
    row.addEventListener('click', () => openRun(run.run_id));
    if (current && current.run_id === run.run_id) row.classList.add('selected');
    return row;
  }));
  const matching = page.total === 1 ? '1 run matches' : `${page.total} runs match`;
  $('queue-count').textContent = page.runs.length < page.total
      ? `${matching}; the newest ${page.runs.length} shown` : matching;
  $('queue-count').dataset.total = page.total;
  // the benchmark reads when the first list was drawn (./raglog bench: review_queue_drawn_ms)
  if (!performance.getEntriesByName('raglog-queue-drawn').length) performance.mark('raglog-queue-drawn');
}

function stageCard(stage, verdict, decided) {
  const card = el('div', {class: 'card stage'});
  card.dataset.stage = stage;
  if (!verdict.present) {
    card.classList.add('absent');
    card.append(el('h3', {}, stage, ' ', el('span', {class: 'muted'}, 'not in this run')));
    return card;
  }
  if (verdict.flagged) card.classList.add('flagged');
  card.append(el('h3', {}, stage, ' ',
      el('span', {class: verdict.flagged ? 'pill flag' : 'pill'}, verdict.flagged ? 'flagged' : 'not flagged'), ' ',
      el('span', {class: 'muted probability'}, `p = ${pct(verdict.probability)}, threshold ${pct(verdict.threshold)}`)));
  const bar = el('div', {class: 'bar'}, el('i'), el('b'));
  bar.firstChild.style.width = pct(verdict.probability || 0);
  bar.lastChild.style.left = pct(verdict.threshold || 0);
  card.append(bar);
  if (verdict.evidence.length) card.append(el('ul', {class: 'evidence'}, ...verdict.evidence.map((e) => el('li', {}, e))));
  card.append(el('p', {class: 'hint'}, verdict.repair_hint || ''));
  card.append(choices('decision-' + stage, verdict.flagged, decided,
      ['confirm: faulty', 'reject: sound', 'sound', 'missed: faulty']));
  return card;
}

// a flagged decision waits for the reviewer; an unflagged one starts as raglog left it
function choices(name, flagged, decided, [confirm, reject, sound, missed]) {
  const options = flagged ? [['confirmed', confirm], ['rejected', reject]] : [['sound', sound], ['added', missed]];
  const chosen = decided || (flagged ? null : 'sound');
  return el('div', {class: 'decisions'}, ...options.map(([value, text]) => el('label', {class: 'decision'},
      el('input', {type: 'radio', name, value, checked: value === chosen, onchange: updateSubmit}), text)));
}

function passages(run) {
  const table = $('passages');
  const note = $('passages-note');
  if (!run.passages) {
    table.hidden = true;
    note.textContent = run.passages_note;
    return;
  }
  const flow = run.passages;
  note.textContent = (flow.reconstructed ? 'No retrieval call was logged: the retrieved list is rebuilt from a later '
      + 'stage. ' : '') + (flow.reranked ? '' : 'No reranker in this run.');
  const rank = (r) => el('td', {class: 'rank'}, r == null ? '–' : '#' + r);
  table.tBodies[0].replaceChildren(...flow.passages.map((p) => el('tr', {class: 'passage'},
      rank(p.retrieved), rank(p.kept), rank(p.in_prompt),
      el('td', {class: 'text'}, el('code', {}, p.id), ' ', p.text))));
  table.hidden = false;
}

async function openRun(runId) {
  const run = await getJson('api/runs/' + encodeURIComponent(runId));
  const v = run.verdict;
  const review = run.review;
  current = v;
  for (const row of $('queue').tBodies[0].rows) row.classList.toggle('selected', row.dataset.runId === runId);
  $('run-empty').hidden = true;
  $('run').hidden = false;
  $('run-id').textContent = v.run_id;
  $('run-pipeline').textContent = v.pipeline;
  $('run-bundle').textContent = `${v.model_bundle || ''} · scored ${shortTime(v.scored_at)}`;
  $('run-reviewed').hidden = !review;
  $('run-reviewed').textContent = review ? `reviewed by ${review.reviewer} ${shortTime(review.reviewed_at)}` : '';
  $('run-question').textContent = v.question;
  $('run-answer').textContent = v.answer == null ? '(no answer)' : v.answer;
  $('stages').replaceChildren(...STAGES.map((s) => stageCard(s, v.stages[s], review && review.decisions[s])));
  const gap = v.knowledge_gap;
  $('gap-verdict').textContent = gap.flagged ? 'flagged' : `not flagged${gap.score == null ? '' : ', score ' + pct(gap.score)}`;
  $('gap-verdict').className = gap.flagged ? 'pill flag' : 'pill';
  $('gap-evidence').replaceChildren(...gap.evidence.map((e) => el('li', {}, e)));
  $('gap-hint').textContent = gap.repair_hint || '';
  $('gap-decisions').replaceWith(Object.assign(choices('decision-knowledge_gap', gap.flagged,
      review && review.decisions.knowledge_gap, ['confirm: the knowledge base lacks it', 'reject: it holds the answer',
        'no gap', 'missed: the knowledge base lacks it']), {id: 'gap-decisions'}));
  $('answer-correct').value = review && review.answer_correct != null ? String(review.answer_correct) : '';
  $('note').value = review && review.note ? review.note : '';
  $('reviewer').value = $('reviewer').value || localStorage.getItem('raglog.reviewer') || '';
  $('submit-status').textContent = '';
  $('submit-status').className = '';
  passages(run);
  updateSubmit();
}

function decisions() {
  const out = {};
  for (const stage of [...STAGES, 'knowledge_gap']) {
    const picked = document.querySelector(`input[name="decision-${stage}"]:checked`);
    out[stage] = picked ? picked.value : null;
  }
  return out;
}

function undecided() {
  const open = STAGES.filter((s) => current.stages[s].flagged && !decisions()[s]);
  if (current.knowledge_gap.flagged && !decisions().knowledge_gap) open.push('knowledge gap');
  return open;
}

function updateSubmit() {
  const open = current ? undecided() : [];
  $('submit').disabled = !current || open.length > 0;
  $('submit').title = open.length ? 'confirm or reject: ' + open.join(', ') : '';
}

async function submit(event) {
  event.preventDefault();
  const status = $('submit-status');
  const reviewer = $('reviewer').value.trim();
  localStorage.setItem('raglog.reviewer', reviewer);
  $('submit').disabled = true;
  try {
    const reply = await getJson('api/reviews', {method: 'POST', headers: {'Content-Type': 'application/json'},
      body: JSON.stringify({run_id: current.run_id, decisions: decisions(),
        answer_correct: $('answer-correct').value === '' ? null : $('answer-correct').value === 'true', reviewer,
        note: $('note').value})});
    const w = reply.written;
    status.textContent = 'Review saved' + (w.topic ? ` to ${w.topic} (partition ${w.partition}, offset ${w.offset})` : '')
        + ` and ${w.index}.`;
    status.className = 'ok';
    $('run-reviewed').hidden = false;
    $('run-reviewed').textContent = `reviewed by ${reply.review.reviewer} ${shortTime(reply.review.reviewed_at)}`;
    await loadQueue();
  } catch (e) {
    status.textContent = 'Not saved: ' + e.message;
    status.className = 'error';
  } finally {
    updateSubmit();
  }
}

$('filters').addEventListener('submit', (e) => { e.preventDefault(); loadQueue(); });
for (const id of ['filter-pipeline', 'filter-stage', 'filter-kind']) $(id).addEventListener('change', loadQueue);
$('review-form').addEventListener('submit', submit);
loadPipelines().then(loadQueue).catch((e) => { $('queue-count').textContent = 'Cannot read the queue: ' + e.message; });
