'use strict';
// The class page: shows what the teacher's screen asks, sends one choice.
// Every text from the server is set as text (textContent), never as HTML.
const T = {
  zh: {
    title: '一起预测下一步', other: 'English', wait: '等待老师提出下一个问题…',
    before: '第 {n} 步之前', round2: '第二轮：讨论之后再投一次',
    tap: '点一个选项作答（揭晓之前可以改）', received: '✓ 已收到你的回答（揭晓之前可以改）',
    closed: '这个问题已经关闭', fast: '点得太快了，请稍等再点', lost: '连接断开，正在重连…',
    failed: '没有发送成功，请再点一次', right: '✓ 正确答案', yours: '你的选择',
    first: '第一轮', after: '讨论之后', colon: '：', why: '为什么：', revealed: '已揭晓'
  },
  en: {
    title: 'Predict the next step', other: '中文', wait: 'Waiting for the teacher’s next question…',
    before: 'Before step {n}', round2: 'Round 2: vote again after discussing',
    tap: 'Tap a choice (you can change it until the reveal)', received: '✓ Answer received (you can change it until the reveal)',
    closed: 'This question is closed', fast: 'Too fast: wait a moment and tap again', lost: 'Connection lost, reconnecting…',
    failed: 'Not sent: tap again', right: '✓ right answer', yours: 'your choice',
    first: 'first vote', after: 'after discussion', colon: ': ', why: 'Why: ', revealed: 'Revealed'
  }
};
const base = location.pathname.replace(/\/?$/, '/');
let lang = localStorage.getItem('lang');
if (lang !== 'zh' && lang !== 'en') {
  lang = (navigator.language || '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
let state = { state: 'wait' };
let note = '';
let bad = false;
const $ = (id) => document.getElementById(id);
const el = (tag, text, cls) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
};

function render() {
  const t = T[lang];
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  $('title').textContent = t.title;
  $('lang').textContent = t.other;
  const list = $('choices');
  list.replaceChildren();
  $('why').textContent = '';
  $('note').textContent = note;
  $('note').className = bad ? 'bad' : '';
  if (state.state === 'wait') {
    $('status').textContent = t.wait;
    $('prompt').textContent = '';
    return;
  }
  const words = state[lang];
  const n = t.before.replace('{n}', state.step + 1);
  $('prompt').textContent = words.prompt;
  if (state.state === 'open') {
    $('status').textContent = state.round === 2 ? n + ' · ' + t.round2 : n;
    const mine = state.mine[0];
    words.choices.forEach((c, i) => {
      const b = el('button', (i + 1) + '. ' + c);
      b.type = 'button';
      b.setAttribute('aria-pressed', String(mine === i));
      b.addEventListener('click', () => vote(i));
      const li = el('li');
      li.append(b);
      list.append(li);
    });
    if (!note) $('note').textContent = mine === null || mine === undefined ? t.tap : t.received;
    return;
  }
  // Revealed: the right choice marked in words, the counts of each round.
  $('status').textContent = n + ' · ' + t.revealed;
  const rounds = state.counts;
  const most = Math.max(1, ...rounds.flat());
  words.choices.forEach((c, i) => {
    const li = el('li', undefined, 'shown' + (i === state.answer ? ' right' : ''));
    li.append(el('div', (i + 1) + '. ' + c));
    const marks = [];
    if (i === state.answer) marks.push(t.right);
    if (state.mine.includes(i)) marks.push(t.yours);
    if (marks.length) li.append(el('div', marks.join(' · '), 'mark'));
    rounds.forEach((counts, r) => {
      const k = counts[i] || 0;
      const label = rounds.length > 1 ? (r === 0 ? t.first : t.after) + t.colon : '';
      li.append(el('div', label + k, 'count'));
      const bar = el('div', undefined, 'bar');
      bar.style.width = Math.round((100 * k) / most) + '%';
      li.append(bar);
    });
    list.append(li);
  });
  if (words.why) $('why').textContent = t.why + words.why;
}

async function vote(choice) {
  const t = T[lang];
  const asked = { step: state.step, round: state.round, choice };
  try {
    const r = await fetch(base + 'vote', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(asked),
      credentials: 'same-origin'
    });
    bad = r.status !== 204;
    if (r.status === 204) {
      if (state.step === asked.step && state.round === asked.round) state.mine = [choice];
      note = t.received;
    } else if (r.status === 409) note = t.closed;
    else if (r.status === 429) note = t.fast;
    else if (r.status === 403) location.reload();
    else note = t.failed;
  } catch (e) {
    bad = true;
    note = t.failed;
  }
  render();
}

function connect() {
  const events = new EventSource(base + 'events');
  events.onmessage = (e) => {
    const next = JSON.parse(e.data);
    const same = next.state === state.state && next.step === state.step && next.round === state.round;
    if (!same) { note = ''; bad = false; }
    state = next;
    render();
  };
  events.onerror = () => {
    note = T[lang].lost;
    bad = true;
    render();
    // Closed for good (the page's device unknown, the server gone for a
    // while): start again; the browser retries an open one by itself.
    if (events.readyState === EventSource.CLOSED) setTimeout(() => location.reload(), 3000);
  };
  events.onopen = () => {
    if (note === T[lang].lost) { note = ''; bad = false; render(); }
  };
}

$('lang').addEventListener('click', () => {
  lang = lang === 'zh' ? 'en' : 'zh';
  localStorage.setItem('lang', lang);
  note = '';
  bad = false;
  render();
});
render();
connect();
