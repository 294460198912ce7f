// The HTML player's behaviour (src/export/html.rs writes it into each page).
// The page sets `agentLoopPlayer` just before it: `total` frames are in the
// page; `first` is the scenario step number of the first one (`--steps`),
// of `of` steps; `packed` pages keep their steps gzipped in blocks of `per`.
(function (setup) {
  'use strict';
  var total = setup.total, first = setup.first, of = setup.of, packed = setup.packed, per = setup.per;
  var player = document.getElementById('player');
  var frames = player.querySelectorAll('.frame');
  var texts = player.querySelectorAll('.step');
  var counter = document.getElementById('counter');
  var play = document.getElementById('play');
  var dwell = document.getElementById('dwell');
  var zoom = document.getElementById('zoom');
  var jump = document.getElementById('jump');
  var note = document.getElementById('note');
  var current = 0, timer = null;

  // `#step=N` (the scenario's step N); one this player lacks shows the
  // nearest it has, and the note says so.
  var missing = null;
  function fromHash() {
    var m = /^#step=(\d+)$/.exec(location.hash);
    if (!m) return null;
    var n = parseInt(m[1], 10), i = Math.max(0, Math.min(total - 1, n - first));
    missing = i + first === n ? null : n;
    return i;
  }
  function fill(template, n) {
    return template.replace('{n}', n).replace('{shown}', first + current);
  }
  // Packed: the shown step's block is unpacked (one kept) and its figure
  // and words put in the one frame and article of the page.
  var block = -1, blockSteps = null, wanted = -1;
  function unpack(el) {
    var bin = atob(el.textContent), bytes = new Uint8Array(bin.length);
    for (var j = 0; j < bin.length; j++) bytes[j] = bin.charCodeAt(j);
    var text = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(text).text();
  }
  function waiting(template, i) {
    frames[0].textContent = fill(template, first + i);
    texts[0].textContent = '';
  }
  function put(i) {
    var j = (i % per) * 2;
    frames[0].innerHTML = blockSteps[j];
    texts[0].innerHTML = blockSteps[j + 1];
    frames[0].dataset.step = texts[0].dataset.step = first + i;
  }
  function load(i) {
    wanted = i;
    var k = Math.floor(i / per);
    if (k === block) { put(i); return; }
    var el = document.getElementById('p' + k);
    // A block is whole once the next has begun, or the page has ended.
    var whole = el && (document.getElementById('p' + (k + 1)) || document.readyState !== 'loading');
    if (!whole) {
      waiting(note.dataset.loading, i);
      setTimeout(function () { if (wanted === i) load(i); }, 100);
      return;
    }
    unpack(el).then(function (text) {
      block = k;
      blockSteps = text.split('\u0000');
      if (wanted === i) put(i); else load(wanted);
    }, function () { waiting(note.dataset.broken, i); });
  }
  function show(i, follow) {
    current = Math.max(0, Math.min(total - 1, i));
    note.hidden = missing === null;
    note.textContent = missing === null ? '' : fill(note.dataset.nostep, missing);
    missing = null;
    if (packed) {
      load(current);
    } else {
      for (var j = 0; j < total; j++) {
        frames[j].hidden = j !== current;
        texts[j].hidden = j !== current;
      }
    }
    counter.textContent = (first + current) + '/' + of;
    jump.value = first + current;
    jump.setAttribute('aria-valuetext', (first + current) + '/' + of);
    if (follow !== false) {
      var hash = '#step=' + (first + current);
      if (location.hash !== hash) {
        try { history.replaceState(null, '', hash); } catch (e) { /* a sandboxed frame */ }
      }
    }
  }
  // A dwell outside 0.1 to 600 s (the range the label states) is brought
  // inside, and the field shows the time used.
  function dwellMs() {
    var s = parseFloat(dwell.value);
    if (isNaN(s)) s = parseFloat(dwell.defaultValue);
    var used = Math.min(Math.max(s, 0.1), 600);
    if (used !== s) dwell.value = used;
    return used * 1000;
  }
  dwell.addEventListener('change', function () { dwellMs(); });
  function setPlaying(on) {
    clearTimeout(timer);
    timer = on ? setTimeout(tick, dwellMs()) : null;
    play.textContent = on ? play.dataset.pause : play.dataset.play;
    play.setAttribute('aria-pressed', on ? 'true' : 'false');
  }
  function tick() {
    timer = null;
    show(current + 1);
    setPlaying(current < total - 1);
  }
  function togglePlay() {
    if (timer !== null) { setPlaying(false); return; }
    if (current === total - 1) show(0);
    setPlaying(current < total - 1);
  }
  function go(i) {
    show(i);
    if (timer !== null) setPlaying(current < total - 1);
  }
  function setZoom(on) {
    player.classList.toggle('zoomed', on);
    zoom.setAttribute('aria-pressed', on ? 'true' : 'false');
    zoom.textContent = on ? zoom.dataset.unzoom : zoom.dataset.zoom;
    try {
      if (on && document.fullscreenEnabled && !document.fullscreenElement) {
        player.requestFullscreen().catch(function () {});
      } else if (!on && document.fullscreenElement) {
        document.exitFullscreen().catch(function () {});
      }
    } catch (e) { /* the zoomed layout alone still fills the window */ }
  }
  document.addEventListener('fullscreenchange', function () {
    if (!document.fullscreenElement && player.classList.contains('zoomed')) setZoom(false);
  });
  document.getElementById('first').addEventListener('click', function () { go(0); });
  document.getElementById('prev').addEventListener('click', function () { go(current - 1); });
  document.getElementById('next').addEventListener('click', function () { go(current + 1); });
  document.getElementById('last').addEventListener('click', function () { go(total - 1); });
  play.addEventListener('click', togglePlay);
  zoom.addEventListener('click', function () { setZoom(!player.classList.contains('zoomed')); });
  jump.addEventListener('input', function () { go(parseInt(jump.value, 10) - first); });
  // Keys only while the player has focus: the page around it keeps its own.
  player.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = e.target.tagName;
    // The step slider takes arrows and Home / End itself.
    var typing = tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
    switch (e.key) {
      case 'ArrowRight': if (typing) return; go(current + 1); break;
      case 'ArrowLeft': if (typing) return; go(current - 1); break;
      case 'Home': if (typing) return; go(0); break;
      case 'End': if (typing) return; go(total - 1); break;
      // On a button, Space presses that button.
      case ' ': if (typing || tag === 'BUTTON') return; togglePlay(); break;
      case 'Escape': if (!player.classList.contains('zoomed')) return; setZoom(false); break;
      default: return;
    }
    e.preventDefault();
  });
  window.addEventListener('hashchange', function () {
    var i = fromHash();
    if (i !== null && i !== current) go(i);
  });
  var start = fromHash();
  show(start === null ? 0 : start, false);
  // A page of its own gives the player focus; inside an iframe the host
  // page keeps it.
  if (window.self === window.top) player.focus({ preventScroll: true });
})(agentLoopPlayer);
