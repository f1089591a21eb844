// Progressive enhancement of the area assignment form: a Leaflet map with the open cases;
// "Desenhar área" then drag on the map draws the box and fills the four limits (the form
// works without it: the limits are typed).
(function () {
  var el = document.getElementById("area-map");
  var form = document.getElementById("area-form");
  if (!el || !form || typeof L === "undefined") return;
  el.hidden = false;
  var help = document.getElementById("area-help");
  if (help) help.textContent = "Clique em “Desenhar área” e arraste no mapa um retângulo " +
    "sobre os casos; os limites ao lado são preenchidos (e podem ser corrigidos à mão).";
  var map = L.map(el).setView([parseFloat(el.dataset.lat), parseFloat(el.dataset.lon)], 14);
  if (el.dataset.tiles) {
    L.tileLayer(el.dataset.tiles, {
      maxZoom: 19, attribution: "&copy; colaboradores do OpenStreetMap"
    }).addTo(map);
  }
  var points = JSON.parse(el.dataset.points || "[]");
  var marks = [];
  points.forEach(function (p) {
    marks.push(L.circleMarker([p[1], p[2]], {radius: 6, color: "#1f5fa8", fillOpacity: .8,
                                              className: "case case-" + p[0]})
      .addTo(map).bindTooltip(p[0] + " — " + p[3]));
  });
  if (marks.length) map.fitBounds(L.featureGroup(marks).getBounds().pad(0.2));
  var field = function (name) { return form.elements[name]; };
  var num = function (name) { return parseFloat((field(name).value || "").replace(",", ".")); };
  var box = null;
  function show(bounds) {
    if (box) box.setBounds(bounds); else box = L.rectangle(bounds, {color: "#c62828", weight: 2}).addTo(map);
  }
  function fromFields() {
    var s = num("south"), w = num("west"), n = num("north"), e = num("east");
    if ([s, w, n, e].every(function (v) { return !isNaN(v); }) && s < n && w < e) show([[s, w], [n, e]]);
  }
  ["south", "west", "north", "east"].forEach(function (n) { field(n).addEventListener("change", fromFields); });
  fromFields();
  var drawing = false, anchor = null;
  var toggle = document.createElement("button");
  toggle.type = "button"; toggle.id = "draw-box"; toggle.textContent = "Desenhar área";
  el.parentNode.insertBefore(toggle, el.nextSibling);
  toggle.addEventListener("click", function () {
    drawing = true; map.dragging.disable(); el.style.cursor = "crosshair";
    toggle.textContent = "Arraste no mapa…";
  });
  map.on("mousedown", function (ev) { if (drawing) { anchor = ev.latlng; show(L.latLngBounds(anchor, anchor)); } });
  map.on("mousemove", function (ev) { if (drawing && anchor) show(L.latLngBounds(anchor, ev.latlng)); });
  document.addEventListener("mouseup", function (ev) {  // also when released off the map
    if (!drawing || !anchor) return;
    var b = L.latLngBounds(anchor, map.mouseEventToLatLng(ev));
    field("south").value = b.getSouth().toFixed(6); field("north").value = b.getNorth().toFixed(6);
    field("west").value = b.getWest().toFixed(6); field("east").value = b.getEast().toFixed(6);
    drawing = false; anchor = null; map.dragging.enable(); el.style.cursor = "";
    toggle.textContent = "Desenhar área";
  });
})();
