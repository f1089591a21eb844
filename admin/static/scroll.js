// A wide table scrolls sideways inside its own box on a phone (panel.css): such a box takes the
// keyboard's focus, so it can be scrolled with the arrow keys, and only while it does scroll.
(function () {
  var boxes = 'table';
  function mark() {
    document.querySelectorAll(boxes).forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1 &&
        getComputedStyle(el).overflowX !== 'visible';
      if (scrolls && !el.hasAttribute('tabindex')) {
        el.setAttribute('tabindex', '0');
        el.dataset.scrollFocus = '1';
      } else if (!scrolls && el.dataset.scrollFocus) {
        el.removeAttribute('tabindex');
        delete el.dataset.scrollFocus;
      }
    });
  }
  mark();
  window.addEventListener('resize', mark);
  window.addEventListener('load', mark);
})();
