// The slide deck's behaviour (src/export/slides.rs writes it into each
// deck). The deck sets `agentLoopSlides` just before it: `total` slides,
// the first being the scenario's step `first`, of `of` steps.
(function (setup) {
  'use strict';
  var total = setup.total, first = setup.first, of = setup.of;
  var slides = document.querySelectorAll('.slide');
  var number = document.getElementById('number');
  var inPage = document.getElementById('speaker');
  var current = 0, notes = null;
  function fromHash() {
    var m = /^#step=(\d+)$/.exec(location.hash);
    return m ? parseInt(m[1], 10) - first : 0;
  }
  // The notes view of `doc` (the notes window's, or this page's).
  function paint(doc) {
    var view = doc.getElementById('speaker-view');
    var slide = slides[current], next = slides[current + 1];
    view.querySelector('.count').textContent = number.textContent;
    view.querySelector('.shown').replaceChildren(doc.importNode(slide.querySelector('svg'), true));
    var upcoming = view.querySelector('.upcoming');
    if (next) upcoming.replaceChildren(doc.importNode(next.querySelector('svg'), true));
    else upcoming.textContent = view.dataset.last;
    view.querySelector('.said').replaceChildren(doc.importNode(slide.querySelector('.notes'), true));
  }
  // The address follows the slide once it is turned (not on opening).
  function show(i, follow) {
    current = Math.max(0, Math.min(total - 1, i));
    for (var j = 0; j < total; j++) slides[j].hidden = j !== current;
    number.textContent = (first + current) + '/' + of;
    var hash = '#step=' + (first + current);
    if (follow !== false && location.hash !== hash) {
      try { history.replaceState(null, '', hash); } catch (e) { /* a sandboxed frame */ }
    }
    if (notes && !notes.closed) paint(notes.document);
    if (!inPage.hidden) paint(document);
  }
  // As reveal.js: S opens the notes in a window of their own (or brings
  // it forward); a refused pop-up shows them over the slides instead.
  function openNotes() {
    if (notes && !notes.closed) { notes.focus(); return; }
    var w = window.open('', 'speaker-notes', 'popup,width=1100,height=700');
    if (!w) {
      inPage.hidden = !inPage.hidden;
      if (!inPage.hidden) paint(document);
      return;
    }
    w.document.open();
    w.document.write(document.getElementById('speaker-page').textContent);
    w.document.close();
    w.document.addEventListener('keydown', key);
    notes = w;
    paint(w.document);
  }
  function key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    switch (e.key) {
      case 'ArrowRight': case 'ArrowDown': case 'PageDown': case ' ': case 'n':
        show(current + 1); break;
      case 'ArrowLeft': case 'ArrowUp': case 'PageUp': case 'p':
        show(current - 1); break;
      case 'Home': show(0); break;
      case 'End': show(total - 1); break;
      case 's': case 'S': openNotes(); break;
      case 'Escape':
        if (inPage.hidden) return;
        inPage.hidden = true; break;
      default: return;
    }
    e.preventDefault();
  }
  document.addEventListener('keydown', key);
  window.addEventListener('hashchange', function () { show(fromHash(), false); });
  window.addEventListener('beforeunload', function () { if (notes) notes.close(); });
  show(fromHash(), false);
})(agentLoopSlides);
