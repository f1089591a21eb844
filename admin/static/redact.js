// Photo review (/fotos): drag over a photo to mark an area to blur; each area is written to
// the form's textarea as "x,y,width,height" in percent of the image. Without JavaScript the
// areas are typed by hand in the same textarea.
(function () {
  "use strict";
  function pct(v) { return Math.round(Math.max(0, Math.min(100, v)) * 10) / 10; }
  document.querySelectorAll(".redact-area").forEach(function (area) {
    var img = area.querySelector("img");
    var field = document.getElementById(area.dataset.target);
    var start = null, box = null;
    function point(e) {
      var r = img.getBoundingClientRect();
      return {x: (e.clientX - r.left) / r.width * 100, y: (e.clientY - r.top) / r.height * 100};
    }
    area.addEventListener("pointerdown", function (e) {
      e.preventDefault();
      start = point(e);
      box = document.createElement("div");
      box.className = "redact-box";
      area.appendChild(box);
      area.setPointerCapture(e.pointerId);
    });
    area.addEventListener("pointermove", function (e) {
      if (!start) { return; }
      var p = point(e);
      box.style.left = pct(Math.min(start.x, p.x)) + "%";
      box.style.top = pct(Math.min(start.y, p.y)) + "%";
      box.style.width = pct(Math.abs(p.x - start.x)) + "%";
      box.style.height = pct(Math.abs(p.y - start.y)) + "%";
    });
    area.addEventListener("pointerup", function (e) {
      if (!start) { return; }
      var p = point(e);
      var x = pct(Math.min(start.x, p.x)), y = pct(Math.min(start.y, p.y));
      var w = pct(Math.min(Math.abs(p.x - start.x), 100 - x));
      var h = pct(Math.min(Math.abs(p.y - start.y), 100 - y));
      start = null;
      if (w < 1 || h < 1) { box.remove(); return; }
      field.value = (field.value.trim() ? field.value.trim() + "\n" : "") + [x, y, w, h].join(",");
    });
  });
})();
